"""Measures of a text and its length → verdicts against the usual ranges of real articles.

Water, classic nausea and academic nausea all depend on the length of a text: the most
frequent word of a long text occurs more often (classic nausea grows), its few most repeated
words take a smaller share (academic nausea falls), and water rises a little.  A single range
would call every long article nauseous or every short one clean, so each usual range is a
pair of curves ``coefficient × words ** exponent`` (:class:`PowerBound`), ``words`` being the
lemma words.

The curves were measured by ``python -m benchmarks.seo_ranges`` on 377 real Russian
articles of at least :data:`NORM_MIN_WORDS` lemma words: 372 distinct news texts of
``ru-news-same-story-pairs``, the 4 Russian ground-truth texts of
``scrapinghub-article-extraction-benchmark`` and the main text of the Russian page of
``trafilatura-eval-subset`` (50 to 7,896 lemma words, median 138; 18 of them over 400, 2
over 1,000).  For each measure, a least-squares line through (ln words, ln value) gives the
exponent, and the 5th and 95th percentiles of the residuals give the coefficients of the
low and high curves: 90% of those articles lie between them at their own length.  Past
1,000 words there were 2 articles, so the curves are not extrapolated there
(:data:`NORM_LONGEST`): the water and academic nausea ranges stay as they are at 1,000
words, and the classic nausea bound grows as if the most frequent word kept its share.

Measured percentiles 5 / 50 / 95 (the benchmark prints them by length band):

=============  ==================  =====================  ========================
lemma words    water %             classic nausea         academic nausea %
=============  ==================  =====================  ========================
50–99          14.9 / 24.8 / 31.2  1.41 / 1.73 / 2.24     10.8 / 13.8 / 23.2
100–199        19.5 / 26.5 / 35.3  1.73 / 2.00 / 2.83     7.9 / 11.4 / 16.8
200–399        20.4 / 28.0 / 37.3  2.24 / 2.45 / 4.10     6.9 / 9.5 / 13.5
400–999        24.7 / 30.5 / 37.5  2.68 / 3.73 / 5.52     5.0 / 7.9 / 15.6
=============  ==================  =====================  ========================

A verdict is ``high`` above the high curve, ``low`` below the low curve (water only: little
nausea is no fault), else ``norm``; a text under :data:`NORM_MIN_WORDS` lemma words gets
none (``None``), being too short to judge.  The scale is canon's own (its water lists, its
lemmas): the ranges of text.ru or Advego, which count water by other lists, do not apply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..records import record_dict

__all__ = [
    "ACADEMIC_NAUSEA_NORM",
    "CLASSIC_NAUSEA_NORM",
    "NORM_LONGEST",
    "NORM_MIN_WORDS",
    "WATER_NORM",
    "Norm",
    "PowerBound",
    "Verdict",
    "Verdicts",
    "judge",
    "verdicts",
]

NORM_MIN_WORDS = 50
"""The fewest lemma words a text is judged on; the curves were measured from this length."""


@dataclass(frozen=True)
class PowerBound:
    """A bound that follows the length of a text: ``coefficient × words ** exponent``.

    ``words`` is taken as at least :data:`NORM_MIN_WORDS`.  Past ``longest`` words (the
    longest length the articles measured cover well) the curve is not extrapolated: the
    bound grows from its value there as ``(words / longest) ** tail``, ``tail`` being 0 for
    a share (water, academic nausea: held flat), 1 for a count (held at the same density)
    and 0.5 for classic nausea, the square root of a count.
    """

    coefficient: float
    exponent: float
    longest: int | None = None
    tail: float = 0.0

    def at(self, words: int) -> float:
        words = max(words, NORM_MIN_WORDS)
        if self.longest is None or words <= self.longest:
            return self.coefficient * math.pow(words, self.exponent)
        longest = math.pow(self.longest, self.exponent)
        tail = math.pow(words / self.longest, self.tail)
        return self.coefficient * longest * tail


@dataclass(frozen=True)
class Norm:
    """The usual range of one measure: below ``high`` and, when there is one, above ``low``."""

    measure: str
    high: PowerBound
    low: PowerBound | None = None


NORM_LONGEST = 1_000
"""The longest length the curves follow (see :class:`PowerBound`): 18 of the articles measured
are over 400 lemma words, only 2 over 1,000."""

WATER_NORM = Norm(
    "water",
    high=PowerBound(coefficient=20.01, exponent=0.1121, longest=NORM_LONGEST),
    low=PowerBound(coefficient=10.17, exponent=0.1121, longest=NORM_LONGEST),
)
"""Water in %; measured by ``benchmarks.seo_ranges`` (see the module docstring)."""

CLASSIC_NAUSEA_NORM = Norm(
    "classic_nausea",
    high=PowerBound(coefficient=0.4334, exponent=0.3759, longest=NORM_LONGEST, tail=0.5),
)
"""Classic nausea; measured by ``benchmarks.seo_ranges`` (see the module docstring)."""

ACADEMIC_NAUSEA_NORM = Norm(
    "academic_nausea",
    high=PowerBound(coefficient=83.35, exponent=-0.3127, longest=NORM_LONGEST),
)
"""Academic nausea in %; measured by ``benchmarks.seo_ranges`` (see the module docstring)."""


@dataclass(frozen=True)
class Verdict:
    """A measure's ``value``, the usual range at the text's length (``low`` is ``None`` when
    only a high value is a fault; both are ``None`` for a text too short to judge), and the
    ``verdict``: ``low``, ``norm``, ``high`` or ``None``."""

    value: float
    low: float | None
    high: float | None
    verdict: str | None

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class Verdicts:
    """The verdicts on a text's water, classic nausea and academic nausea."""

    water: Verdict
    classic_nausea: Verdict
    academic_nausea: Verdict

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def judge(norm: Norm, value: float, words: int) -> Verdict:
    """``value`` of a text of ``words`` lemma words against ``norm``."""
    if words < NORM_MIN_WORDS:
        return Verdict(value, None, None, None)
    high = norm.high.at(words)
    low = None if norm.low is None else norm.low.at(words)
    if value > high:
        verdict = "high"
    elif low is not None and value < low:
        verdict = "low"
    else:
        verdict = "norm"
    return Verdict(value, low, high, verdict)


def verdicts(water: float, classic_nausea: float, academic_nausea: float, words: int) -> Verdicts:
    """The three verdicts of a text of ``words`` lemma words."""
    return Verdicts(
        judge(WATER_NORM, water, words),
        judge(CLASSIC_NAUSEA_NORM, classic_nausea, words),
        judge(ACADEMIC_NAUSEA_NORM, academic_nausea, words),
    )
