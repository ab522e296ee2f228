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

Each lemma word is either water or content:

- *water*: its lemma is an entry of the stop lists ``ru`` or ``en`` (function words) or of
  ``water-ru`` (filler adverbs and introductory words such as ``конечно``, ``буквально``,
  ``например``): the words the ``lemma`` profile drops; and is not an entry of ``ru-negation``
  (negation changes what a sentence says, so ``не``, ``нет``, ``без`` are never water).  List
  entries are lemmatized by the same rules as the text.
- *content*: every other word.  A content word that is a number (every hyphen-separated part
  of it decimal digits: ``2024``, ``3-5``) says something, but is not a keyword; the lemmas
  of the other content words are the *content lemmas*, on which nausea, keywords and the
  Zipf check are computed.

The fields of :class:`TextStats`:

- ``characters`` = ``len(text)`` and ``characters_no_spaces`` = the characters that are not
  ``str.isspace``, both counted in the text as given (code points, before normalization).
- ``words``: see above; ``lemma_words``: the length of the lemma sequence.
- ``unique_lemmas``: distinct lemmas of all lemma words (water and numbers included).
- ``water_words`` and ``content_words`` = ``lemma_words`` − ``water_words``; ``numbers``: the
  content words that are numbers; ``content_lemmas``: distinct content lemmas.
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

Ties in frequency are always broken alphabetically by lemma (code-point order: Latin before
Cyrillic), so the output is deterministic.
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
from .errors import EmptyText, OptionError
from .profile import Profile, get_profile
from .records import record_dict
from .text.wordlists import NEGATION_LIST, list_words

__all__ = [
    "ACADEMIC_TOP",
    "WATER_LISTS",
    "ZIPF_MIN_LEMMAS",
    "ZIPF_MIN_REPEATED",
    "ZIPF_SLOPE_RANGE",
    "Keyword",
    "TextStats",
    "ZipfFit",
    "stats_profile",
    "text_stats",
    "water_lemmas",
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

ZIPF_SLOPE_RANGE: tuple[float, float] = (-1.5, -0.12)
"""Slopes of log(frequency) against log(rank) taken as natural; see :func:`zipf_fit`."""


@dataclass(frozen=True)
class Keyword:
    """A content lemma, how many words have it, and their share of the lemma words in %."""

    lemma: str
    count: int
    density: float

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


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
        return record_dict(self)


@dataclass(frozen=True)
class TextStats:
    """The statistics of one text; the module docstring defines every field.

    ``to_dict`` gives the same names, in this order, as plain JSON-ready data.
    """

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
        return record_dict(self)


@cache
def stats_profile() -> Profile:
    """The rules of the lemma words: the ``lemma`` profile with no word dropped."""
    return get_profile("lemma").replace(stopwords=())


def _lemmas_of(entries: Sequence[str]) -> frozenset[str]:
    """List entries put through the lemma-word rules, so they match what a text becomes."""
    return frozenset(canonicalize(" ".join(entries), stats_profile()).tokens)


@cache
def _negation_lemmas() -> frozenset[str]:
    return _lemmas_of(list_words(NEGATION_LIST))


@cache
def water_lemmas() -> frozenset[str]:
    """Lemmas that make a word water: entries of :data:`WATER_LISTS` minus negation words."""
    entries = [word for key in WATER_LISTS for word in list_words(key)]
    return _lemmas_of(entries) - _negation_lemmas()


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
            f"slope {slope:.2f} is steeper than {low}: a handful of words make up most of the "
            "text, unlike natural text (repeated keywords?)"
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
    tail of lemmas seen once, all on the same level, which flattens the least-squares slope
    well above −1, the more so the shorter the text.  Measured with these rules: of the 392
    distinct Russian news texts in ``ru-news-same-story-pairs`` (6 to 2,004 lemma words,
    median 136), 350 get a fit, with slopes from −0.66 to −0.15 (median −0.35);
    ``examples/original.txt`` gives −0.41.  Word salad (words drawn at random from the same
    news) gives −0.06 to −0.11 at 300 words, −0.11 to −0.18 at 500 and −0.17 to −0.23 at
    1,000.  The range taken as natural, :data:`ZIPF_SLOPE_RANGE` = [−1.5, −0.12], therefore:

    - on the flat side, flags a text in which almost nothing repeats (a word list, or text
      generated or spun word by word), leaving a margin above the flattest natural text
      seen (−0.15); it catches word salad of a few hundred words, not of a thousand;
    - on the steep side, leaves ample room around the −1 of Zipf's law, which long texts
      approach, and flags a text made of a handful of lemmas repeated over and over.

    Stuffing one keyword into an otherwise natural text moves the slope little (it is one
    point among many): the nausea measures are the check for that.
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
    word, and :class:`~canon.errors.OptionError` when ``top`` is negative.
    """
    if top < 0:
        raise OptionError("top", f"must be 0 or more, got {top}", value=top)
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
    # Negation is content (never water) but no keyword: it does not say what a text is about.
    negation = _negation_lemmas()
    topical = [(lemma, count) for lemma, count in ranked if lemma not in negation]
    leaders = topical[:ACADEMIC_TOP]
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
        classic_nausea=math.sqrt(topical[0][1]) if topical else 0.0,
        classic_nausea_lemma=topical[0][0] if topical else None,
        academic_nausea=_percent(sum(count for _, count in leaders), total),
        academic_nausea_lemmas=tuple(lemma for lemma, _ in leaders),
        keywords=tuple(Keyword(lemma, n, _percent(n, total)) for lemma, n in topical[:top]),
        zipf=zipf_fit([count for _, count in ranked]),
    )
