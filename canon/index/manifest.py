"""The segment manifest in SQLite: which segments and tombstones make the index, and its counters.

Write functions run inside the caller's transaction and never commit; every change to the
segments or the tombstones bumps ``generation``, so an open reader can tell that its snapshot
is stale with one query.  Every listed or unlisted segment also moves its stream's running
total of postings (``state``: ``total:postings:PROFILE:KIND``), so a row lost from the manifest
(or added to it) shows as a total its rows no longer add up to (:func:`inconsistencies`),
found without reading a segment.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .segments import BANDS, LEMMAS, SHINGLES, SegmentInfo

__all__ = [
    "Manifest",
    "add_segments",
    "add_totals",
    "generation",
    "inconsistencies",
    "listed_names",
    "prune_tombstones",
    "read_manifest",
    "recount_postings",
    "replace_segments",
    "stream_name",
    "take_doc_ids",
    "tombstone",
    "totals",
]


_NONE = np.zeros(0, dtype=np.int64)
_KINDS = {SHINGLES: "shingle", BANDS: "band key", LEMMAS: "lemma"}
_POSTINGS = "postings:"  # the running total of a stream's postings: postings:PROFILE:KIND


@dataclass(frozen=True)
class Manifest:
    """The segments and tombstones of one moment of the index."""

    generation: int
    segments: tuple[SegmentInfo, ...]
    # per stream (profile id, kind): sorted int64 ids of removed documents that some segment
    # of the stream may still hold
    dead: dict[tuple[int, int], np.ndarray]
    # the highest document id given out so far
    top_doc: int = 0
    # per stream, the postings its segments hold as the writers counted them (every add of a
    # segment, every merge kept it in step), to compare with what the manifest lists
    written: dict[tuple[int, int], int] = field(default_factory=dict)

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
            "SELECT name, profile_id, rows, first_doc, last_doc, kind, checksum FROM segments "
            "ORDER BY first_doc, name"
        ).fetchall()
        dead = db.execute(
            "SELECT profile_id, kind, doc_id FROM tombstones ORDER BY profile_id, kind, doc_id"
        ).fetchall()
        top = db.execute("SELECT coalesce(max(id), 0) FROM documents").fetchone()[0]
        top = max(int(top), _get(db, "next_doc") - 1)
        kept = totals(db)
    finally:
        if own:
            db.execute("COMMIT")
    segments = tuple(SegmentInfo(*row) for row in rows)
    by_stream: dict[tuple[int, int], list[int]] = {}
    for profile_id, kind, doc in dead:
        by_stream.setdefault((profile_id, kind), []).append(doc)
    written = {
        (int(p), int(k)): v
        for key, v in kept.items()
        if key.startswith(_POSTINGS)
        for p, k in [key.removeprefix(_POSTINGS).split(":")]
    }
    dead_ids = {s: np.array(d, dtype=np.int64) for s, d in by_stream.items()}
    return Manifest(gen, segments, dead_ids, top, written)


def stream_name(stream: tuple[int, int]) -> str:
    """``profile 2's shingle stream``: a stream in words."""
    profile_id, kind = stream
    return f"profile {profile_id}'s {_KINDS.get(kind, f'kind-{kind}')} stream"


def inconsistencies(manifest: Manifest) -> list[str]:
    """What in ``manifest`` cannot be (nothing reads a segment file to find it): rows whose
    postings add up to other totals than the writers counted (a row lost or added by hand),
    a row whose documents are outside the ids given out; each in words."""
    found = []
    listed: dict[tuple[int, int], int] = {}
    for info in manifest.segments:
        listed[info.stream] = listed.get(info.stream, 0) + info.rows
        if not 1 <= info.first_doc <= info.last_doc <= manifest.top_doc or info.rows < 1:
            found.append(
                f"the manifest row of segment {info.name} gives {info.rows} postings of "
                f"documents {info.first_doc}..{info.last_doc}, where the index has given out "
                f"ids 1..{manifest.top_doc}"
            )
    for stream in sorted(listed.keys() | manifest.written.keys()):
        have, counted = listed.get(stream, 0), manifest.written.get(stream, 0)
        if have != counted:
            found.append(
                f"the manifest lists {have} postings of {stream_name(stream)} where "
                f"{counted} were written (a segment's row was lost or added)"
            )
    return found


def listed_names(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM segments")}


def take_doc_ids(db: sqlite3.Connection, count: int) -> int:
    """The first of ``count`` new document ids; ids are never given out twice."""
    top = db.execute("SELECT coalesce(max(id), 0) FROM documents").fetchone()[0]
    first = max(_get(db, "next_doc"), int(top) + 1)
    _set(db, "next_doc", first + count)
    return first


def _postings_key(stream: tuple[int, int]) -> str:
    return f"{_POSTINGS}{stream[0]}:{stream[1]}"


def _count_postings(db: sqlite3.Connection, segments: Sequence[SegmentInfo], sign: int) -> None:
    deltas: dict[str, int] = {}
    for s in segments:
        deltas[_postings_key(s.stream)] = deltas.get(_postings_key(s.stream), 0) + sign * s.rows
    add_totals(db, deltas)


def recount_postings(db: sqlite3.Connection) -> None:
    """The running totals of each stream's postings, counted again from the manifest's rows
    (an upgrade starts them so)."""
    db.execute("DELETE FROM state WHERE key LIKE ?", (f"total:{_POSTINGS}%",))
    add_totals(
        db,
        {
            _postings_key((p, k)): int(rows)
            for p, k, rows in db.execute(
                "SELECT profile_id, kind, sum(rows) FROM segments GROUP BY profile_id, kind"
            )
        },
    )


def add_segments(db: sqlite3.Connection, segments: Sequence[SegmentInfo]) -> None:
    """List new segments, counting their postings into their streams' running totals."""
    if not segments:
        return
    db.executemany(
        "INSERT INTO segments (name, profile_id, rows, first_doc, last_doc, kind, checksum) "
        "VALUES (?,?,?,?,?,?,?)",
        [
            (s.name, s.profile_id, s.rows, s.first_doc, s.last_doc, s.kind, s.checksum)
            for s in segments
        ],
    )
    _count_postings(db, segments, +1)
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
    _count_postings(db, old, -1)
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
