"""Band keys → verified pairs, in bounded memory: LSH buckets, exact Jaccard, union-find.

Documents sharing a band key fall in one bucket.  A bucket of at most ``BUCKET_LIMIT``
documents gives all its pairs; they are kept as one int64 code each (``a · n + b``), made
distinct over the bands, sorted (so the sets of the first documents are read in order) and
every one verified.  A larger bucket (thousands of copies of one page) would give millions of
pairs, so it is walked member by member instead: the members seen so far form groups already
known to be connected, and a member is verified against each group's members only until one
reaches the threshold (then it joins that group) — a group already connected to it is skipped
unverified.  Every pair of the bucket is thus either verified or between documents already
connected, so the components are exactly those of all candidate pairs at or above the
threshold, with memory linear in the bucket's size: as many pairs as there are members for a
bucket of copies, and the full quadratic count only if no two of its members are similar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ..fingerprints.measures import exact_jaccard
from .unionfind import UnionFind

__all__ = ["BUCKET_LIMIT", "Buckets", "Linked", "buckets", "link", "walk"]

BUCKET_LIMIT = 64  # a bucket larger than this is walked, not paired out

Sets = Callable[[int], np.ndarray]


@dataclass(frozen=True)
class Buckets:
    """The distinct pairs of small buckets (sorted ``a · documents + b`` codes, ``a < b``) and
    the members (sorted) of each bucket larger than the limit."""

    documents: int
    pairs: np.ndarray
    large: tuple[np.ndarray, ...]

    def pair_list(self) -> Iterator[tuple[int, int]]:
        for start in range(0, len(self.pairs), 1 << 16):
            for code in self.pairs[start : start + (1 << 16)].tolist():
                yield divmod(code, self.documents)


def _band_buckets(band: np.ndarray, limit: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """One band's small-bucket pair codes (by bucket size) and its large buckets."""
    n = len(band)
    order = np.argsort(band, kind="stable")
    ordered = band[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    sizes = np.diff(np.append(starts, n))
    codes = []
    for size in np.unique(sizes[(sizes > 1) & (sizes <= limit)]).tolist():
        first = starts[sizes == size]
        members = np.sort(order[first[:, None] + np.arange(size)], axis=1).astype(np.int64)
        i, j = np.triu_indices(size, 1)
        codes.append((members[:, i] * n + members[:, j]).ravel())
    large = [
        np.sort(order[s : s + z]) for s, z in zip(starts.tolist(), sizes.tolist()) if z > limit
    ]
    return codes, large


def buckets(keys: np.ndarray, limit: int = BUCKET_LIMIT) -> Buckets:
    """The LSH buckets of band keys (a row per document, a column per band)."""
    n = len(keys)
    pairs = np.empty(0, dtype=np.int64)
    large: list[np.ndarray] = []
    for band in np.atleast_2d(keys).T if n else []:
        codes, found = _band_buckets(band, limit)
        if codes:
            pairs = np.unique(np.concatenate([pairs, *codes]))
        large += found
    return Buckets(n, pairs, tuple(large))


@dataclass
class Linked:
    """Verified pairs ``(a, b, jaccard)`` and how many pairs were verified."""

    verified: list[tuple[int, int, float]]
    checked: int = 0


def walk(members: np.ndarray, sets: Sets, threshold: float, forest: UnionFind, out: Linked) -> None:
    """A large bucket, member by member against the groups of the members before it."""
    groups: list[list[int]] = []
    for x in members.tolist():
        mine = sets(x)
        joined: list[int] = []
        for index, group in enumerate(groups):
            if forest.find(group[0]) == forest.find(x):
                joined.append(index)
                continue
            for y in group:
                out.checked += 1
                similarity = exact_jaccard(mine, sets(y))
                if similarity >= threshold:
                    forest.union(x, y)
                    out.verified.append((min(x, y), max(x, y), similarity))
                    joined.append(index)
                    break
        merged = [x] + [y for index in joined for y in groups[index]]
        gone = set(joined)
        groups = [g for index, g in enumerate(groups) if index not in gone] + [merged]


def link(found: Buckets, sets: Sets, threshold: float) -> Linked:
    """The candidate pairs at or above ``threshold``: every small-bucket pair verified, then the
    large buckets walked (see the module's note)."""
    out = Linked([], len(found.pairs))
    forest = UnionFind(found.documents)
    last, first = -1, np.empty(0, dtype=np.uint64)
    for a, b in found.pair_list():
        if a != last:
            last, first = a, sets(a)
        similarity = exact_jaccard(first, sets(b))
        if similarity >= threshold:
            out.verified.append((a, b, similarity))
            forest.union(a, b)
    for members in found.large:
        walk(members, sets, threshold, forest, out)
    return out
