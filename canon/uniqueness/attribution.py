"""Postings of a draft's shingles → the sources that explain them, each with its own fragments.

A source *explains* a draft when it holds at least ``min_shared`` of the draft's shingles that
are not set phrases (a shingle in more than ``common`` indexed documents identifies no source).
Only the shingles of explaining sources make fragments; each source keeps the fragments it
explains in the draft, and, when the index stores its text, the matching passages of its own.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..canonical import Fragment, canonicalize
from ..fingerprints.shingles import window_hashes
from ..index.rules import IndexedProfile, profile_of

__all__ = ["Attribution", "attribute", "fragment_owners", "passages", "windows_of"]


@dataclass(frozen=True)
class Attribution:
    """Which documents explain the draft, and with which of its distinct shingles."""

    shared: dict[int, np.ndarray]  # explaining document → the draft hashes it holds, sorted
    credited: np.ndarray  # the union of those hashes, sorted


def attribute(rows: Sequence[tuple[int, int]], min_shared: int) -> Attribution:
    """Group ``(hash, doc)`` posting rows by document; keep documents with ``min_shared``+."""
    if not rows:
        return Attribution({}, np.empty(0, dtype=np.uint64))
    table = np.asarray(rows, dtype=np.int64)
    table = table[np.lexsort((table[:, 0], table[:, 1]))]
    docs, starts, counts = np.unique(table[:, 1], return_index=True, return_counts=True)
    hashes = table[:, 0].view(np.uint64)
    shared = {
        int(doc): hashes[start : start + count]
        for doc, start, count in zip(docs, starts, counts)
        if count >= min_shared
    }
    credited = np.unique(np.concatenate(list(shared.values()))) if shared else hashes[:0]
    return Attribution(shared, credited)


def windows_of(hashes: np.ndarray, keep: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Positions of the kept windows whose hash is among ``found``."""
    return np.flatnonzero(keep & np.isin(hashes, found))


def fragment_owners(
    fragments: Sequence[Fragment], owned: Sequence[Sequence[Fragment]]
) -> tuple[tuple[int, ...], ...]:
    """For each of the merged ``fragments``, the indices of the sources (``owned[i]``: the
    fragments of source ``i``) that hold part of it.  Each source fragment lies inside one
    merged fragment, so this is a binary search a source fragment."""
    starts = [f.start for f in fragments]
    owners: list[set[int]] = [set() for _ in fragments]
    for i, theirs in enumerate(owned):
        for piece in theirs:
            at = bisect_right(starts, piece.start) - 1
            if at >= 0 and piece.start < fragments[at].end:
                owners[at].add(i)
    return tuple(tuple(sorted(o)) for o in owners)


def passages(text: str, indexed: IndexedProfile, shared: np.ndarray) -> tuple[Fragment, ...]:
    """The ranges of a source's ``text`` whose shingles (under the index's rules) are among
    ``shared``: where the draft's fragments come from."""
    canonical = canonicalize(text, profile_of(indexed))
    hashes = window_hashes(canonical.tokens, indexed.k, indexed.step)
    keep = indexed.kept(hashes)
    starts = windows_of(hashes, keep, shared) * indexed.step
    return canonical.fragments(starts, indexed.k)
