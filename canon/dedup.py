"""Near-duplicate clusters of a corpus: signatures → LSH candidates → exact check → components.

Every reported pair is verified by exact Jaccard on the shingle-hash sets, so the output has
no false positives; LSH only decides which pairs are worth verifying.  Clusters are the
connected components of the verified pairs (union-find).  This is the local engine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import ProfileError
from .lsh import band_keys, optimal_bands
from .sketch import signatures

__all__ = ["Cluster", "DedupResult", "Entry", "dedup", "exact_jaccard"]


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


def _candidates(keys: np.ndarray) -> set[tuple[int, int]]:
    """Pairs of documents that share a key in some band."""
    pairs: set[tuple[int, int]] = set()
    for band in keys.T:
        order = np.argsort(band, kind="stable")
        ordered = band[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        ends = np.append(starts[1:], len(ordered))
        for start, end in zip(starts[ends - starts > 1], ends[ends - starts > 1]):
            members = sorted(order[start:end].tolist())
            pairs.update((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
    return pairs


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


def _clusters(entries: Sequence[Entry], verified: list[tuple[int, int, float]]) -> list[Cluster]:
    forest = _UnionFind(len(entries))
    for a, b, _ in verified:
        forest.union(a, b)
    members: dict[int, set[int]] = {}
    pairs: dict[int, list[tuple[str, str, float]]] = {}
    for a, b, similarity in sorted(verified):
        root = forest.find(a)
        members.setdefault(root, set()).update((a, b))
        pairs.setdefault(root, []).append((entries[a].source, entries[b].source, similarity))
    clusters = []
    for root in sorted(members):
        group = sorted(members[root])
        # The longest text stands for the cluster; among equals, the earliest.
        canonical = min(group, key=lambda i: (-entries[i].chars, i))
        sources = tuple(entries[i].source for i in group)
        clusters.append(Cluster(sources, entries[canonical].source, tuple(pairs[root])))
    return clusters


def dedup(
    entries: Sequence[Entry],
    threshold: float = 0.8,
    *,
    num_perm: int = 128,
    seed: int = 1,
) -> DedupResult:
    """Clusters of documents whose shingle sets have Jaccard >= ``threshold``."""
    if not 0 < threshold <= 1:
        raise ProfileError(f"the threshold must be in (0, 1], got {threshold}")
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    bands, rows = optimal_bands(threshold, num_perm)
    sigs = signatures([e.hashes for e in entries], num_perm, seed) if entries else []
    seconds["signatures"] = time.perf_counter() - start
    start = time.perf_counter()
    values = np.stack([s.values for s in sigs]) if sigs else np.empty((0, num_perm), np.uint64)
    candidates = _candidates(band_keys(values, bands, rows)) if len(entries) > 1 else set()
    seconds["candidates"] = time.perf_counter() - start
    start = time.perf_counter()
    verified = []
    for a, b in sorted(candidates):
        similarity = exact_jaccard(entries[a].hashes, entries[b].hashes)
        if similarity >= threshold:
            verified.append((a, b, similarity))
    seconds["verification"] = time.perf_counter() - start
    start = time.perf_counter()
    clusters = _clusters(entries, verified)
    seconds["components"] = time.perf_counter() - start
    return DedupResult(
        tuple(clusters), len(entries), len(candidates), len(verified), bands, rows, seconds
    )
