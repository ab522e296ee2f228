"""A text → its lemma words: lemmas with their spans, their kinds and the breaks between them.

The lemma words are the words of the ``lemma`` profile with its stop lists switched off
(:func:`stats_profile`): hyphenated words stay whole, stress marks and invisible characters
inside words are removed, Latin look-alike letters are folded, and every word is replaced by
its pymorphy3 lemma (``ё`` written ``е``).  No word is dropped.

Each lemma word is of one kind:

- *water*: its lemma is an entry of the stop lists ``ru`` or ``en`` (function words) or of
  ``water-ru`` (filler adverbs and introductory words), and not of ``ru-negation``;
- a *number*: every hyphen-separated part of it is decimal digits (``2024``, ``3-5``);
- *negation*: an entry of ``ru-negation`` (``не``, ``нет``, ``без``): content, never water,
  but not a keyword either, since it does not say what a text is about;
- *topical*: every other word.  Keywords, nausea, phrases and the Zipf check are made of
  topical lemmas.

A *break* lies between two neighbouring words when the characters between them are anything
but spaces, quotation marks and invisible characters: a punctuation mark, a dash, a symbol,
a line break.  A phrase never runs over a break (``чай. Купить`` is no phrase), so phrases
stay inside one clause, one heading or one list item.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import pairwise

from ..canonical import canonicalize
from ..profile import Profile, get_profile
from ..text.normalize import IGNORABLE
from ..text.wordlists import NEGATION_LIST, list_words

__all__ = [
    "WATER_LISTS",
    "LemmaWords",
    "is_number",
    "lemma_words",
    "negation_lemmas",
    "stats_profile",
    "water_lemmas",
]

WATER_LISTS: tuple[str, ...] = ("ru", "en", "water-ru")
"""Lists whose entries (as lemmas) are water words; ``ru-negation`` entries never are."""

# What may stand between two words of one phrase: horizontal spaces and quotation marks.
_QUOTES = "«»\"'„“”‘’‹›"
_JOINING = re.compile(rf"[^\S\n\r\v\f\x1c-\x1e\x85\u2028\u2029]|[{_QUOTES}]")
_UNQUOTED = str.maketrans(dict.fromkeys('«»"„“”‹›', " "))  # apostrophes may be in words


@cache
def stats_profile() -> Profile:
    """The rules of the lemma words: the ``lemma`` profile with no word dropped."""
    return get_profile("lemma").replace(stopwords=())


def _lemmas_of(entries: Sequence[str]) -> frozenset[str]:
    """List entries put through the lemma-word rules, so they match what a text becomes."""
    return frozenset(canonicalize(" ".join(entries), stats_profile()).tokens)


@cache
def negation_lemmas() -> frozenset[str]:
    """Lemmas of the ``ru-negation`` entries."""
    return _lemmas_of(list_words(NEGATION_LIST))


@cache
def water_lemmas() -> frozenset[str]:
    """Lemmas that make a word water: entries of :data:`WATER_LISTS` minus negation words."""
    entries = [word for key in WATER_LISTS for word in list_words(key)]
    return _lemmas_of(entries) - negation_lemmas()


def is_number(lemma: str) -> bool:
    """Whether every hyphen-separated part of ``lemma`` is decimal digits."""
    return all(part.isdecimal() for part in lemma.split("-"))


def _joins(gap: str) -> bool:
    """Whether the characters between two words keep them in one phrase."""
    return not _JOINING.sub("", IGNORABLE.sub("", gap))


@dataclass(frozen=True)
class LemmaWords:
    """The lemma words of ``text``: ``lemmas[i]`` is written at ``text[spans[i][0]:spans[i][1]]``.

    ``breaks[i]`` tells whether a break lies between word ``i`` and word ``i + 1``.
    """

    text: str
    lemmas: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    breaks: tuple[bool, ...]

    def __len__(self) -> int:
        return len(self.lemmas)

    @cached_property
    def water(self) -> tuple[bool, ...]:
        water = water_lemmas()
        return tuple(lemma in water for lemma in self.lemmas)

    @cached_property
    def topical(self) -> tuple[bool, ...]:
        """Whether each word is topical: not water, not a number, not a negation."""
        negation = negation_lemmas()
        return tuple(
            not water and lemma not in negation and not is_number(lemma)
            for lemma, water in zip(self.lemmas, self.water)
        )

    def joined(self, start: int, size: int) -> bool:
        """Whether words ``start`` to ``start + size - 1`` have no break between them."""
        return not any(self.breaks[start : start + size - 1])

    def written(self, start: int, size: int) -> str:
        """Words ``start`` to ``start + size - 1`` as written: lowercased, without quotation
        marks or invisible characters, spaces collapsed."""
        begin, end = self.spans[start][0], self.spans[start + size - 1][1]
        written = IGNORABLE.sub("", self.text[begin:end]).lower().translate(_UNQUOTED)
        return " ".join(written.split())


def lemma_words(text: str) -> LemmaWords:
    """The lemma words of ``text`` with their spans and the breaks between them."""
    canonical = canonicalize(text, stats_profile())
    spans = canonical.spans
    breaks = tuple(not _joins(text[a[1] : b[0]]) for a, b in pairwise(spans))
    return LemmaWords(text, canonical.tokens, spans, breaks)
