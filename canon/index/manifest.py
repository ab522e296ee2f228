"""The segment manifest in SQLite: which segments and tombstones make the index, and its counters.

Write functions run inside the caller's transaction and never commit; every change to the
segments or the tombstones bumps ``generation``, so an open reader can tell that its snapshot
is stale with one query.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .segments import SegmentInfo

__all__ = [
    "Manifest",
    "add_segments",
    "add_totals",
    "generation",
    "listed_names",
    "prune_tombstones",
    "read_manifest",
    "replace_segments",
    "take_doc_ids",
    "tombstone",
    "totals",
]


_NONE = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class Manifest:
    """The segments and tombstones of one moment of the index."""

    generation: int
    segments: tuple[SegmentInfo, ...]
    # per stream (profile id, kind): sorted int64 ids of removed documents that some segment
    # of the stream may still hold
    dead: dict[tuple[int, int], np.ndarray]

    def dead_of(self, stream: tuple[int, int]) -> np.ndarray:
        return self.dead.get(stream, _NONE)

    @property
    def tombstones(self) -> np.ndarray:
        """The removed documents whose postings some segment still holds, sorted."""
        return np.unique(np.concatenate([_NONE, *self.dead.values()]))

    def of_stream(self, stream: tuple[int, int]) -> list[SegmentInfo]:
        """The segments of ``(profile id, kind)``, oldest first."""
        return [s for s in self.segments if s.stream == stream]


def _get(db: sqlite3.Connection, key: str) -> int:
    row = db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row else 0


def _set(db: sqlite3.Connection, key: str, value: int) -> None:
    db.execute(
        "INSERT INTO state VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def generation(db: sqlite3.Connection) -> int:
    return _get(db, "generation")


def add_totals(db: sqlite3.Connection, deltas: dict[str, int]) -> None:
    """Add to the index's running totals (``texts``, ``text_bytes``, ``shingles:<profile id>``),
    kept in step with every add and remove, so ``stats`` reads them instead of every row."""
    db.executemany(
        "INSERT INTO state VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + "
        "excluded.value",
        [(f"total:{key}", delta) for key, delta in deltas.items() if delta],
    )


def totals(db: sqlite3.Connection) -> dict[str, int]:
    """The running totals, by name (those never added to are absent)."""
    rows = db.execute("SELECT key, value FROM state WHERE key LIKE 'total:%'").fetchall()
    return {key.removeprefix("total:"): int(value) for key, value in rows}


def _bump(db: sqlite3.Connection) -> None:
    _set(db, "generation", generation(db) + 1)


def read_manifest(db: sqlite3.Connection) -> Manifest:
    """The manifest, read in one transaction (unless the caller is already in one)."""
    own = not db.in_transaction
    if own:
        db.execute("BEGIN")
    try:
        gen = generation(db)
        rows = db.execute(
            "SELECT name, profile_id, rows, first_doc, last_doc, kind FROM segments "
            "ORDER BY first_doc, name"
        ).fetchall()
        dead = db.execute(
            "SELECT profile_id, kind, doc_id FROM tombstones ORDER BY profile_id, kind, doc_id"
        ).fetchall()
    finally:
        if own:
            db.execute("COMMIT")
    segments = tuple(SegmentInfo(*row) for row in rows)
    by_stream: dict[tuple[int, int], list[int]] = {}
    for profile_id, kind, doc in dead:
        by_stream.setdefault((profile_id, kind), []).append(doc)
    return Manifest(gen, segments, {s: np.array(d, dtype=np.int64) for s, d in by_stream.items()})


def listed_names(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM segments")}


def take_doc_ids(db: sqlite3.Connection, count: int) -> int:
    """The first of ``count`` new document ids; ids are never given out twice."""
    top = db.execute("SELECT coalesce(max(id), 0) FROM documents").fetchone()[0]
    first = max(_get(db, "next_doc"), int(top) + 1)
    _set(db, "next_doc", first + count)
    return first


def add_segments(db: sqlite3.Connection, segments: Sequence[SegmentInfo]) -> None:
    if not segments:
        return
    db.executemany(
        "INSERT INTO segments (name, profile_id, rows, first_doc, last_doc, kind) "
        "VALUES (?,?,?,?,?,?)",
        [(s.name, s.profile_id, s.rows, s.first_doc, s.last_doc, s.kind) for s in segments],
    )
    _bump(db)


def replace_segments(
    db: sqlite3.Connection,
    old: Sequence[SegmentInfo],
    new: SegmentInfo | None,
    applied: np.ndarray | None = None,
) -> bool:
    """Swap ``old`` (segments of one stream) for the merged ``new`` (None: nothing of them was
    left), which holds no posting of the stream's ``applied`` tombstones; False, changing
    nothing, if some of ``old`` is no longer listed (another process merged it first)."""
    names = [s.name for s in old]
    marks = ",".join("?" * len(names))
    query = f"SELECT count(*) FROM segments WHERE name IN ({marks})"
    (still,) = db.execute(query, names).fetchone()
    if still != len(names):
        return False
    db.execute(f"DELETE FROM segments WHERE name IN ({marks})", names)
    if new is not None:
        add_segments(db, [new])
    prune_tombstones(db)
    if applied is not None and len(applied):
        # The merged segment's range may cover an applied tombstone, but it holds nothing of it.
        profile_id, kind = old[0].stream
        db.executemany(
            "DELETE FROM tombstones WHERE profile_id = ? AND kind = ? AND doc_id = ? "
            "AND NOT EXISTS (SELECT 1 FROM segments s WHERE s.name != ? "
            "AND s.profile_id = tombstones.profile_id AND s.kind = tombstones.kind "
            "AND tombstones.doc_id BETWEEN s.first_doc AND s.last_doc)",
            [(profile_id, kind, d, new.name if new else "") for d in applied.tolist()],
        )
    _bump(db)
    return True


def tombstone(db: sqlite3.Connection, doc_ids: Iterable[int]) -> None:
    """Mark removed documents in each stream whose segments may still hold their postings."""
    rows = [(d, d) for d in doc_ids]
    if rows:
        db.executemany(
            "INSERT OR IGNORE INTO tombstones SELECT DISTINCT profile_id, kind, ? FROM segments "
            "WHERE ? BETWEEN first_doc AND last_doc",
            rows,
        )
        _bump(db)


def prune_tombstones(db: sqlite3.Connection) -> None:
    """Drop the tombstones no listed segment of their stream covers with its id range: no
    postings of theirs are left there."""
    db.execute(
        "DELETE FROM tombstones WHERE NOT EXISTS (SELECT 1 FROM segments s "
        "WHERE s.profile_id = tombstones.profile_id AND s.kind = tombstones.kind "
        "AND tombstones.doc_id BETWEEN s.first_doc AND s.last_doc)"
    )
