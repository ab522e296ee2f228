"""The stages of dedup that both engines share: records, candidates, verification, components.

Every reported pair is verified by exact Jaccard on the shingle-hash sets, so the output has
no false positives; LSH only decides which pairs are worth verifying.  Clusters are the
connected components of the verified pairs (union-find); each keeps one member, chosen by the
rules of :mod:`canon.dedup.keep`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..fingerprints.measures import exact_jaccard
from ..sources.collection import Failure, Item
from .keep import keep
from .origin import Origin, argument_of
from .reading import read_stream
from .settings import Reading
from .unionfind import UnionFind

__all__ = [
    "Cluster",
    "DedupResult",
    "Entry",
    "candidates",
    "clusters",
    "iter_entries",
    "pairs_within",
    "read_entries",
    "verify",
]


@dataclass(frozen=True, eq=False)
class Entry:
    """A document to deduplicate: its source, sorted distinct shingle hashes, length and
    origin (what choosing the member of a cluster to keep reads)."""

    source: str
    hashes: np.ndarray
    chars: int = 0
    origin: Origin = field(default_factory=Origin)


@dataclass(frozen=True)
class Cluster:
    """Documents joined by verified pairs (``members`` in reading order), and the one to keep,
    the ``representative``: ``chosen_by`` names the rule that chose it
    (:data:`~canon.dedup.keep.RULES`).  ``jaccard`` holds each member's exact Jaccard with
    the representative, in the order of ``members``."""

    members: tuple[str, ...]
    representative: str
    chosen_by: str
    pairs: tuple[tuple[str, str, float], ...]
    jaccard: tuple[float, ...]

    @property
    def to_remove(self) -> tuple[str, ...]:
        """The members but the representative: to remove, or redirect to it."""
        kept = self.members.index(self.representative)
        return self.members[:kept] + self.members[kept + 1 :]

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": len(self.members),
            "representative": self.representative,
            "chosen_by": self.chosen_by,
            "members": list(self.members),
            "jaccard": [round(j, 6) for j in self.jaccard],
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
    notes: tuple[str, ...] = ()  # what the run did differently and why (e.g. recomputed)

    @property
    def in_clusters(self) -> int:
        return sum(len(c.members) for c in self.clusters)

    @property
    def to_remove(self) -> int:
        """Documents in clusters but their representatives."""
        return self.in_clusters - len(self.clusters)

    def summary(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "clusters": len(self.clusters),
            "documents_in_clusters": self.in_clusters,
            "documents_to_remove": self.to_remove,
            "candidate_pairs": self.candidate_pairs,
            "verified_pairs": self.verified_pairs,
            "bands": self.bands,
            "rows": self.rows,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            **({"notes": list(self.notes)} if self.notes else {}),
        }


def pairs_within(members: Sequence[int]) -> list[tuple[int, int]]:
    """Every pair ``(a, b)``, ``a < b``, of documents that share a band key."""
    ordered = sorted(members)
    return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]


def candidates(keys: np.ndarray) -> set[tuple[int, int]]:
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


def clusters(
    entries: Sequence[tuple[str, Origin]],
    verified: list[tuple[int, int, float]],
    sets: Callable[[int], np.ndarray],
) -> list[Cluster]:
    """Connected components of the verified pairs, each with its member to keep; ``entries``
    are ``(source, origin)`` and ``sets(i)`` the shingle set of document ``i``."""
    forest = UnionFind(len(entries))
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
        kept = keep(group, entries, sets)
        sources = tuple(entries[i][0] for i in group)
        found.append(
            Cluster(sources, sources[kept.index], kept.chosen_by, tuple(pairs[root]), kept.jaccard)
        )
    return found


def iter_entries(
    inputs: Iterable[Item | Entry], reading: Reading, *, workers: int = 1
) -> Iterator[Entry | Failure]:
    """Shingle sets for dedup, one per input in order, as they are ready: items are read and
    canonicalized (in ``workers`` processes, a block at a time, taken from ``inputs`` only as
    they are needed), entries pass through, and an item that cannot be read becomes a
    Failure."""
    order: deque[Entry | int] = deque()  # inputs taken and not given back; an item's argument

    def items() -> Iterator[Item]:
        for x in inputs:
            order.append(x if isinstance(x, Entry) else argument_of(x))
            if not isinstance(x, Entry):
                yield x

    for result in read_stream(items(), reading, workers=workers):
        while isinstance(taken := order.popleft(), Entry):
            yield taken
        if isinstance(result, Failure):
            yield result
        else:
            source, chars, hashes, links = result
            moved, canonical = (links.moved_to, links.canonical) if links else (None, None)
            yield Entry(source, hashes, chars, Origin(taken, moved, canonical))
    while order:
        entry = order.popleft()
        assert isinstance(entry, Entry)  # only entries are left
        yield entry


def read_entries(
    inputs: Iterable[Item | Entry], reading: Reading, *, workers: int = 1
) -> list[Entry | Failure]:
    """:func:`iter_entries`, all at once."""
    return list(iter_entries(inputs, reading, workers=workers))
