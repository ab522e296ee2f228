"""Segments → fewer, larger segments: the tiered merge policy, a merge, a background merger.

A segment's *tier* is ``floor(log8(rows))``.  When a stream (a profile's shingles, band keys or
lemmas) has :data:`MERGE_FACTOR` segments of one tier, the oldest of them are merged into one
(of the next tier, or the same one when tombstones shrank it): each posting is rewritten about
``log8(postings / batch)`` times over the life of the index, and a stream keeps fewer than
``MERGE_FACTOR`` segments a tier, so a lookup searches a few dozen sorted arrays at most.

A merge maps its segments (held, so no cleaner deletes them; checked against their checksums
and document ranges unless this process has checked them already) and streams them into the merged
segment a hash range at a time (about :data:`CHUNK_ROWS` postings in memory, whatever the
segments' size), dropping the postings of tombstoned documents; it fsyncs the new segment, then
swaps it for its inputs in one short transaction, which also drops the tombstones no segment
covers any more. If another process merged some of the inputs first, the swap changes nothing
and the new file is deleted. The replaced files are deleted at once unless a reader still holds
them (then by a later writer's clean-up). A kill at any moment leaves either the old segments
listed or the new one, and unlisted files that the next writer deletes.

:class:`Merger` runs merges in a thread of ``canon index add``, on its own connection, while
the next batches are read and written; :func:`optimize` merges each stream's segments into
one and applies every tombstone (``canon index optimize``).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .connection import open_index, transaction
from .manifest import Manifest, listed_names, prune_tombstones, read_manifest, replace_segments
from .mapping import Mapped, open_segment
from .segments import SegmentInfo, Staged, clean, ensure_folder

__all__ = ["MERGE_FACTOR", "Merger", "OptimizeReport", "merge", "merge_due", "optimize", "plan"]

MERGE_FACTOR = 8
CHUNK_ROWS = 4_000_000  # postings a merge sorts at a time (about 100 MB with its copies)
_NO_DOC = 2**32
_ROUNDS = 1000  # merges one call makes at most (each one shrinks the segment count)


@dataclass(frozen=True)
class OptimizeReport:
    segments_before: int
    segments_after: int
    tombstones_applied: int
    files_deleted: int


def tier(rows: int) -> int:
    return int(math.log(max(rows, 1), MERGE_FACTOR))


def plan(manifest: Manifest) -> list[list[SegmentInfo]]:
    """The merges the policy asks for now: per stream and tier with ``MERGE_FACTOR``
    segments or more, its oldest ``MERGE_FACTOR``."""
    groups: dict[tuple[tuple[int, int], int], list[SegmentInfo]] = {}
    for info in manifest.segments:  # oldest first
        groups.setdefault((info.stream, tier(info.rows)), []).append(info)
    return [found[:MERGE_FACTOR] for found in groups.values() if len(found) >= MERGE_FACTOR]


def _live(mapped: Sequence[Mapped], dead: np.ndarray) -> tuple[int, tuple[int, int]]:
    """How many postings of ``mapped`` survive the tombstones ``dead``, and their documents'
    range; read a chunk at a time."""
    if not len(dead):
        infos = [m.info for m in mapped]
        rows = sum(i.rows for i in infos)
        return rows, (min(i.first_doc for i in infos), max(i.last_doc for i in infos))
    rows, low, high = 0, _NO_DOC, -1
    for m in mapped:
        for start in range(0, m.info.rows, CHUNK_ROWS):
            docs = np.asarray(m.docs[start : start + CHUNK_ROWS])
            docs = docs[~np.isin(docs, dead)]
            if len(docs):
                rows += len(docs)
                low, high = min(low, int(docs.min())), max(high, int(docs.max()))
    return rows, (low, high) if rows else (0, 0)


def _bounds(mapped: Sequence[Mapped]) -> list[np.uint64]:
    """Hash values that cut the merged postings into ranges of about :data:`CHUNK_ROWS`, taken
    from every segment's hashes at a stride (so uneven segments cut evenly)."""
    if sum(m.info.rows for m in mapped) <= CHUNK_ROWS:
        return []
    stride = max(1, CHUNK_ROWS // 1024)
    sample = np.sort(np.concatenate([np.asarray(m.hashes[::stride]) for m in mapped]))
    per_chunk = max(1, CHUNK_ROWS // stride)
    return list(np.unique(sample[per_chunk::per_chunk]))


def _chunks(
    mapped: Sequence[Mapped], dead: np.ndarray, ordered: bool
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The live postings of ``mapped``, sorted by hash then document, in consecutive hash
    ranges: each range is cut out of every segment by binary search and sorted alone."""
    cuts = [[0, *(int(np.searchsorted(m.hashes, b)) for b in _bounds(mapped)), m.info.rows]
            for m in mapped]  # fmt: skip
    for piece in range(len(cuts[0]) - 1):
        spans = [(m, c[piece], c[piece + 1]) for m, c in zip(mapped, cuts)]
        hashes = np.concatenate([np.asarray(m.hashes[a:b]) for m, a, b in spans])
        docs = np.concatenate([np.asarray(m.docs[a:b]) for m, a, b in spans])
        if len(dead):
            live = ~np.isin(docs, dead)
            hashes, docs = hashes[live], docs[live]
        # Runs of increasing ids: a stable sort by hash keeps each hash's ids in order.
        order = np.argsort(hashes, kind="stable") if ordered else np.lexsort((docs, hashes))
        yield hashes[order], docs[order]


def merge(
    db: sqlite3.Connection, path: Path, group: Sequence[SegmentInfo], dead: np.ndarray
) -> bool:
    """Merge ``group`` (segments of one stream) into one; False if another process merged
    some of it first.  The postings stream through in chunks: a merge holds about
    :data:`CHUNK_ROWS` of them, not the whole group."""
    folder = ensure_folder(path)
    ordered = all(a.last_doc < b.first_doc for a, b in itertools.pairwise(group))
    mapped: list[Mapped] = []
    try:
        mapped += [open_segment(path, folder, info) for info in group]
        rows, doc_range = _live(mapped, dead)
        with Staged(path, folder) as staged:
            chunks = _chunks(mapped, dead, ordered)
            new = staged.write_chunks(group[0].stream, rows, doc_range, chunks) if rows else None
            with transaction(db, path):
                done = replace_segments(db, group, new, dead)
    finally:
        for m in mapped:
            m.close()
    clean(path, lambda: listed_names(db))  # the replaced files, or the new one if not listed
    return done


def merge_due(db: sqlite3.Connection, path: Path) -> int:
    """Run the merges the policy asks for until it asks for none; how many were run."""
    done = 0
    for _ in range(_ROUNDS):
        manifest = read_manifest(db)
        groups = plan(manifest)
        if not groups:
            break
        done += merge(db, path, groups[0], manifest.dead_of(groups[0][0].stream))
    return done


def optimize(db: sqlite3.Connection, path: Path) -> OptimizeReport:
    """Merge each stream's segments into one, applying every tombstone; delete orphans."""
    manifest = read_manifest(db)
    before = len(manifest.segments)
    for stream in sorted({s.stream for s in manifest.segments}):
        group = manifest.of_stream(stream)
        dead = manifest.dead_of(stream)
        if len(group) > 1 or len(dead):
            merge(db, path, group, dead)
    with transaction(db, path):
        prune_tombstones(db)
    after = read_manifest(db)
    deleted = clean(path, lambda: listed_names(db))
    applied = len(manifest.tombstones) - len(after.tombstones)
    return OptimizeReport(before, len(after.segments), applied, deleted)


class Merger:
    """Merges in a background thread, on its own connection: :meth:`poke` after each
    committed batch, :meth:`finish` at the end (runs what is still due, then re-raises a
    merge's error, if any)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.merges = 0
        self._wake = threading.Event()
        self._stop = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="canon-merge", daemon=True)

    def poke(self) -> None:
        """A batch was committed.  The thread starts at the first one, after the add's worker
        processes were forked (a fork copies no running thread's locks then)."""
        if not self._thread.is_alive() and self._thread.ident is None:
            self._thread.start()
        self._wake.set()

    def finish(self) -> None:
        if self._thread.ident is None:
            return
        self._stop = True
        self._wake.set()
        self._thread.join()
        if self._error is not None:
            raise self._error

    def abandon(self) -> None:
        """Stop after the merge under way, dropping its error (another one is being raised)."""
        self._error = None
        with contextlib.suppress(BaseException):
            self.finish()

    def _run(self) -> None:
        try:
            db = open_index(self.path)
        except BaseException as exc:  # reported by finish()
            self._error = exc
            return
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                stopping = self._stop
                self.merges += merge_due(db, self.path)
                if stopping:
                    return
        except BaseException as exc:
            self._error = exc
        finally:
            db.close()
