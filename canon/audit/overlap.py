"""Shingle sets → for each page, its closest page by exact Jaccard and its largest containment.

Every pair of pages that shares a shingle is counted exactly: the (hash, page) pairs of all
pages are sorted by hash, and each run of pages holding one hash adds one to the intersection
of every pair in it (vectorized per run length).  The work is the sum of the squared run
lengths: small for a site's main texts, where a shingle is held by a handful of pages; a
shingle on every page (text the template left in the main area) costs ``pages²`` once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Overlap", "overlaps"]


@dataclass(frozen=True)
class Overlap:
    """Per page (by position): the closest other page and its Jaccard; the largest share of the
    page's shingles found in one other page; and the page holding the largest share among those
    less similar than ``below`` (not a near duplicate), with that share (-1 and 0.0: none)."""

    closest: np.ndarray
    similarity: np.ndarray
    containment: np.ndarray
    container: np.ndarray
    contained: np.ndarray
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray]  # (a, b, Jaccard), a < b, every pair

    def similar(self, threshold: float) -> dict[tuple[int, int], float]:
        """``(a, b) → Jaccard`` of the pairs at ``threshold`` or more."""
        a, b, jaccard = self.pairs
        keep = jaccard >= threshold
        return {(int(x), int(y)): float(j) for x, y, j in zip(a[keep], b[keep], jaccard[keep])}


def _pair_counts(sets: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(a, b, shared)`` for every pair ``a < b`` of sets sharing at least one value."""
    n = len(sets)
    hashes = np.concatenate(sets) if sets else np.empty(0, np.uint64)
    owners = np.repeat(np.arange(n, dtype=np.int64), [len(s) for s in sets])
    order = np.argsort(hashes, kind="stable")
    hashes, owners = hashes[order], owners[order]
    starts = np.flatnonzero(np.concatenate(([True], hashes[1:] != hashes[:-1])))
    sizes = np.diff(np.append(starts, len(hashes)))
    codes = []
    for size in np.unique(sizes[sizes > 1]):
        first = starts[sizes == size]
        members = owners[first[:, None] + np.arange(size)]
        upper, lower = np.triu_indices(int(size), 1)
        a, b = members[:, upper], members[:, lower]
        codes.append((np.minimum(a, b) * n + np.maximum(a, b)).ravel())
    if not codes:
        empty = np.empty(0, np.int64)
        return empty, empty, empty
    pairs, shared = np.unique(np.concatenate(codes), return_counts=True)
    return pairs // n, pairs % n, shared


def _best(
    source: np.ndarray, other: np.ndarray, values: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per page, the other page of its highest value (the first among equals), and the value."""
    best, into = np.full(n, -1, np.int64), np.zeros(n)
    if len(source):
        order = np.lexsort((other, -values, source))
        firsts = order[np.concatenate(([True], source[order][1:] != source[order][:-1]))]
        best[source[firsts]] = other[firsts]
        into[source[firsts]] = values[firsts]
    return best, into


def overlaps(sets: Sequence[np.ndarray], below: float = 1.0) -> Overlap:
    """Closest pages and containment of ``sets`` (sorted distinct shingle hashes); containers
    are looked for among the pages less similar than ``below``."""
    n = len(sets)
    a, b, shared = _pair_counts(sets)
    sizes = np.array([len(s) for s in sets], dtype=np.float64)
    jaccard = shared / (sizes[a] + sizes[b] - shared) if len(a) else np.zeros(0)
    source, other = np.concatenate((a, b)), np.concatenate((b, a))
    both = np.concatenate((jaccard, jaccard))
    share = np.concatenate((shared / sizes[a], shared / sizes[b])) if len(a) else np.zeros(0)
    closest, similarity = _best(source, other, both, n)
    _, containment = _best(source, other, share, n)
    apart = both < below
    container, contained = _best(source[apart], other[apart], share[apart], n)
    return Overlap(closest, similarity, containment, container, contained, (a, b, jaccard))
