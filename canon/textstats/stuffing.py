"""Counts of lemmas and phrases → stuffing warnings: a word or phrase repeated far beyond usual.

A topical lemma is *stuffed* when it occurs more than :data:`LEMMA_STUFFING` allows at the
text's length, and a phrase (2 or 3 lemmas, see :mod:`canon.textstats.phrases`) when it
occurs more than :data:`PHRASE_STUFFING` allows; either way at least
:data:`STUFFING_MIN_COUNT` times, so that a phrase met 3 times in a short note is not called
stuffed.  An occurrence right after a number (``29 лет``, ``5 тысяч рублей``, ``10 метров в
секунду``) is not counted: a quantity and its unit are data, and texts full of figures (the
weather, pensions, budgets) repeat their units without stuffing anything.

Both bounds are the 99th-percentile curves (``coefficient × words ** exponent``, fitted as
in :mod:`canon.textstats.norms`) of the most frequent topical lemma and of the most frequent
phrase of the 377 real Russian articles there, counted by this rule, measured by ``python
-m benchmarks.seo_ranges``.  On those articles the warning fires on 5 (1.3%; fitted on half
of them and counted on the other half, 10 of 377, 2.7%): a catalogue repeating one band's
name 14 times, and four news texts that repeat one word or phrase throughout (``пенсия``
35 times in 685 words, ``улица`` 23 times in 375).  With ``купить`` put before every
occurrence of their top keyword (the ``чай`` → ``купить чай`` stuffing) it fires on 33% of
those whose keyword occurs 5-7 times, 56% at 8-11 and 79% at 12 or more; with the top
keyword put at the head of every sentence, on 88% at 5-7 and 95% at 12 or more.  The
classic nausea verdict (the 95th percentile of the top lemma) says ``high`` earlier.
Past :data:`~canon.textstats.norms.NORM_LONGEST` words the bounds keep the density they
have there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..records import record_dict
from .norms import NORM_LONGEST, PowerBound
from .words import LemmaWords, is_number

__all__ = [
    "LEMMA_STUFFING",
    "PHRASE_STUFFING",
    "STUFFING_MAX",
    "STUFFING_MIN_COUNT",
    "Stuffing",
    "counted",
    "stuffing",
]

LEMMA_STUFFING = PowerBound(coefficient=0.2527, exponent=0.745, longest=NORM_LONGEST, tail=1)
"""The most occurrences of one topical lemma usual at a length; ``benchmarks.seo_ranges``."""

PHRASE_STUFFING = PowerBound(coefficient=0.2581, exponent=0.5993, longest=NORM_LONGEST, tail=1)
"""The most occurrences of one phrase usual at a length; ``benchmarks.seo_ranges``."""

STUFFING_MIN_COUNT = 5
"""The fewest occurrences of a stuffed lemma or phrase."""

STUFFING_MAX = 10
"""The most warnings listed, the most repeated first."""


@dataclass(frozen=True)
class Stuffing:
    """A stuffed lemma or phrase (``kind``: ``lemma`` or ``phrase``; ``text``: its lemmas),
    the way it is most often written, its count and density (% of the lemma words), and
    ``limit``: the most occurrences usual at the text's length."""

    kind: str
    text: str
    form: str
    count: int
    density: float
    limit: float

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def _form(words: LemmaWords, starts: Sequence[int], size: int) -> str:
    return Counter(words.written(start, size) for start in starts).most_common(1)[0][0]


def _over(count: int, limit: float) -> bool:
    return count >= STUFFING_MIN_COUNT and count > limit


def counted(
    words: LemmaWords, phrase_starts: Mapping[tuple[str, ...], Sequence[int]]
) -> tuple[Counter[str], dict[tuple[str, ...], list[int]]]:
    """The occurrences the rule counts: of each topical lemma (a count) and of each phrase of
    ``phrase_starts`` (its starts), none right after a number."""
    lemmas, topical = words.lemmas, words.topical
    after = [False] + [is_number(lemmas[i]) and not words.breaks[i] for i in range(len(lemmas) - 1)]
    lemma_counts = Counter(
        lemma for lemma, keep, late in zip(lemmas, topical, after) if keep and not late
    )
    phrases = {
        phrase: kept
        for phrase, starts in phrase_starts.items()
        if (kept := [start for start in starts if not after[start]])
    }
    return lemma_counts, phrases


def stuffing(
    words: LemmaWords, phrase_starts: Mapping[tuple[str, ...], Sequence[int]]
) -> tuple[Stuffing, ...]:
    """The stuffed topical lemmas and phrases (of ``phrase_starts``: each phrase's start
    positions) of ``words``, the most repeated first, ties alphabetical."""
    total = len(words)
    lemma_counts, phrases = counted(words, phrase_starts)
    found: list[Stuffing] = []
    lemma_limit, phrase_limit = LEMMA_STUFFING.at(total), PHRASE_STUFFING.at(total)
    for lemma, count in lemma_counts.items():
        if _over(count, lemma_limit):
            starts = [i for i, word in enumerate(words.lemmas) if word == lemma]
            form = _form(words, starts, 1)
            found.append(Stuffing("lemma", lemma, form, count, 100 * count / total, lemma_limit))
    for lemmas, starts in phrases.items():
        if _over(len(starts), phrase_limit):
            form = _form(words, starts, len(lemmas))
            density = 100 * len(starts) / total
            found.append(
                Stuffing("phrase", " ".join(lemmas), form, len(starts), density, phrase_limit)
            )
    found.sort(key=lambda s: (-s.count, s.kind, s.text))
    return tuple(found[:STUFFING_MAX])
