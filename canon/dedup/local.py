"""Near-duplicate clusters of a corpus: signatures → LSH candidates → exact check → components.

Every reported pair is verified by exact Jaccard on the shingle-hash sets, so the output has
no false positives; LSH only decides which pairs are worth verifying.  Clusters are the
connected components of the verified pairs (union-find).  This is the local engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ProfileError
from ..lsh import band_keys, optimal_bands
from ..sketch import signatures

__all__ = [
    "Cluster",
    "DedupResult",
    "Entry",
    "clusters",
    "dedup",
    "exact_jaccard",
    "pairs_within",
    "verify",
]


@dataclass(frozen=True, eq=False)
class Entry:
    """A document to deduplicate: its source, sorted distinct shingle hashes and length."""

    source: str
    hashes: np.ndarray
    chars: int = 0


@dataclass(frozen=True)
class Cluster:
    members: tuple[str, ...]
    canonical: str
    pairs: tuple[tuple[str, str, float], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": len(self.members),
            "canonical": self.canonical,
            "members": list(self.members),
            "pairs": [[a, b, round(j, 6)] for a, b, j in self.pairs],
        }


@dataclass(frozen=True)
class DedupResult:
    clusters: tuple[Cluster, ...]
    documents: int
    candidate_pairs: int
    verified_pairs: int
    bands: int
    rows: int
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def in_clusters(self) -> int:
        return sum(len(c.members) for c in self.clusters)

    def summary(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "clusters": len(self.clusters),
            "documents_in_clusters": self.in_clusters,
            "candidate_pairs": self.candidate_pairs,
            "verified_pairs": self.verified_pairs,
            "bands": self.bands,
            "rows": self.rows,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
        }


def exact_jaccard(first: np.ndarray, second: np.ndarray) -> float:
    """Jaccard of two sorted arrays of distinct hashes."""
    common = len(np.intersect1d(first, second, assume_unique=True))
    return common / (len(first) + len(second) - common)


def pairs_within(members: Sequence[int]) -> list[tuple[int, int]]:
    """Every pair ``(a, b)``, ``a < b``, of documents that share a band key."""
    ordered = sorted(members)
    return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]


def _candidates(keys: np.ndarray) -> set[tuple[int, int]]:
    """Pairs of documents that share a key in some band."""
    pairs: set[tuple[int, int]] = set()
    for band in keys.T:
        order = np.argsort(band, kind="stable")
        ordered = band[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        ends = np.append(starts[1:], len(ordered))
        for start, end in zip(starts[ends - starts > 1], ends[ends - starts > 1]):
            pairs.update(pairs_within(order[start:end].tolist()))
    return pairs


def verify(
    pairs: Iterable[tuple[int, int]], hashes: Mapping[int, np.ndarray], threshold: float
) -> list[tuple[int, int, float]]:
    """The candidate pairs whose exact Jaccard reaches ``threshold``, with it."""
    verified = []
    for a, b in pairs:
        similarity = exact_jaccard(hashes[a], hashes[b])
        if similarity >= threshold:
            verified.append((a, b, similarity))
    return verified


class _UnionFind:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, item: int) -> int:
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def clusters(
    entries: Sequence[tuple[str, int]], verified: list[tuple[int, int, float]]
) -> list[Cluster]:
    """Connected components of the verified pairs; ``entries`` are ``(source, chars)``."""
    forest = _UnionFind(len(entries))
    for a, b, _ in verified:
        forest.union(a, b)
    members: dict[int, set[int]] = {}
    pairs: dict[int, list[tuple[str, str, float]]] = {}
    for a, b, similarity in sorted(verified):
        root = forest.find(a)
        members.setdefault(root, set()).update((a, b))
        pairs.setdefault(root, []).append((entries[a][0], entries[b][0], similarity))
    found = []
    for root in sorted(members):
        group = sorted(members[root])
        # The longest text stands for the cluster; among equals, the earliest.
        canonical = min(group, key=lambda i: (-entries[i][1], i))
        sources = tuple(entries[i][0] for i in group)
        found.append(Cluster(sources, entries[canonical][0], tuple(pairs[root])))
    return found


def dedup(
    entries: Sequence[Entry],
    threshold: float = 0.8,
    *,
    num_perm: int = 128,
    seed: int = 1,
    on_stage: Callable[[str], None] = lambda stage: None,
) -> DedupResult:
    """Clusters of documents whose shingle sets have Jaccard >= ``threshold``.

    ``on_stage`` is called with each stage's name as it starts (for a progress display).
    """
    if not 0 < threshold <= 1:
        raise ProfileError(f"the threshold must be in (0, 1], got {threshold}")
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    on_stage("signatures")
    bands, rows = optimal_bands(threshold, num_perm)
    sigs = signatures([e.hashes for e in entries], num_perm, seed) if entries else []
    seconds["signatures"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("candidates")
    values = np.stack([s.values for s in sigs]) if sigs else np.empty((0, num_perm), np.uint64)
    candidates = _candidates(band_keys(values, bands, rows)) if len(entries) > 1 else set()
    seconds["candidates"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("verification")
    hashes = {i: e.hashes for i, e in enumerate(entries)}
    verified = verify(sorted(candidates), hashes, threshold)
    seconds["verification"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("components")
    found = clusters([(e.source, e.chars) for e in entries], verified)
    seconds["components"] = time.perf_counter() - start
    return DedupResult(
        tuple(found), len(entries), len(candidates), len(verified), bands, rows, seconds
    )
