"""A text's shingle hashes in order → the ones winnowing keeps (Schleimer, Wilkerson, Aiken 2003).

Winnowing with window ``w`` looks at every run of ``w`` consecutive shingle hashes and keeps
the smallest.  On a tie, robust winnowing keeps the position kept for the window before when
it is still inside this window, and otherwise the rightmost of the smallest, so that a run of
equal hashes (a repeated phrase) gives few positions.  Two texts that share ``w`` consecutive
shingles (a run of ``w + k − 1`` words) share that window's minimum and both keep it: a
guarantee that keeping hashes by their value (mod-m sampling) cannot give.  On random hashes
a text keeps about ``2 / (w + 1)`` of its positions.

A text of fewer than ``w`` shingles is one window: its smallest hash is kept.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

__all__ = ["winnow", "winnowed"]


def winnow(hashes: np.ndarray, w: int) -> np.ndarray:
    """The positions robust winnowing with window ``w`` keeps in ``hashes`` (in text order),
    ascending."""
    n = len(hashes)
    if w == 1 or n == 0:
        return np.arange(n)
    width = min(w, n)
    windows = sliding_window_view(hashes, width)
    starts = np.arange(len(windows))
    rightmost = starts + (width - 1 - windows[:, ::-1].argmin(axis=1))
    leftmost = starts + windows.argmin(axis=1)
    if np.array_equal(leftmost, rightmost):  # no window has its minimum twice: no tie to break
        return np.unique(rightmost)
    return np.unique(_robust(hashes, rightmost))


def _robust(hashes: np.ndarray, rightmost: np.ndarray) -> list[int]:
    """Each window's position: the previous window's when it is inside this one and still
    the smallest, otherwise the rightmost smallest."""
    values = hashes.tolist()
    chosen = []
    kept = -1
    for start, right in enumerate(rightmost.tolist()):
        if kept < start or values[kept] != values[right]:
            kept = right
        chosen.append(kept)
    return chosen


def winnowed(hashes: np.ndarray, w: int) -> np.ndarray:
    """Which windows of ``hashes`` carry a hash winnowing keeps (every occurrence of it): the
    mask an index applies to a text's windows, on the side that adds it and the side that
    checks against it alike."""
    if w == 1:
        return np.ones(len(hashes), dtype=bool)
    return np.isin(hashes, hashes[winnow(hashes, w)])
