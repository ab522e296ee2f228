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
- razdel's time grows with the square of a sentence it cannot split (``т.е. т.е. …`` runs
  200,000 characters in seconds), so a line longer than :data:`PIECE_CHARS` is first cut at
  the last space before that length.  Real sentences are far shorter; a cut one becomes two.

Spans are ``(start, end)`` offsets into the text given, stripped of surrounding spaces, in
order and disjoint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

import regex
from razdel import sentenize

from .bidi import display_order

__all__ = ["PIECE_CHARS", "sentence_parts", "sentence_spans"]

PIECE_CHARS = 2_000  # the longest stretch of text razdel is given at once

_LINE_BREAK = re.compile(r"[^\S\n\r\u2028\u2029]*[\n\r\u2028\u2029]\s*")  # with its spaces
_SPACE = re.compile(r"\s")
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# A stop razdel may have read as no end of a sentence (before a small letter, after an
# abbreviation-like word, inside quotes), or a closing quotation mark before a capital letter
# (a quoted title standing as a sentence of its own, without a stop).
_STOP = regex.compile(r"[\p{STerm}…]+[\p{Pf}\p{Pe}\"'»]*\s+|(?<=\S)[\p{Pf}\"»]\s+(?=\p{Lu})")
_LETTER = regex.compile(r"\p{L}")


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


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence of ``text``, in order (the last few texts' spans
    are remembered: a check asks for its draft's more than once)."""
    return list(_spans(text))


@lru_cache(maxsize=4)
def _shown(typed: str) -> str:
    """The text as shown, invisible characters as spaces: one character for one, as the
    canonical form reads it, so its words' spans hold."""
    return _INVISIBLE.sub(" ", display_order(typed)[0])


@lru_cache(maxsize=4)
def _spans(typed: str) -> tuple[tuple[int, int], ...]:
    text = _shown(typed)
    spans: list[tuple[int, int]] = []
    for line_start, line_end in _lines(text):
        for start, end in _pieces(text, line_start, line_end):
            for found in sentenize(text[start:end]):
                first, last = start + found.start, start + found.stop
                if text[first:last].strip():
                    spans.append((first, last))
    return tuple(spans)


def sentence_parts(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of the sentences ``spans`` of ``text`` that a stop inside them divides
    (``знает. потом``, ``сказал с. Потом``, ``«Заголовок» Потом``): where razdel saw an
    abbreviation or a sentence going on, a writer who shuffled words, or merged two
    sentences, may have ended one.
    Parts without a letter are left out; a sentence without such a stop gives none."""
    shown = _shown(text)
    parts: list[tuple[int, int]] = []
    for start, end in spans:
        cuts = [m.end() for m in _STOP.finditer(shown, start, end) if m.end() < end]
        if not cuts:
            continue
        for first, last in zip([start, *cuts], [*cuts, end]):
            piece = shown[first:last]
            if _LETTER.search(piece):
                lead = len(piece) - len(piece.lstrip())
                parts.append((first + lead, first + len(piece.rstrip())))
    return parts
