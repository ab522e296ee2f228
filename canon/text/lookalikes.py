"""Characters that pose as Russian letters inside Russian words, put back before normalization.

A copywriter makes a copied text look new by writing some letters of its words in characters
that look the same: Latin ``o``, Greek ``ο``, Armenian ``օ``, a small capital ``ᴏ``, a
mathematical ``𝐨``, the digit ``0``, Bengali ``০``; or by putting a sign where a letter goes
(``с@бака``).  Which characters look like which Russian letter is not a table of ours: it is
the Unicode confusables data (UTS #39) as the ``confusable-homoglyphs`` package ships it, read
as classes of characters that look alike; every character in the class of a Russian letter
(case kept: ``B`` is ``В``, ``b`` is ``Ь``) is its *twin*.

The fold looks at the original text, before NFKC and casefold can turn a twin into some other
letter (a lunate sigma ``ϲ`` would become ``σ``).  It replaces one character by one character,
so every offset of the text still holds.  In a segment of a word (between spaces, dashes,
apostrophes and sentence punctuation) with at least one Russian letter:

- letters of other scripts (or other Cyrillic letters) that have twins are folded to them,
  when every such letter in the segment has one (``сoбака``, ``ϲобака``; ``seo``, a segment
  with no Russian letter, and ``Ⓐбв``, with a letter that has none, stay);
- digits and signs are folded only where the dictionary says so: a digit or sign with a twin
  (``0`` for ``о``, ``3`` for ``з``, ``6`` for ``б``, ``×`` for ``х``) anywhere in the
  segment, and any other digit or sign between two Russian letters (``4`` in ``с4ёт``, ``@``
  in ``с@бака``: each Russian letter tried), when the word they make is a word of pymorphy3's
  dictionary (the likeliest by wordfreq when several are).  ``3d`` or ``5го`` stay as typed.

Sequences of several characters posing as one letter (``bl`` for ``Ы``) are not folded.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from itertools import product

import regex

from .frequency import zipf
from .lemmatize import is_known
from .normalize import IGNORABLE, drop_marks

__all__ = ["Folded", "fold_lookalikes", "twins", "version"]

RUSSIAN = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
_RUSSIAN = frozenset(RUSSIAN)
_LOWER = RUSSIAN[:33]
# A segment of a word: what lies between white space, dashes, brackets, quotation marks,
# apostrophes, slashes and sentence punctuation (each has rules of its own, or ends a word).
_SEGMENT = regex.compile(r"[^\s\p{Z}\p{Cc}\p{Pd}\p{Ps}\p{Pe}\p{Pi}\p{Pf}.,;:!?…/\\'\"’ʼ`]+")
_ANY_SIGNS = 2  # segments with more unexplained signs than this are left alone (33² tries)
_IGNORED = frozenset({"Mn", "Me", "Mc", "Cf"})  # marks and format characters: other rules


@dataclass(frozen=True, slots=True)
class Folded:
    """Characters ``[start, end)`` of the text: a segment written with characters posing as
    Russian letters, ``original`` as typed and ``folded`` as read (lower case)."""

    start: int
    end: int
    original: str
    folded: str


@cache
def twins() -> dict[str, str]:
    """Every single character that looks like a Russian letter (by the Unicode confusables
    data), and that letter; Russian letters themselves are not listed."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, homoglyphs in data.items():
        for homoglyph in homoglyphs:
            # Right-to-left characters come wrapped in left-to-right marks: the mark is no part
            # of the look (Arabic ہ, Hebrew ס for о).
            parent[root(homoglyph["c"].strip("\u200e\u200f"))] = root(char.strip("\u200e\u200f"))
    letter_of = {root(letter): letter for letter in RUSSIAN if letter in parent}
    return {
        char: letter_of[root(char)]
        for char in parent
        if len(char) == 1 and char not in _RUSSIAN and root(char) in letter_of
    }


def version() -> str:
    """The confusables data the twins come from, for the profiles' fingerprints."""
    return f"confusable-homoglyphs {metadata.version('confusable-homoglyphs')}"


# What ends a segment, besides white space (as in _SEGMENT, for the stdlib pattern below).
_ENDS = r"\s\-\u2010-\u2015.,;:!?…/\\'\"’ʼ`()\[\]{}«»„“”"


_SIGN_BETWEEN = re.compile(f"[{RUSSIAN}](?:[^\\w{_ENDS}]|[\\d_])(?=[{RUSSIAN}])")


@cache
def _other_runs() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Runs of letters or digits of another kind than Russian letters, and of the few twins
    that are no word characters (``×``, ``∏``): few in a Russian text, each looked at."""
    symbols = "".join(sorted(c for c in twins() if not re.match(r"\w", c)))
    for special in "\\]-[^":
        symbols = symbols.replace(special, "\\" + special)
    return re.compile(f"[^\\W_{RUSSIAN}]+"), re.compile(f"[{symbols}]+")


def _suspects(text: str) -> list[int]:
    """Where a Russian letter stands beside a letter, digit or twin of another kind, or a
    sign between two Russian letters: the places a segment may need a look."""
    places = [m.start() for m in _SIGN_BETWEEN.finditer(text)]
    last = len(text)
    for pattern in _other_runs():
        for run in pattern.finditer(text):
            start, end = run.span()
            if (start and text[start - 1] in _RUSSIAN) or (end < last and text[end] in _RUSSIAN):
                places.append(start)
    return sorted(places)


def fold_lookalikes(text: str) -> tuple[str, tuple[Folded, ...]]:
    """``text`` with every character posing as a Russian letter put back (as many characters
    as before), and each segment folded.  Only the segments around a suspect place are read."""
    suspects = _suspects(text)
    if not suspects:
        return text, ()
    chars = list(text)
    found = []
    done = -1
    for at in suspects:
        if at < done:
            continue
        segment = _SEGMENT.search(text, _segment_start(text, at))
        if segment is None:
            continue
        done = segment.end()
        word = segment.group()
        folded = _fold_segment(word)
        if folded is not None and folded != word:
            chars[segment.start() : segment.end()] = folded
            found.append(Folded(segment.start(), segment.end(), word, _reading(folded)))
    return "".join(chars), tuple(found)


def _segment_start(text: str, at: int) -> int:
    """Where the segment holding the character at ``at`` starts."""
    while at > 0 and _SEGMENT.match(text, at - 1, at) is not None:
        at -= 1
    return at


def _reading(word: str) -> str:
    """The word as the dictionary would look it up: no marks, no invisible characters."""
    return drop_marks(IGNORABLE.sub("", unicodedata.normalize("NFKC", word)), True).casefold()


def _fold_segment(word: str) -> str | None:
    """The segment with its posing characters folded, or None when it is not such a word."""
    if not any(c in _RUSSIAN for c in word):
        return None
    table = twins()
    letters: dict[int, str] = {}  # position → its twin: letters of other scripts
    signs: dict[int, str] = {}  # position → its twin: digits and signs
    unexplained: list[int] = []  # digits and signs without a twin, between Russian letters
    for i, char in enumerate(word):
        category = unicodedata.category(char)
        if char in _RUSSIAN:
            continue
        if char in table:  # a letter, or a spacing mark that looks like one (Telugu ం)
            (letters if category[0] in "LM" else signs)[i] = table[char]
        elif category in _IGNORED:
            continue
        elif category[0] in "NSP" and _between_letters(word, i):
            unexplained.append(i)
        elif not ("\u0400" <= char <= "\u052f"):  # a letter of another alphabet: a real word
            return None
    if not signs and not unexplained:
        return _with(word, letters)
    return _by_dictionary(word, letters, signs, unexplained) or _with(word, letters)


def _between_letters(word: str, i: int) -> bool:
    def russian(chars: str) -> bool:
        kept = [c for c in chars if unicodedata.category(c) not in _IGNORED]
        return bool(kept) and kept[0] in _RUSSIAN

    return russian(word[i + 1 :]) and russian(word[:i][::-1])


def _with(word: str, folds: dict[int, str]) -> str:
    return "".join(folds.get(i, c) for i, c in enumerate(word))


def _by_dictionary(
    word: str, letters: dict[int, str], signs: dict[int, str], unexplained: list[int]
) -> str | None:
    """The segment with its digits and signs read as Russian letters, when that makes a word
    of the dictionary: the likeliest such word, or None."""
    if len(unexplained) > _ANY_SIGNS:
        return None
    fixed = {**letters, **signs}
    best, best_zipf = None, -1.0
    for choice in product(_LOWER, repeat=len(unexplained)):
        candidate = _with(word, {**fixed, **dict(zip(unexplained, choice))})
        reading = _reading(candidate)
        if is_known(reading):
            frequency = zipf(reading)
            if frequency > best_zipf:
                best, best_zipf = candidate, frequency
    return best
