"""Normalized text → words with their spans in the original text; look-alike letters folded.

A word is a run of letters and digits (``[^\\W_]+``, the reference's rule); with hyphens kept,
runs joined by a hyphen (``из-за``, ``seo-специалист``) make one word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..records import record_dict
from .normalize import Normalized

__all__ = ["Fold", "fold_confusables", "has_mixed_words", "word_spans", "words"]

_WORD = re.compile(r"[^\W_]+")
# U+2010 HYPHEN is what NFKC makes of U+2011 NON-BREAKING HYPHEN.
_HYPHENATED = re.compile(r"[^\W_]+(?:[-\u2010][^\W_]+)*")

# Latin letters (after casefold) that look like Cyrillic ones in upper or lower case.
_LOOKALIKES = str.maketrans(
    {
        "a": "а",
        "b": "в",
        "c": "с",
        "e": "е",
        "h": "н",
        "k": "к",
        "m": "м",
        "o": "о",
        "p": "р",
        "t": "т",
        "x": "х",
        "y": "у",
        "ë": "ё",
    }
)
_LATIN = re.compile(r"[a-zà-ÿ]")
_HAS_CYRILLIC = re.compile(r"[а-яё]")
# A Cyrillic letter next to a Latin one: how a look-alike letter inside a word shows.
_MIXED = re.compile(r"[а-яё][a-zà-ÿ]|[a-zà-ÿ][а-яё]")
_NOT_LOOKALIKE = re.compile(r"[dfgijlnqrsuvwzà-êì-ÿ]")


@dataclass(frozen=True, slots=True)
class Fold:
    """A word written with Latin look-alike letters among Cyrillic ones, and its Cyrillic form."""

    start: int
    end: int
    original: str
    folded: str

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def _text(norm: Normalized, keep_hyphens: bool) -> str:
    if keep_hyphens and "\u2010" in norm.text:
        return norm.text.replace("\u2010", "-")  # one character for one: offsets hold
    return norm.text


def words(norm: Normalized, *, keep_hyphens: bool) -> list[str]:
    """The words of a normalized text (hyphenated words whole when ``keep_hyphens``)."""
    return (_HYPHENATED if keep_hyphens else _WORD).findall(_text(norm, keep_hyphens))


def word_spans(norm: Normalized, *, keep_hyphens: bool) -> list[tuple[int, int]]:
    """The ``(start, end)`` span in the original text of each of :func:`words`."""
    pattern = _HYPHENATED if keep_hyphens else _WORD
    matches = pattern.finditer(_text(norm, keep_hyphens))
    if not norm._edits:
        return [m.span() for m in matches]
    return [norm.span(*m.span()) for m in matches]


def _fold_part(part: str) -> str:
    if not (_LATIN.search(part) and _HAS_CYRILLIC.search(part)) or _NOT_LOOKALIKE.search(part):
        return part
    return part.translate(_LOOKALIKES)


def has_mixed_words(text: str) -> bool:
    """Whether a normalized text has any word mixing Cyrillic and Latin letters."""
    return _MIXED.search(text) is not None


def fold_confusables(word: str) -> str:
    """A mixed-script word written in Cyrillic, where every Latin letter has a Cyrillic twin.

    A word is folded only when it has Cyrillic letters too, so English words and the Latin
    part of ``seo-специалист`` (a word of its own) are left alone.
    """
    if word.isascii():
        return word
    if "-" in word:
        return "-".join(_fold_part(p) for p in word.split("-"))
    return _fold_part(word)
