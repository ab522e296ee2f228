"""A cluster → the member to keep (its representative), by stated rules, and the rule that
decided.

Each rule, in this order, keeps the members it ranks best among those left; the first rule
that leaves one member decides, and names it in ``chosen_by``:

1. ``canonical``: the member that the most other members' ``<link rel="canonical">`` name
   (by its address or where its redirects ended).  Only pages read from URLs, or from JSON
   Lines records with a ``url`` and ``html``, have an address to be named by; an index keeps
   no canonical links, so its documents are not ranked by this rule.
2. ``least-boilerplate``: the member closest to the content the members share: the fewest
   shingles that no other member has (what a copy adds: a site's menus and footers, ads,
   a signature) plus shingles that two or more members share and it lacks.  Of two members
   only, the one contained in the other wins: which of them is complete cannot be told.
3. ``earliest-argument``: named by the earliest SOURCE argument (an index's documents come
   before all of them); the documents of one folder, ``@list`` or JSON Lines file tie.
4. ``shortest-source``: the shortest URL or path.
5. ``first-read``: the first in reading order (always decides).

Each member's exact Jaccard with the kept one comes along: its sets are read anyway.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..fingerprints.measures import exact_jaccard
from ..workers import blocks
from .origin import Origin, addresses

__all__ = ["HELD", "RULES", "Kept", "keep"]

RULES = ("canonical", "least-boilerplate", "earliest-argument", "shortest-source", "first-read")
HELD = 256  # a cluster of at most this many members has its sets read once, then held
_TALLY_CHUNK = 64  # sets merged into the tally at once

Sets = Callable[[int], np.ndarray]


@dataclass(frozen=True)
class Kept:
    """The member kept (``index`` into the cluster's members), the rule that chose it, and
    each member's exact Jaccard with it (1.0 for itself)."""

    index: int
    chosen_by: str
    jaccard: tuple[float, ...]


def _votes(sources: Sequence[str], origins: Sequence[Origin]) -> list[int]:
    """How many other members' canonical links name each member."""
    named = Counter(o.canonical for o in origins if o.canonical is not None)
    if not named:
        return [0] * len(sources)
    votes = []
    for source, origin in zip(sources, origins):
        own = addresses(source, origin)
        votes.append(sum(named[a] for a in own) - (origin.canonical in own))
    return votes


def _tally(sets: Iterator[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct shingle of the members (sorted) and how many members hold it, merged a
    chunk of sets at a time: memory follows the members' union, not their sum."""
    keys = np.empty(0, dtype=np.uint64)
    counts = np.empty(0, dtype=np.int64)
    for chunk in blocks(sets, _TALLY_CHUNK):
        merged = np.concatenate([keys, *chunk])
        weights = np.concatenate([counts, np.ones(len(merged) - len(keys), dtype=np.int64)])
        keys, inverse = np.unique(merged, return_inverse=True)
        counts = np.bincount(inverse, weights=weights, minlength=len(keys)).astype(np.int64)
    return keys, counts


def _distances(members: _Members) -> list[int]:
    """Each member's shingles that no other member has, plus those two or more members share
    and it lacks."""
    keys, counts = _tally(iter(members))
    shared = int(np.count_nonzero(counts >= 2))
    distances = []
    for hashes in members:
        held = counts[np.searchsorted(keys, hashes)] if len(hashes) else counts[:0]
        own = int(np.count_nonzero(held == 1))
        distances.append(own + shared - int(np.count_nonzero(held >= 2)))
    return distances


class _Members:
    """The members' sets, in order, as often as asked: held when the cluster is small (each
    read once), else read again each time."""

    def __init__(self, positions: Sequence[int], sets: Sets) -> None:
        self._positions, self._sets = positions, sets
        self._held = [sets(p) for p in positions] if len(positions) <= HELD else None

    def __iter__(self) -> Iterator[np.ndarray]:
        if self._held is not None:
            return iter(self._held)
        return (self._sets(p) for p in self._positions)

    def __getitem__(self, index: int) -> np.ndarray:
        if self._held is not None:
            return self._held[index]
        return self._sets(self._positions[index])


def keep(positions: Sequence[int], documents: Sequence[tuple[str, Origin]], sets: Sets) -> Kept:
    """The member of a cluster to keep: ``positions`` are its members in reading order,
    ``documents[p]`` a document's source and origin, ``sets(p)`` its shingle set."""
    sources = [documents[p][0] for p in positions]
    origins = [documents[p][1] for p in positions]
    members = _Members(positions, sets)
    ranks: dict[str, Callable[[], Sequence[int]]] = {
        "canonical": lambda: [-v for v in _votes(sources, origins)],
        "least-boilerplate": lambda: _distances(members),
        "earliest-argument": lambda: [o.argument for o in origins],
        "shortest-source": lambda: [len(s) for s in sources],
        "first-read": lambda: positions,
    }
    left = list(range(len(positions)))
    chosen_by = RULES[-1]
    for rule in RULES:
        rank = ranks[rule]()
        best = min(rank[i] for i in left)
        left = [i for i in left if rank[i] == best]
        if len(left) == 1:
            chosen_by = rule
            break
    kept = left[0]
    mine = members[kept]
    jaccard = (1.0 if i == kept else exact_jaccard(h, mine) for i, h in enumerate(members))
    return Kept(kept, chosen_by, tuple(jaccard))
