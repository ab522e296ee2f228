"""Normalized text → words with their spans in the original text; look-alike letters folded.

A word is a run of letters and digits (``[^\\W_]+``, the reference's rule); with hyphens kept,
runs joined by a hyphen (``из-за``, ``seo-специалист``) make one word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .normalize import Normalized

__all__ = ["Fold", "fold_confusables", "words"]

_WORD = re.compile(r"[^\W_]+")
# U+2010 HYPHEN is what NFKC makes of U+2011 NON-BREAKING HYPHEN.
_HYPHENATED = re.compile(r"[^\W_]+(?:[-\u2010][^\W_]+)*")
_HYPHEN_VARIANTS = str.maketrans({"\u2010": "-"})

# Latin letters (after casefold) that look like Cyrillic ones in upper or lower case.
_LOOKALIKES = str.maketrans(
    {
        "a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "k": "к", "m": "м",
        "o": "о", "p": "р", "t": "т", "x": "х", "y": "у", "ë": "ё",
    }
)  # fmt: skip
_LATIN = re.compile(r"[a-zà-ÿ]")
_CYRILLIC = re.compile(r"[а-яё]")
_NOT_LOOKALIKE = re.compile(r"[dfgijlnqrsuvwzà-êì-ÿ]")


@dataclass(frozen=True, slots=True)
class Fold:
    """A word written with Latin look-alike letters among Cyrillic ones, and its Cyrillic form."""

    start: int
    end: int
    original: str
    folded: str

    def to_dict(self) -> dict[str, int | str]:
        return {
            "start": self.start,
            "end": self.end,
            "original": self.original,
            "folded": self.folded,
        }


def words(norm: Normalized, *, keep_hyphens: bool) -> tuple[list[str], list[tuple[int, int]]]:
    """The words of a normalized text and their ``(start, end)`` spans in the original text."""
    pattern = _HYPHENATED if keep_hyphens else _WORD
    text = norm.text
    if not keep_hyphens and not norm._edits:
        matches = list(pattern.finditer(text))
        return [m.group() for m in matches], [m.span() for m in matches]
    tokens: list[str] = []
    spans: list[tuple[int, int]] = []
    for match in pattern.finditer(text):
        token = match.group()
        tokens.append(token.translate(_HYPHEN_VARIANTS) if keep_hyphens else token)
        spans.append(norm.span(*match.span()))
    return tokens, spans


def _fold_part(part: str) -> str:
    if not (_LATIN.search(part) and _CYRILLIC.search(part)) or _NOT_LOOKALIKE.search(part):
        return part
    return part.translate(_LOOKALIKES)


def _fold_word(token: str) -> str:
    if "-" in token:
        return "-".join(_fold_part(p) for p in token.split("-"))
    return _fold_part(token)


def fold_confusables(
    tokens: list[str], spans: list[tuple[int, int]], original: str
) -> tuple[list[str], list[Fold]]:
    """Write mixed-script words in Cyrillic where every Latin letter has a Cyrillic twin.

    A word is folded only when it has Cyrillic letters too, so English words and
    ``seo-специалист`` (whose Latin part is a word of its own) are left alone.
    """
    folded = list(tokens)
    folds: list[Fold] = []
    for i, token in enumerate(tokens):
        if token.isascii():
            continue
        new = _fold_word(token)
        if new != token:
            folded[i] = new
            start, end = spans[i]
            folds.append(Fold(start, end, original[start:end], new))
    return folded, folds
