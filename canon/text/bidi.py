"""Text under bidirectional controls → its characters in the order a reader sees them.

A copywriter can store a word backwards and wrap it in a right-to-left override (U+202E
``акабос`` U+202C): every viewer shows ``собака``, but a checker that reads the stored order
sees a word no other text has.  The embeddings, overrides and isolates of a line are resolved
by the Unicode Bidirectional Algorithm (UAX #9, as the ``python-bidi`` package implements it),
from the first control of the line to its last, with a left-to-right paragraph: the result
has as many characters as the text, each run of controls keeps its place in the text, and a
word's characters stay within the run, so a word found there is placed at the run.  Lines
without controls, the common case, are not touched; the controls themselves are invisible
characters, which the normalization removes afterwards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import metadata

from bidi import get_display

__all__ = ["Reordered", "display_order", "version"]

# Embeddings, overrides, isolates and their ends (not the marks LRM, RLM and ALM, which only
# nudge neutral characters and never reverse letters typed left to right).
_CONTROLS = "\u202a-\u202e\u2066-\u2069"
_HAS_CONTROL = re.compile(f"[{_CONTROLS}]")
_RUN = re.compile(f"[{_CONTROLS}][^\\n]*[{_CONTROLS}]|[{_CONTROLS}][^\\n]*")


@dataclass(frozen=True, slots=True)
class Reordered:
    """Characters ``[start, end)`` of the text, stored as ``original`` and shown as
    ``displayed`` (the controls left out)."""

    start: int
    end: int
    original: str
    displayed: str


def version() -> str:
    """The bidirectional algorithm's implementation, for the profiles' fingerprints."""
    return f"python-bidi {metadata.version('python-bidi')}"


def display_order(text: str) -> tuple[str, tuple[Reordered, ...]]:
    """``text`` with each line's controlled run in display order (as many characters as
    before), and the runs whose order changed."""
    if _HAS_CONTROL.search(text) is None:
        return text, ()
    chars = list(text)
    found = []
    for run in _RUN.finditer(text):
        stored = run.group()
        shown = str(get_display(stored, base_dir="L"))
        if len(shown) != len(stored) or shown == stored:
            continue  # an implementation that dropped the controls: the stored order kept
        chars[run.start() : run.end()] = shown
        visible = _HAS_CONTROL.sub("", shown)
        if visible != _HAS_CONTROL.sub("", stored):
            found.append(Reordered(run.start(), run.end(), stored, visible))
    return "".join(chars), tuple(found)
