"""Lemma words → keyword phrases: runs of 2 or 3 lemmas, how often they occur and how written.

A *phrase* of ``n`` lemmas is ``n`` neighbouring lemma words with no break between them
(see :mod:`canon.textstats.words`) whose first and last words are topical (not water, a
number or a negation).  Inside a phrase of three any word may stand, so ``чай без сахара``
(``чай без сахар``), ``доставка по Москве`` and ``купить 2 чайника`` are phrases, while
``и в``, ``в чай`` and ``чай и`` are not: a phrase that starts or ends with a function word
is a piece of a sentence, not something anyone searches for.

Every start counts, so overlapping runs count apart (``чай чай чай`` holds ``чай чай``
twice).  A phrase's ``density`` is ``100 × count / lemma words``: occurrences per hundred
words, the keyword density the Russian SEO guides give for a keyword of any length (a
two-word phrase met 8 times in 200 words has density 4%), so a phrase and a single keyword
are on one scale and a target keyword reads as the services show it.  The other possible
reading, the share of the words a phrase covers (``count × size / lemma words``), is twice
or three times that and is not used.  Its ``form`` is the way it is most often written
(lowercased; on a tie, the first seen).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..records import record_dict
from .words import LemmaWords

__all__ = [
    "PHRASE_MIN_COUNT",
    "PHRASE_SIZES",
    "Phrase",
    "phrase_starts",
    "phrases",
    "top_phrases",
]

PHRASE_SIZES: tuple[int, ...] = (2, 3)
"""The lengths, in lemmas, of the phrases counted."""

PHRASE_MIN_COUNT = 2
"""The fewest occurrences of a phrase that is listed: a phrase met once is not repeated."""


@dataclass(frozen=True)
class Phrase:
    """A phrase of ``size`` lemmas (``phrase``: the lemmas joined by spaces), its count, its
    density in % of the lemma words, and the way it is most often written."""

    phrase: str
    size: int
    count: int
    density: float
    form: str

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def phrase_starts(words: LemmaWords, size: int) -> dict[tuple[str, ...], list[int]]:
    """Every phrase of ``size`` lemmas, with the word positions where it starts."""
    lemmas, topical = words.lemmas, words.topical
    starts: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
    for start in range(len(lemmas) - size + 1):
        end = start + size - 1
        if topical[start] and topical[end] and words.joined(start, size):
            starts[lemmas[start : end + 1]].append(start)
    return starts


def _form(words: LemmaWords, starts: Iterable[int], size: int) -> str:
    return Counter(words.written(start, size) for start in starts).most_common(1)[0][0]


def top_phrases(
    words: LemmaWords, starts: dict[tuple[str, ...], list[int]], size: int, top: int
) -> tuple[Phrase, ...]:
    """The ``top`` phrases of ``starts`` met at least :data:`PHRASE_MIN_COUNT` times, by
    falling count, ties alphabetical."""
    ranked = sorted(
        (item for item in starts.items() if len(item[1]) >= PHRASE_MIN_COUNT),
        key=lambda item: (-len(item[1]), item[0]),
    )
    total = len(words)
    return tuple(
        Phrase(" ".join(lemmas), size, len(at), 100.0 * len(at) / total, _form(words, at, size))
        for lemmas, at in ranked[:top]
    )


def phrases(words: LemmaWords, top: int) -> tuple[Phrase, ...]:
    """The ``top`` phrases of each size of :data:`PHRASE_SIZES`, the shorter ones first."""
    return tuple(
        phrase
        for size in PHRASE_SIZES
        for phrase in top_phrases(words, phrase_starts(words, size), size, top)
    )
