"""A text → its statistics: size, water, nausea, keywords and phrases, verdicts, a Zipf check.

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

- *water*: its lemma is an entry of the stop lists ``ru`` or ``en`` (function words: the words
  the ``lemma`` profile drops) or of ``water-ru`` (filler adverbs and introductory words such
  as ``конечно``, ``буквально``, ``например``), and is not an entry of ``ru-negation``
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
- ``zipf``: see :func:`~canon.textstats.zipf.zipf_fit`.
- ``phrases``: the ``top`` most frequent phrases of 2 lemmas, then of 3 (each met at least
  twice), with count, density and written form: see :mod:`canon.textstats.phrases`.
- ``targets``: the target keywords asked for, counted in every form: see
  :mod:`canon.textstats.targets`.
- ``verdicts``: water, classic and academic nausea against the usual ranges of real
  articles of the same length: see :mod:`canon.textstats.norms`.
- ``stuffing``: the lemmas and phrases repeated far beyond usual: see
  :mod:`canon.textstats.stuffing`.

Ties in frequency are always broken alphabetically by lemma (code-point order: Latin before
Cyrillic), so the output is deterministic.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..canonical import canonicalize
from ..errors import EmptyText, OptionError
from ..records import record_dict
from .norms import Verdicts, verdicts
from .phrases import PHRASE_SIZES, Phrase, phrase_starts, top_phrases
from .stuffing import Stuffing, stuffing
from .targets import Target, targets
from .words import LemmaWords, is_number, lemma_words, negation_lemmas, water_lemmas
from .zipf import ZipfFit, zipf_fit

__all__ = ["ACADEMIC_TOP", "Keyword", "TextStats", "text_stats"]

ACADEMIC_TOP = 5
"""How many of the most frequent content lemmas make up the academic nausea."""


@dataclass(frozen=True)
class Keyword:
    """A content lemma, how many words have it, and their share of the lemma words in %."""

    lemma: str
    count: int
    density: float

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
    phrases: tuple[Phrase, ...] = ()
    targets: tuple[Target, ...] = ()
    verdicts: Verdicts | None = None
    stuffing: tuple[Stuffing, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def _percent(part: float, whole: int) -> float:
    return 100.0 * part / whole


def _ranked(counts: Counter[str]) -> list[tuple[str, int]]:
    """Lemmas by falling count, ties alphabetical."""
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def _phrases(words: LemmaWords, top: int) -> tuple[tuple[Phrase, ...], tuple[Stuffing, ...]]:
    """The top phrases of each size, and the stuffed lemmas and phrases."""
    listed: list[Phrase] = []
    every: dict[tuple[str, ...], list[int]] = {}
    for size in PHRASE_SIZES:
        starts = phrase_starts(words, size)
        listed += top_phrases(words, starts, size, top)
        every.update(starts)
    return tuple(listed), stuffing(words, every)


def text_stats(text: str, *, top: int = 10, keywords: Sequence[str] = ()) -> TextStats:
    """Size, water, nausea, the ``top`` keywords and phrases, verdicts, stuffing warnings,
    a Zipf check of ``text``, and how it uses the target ``keywords``.

    The module docstring defines each measure and the word sequence it is counted on.
    Raises :class:`EmptyText` (a :class:`~canon.errors.TextTooShort`) when the text has no
    word, and :class:`~canon.errors.OptionError` when ``top`` is negative or a keyword is
    refused (see :func:`~canon.textstats.targets.targets`).
    """
    if top < 0:
        raise OptionError("top", f"must be 0 or more, got {top}", value=top)
    words = len(canonicalize(text, "raw").tokens)
    sequence = lemma_words(text)
    lemmas = sequence.lemmas
    if not words or not lemmas:
        raise EmptyText()
    asked = targets(sequence, keywords)
    total = len(lemmas)
    water = water_lemmas()
    water_words = sum(1 for lemma in lemmas if lemma in water)
    content = Counter(lemma for lemma in lemmas if lemma not in water and not is_number(lemma))
    numbers = total - water_words - sum(content.values())
    ranked = _ranked(content)
    # Negation is content (never water) but no keyword: it does not say what a text is about.
    negation = negation_lemmas()
    topical = [(lemma, count) for lemma, count in ranked if lemma not in negation]
    leaders = topical[:ACADEMIC_TOP]
    water_percent = _percent(water_words, total)
    classic = math.sqrt(topical[0][1]) if topical else 0.0
    academic = _percent(sum(count for _, count in leaders), total)
    phrases, stuffed = _phrases(sequence, top)
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
        classic_nausea=classic,
        classic_nausea_lemma=topical[0][0] if topical else None,
        academic_nausea=academic,
        academic_nausea_lemmas=tuple(lemma for lemma, _ in leaders),
        keywords=tuple(Keyword(lemma, n, _percent(n, total)) for lemma, n in topical[:top]),
        zipf=zipf_fit([count for _, count in ranked]),
        phrases=phrases,
        targets=asked,
        verdicts=verdicts(water_percent, classic, academic, total),
        stuffing=stuffed,
    )
