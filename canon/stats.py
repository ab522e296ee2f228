"""Text statistics: size, water, nausea, keywords by lemma and a Zipf check.

Two word sequences are used, and every measure says which:

- ``words``: the words of the reference rule, exactly as the ``raw`` profile cuts them (runs
  of letters and digits; a hyphen splits ``по-настоящему`` into two).  It is reported as the
  size of the text and used by nothing else.
- ``lemma_words``: the words of the ``lemma`` profile with its stop lists switched off
  (``get_profile("lemma").replace(stopwords=())``): hyphenated words stay whole, stress marks
  and invisible characters inside words are removed, Latin look-alike letters are folded, and
  every word is replaced by its pymorphy3 lemma (``ё`` written ``е``).  No word is dropped.
  Every other count and every percentage is taken over this sequence, so its parts always
  add up: ``water_words + content_words == lemma_words``.

Each lemma word is exactly one of:

- *water*: its lemma is an entry of the stop lists ``ru`` or ``en`` (function words: the words
  the ``lemma`` profile drops) or of ``water-ru`` (filler adverbs and introductory words such
  as ``конечно``, ``буквально``, ``например``), and is not an entry of ``ru-negation``
  (negation changes what a sentence says, so ``не``, ``нет``, ``без`` are never water).  List
  entries are lemmatized by the same rules as the text.
- *a number*: every hyphen-separated part of it is decimal digits (``2024``, ``3-5``).  A
  number is content (it is not water) but it is not a keyword.
- *a content word*, whose lemma is a *content lemma*: every other word.

The measures:

- ``water_percent`` = 100 × water words / lemma words; ``content_percent`` = 100 −
  ``water_percent`` (numbers included), so the two always add up to 100.
- ``classic_nausea`` ("классическая тошнота") = √(count of the most frequent content lemma),
  that lemma being ``classic_nausea_lemma``; 0.0 and ``None`` when there is no content lemma.
- ``academic_nausea`` ("академическая тошнота") = 100 × (sum of the counts of the
  :data:`ACADEMIC_TOP` most frequent content lemmas) / lemma words: the share of the text
  taken by its few most repeated content words, which are named in
  ``academic_nausea_lemmas``.  (The density of the single most frequent lemma, the other
  common definition, is ``keywords[0].density``.)
- ``keywords``: the ``top`` most frequent content lemmas, each with its count and its
  ``density`` = 100 × count / lemma words.

Ties in frequency are always broken alphabetically by lemma, so the output is deterministic.
See :func:`zipf_fit` for the Zipf check.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from .canonical import canonicalize
from .errors import ProfileError, TextTooShort
from .profile import Profile, get_profile
from .stopwords import NEGATION_LIST, list_words

__all__ = [
    "ACADEMIC_TOP",
    "WATER_LISTS",
    "ZIPF_MIN_LEMMAS",
    "ZIPF_MIN_REPEATED",
    "ZIPF_SLOPE_RANGE",
    "EmptyText",
    "Keyword",
    "TextStats",
    "ZipfFit",
    "stats_profile",
    "text_stats",
    "zipf_fit",
]

WATER_LISTS: tuple[str, ...] = ("ru", "en", "water-ru")
"""Lists whose entries (as lemmas) are water words; ``ru-negation`` entries never are."""

ACADEMIC_TOP = 5
"""How many of the most frequent content lemmas make up the academic nausea."""

ZIPF_MIN_LEMMAS = 30
"""The fewest distinct content lemmas a Zipf fit is made on."""

ZIPF_MIN_REPEATED = 5
"""The fewest content lemmas occurring at least twice a Zipf fit is made on."""

ZIPF_SLOPE_RANGE: tuple[float, float] = (-1.5, -0.15)
"""Slopes of log(frequency) against log(rank) taken as natural; see :func:`zipf_fit`."""


class EmptyText(TextTooShort):
    """A text without a single word: there is nothing to count."""

    def __init__(self, label: str = "text") -> None:
        super().__init__(0, 1, label)
        self.args = (
            f"{label} has no words (runs of letters or digits): give a text with at least one word",
        )


@dataclass(frozen=True)
class Keyword:
    """A content lemma, how many words have it, and their share of the lemma words in %."""

    lemma: str
    count: int
    density: float

    def to_dict(self) -> dict[str, Any]:
        return {"lemma": self.lemma, "count": self.count, "density": self.density}


@dataclass(frozen=True)
class ZipfFit:
    """A least-squares line through log(frequency) against log(rank) of the content lemmas.

    ``slope`` and ``r_squared`` are ``None`` when no line was fitted, and then ``natural`` is
    ``None`` too; ``note`` always says why, or how the slope compares with the natural range.
    """

    slope: float | None
    r_squared: float | None
    natural: bool | None
    lemmas: int
    repeated: int
    note: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "slope": self.slope,
            "r_squared": self.r_squared,
            "natural": self.natural,
            "lemmas": self.lemmas,
            "repeated": self.repeated,
            "note": self.note,
        }


@dataclass(frozen=True)
class TextStats:
    """The statistics of one text; the module docstring defines every field."""

    characters: int
    characters_no_spaces: int
    words: int
    lemma_words: int
    unique_lemmas: int
    water_words: int
    water_percent: float
    content_words: int
    content_percent: float
    numbers: int
    content_lemmas: int
    classic_nausea: float
    classic_nausea_lemma: str | None
    academic_nausea: float
    academic_nausea_lemmas: tuple[str, ...]
    keywords: tuple[Keyword, ...]
    zipf: ZipfFit

    def to_dict(self) -> dict[str, Any]:
        return {
            "characters": self.characters,
            "characters_no_spaces": self.characters_no_spaces,
            "words": self.words,
            "lemma_words": self.lemma_words,
            "unique_lemmas": self.unique_lemmas,
            "water_words": self.water_words,
            "water_percent": self.water_percent,
            "content_words": self.content_words,
            "content_percent": self.content_percent,
            "numbers": self.numbers,
            "content_lemmas": self.content_lemmas,
            "classic_nausea": self.classic_nausea,
            "classic_nausea_lemma": self.classic_nausea_lemma,
            "academic_nausea": self.academic_nausea,
            "academic_nausea_lemmas": list(self.academic_nausea_lemmas),
            "keywords": [k.to_dict() for k in self.keywords],
            "zipf": self.zipf.to_dict(),
        }


@cache
def stats_profile() -> Profile:
    """The rules of the lemma words: the ``lemma`` profile with no word dropped."""
    return get_profile("lemma").replace(stopwords=())


def _lemmas_of(entries: Sequence[str]) -> frozenset[str]:
    """List entries put through the lemma-word rules, so they match what a text becomes."""
    return frozenset(canonicalize(" ".join(entries), stats_profile()).tokens)


@cache
def water_lemmas() -> frozenset[str]:
    """Lemmas that make a word water: entries of :data:`WATER_LISTS` minus negation words."""
    entries = [word for key in WATER_LISTS for word in list_words(key)]
    return _lemmas_of(entries) - _lemmas_of(list_words(NEGATION_LIST))


def _is_number(lemma: str) -> bool:
    return all(part.isdecimal() for part in lemma.split("-"))


def _percent(part: float, whole: int) -> float:
    return 100.0 * part / whole


def _ranked(counts: Counter[str]) -> list[tuple[str, int]]:
    """Lemmas by falling count, ties alphabetical."""
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def _r_squared(x: np.ndarray, y: np.ndarray, coefficients: np.ndarray) -> float:
    residual = float(np.sum((y - np.polyval(coefficients, x)) ** 2))
    total = float(np.sum((y - y.mean()) ** 2))
    return 1.0 - residual / total


def _slope_note(slope: float) -> tuple[bool, str]:
    low, high = ZIPF_SLOPE_RANGE
    if slope < low:
        return False, (
            f"slope {slope:.2f} is steeper than {low}: a few words repeat far more than in "
            "natural text (keyword stuffing?)"
        )
    if slope > high:
        return False, (
            f"slope {slope:.2f} is flatter than {high}: words hardly repeat, unlike natural "
            "text (a word list or generated text?)"
        )
    return True, f"slope {slope:.2f} is within [{low}, {high}], as in natural text"


def zipf_fit(counts: Sequence[int]) -> ZipfFit:
    """Fit Zipf's law to the frequencies of the content lemmas of one text.

    The counts are sorted in falling order and given ranks 1, 2, ... (equal counts get
    consecutive ranks); ``numpy.polyfit`` fits a line to (log rank, log count), and
    ``r_squared`` is 1 − residual / total sum of squares of log count.

    A line is fitted only with at least :data:`ZIPF_MIN_LEMMAS` lemmas of which at least
    :data:`ZIPF_MIN_REPEATED` occur twice or more: with fewer, nearly every lemma occurs once,
    the points lie on a flat line and the slope says nothing.  It is also not fitted when all
    counts are equal (no variance to explain).

    Zipf's law predicts a slope near −1 in large corpora.  A single short text has a long
    tail of lemmas seen once, which flattens the least-squares slope: the reference texts of
    this project and a sample of Russian news articles of 150-1,000 words fall between about
    −0.5 and −0.9.  The range taken as natural, :data:`ZIPF_SLOPE_RANGE` = [−1.3, −0.4],
    therefore leaves room on the flat side for short texts, and on the steep side for
    ordinary emphasis: a slope below −1.3 means the top lemmas are repeated far more than a
    natural text repeats anything (keyword stuffing); a slope above −0.4 means almost nothing
    repeats (a word list, or text generated or spun word by word).
    """
    lemmas = len(counts)
    repeated = sum(1 for count in counts if count >= 2)
    if lemmas < ZIPF_MIN_LEMMAS or repeated < ZIPF_MIN_REPEATED:
        note = (
            f"too few content lemmas to fit: {lemmas} distinct, {repeated} occurring twice or "
            f"more; need at least {ZIPF_MIN_LEMMAS} and {ZIPF_MIN_REPEATED}"
        )
        return ZipfFit(None, None, None, lemmas, repeated, note)
    frequencies = np.array(sorted(counts, reverse=True), dtype=float)
    if frequencies[0] == frequencies[-1]:
        note = "every content lemma occurs equally often: there is no rank-frequency curve"
        return ZipfFit(None, None, None, lemmas, repeated, note)
    x = np.log(np.arange(1, lemmas + 1, dtype=float))
    y = np.log(frequencies)
    coefficients = np.polyfit(x, y, 1)
    slope = float(coefficients[0])
    natural, note = _slope_note(slope)
    return ZipfFit(slope, _r_squared(x, y, coefficients), natural, lemmas, repeated, note)


def text_stats(text: str, *, top: int = 10) -> TextStats:
    """Size, water, nausea, the ``top`` keywords and a Zipf check of ``text``.

    The module docstring defines each measure and the word sequence it is counted on.
    Raises :class:`EmptyText` (a :class:`~canon.errors.TextTooShort`) when the text has no
    word, and :class:`~canon.errors.ProfileError` when ``top`` is negative.
    """
    if top < 0:
        raise ProfileError(f"top must be 0 or more, got {top}")
    words = len(canonicalize(text, "raw").tokens)
    lemmas = canonicalize(text, stats_profile()).tokens
    if not words or not lemmas:
        raise EmptyText()
    total = len(lemmas)
    water = water_lemmas()
    water_words = sum(1 for lemma in lemmas if lemma in water)
    content = Counter(lemma for lemma in lemmas if lemma not in water and not _is_number(lemma))
    numbers = total - water_words - sum(content.values())
    ranked = _ranked(content)
    leaders = ranked[:ACADEMIC_TOP]
    water_percent = _percent(water_words, total)
    return TextStats(
        characters=len(text),
        characters_no_spaces=sum(1 for char in text if not char.isspace()),
        words=words,
        lemma_words=total,
        unique_lemmas=len(set(lemmas)),
        water_words=water_words,
        water_percent=water_percent,
        content_words=total - water_words,
        content_percent=100.0 - water_percent,
        numbers=numbers,
        content_lemmas=len(content),
        classic_nausea=math.sqrt(ranked[0][1]) if ranked else 0.0,
        classic_nausea_lemma=ranked[0][0] if ranked else None,
        academic_nausea=_percent(sum(count for _, count in leaders), total),
        academic_nausea_lemmas=tuple(lemma for lemma, _ in leaders),
        keywords=tuple(Keyword(lemma, n, _percent(n, total)) for lemma, n in ranked[:top]),
        zipf=zipf_fit([count for _, count in ranked]),
    )
