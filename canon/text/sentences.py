"""A text → its sentences, as character spans: razdel's ``sentenize``, within bounds.

razdel knows Russian abbreviations, initials, numbers and quotations; two things are added
around it:

- a line break ends a sentence unless the next line starts with a lower-case letter (headings,
  list items and paragraphs without a final stop are sentences of their own; a line wrapped
  inside a sentence is not cut);
- a line stored backwards under bidirectional overrides is split as it is shown (the order
  the canonical form's words are taken in, at the same offsets); invisible characters are
  read as spaces, so a text that types them for its spaces (the
  Hangul filler U+3164, zero-width spaces) is split like the spaced text;
- words the canonical form read across characters a reader passes over (letters spaced
  apart, signs or stops put inside a word, a word hyphenated at a line end: the spans
  ``joined``) are split as read: the characters inside them that are no letter, digit or
  hyphen are left out first, so that a stop inside a word ends no sentence and a word spelt
  ``д р.`` is no initial to razdel; marks (stress and others, which the canonical form
  strips) are left out everywhere.  A text without such words or marks is split as typed;
- razdel's time grows with the square of a sentence it cannot split (``т.е. т.е. …`` runs
  200,000 characters in seconds), so a line longer than :data:`PIECE_CHARS` is first cut at
  the last space before that length.  Real sentences are far shorter; a cut one becomes two.

Spans are ``(start, end)`` offsets into the text given, stripped of surrounding spaces, in
order and disjoint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

import numpy as np
import regex
from razdel import sentenize

from .bidi import display_order

__all__ = ["PIECE_CHARS", "Spans", "passed_over", "sentence_parts", "sentence_spans"]

PIECE_CHARS = 2_000  # the longest stretch of text razdel is given at once

_LINE_BREAK = re.compile(r"[^\S\n\r\u2028\u2029]*[\n\r\u2028\u2029]\s*")  # with its spaces
_SPACE = re.compile(r"\s")
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# A stop razdel may have read as no end of a sentence (before a small letter, after an
# abbreviation-like word, inside quotes), or a closing quotation mark before a capital letter
# (a quoted title standing as a sentence of its own, without a stop).
_STOP = regex.compile(r"[\p{STerm}…]+[\p{Pf}\p{Pe}\"'»]*\s+|(?<=\S)[\p{Pf}\"»]\s+(?=\p{Lu})")
_LETTER = regex.compile(r"\p{L}")
_PASSED = re.compile(r"[^\w-]|_")  # what a reader passes over inside a word read whole
_SEEN = regex.compile(r"[\p{L}\p{N}]")  # in the text as shown: the invisible ones are spaces
_MARK = regex.compile(r"\p{M}")  # marks, which the canonical form strips

Spans = Sequence[tuple[int, int]]


def _lines(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for brk in _LINE_BREAK.finditer(text):
        if brk.end() < len(text) and text[brk.end()].islower():
            continue  # a line wrapped inside a sentence
        if brk.start() > start:
            yield start, brk.start()
        start = brk.end()
    if start < len(text):
        yield start, len(text)


def _pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """``[start, end)`` in stretches of at most :data:`PIECE_CHARS`, cut at a space if any."""
    while end - start > PIECE_CHARS:
        limit = start + PIECE_CHARS
        cut = max(
            (m.start() for m in _SPACE.finditer(text, start + PIECE_CHARS // 2, limit)),
            default=limit,
        )
        yield start, cut
        start = cut
    yield start, end


def passed_over(text: str, words: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The spans among ``words`` (an ``(n, 2)`` array of ``(start, end)`` in ``text``) that
    hold a character a reader passes over inside a word (no letter, digit or hyphen), each
    once, in order: the words :func:`sentence_spans` reads whole."""
    if not len(words):
        return ()
    shown = _shown(text)
    passed = _passed(shown)
    if not len(passed):
        return ()
    words = np.unique(words, axis=0)
    holds = np.searchsorted(passed, words[:, 1]) > np.searchsorted(passed, words[:, 0])
    trimmed = (_seen_within(shown, s, e) for s, e in words[holds].tolist())
    return tuple(sorted({(s, e) for s, e in trimmed if _PASSED.search(shown, s, e)}))


def _seen_within(shown: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` less what stands before its first letter or digit and after its last
    (a stop or a space a word read took along)."""
    while start < end and not _SEEN.match(shown, start):
        start += 1
    while end > start and not _SEEN.match(shown, end - 1):
        end -= 1
    return start, end


def _passed(shown: str) -> np.ndarray:
    return np.fromiter((m.start() for m in _PASSED.finditer(shown)), dtype=np.int64)


def sentence_spans(text: str, joined: Spans = ()) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence of ``text``, in order, the words ``joined`` read
    whole (the last few texts' spans are remembered: a check asks for its draft's more than
    once)."""
    return list(_spans(text, tuple(joined)))


@lru_cache(maxsize=4)
def _shown(typed: str) -> str:
    """The text as shown, invisible characters as spaces: one character for one, as the
    canonical form reads it, so its words' spans hold."""
    return _INVISIBLE.sub(" ", display_order(typed)[0])


@lru_cache(maxsize=4)
def _read(typed: str, joined: tuple[tuple[int, int], ...]) -> tuple[str, np.ndarray | None]:
    """The text as read: as shown, less what a reader passes over inside the words
    ``joined``; and where each character read stands in ``typed`` (None: all, in place)."""
    shown = _shown(typed)
    marks = [m.start() for m in _MARK.finditer(shown)]
    if not joined and not marks:
        return shown, None
    kept = np.ones(len(shown), dtype=bool)
    kept[marks] = False
    if joined:
        words = np.asarray(joined, dtype=np.int64).reshape(-1, 2)
        passed = _passed(shown)
        word = np.searchsorted(words[:, 0], passed, side="right") - 1
        inside = (word >= 0) & (passed < words[np.maximum(word, 0), 1])
        kept[passed[inside]] = False
    if kept.all():
        return shown, None
    origin = np.flatnonzero(kept)
    return "".join(shown[i] for i in origin.tolist()), origin


@lru_cache(maxsize=4)
def _spans(typed: str, joined: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    text, origin = _read(typed, joined)
    spans = _split(text)
    if origin is None:
        return spans
    return tuple((int(origin[a]), int(origin[b - 1]) + 1) for a, b in spans)


@lru_cache(maxsize=4)
def _split(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    for line_start, line_end in _lines(text):
        for start, end in _pieces(text, line_start, line_end):
            for found in sentenize(text[start:end]):
                first, last = start + found.start, start + found.stop
                if text[first:last].strip():
                    spans.append((first, last))
    return tuple(spans)


def sentence_parts(
    text: str, spans: Iterable[tuple[int, int]], joined: Spans = ()
) -> list[tuple[int, int]]:
    """The parts of the sentences ``spans`` of ``text`` that a stop inside them divides
    (``знает. потом``, ``сказал с. Потом``, ``«Заголовок» Потом``): where razdel saw an
    abbreviation or a sentence going on, a writer who shuffled words, or merged two
    sentences, may have ended one.  A stop inside a word ``joined`` divides nothing.
    Parts without a letter are left out; a sentence without such a stop gives none."""
    read, origin = _read(text, tuple(joined))
    at = (lambda i: i) if origin is None else (lambda i: int(origin[i]))
    where = (lambda i: i) if origin is None else (lambda i: int(np.searchsorted(origin, i)))
    parts: list[tuple[int, int]] = []
    for start, end in ((where(a), where(b)) for a, b in spans):
        cuts = [m.end() for m in _STOP.finditer(read, start, end) if m.end() < end]
        if not cuts:
            continue
        for first, last in zip([start, *cuts], [*cuts, end]):
            piece = read[first:last]
            if _LETTER.search(piece):
                lead = len(piece) - len(piece.lstrip())
                parts.append((at(first + lead), at(first + len(piece.rstrip()) - 1) + 1))
    return parts
