"""A text and its word spans → the tricks the canonical form saw through, in the original text.

A trick is a repair the rules made to a word or between words: a look-alike letter folded
(``lookalike``), a combining mark removed (``mark``), an invisible character removed inside a
word or read as a space between words (``invisible``), a hyphen that joined two words or broke
one (``hyphen``), a Russian word written in Latin letters (``translit``), letters spaced apart
(``spacing``).  Words a reader of an HTML or .docx draft never sees are left out of the text
before it is read, and reported as ``hidden`` by the check.  Tricks are found
after the fact, from the original characters (the hyphen and transliteration repairs from
what the word repairs did), so canonicalization itself pays nothing for them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import regex

from ..records import record_dict
from .normalize import IGNORABLE, Normalized, drop_marks
from .repairs import Repair
from .tokenize import Fold

__all__ = ["Trick", "find_tricks", "repair_tricks"]

TrickKind = Literal["lookalike", "mark", "invisible", "hyphen", "translit", "spacing", "hidden"]


@dataclass(frozen=True, slots=True)
class Trick:
    """Characters ``[start, end)`` of the original text, and what the rules made of them."""

    kind: TrickKind
    start: int
    end: int
    original: str
    repaired: str

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def _invisible(text: str, spans: list[tuple[int, int]]) -> list[Trick]:
    """Ignorable characters inside a word (the word without them), or runs between words."""
    tricks: list[Trick] = []
    inside: set[int] = set()
    for start, end in spans:
        word = text[start:end]
        if IGNORABLE.search(word):
            tricks.append(Trick("invisible", start, end, word, IGNORABLE.sub("", word)))
            inside.update(range(start, end))
    for run in IGNORABLE.finditer(text):
        if run.start() not in inside:
            tricks.append(Trick("invisible", run.start(), run.end(), run.group(), " "))
    return tricks


# A letter and a mark other than the breve of й and the diaeresis of ё, once decomposed.
_FOREIGN_MARK = regex.compile(r"[^\P{M}\u0306\u0308]|[^ийеёИЙЕЁ][\u0306\u0308]")


def _marks(text: str, spans: list[tuple[int, int]]) -> list[Trick]:
    if not _FOREIGN_MARK.search(unicodedata.normalize("NFD", text)):
        return []  # the common case: no word carries a mark the rules remove
    tricks: list[Trick] = []
    for start, end in spans:
        word = IGNORABLE.sub("", text[start:end])
        if word.isascii():
            continue
        bare = drop_marks(word, True)
        if bare != unicodedata.normalize("NFC", word):
            tricks.append(Trick("mark", start, end, text[start:end], bare))
    return tricks


def repair_tricks(text: str, norm: Normalized, repairs: Iterable[Repair]) -> list[Trick]:
    """The hyphen and transliteration repairs to report, placed in the original ``text``:
    ``repaired`` holds the words they stand for, separated by spaces."""
    tricks = []
    for repair in repairs:
        if repair.reported:
            start, end = norm.span(repair.start, repair.end)
            tricks.append(Trick(repair.kind, start, end, text[start:end], " ".join(repair.forms)))
    return tricks


def find_tricks(
    text: str,
    spans: list[tuple[int, int]],
    folds: Iterable[Fold],
    *,
    marks: bool,
    invisible: bool,
    repairs: Iterable[Trick] = (),
) -> tuple[Trick, ...]:
    """Every repair, in text order: ``spans`` are all the words' spans, ``folds`` the words
    folded from look-alike letters, ``repairs`` the hyphen and transliteration tricks;
    ``marks`` and ``invisible`` tell which character repairs apply."""
    tricks = [Trick("lookalike", f.start, f.end, f.original, f.folded) for f in folds]
    tricks += repairs
    if text.isascii():
        return tuple(sorted(tricks, key=lambda t: (t.start, t.end, t.kind)))
    if marks:
        tricks += _marks(text, spans)
    if invisible:
        tricks += _invisible(text, spans)
    return tuple(sorted(tricks, key=lambda t: (t.start, t.end, t.kind)))
