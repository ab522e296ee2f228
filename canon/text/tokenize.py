"""Normalized text → words with their spans in the original text; look-alike letters folded.

A word is a run of letters and digits (``[^\\W_]+``, the reference's rule); with hyphens kept,
runs joined by a hyphen (``из-за``, ``seo-специалист``) make one word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..records import record_dict
from .normalize import Normalized

__all__ = [
    "Fold",
    "fold_confusables",
    "fold_short_words",
    "has_cyrillic_twin",
    "has_mixed_words",
    "hyphen_text",
    "twin_letter",
    "word_offsets",
    "word_span_array",
    "word_spans",
    "words",
]

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
# With the wide folding: Greek letters (after casefold) and Latin small capitals that look
# like Cyrillic ones, in upper or lower case.
_WIDE_TWINS = {
    "α": "а",
    "β": "в",
    "ε": "е",
    "η": "н",
    "κ": "к",
    "μ": "м",
    "ο": "о",
    "ρ": "р",
    "τ": "т",
    "υ": "у",
    "χ": "х",
    "ϲ": "с",
    "ᴀ": "а",
    "ʙ": "в",
    "ᴄ": "с",
    "ᴇ": "е",
    "ʜ": "н",
    "ᴋ": "к",
    "ᴍ": "м",
    "ᴏ": "о",
    "ᴘ": "р",
    "ᴛ": "т",
    "ʏ": "у",
}
_WIDE_LOOKALIKES = {**_LOOKALIKES, **{ord(k): v for k, v in _WIDE_TWINS.items()}}
_FOREIGN = re.compile(r"[^\W\d_а-яё]")
_WIDE_TWIN = re.compile(f"[{''.join(_WIDE_TWINS)}]")
_WIDE_OTHER_RUN = re.compile(r"[^\W\d_а-яё]+")  # letters, none of them Cyrillic
_CYRILLIC = frozenset("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")
# Short Russian words that can be typed in look-alike letters only (Latin ``c`` for ``с``).
_SHORT_WORDS = frozenset(
    "а в к о с у во ко со то на не но он от ох ах ух ее ем ею как кто там тот так том нам "
    "вам вас нас мне мое моё".split()
)
_SHORT_LETTER = f"[abcehkmoptxy{''.join(_WIDE_TWINS)}]"
# The class comes first so that the regex engine can scan for it quickly.
_SHORT_CANDIDATE = re.compile(f"{_SHORT_LETTER}(?<![^\\W_].){_SHORT_LETTER}{{0,2}}(?![^\\W_])")
_LATIN = re.compile(r"[a-zà-ÿ]")
_HAS_CYRILLIC = re.compile(r"[а-яё]")
# A Cyrillic letter next to a Latin one: how a look-alike letter inside a word shows.
_LATIN_RUN = re.compile(r"[a-zà-ÿ]+")
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


def hyphen_text(norm: Normalized) -> str:
    """The normalized text with every hyphen written ``-`` (one character for one: offsets
    hold)."""
    return norm.text.replace("\u2010", "-") if "\u2010" in norm.text else norm.text


def _text(norm: Normalized, keep_hyphens: bool) -> str:
    return hyphen_text(norm) if keep_hyphens else norm.text


def words(norm: Normalized, *, keep_hyphens: bool) -> list[str]:
    """The words of a normalized text (hyphenated words whole when ``keep_hyphens``)."""
    return (_HYPHENATED if keep_hyphens else _WORD).findall(_text(norm, keep_hyphens))


def has_cyrillic_twin(char: str) -> bool:
    """Whether ``char`` is a letter of another script that looks like a Cyrillic one."""
    return ord(char) in _WIDE_LOOKALIKES


def twin_letter(char: str) -> str | None:
    """The Cyrillic letter a letter of another script looks like once case-folded (Latin,
    Greek, small capitals: ``ε`` is ``е``), or None."""
    folded = char.casefold()
    twin = _WIDE_LOOKALIKES.get(ord(folded)) if len(folded) == 1 else None
    return str(twin) if twin is not None else None


def word_offsets(norm: Normalized, *, keep_hyphens: bool) -> list[tuple[int, int]]:
    """The ``(start, end)`` span in the normalized text of each of :func:`words`."""
    pattern = _HYPHENATED if keep_hyphens else _WORD
    return [m.span() for m in pattern.finditer(_text(norm, keep_hyphens))]


def word_span_array(norm: Normalized, *, keep_hyphens: bool) -> np.ndarray:
    """:func:`word_spans` as an ``(n, 2)`` int64 array."""
    offsets = word_offsets(norm, keep_hyphens=keep_hyphens)
    return norm.span_array(np.array(offsets, dtype=np.int64).reshape(-1, 2))


def word_spans(norm: Normalized, *, keep_hyphens: bool) -> list[tuple[int, int]]:
    """The ``(start, end)`` span in the original text of each of :func:`words`."""
    return [(s, e) for s, e in word_span_array(norm, keep_hyphens=keep_hyphens).tolist()]


def _fold_part(part: str) -> str:
    if not (_LATIN.search(part) and _HAS_CYRILLIC.search(part)) or _NOT_LOOKALIKE.search(part):
        return part
    return part.translate(_LOOKALIKES)


def _fold_wide_part(part: str) -> str:
    foreign = _FOREIGN.findall(part)
    if not foreign or not _HAS_CYRILLIC.search(part):
        return part
    if any(ord(c) not in _WIDE_LOOKALIKES for c in foreign):
        return part
    return part.translate(_WIDE_LOOKALIKES)


def has_mixed_words(text: str, *, wide: bool = False) -> bool:
    """Whether a normalized text has any word mixing Cyrillic and Latin letters (``wide``:
    Cyrillic and any other letters).  The runs of other letters are few in Russian text, so
    each one's neighbours are looked at: faster than trying two letters at every position."""
    last = len(text)
    for run in (_WIDE_OTHER_RUN if wide else _LATIN_RUN).finditer(text):
        start, end = run.span()
        if (start and text[start - 1] in _CYRILLIC) or (end < last and text[end] in _CYRILLIC):
            return True
    return False


def fold_confusables(word: str, *, wide: bool = False) -> str:
    """A mixed-script word written in Cyrillic, where every Latin letter has a Cyrillic twin.

    A word is folded only when it has Cyrillic letters too, so English words and the Latin
    part of ``seo-специалист`` (a word of its own) are left alone.  ``wide`` folds Greek
    letters and Latin small capitals with Cyrillic twins as well.
    """
    if word.isascii():
        return word
    fold = _fold_wide_part if wide else _fold_part
    if "-" in word:
        return "-".join(fold(p) for p in word.split("-"))
    return fold(word)


def _cyrillic_word(word: str) -> bool:
    return _HAS_CYRILLIC.search(word) is not None


def fold_short_words(text: str, surface: list[str]) -> dict[int, str]:
    """Short words typed in look-alike letters only (``c`` for ``с``) among Cyrillic words:
    ``{index in surface: Cyrillic form}``.  A word is folded when a neighbouring word is
    Cyrillic and no neighbour is a word of other letters (``vitamin c`` stays)."""
    if _SHORT_CANDIDATE.search(text) is None:
        return {}
    folds: dict[int, str] = {}
    for i, word in enumerate(surface):
        if len(word) > 3 or _cyrillic_word(word):
            continue
        folded = word.translate(_WIDE_LOOKALIKES)
        if folded not in _SHORT_WORDS:
            continue
        around = surface[max(i - 1, 0) : i] + surface[i + 1 : i + 2]
        if any(map(_cyrillic_word, around)) and not any(
            _FOREIGN.search(w)
            and not _cyrillic_word(w)
            and w.translate(_WIDE_LOOKALIKES) not in _SHORT_WORDS
            for w in around
        ):
            folds[i] = folded
    return folds
