"""A draft's matched ranges → one verdict over its characters: copied, rewritten, unique.

The verdict counts the draft's letters and digits (spaces and punctuation carry no authorship),
so the parts add up: ``uniqueness = 1 − copied − rewritten``.  A counted character is
*copied* when it lies in a fragment matched word for word (a ``raw``-like profile), and
*rewritten* when it lies only in fragments matched after canonicalization (lemmas, stems) or in
a sentence judged rewritten: a sentence of a source with its words swapped for synonyms or put
in another order keeps runs of the source's words, and those count as rewritten too, since the
sentence as a whole is.  Characters of quotations (when they are skipped) and of text
found only in excluded sources are left out of the count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import regex

from ..canonical import Fragment
from ..errors import InputError

__all__ = [
    "Verdict",
    "counted",
    "mask_runs",
    "nothing_left",
    "outside",
    "ranges_mask",
    "verdict_of",
]

# Letters and digits, but not the invisible ones (Hangul fillers are letters to Unicode).
_COUNTED = regex.compile(r"(?V1)[[\p{L}\p{N}]--\p{Default_Ignorable_Code_Point}]+")


@dataclass(frozen=True)
class Verdict:
    """The share of the draft's counted characters in each part, and where those parts are."""

    uniqueness: float
    copied: float
    rewritten: float
    chars: int  # letters and digits counted
    formula: str
    copied_fragments: tuple[Fragment, ...] = ()
    rewritten_fragments: tuple[Fragment, ...] = ()
    # Found in sources but not counted: short runs and lone weak sentences (evidence.py).
    uncounted: tuple[Fragment, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "uniqueness": self.uniqueness,
            "copied": self.copied,
            "rewritten": self.rewritten,
            "chars": self.chars,
            "formula": self.formula,
            "copied_fragments": [[f.start, f.end] for f in self.copied_fragments],
            "rewritten_fragments": [[f.start, f.end] for f in self.rewritten_fragments],
            "uncounted": [[f.start, f.end] for f in self.uncounted],
        }


def nothing_left(name: str) -> InputError:
    """The error of a draft whose text is all quoted or all found in excluded sources."""
    return InputError(
        f"{name} has nothing left to check: all its text is quoted or found only in "
        "excluded sources",
        source=name,
        reason="nothing-counted",
    )


def ranges_mask(size: int, ranges: Iterable[Fragment | tuple[int, int]]) -> np.ndarray:
    """A boolean mask of ``size`` characters, true inside any of ``ranges``: O(n + r)."""
    bounds = [(r.start, r.end) if isinstance(r, Fragment) else r for r in ranges]
    table = np.asarray(bounds, dtype=np.int64).reshape(-1, 2)
    if len(table) and not (table.min() >= 0 and table.max() <= size):
        return _mask_one_by_one(size, bounds)  # indexed as Python indexes (or refused)
    edges = np.bincount(table[:, 0], minlength=size + 1)
    edges -= np.bincount(table[:, 1], minlength=size + 1)
    return np.cumsum(edges[:-1]) > 0


def _mask_one_by_one(size: int, bounds: list[tuple[int, int]]) -> np.ndarray:
    edges = np.zeros(size + 1, dtype=np.int32)
    for start, end in bounds:
        edges[start] += 1
        edges[end] -= 1
    return np.cumsum(edges[:-1]) > 0


def mask_runs(mask: np.ndarray) -> list[Fragment]:
    """The maximal runs of true characters of ``mask``."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    change = np.flatnonzero(np.diff(padded))
    return [Fragment(int(s), int(e)) for s, e in zip(change[::2], change[1::2])]


def outside(
    fragments: Iterable[Fragment], ranges: Sequence[Fragment | tuple[int, int]], size: int
) -> list[Fragment]:
    """The parts of ``fragments`` (in a text of ``size`` characters) outside ``ranges``."""
    fragments = list(fragments)
    if not ranges:
        return fragments
    return mask_runs(ranges_mask(size, fragments) & ~ranges_mask(size, ranges))


def _runs(mask: np.ndarray, counts: np.ndarray) -> tuple[Fragment, ...]:
    """The maximal runs of true characters of ``mask`` holding a counted character."""
    return tuple(f for f in mask_runs(mask) if counts[f.start : f.end].any())


@lru_cache(maxsize=4)
def counted(text: str) -> np.ndarray:
    """Which characters of ``text`` the verdict counts: its letters and digits (read-only;
    the last few texts' are remembered, a check asks for its draft's several times)."""
    mask = ranges_mask(len(text), (m.span() for m in _COUNTED.finditer(text)))
    mask.flags.writeable = False
    return mask


def verdict_of(
    text: str,
    *,
    copied: Iterable[Fragment],
    rewritten: Iterable[Fragment],
    sentences: Iterable[Fragment] = (),
    uncounted: Iterable[Fragment] = (),
    left_out: Iterable[Fragment | tuple[int, int]] = (),
    formula: str,
    name: str = "draft",
) -> Verdict:
    """The verdict on ``text``, given the ranges matched word for word (``copied``), matched
    only after canonicalization (``rewritten``), the sentences judged rewritten (``sentences``:
    rewritten throughout, the runs inside them matched word for word too), the ranges found in
    sources but not to count (``uncounted``: short runs and weakly rewritten sentences, see
    :mod:`canon.uniqueness.evidence`; their matches are removed and they are listed) and the
    ranges left out of the count unless matched (``left_out``: quotations, text found only in
    excluded sources; a quotation a check skips whatever matched it reaches here with the
    matches taken out of it, :func:`outside`).

    A draft with nothing left to count raises :class:`InputError` naming it (``name``).
    """
    size = len(text)
    judged = ranges_mask(size, sentences)
    copy = ranges_mask(size, copied) & ~judged
    rewrite = (ranges_mask(size, rewritten) | judged) & ~copy
    unsure = ranges_mask(size, uncounted) & ~judged
    copy &= ~unsure
    rewrite &= ~unsure
    counts = counted(text) & ~(ranges_mask(size, left_out) & ~copy & ~rewrite)
    chars = int(counts.sum())
    if chars == 0:
        raise nothing_left(name)
    copied_share = int((copy & counts).sum()) / chars
    rewritten_share = int((rewrite & counts).sum()) / chars
    return Verdict(
        max(0.0, 1 - copied_share - rewritten_share),
        copied_share,
        rewritten_share,
        chars,
        formula,
        _runs(copy, counts),
        _runs(rewrite, counts),
        _runs(unsure, counts),
    )
