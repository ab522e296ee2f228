"""A manifest → the segments it lists, mapped and held: a reader's consistent view of the postings.

A snapshot is read in one SQLite transaction (the segments and the tombstones of one
moment) and holds every segment it maps with a shared lock, so no merge deletes a file under
it.  Before a lookup reads anything, the manifest is checked (its rows add up to the postings
written, their documents are ids given out) and each segment too, the first time this process
opens it (:mod:`canon.index.mapping`): a damaged index is refused, never answered from.
The lookups of an open :class:`~canon.index.store.Index` go through its snapshot, which is
read again when the manifest's generation has moved on (another process added or merged).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .damage import damaged
from .manifest import Manifest, generation, inconsistencies, read_manifest
from .mapping import Mapped, open_segment
from .segments import folder_lock, folder_of

__all__ = ["Snapshot", "check_manifest", "is_stale", "load_snapshot"]

_RETRIES = 20  # manifests read again when a listed file was just merged away


@dataclass
class _Hits:
    """Postings of probed hashes: the row ranges of each segment, and the probes' counts."""

    ranges: list[tuple[Mapped, np.ndarray, np.ndarray]]  # (segment, lo, hi) aligned with probes
    counts: np.ndarray  # postings per probe, tombstoned ones included


def _ranges(segments: list[Mapped], probes: np.ndarray) -> _Hits:
    """Each sorted probe's rows in each segment: one binary search for where it would be, a
    second one only for the probes found there (most shingles of a draft are in no segment)."""
    counts = np.zeros(len(probes), dtype=np.int64)
    ranges = []
    for seg in segments:
        lo = np.searchsorted(seg.hashes, probes, side="left")
        found = np.flatnonzero(lo < seg.info.rows)
        found = found[np.asarray(seg.hashes[lo[found]]) == probes[found]]
        hi = lo.copy()
        hi[found] = np.searchsorted(seg.hashes, probes[found], side="right")
        counts += hi - lo
        ranges.append((seg, lo, hi))
    return _Hits(ranges, counts)


def _gather(hits: _Hits, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(probe index, hash, doc)`` of every posting of the ``wanted`` probes."""
    probe_parts, hash_parts, doc_parts = [], [], []
    for seg, lo, hi in hits.ranges:
        lengths = np.where(wanted, hi - lo, 0)
        total = int(lengths.sum())
        if not total:
            continue
        which = np.repeat(np.arange(len(lo)), lengths)
        # each row's offset within its probe's range, added to the range's start
        offsets = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        rows = lo[which] + offsets
        probe_parts.append(which)
        hash_parts.append(np.asarray(seg.hashes[rows]))
        doc_parts.append(np.asarray(seg.docs[rows], dtype=np.int64))
    if not probe_parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, np.zeros(0, dtype=np.uint64), empty
    return np.concatenate(probe_parts), np.concatenate(hash_parts), np.concatenate(doc_parts)


@dataclass
class Snapshot:
    """The mapped segments of one manifest."""

    manifest: Manifest
    mapped: dict[tuple[int, int], list[Mapped]]  # stream (profile id, kind) → its segments

    def close(self) -> None:
        for segments in self.mapped.values():
            for seg in segments:
                seg.close()

    def everything(self, stream: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """Every live posting of ``stream``, ``(keys, docs)``, in no particular order."""
        segments = self.mapped.get(stream, [])
        if not segments:
            return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
        hashes = np.concatenate([np.asarray(s.hashes) for s in segments]).astype(np.uint64)
        docs = np.concatenate([np.asarray(s.docs) for s in segments]).astype(np.int64)
        live = ~np.isin(docs, self.manifest.dead_of(stream))
        return hashes[live], docs[live]

    def counts(self, stream: tuple[int, int], keys: np.ndarray) -> np.ndarray:
        """How many live documents hold each of ``keys`` (aligned with them), by binary search:
        no posting is read unless a tombstone falls in a segment's range."""
        probes, back = np.unique(np.asarray(keys, dtype=np.uint64), return_inverse=True)
        hits = _ranges(self.mapped.get(stream, []), probes)
        counts = hits.counts.copy()
        dead = self.manifest.dead_of(stream)
        if len(dead):
            for seg, lo, hi in hits.ranges:
                counts -= _dead_in(seg, lo, hi, dead)
        return counts[back.reshape(-1)]

    def lookup(
        self, stream: tuple[int, int], hashes: np.ndarray, common: int | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(keys, docs)`` of every live posting of ``hashes`` in ``stream``, and the
        probed keys held by more than ``common`` live documents (those have no rows)."""
        probes = np.unique(np.asarray(hashes, dtype=np.uint64))
        hits = _ranges(self.mapped.get(stream, []), probes)
        dead = self.manifest.dead_of(stream)
        wanted = hits.counts > 0
        sure = np.zeros(len(probes), dtype=bool)
        if common is not None:
            # A removed document holds a hash at most once, so beyond ``common`` + tombstones
            # the count is over ``common`` whatever the tombstones are.
            sure = hits.counts > common + len(dead)
            wanted &= ~sure
        which, found, docs = _gather(hits, wanted)
        if len(dead):
            live = ~np.isin(docs, dead)
            which, found, docs = which[live], found[live], docs[live]
        frequent = sure
        if common is not None:
            frequent = sure | (np.bincount(which, minlength=len(probes)) > common)
            keep = ~frequent[which]
            found, docs = found[keep], docs[keep]
        return found, docs, probes[frequent]


_GATHER = 256  # postings of a probe read at once to find tombstoned ones; beyond, searched


def _dead_in(seg: Mapped, lo: np.ndarray, hi: np.ndarray, dead: np.ndarray) -> np.ndarray:
    """How many tombstoned documents each probe's rows ``lo:hi`` of ``seg`` hold.  A probe's
    rows are sorted by document, so a long run is searched for the tombstones, not read."""
    inside = dead[(dead >= seg.info.first_doc) & (dead <= seg.info.last_doc)]
    found = np.zeros(len(lo), dtype=np.int64)
    if not len(inside):
        return found
    lengths = hi - lo
    short = (lengths > 0) & (lengths <= _GATHER)
    if short.any():
        hits = _Hits([(seg, lo, hi)], lengths)
        which, _, docs = _gather(hits, short)
        found += np.bincount(which[np.isin(docs, inside)], minlength=len(lo))
    for at in np.flatnonzero(lengths > _GATHER).tolist():
        run = seg.docs[lo[at] : hi[at]]
        where = np.minimum(np.searchsorted(run, inside), len(run) - 1)
        found[at] += int(np.count_nonzero(run[where] == inside))
    return found


def _open_all(path: Path, folder: Path, manifest: Manifest) -> dict[tuple[int, int], list[Mapped]]:
    mapped: dict[tuple[int, int], list[Mapped]] = {}
    try:
        for info in manifest.segments:
            mapped.setdefault(info.stream, []).append(open_segment(path, folder, info))
    except BaseException:
        for segments in mapped.values():
            for seg in segments:
                seg.close()
        raise
    return mapped


def check_manifest(path: Path, manifest: Manifest) -> None:
    """Refuse a manifest whose rows cannot be right (:func:`~.manifest.inconsistencies`)."""
    found = inconsistencies(manifest)
    if found:
        raise damaged(path, found[0])


def load_snapshot(db: sqlite3.Connection, path: Path) -> Snapshot:
    """The current manifest with its segments mapped, checked and held."""
    folder = folder_of(path)
    missing = ""
    for _ in range(_RETRIES):
        with folder_lock(folder, exclusive=False):
            manifest = read_manifest(db)
            check_manifest(path, manifest)
            try:
                return Snapshot(manifest, _open_all(path, folder, manifest))
            except FileNotFoundError as exc:
                missing = str(exc.filename)
                continue  # merged away and deleted since this manifest: read the new one
    raise damaged(path, f"the segment file {missing}, which its manifest lists, is missing")


def is_stale(db: sqlite3.Connection, snapshot: Snapshot) -> bool:
    return generation(db) != snapshot.manifest.generation
