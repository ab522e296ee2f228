"""A version-3, 4, 5 or 6 index → version 7 in place: postings moved into segments, checksummed,
hash sets coded compactly.

Version 7 keeps each document's shingle hashes Elias–Fano coded (:mod:`canon.index.hashsets`)
where older versions kept a plain uint64 blob: every ``doc_profiles`` row is coded again, a
run of rows at a time.  Version 6 keeps a checksum of each segment's files in the manifest and
a running total of each stream's postings.  A version-5 file gets both: the checksums are taken
of its segment files as they are (each first checked to hold what its row says: dtype, length,
document range), the totals counted from the manifest.

What a version-5 index keeps in segments is already in a version-3 or 4 file in another form,
so for those the segments are written from it, a run of documents at a time, and fsynced:

- shingle postings (version 3 kept them in a table) from the documents' sorted hash blobs
  (``doc_profiles.hashes``, exactly the postings each document has);
- band keys from the ``bands`` table, as they are;
- content lemmas from the documents' sentence blobs (the ``lemma_postings`` table lacks the
  common lemmas, the blobs hold every one).

Then one transaction, under the write lock, creates the new tables (and the manifest's ``kind``
and ``checksum`` columns), moves the ``doc_profiles`` rows into the keyed table of version 5
and their sentence blobs into ``doc_sentences``, lists the segments, drops the old tables,
codes the hash sets again and marks the file version 7.  A kill before that commit leaves the
old file and unlisted segment files (deleted when the upgrade is run again); after it, a
version-7 index.  The freed pages are then given back (``VACUUM``) and the segments merged by
the tiered policy.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..fingerprints.sentences import SentenceSets
from .connection import open_file, reading, use_wal, write_error
from .manifest import add_segments, add_totals, recount_postings, take_doc_ids
from .mapping import checksum_of
from .merging import merge_due
from .schema import (
    APPLICATION_ID,
    CHECKSUM_DDL,
    KIND_DDL,
    PROFILE_SLOTS,
    SCHEMA_VERSION,
    SEGMENTS_DDL,
    TOMBSTONES_DDL,
    UPGRADABLE,
    V5_DDL,
    blob,
    check_schema,
    create_tables,
    raw_unblob,
)
from .segments import (
    BANDS,
    LEMMAS,
    SHINGLES,
    SegmentInfo,
    Staged,
    clean,
    ensure_folder,
    folder_of,
    sort_postings,
)

__all__ = ["UpgradeReport", "upgrade"]

_RUN = 20_000  # documents a segment is written from
_BAND_ROWS = 1_000_000  # band rows a segment is written from


@dataclass(frozen=True)
class UpgradeReport:
    version: int  # the version the file had
    documents: int
    segments: int  # segments written (before merging)

    @property
    def upgraded(self) -> bool:
        return self.version < SCHEMA_VERSION


def _marks(db: sqlite3.Connection) -> tuple[int, int]:
    app = db.execute("PRAGMA application_id").fetchone()[0]
    return int(app), int(db.execute("PRAGMA user_version").fetchone()[0])


def _profile_ids(db: sqlite3.Connection) -> list[int]:
    return [pid for (pid,) in db.execute("SELECT id FROM profiles ORDER BY id").fetchall()]


def _lemmas(data: bytes) -> np.ndarray:
    return SentenceSets.from_bytes(data).distinct()


def _from_blobs(
    db: sqlite3.Connection,
    staged: Staged,
    column: str,
    keys_of: Callable[[bytes], np.ndarray],
    kind: int,
) -> list[SegmentInfo]:
    """Segments of every profile's ``kind`` stream, from the keys of the documents'
    ``column`` blobs in ``doc_profiles``, a run of documents a segment."""
    written = []
    for profile_id in _profile_ids(db):
        cursor = db.execute(
            f"SELECT doc_id, {column} FROM doc_profiles WHERE profile_id = ? "
            f"AND {column} IS NOT NULL ORDER BY doc_id",
            (profile_id,),
        )
        while rows := cursor.fetchmany(_RUN):
            sets = [keys_of(data) for _, data in rows]
            keys = np.concatenate(sets)
            if len(keys):
                ids = np.repeat([doc for doc, _ in rows], [len(s) for s in sets])
                written.append(staged.write((profile_id, kind), *sort_postings(keys, ids)))
    return written


def _from_bands(db: sqlite3.Connection, staged: Staged) -> list[SegmentInfo]:
    """Segments of every profile's band stream, from the ``bands`` table."""
    written = []
    for profile_id in _profile_ids(db):
        cursor = db.execute("SELECT key, doc_id FROM bands WHERE profile_id = ?", (profile_id,))
        while rows := cursor.fetchmany(_BAND_ROWS):
            keys, docs = np.array(rows, dtype=np.int64).T
            sorted_rows = sort_postings(keys.view(np.uint64), docs)
            written.append(staged.write((profile_id, BANDS), *sorted_rows))
    return written


def _tombstones_by_stream(db: sqlite3.Connection) -> None:
    """Version 4's tombstones (ids alone, for the shingle segments) as version 5's, by stream."""
    db.execute("ALTER TABLE tombstones RENAME TO tombstones_v4")
    create_tables(db, TOMBSTONES_DDL)
    db.execute(
        "INSERT INTO tombstones SELECT DISTINCT s.profile_id, s.kind, t.doc_id "
        "FROM tombstones_v4 t JOIN segments s ON t.doc_id BETWEEN s.first_doc AND s.last_doc"
    )
    db.execute("DROP TABLE tombstones_v4")


def _rows_by_key(db: sqlite3.Connection) -> None:
    """The old ``doc_profiles`` rows into the new keyed tables, its sentences apart."""
    db.execute("ALTER TABLE doc_profiles RENAME TO doc_profiles_v4")
    create_tables(db, V5_DDL)
    db.execute(
        "INSERT INTO doc_profiles SELECT doc_id * ? + profile_id, doc_id, profile_id, words, "
        "shingles, hashes, signature FROM doc_profiles_v4 ORDER BY doc_id, profile_id",
        (PROFILE_SLOTS,),
    )
    db.execute(
        "INSERT INTO doc_sentences SELECT doc_id * ? + profile_id, sentences FROM "
        "doc_profiles_v4 WHERE sentences IS NOT NULL ORDER BY doc_id, profile_id",
        (PROFILE_SLOTS,),
    )
    db.execute("DROP TABLE doc_profiles_v4")


def _recounted(db: sqlite3.Connection) -> dict[str, int]:
    """The running totals version 5 keeps, counted once from the rows."""
    texts, text_bytes = db.execute(
        "SELECT count(text), coalesce(sum(length(text)), 0) FROM documents"
    ).fetchone()
    found = {"texts": int(texts), "text_bytes": int(text_bytes)}
    for profile_id, shingles in db.execute(
        "SELECT profile_id, sum(shingles) FROM doc_profiles GROUP BY profile_id"
    ):
        found[f"shingles:{profile_id}"] = int(shingles)
    return found


def _checksums(db: sqlite3.Connection, path: Path) -> None:
    """A checksum for each segment an older version listed without one."""
    folder = folder_of(path)
    rows = db.execute(
        "SELECT name, profile_id, rows, first_doc, last_doc, kind FROM segments WHERE checksum = ''"
    ).fetchall()
    for row in rows:
        info = SegmentInfo(*row)
        checksum = checksum_of(path, folder, info)
        db.execute("UPDATE segments SET checksum = ? WHERE name = ?", (checksum, info.name))


def _to_version_5(db: sqlite3.Connection, staged: Staged, version: int) -> list[SegmentInfo]:
    """The steps from version 3 or 4 to the tables of version 5 (with the manifest's column
    of version 6); the segments they wrote."""
    written = []
    if version == 3:
        written += _from_blobs(db, staged, "hashes", raw_unblob, SHINGLES)
        create_tables(db, SEGMENTS_DDL)
        db.execute("DROP TABLE postings")
    else:
        db.execute(KIND_DDL)
        db.execute(CHECKSUM_DDL)
        _checksums(db, staged.path)  # the shingle segments version 4 wrote
        _tombstones_by_stream(db)
    written += _from_bands(db, staged)
    written += _from_blobs(db, staged, "sentences", _lemmas, LEMMAS)
    _rows_by_key(db)
    add_segments(db, written)
    db.execute("DELETE FROM state WHERE key LIKE 'total:%'")
    add_totals(db, _recounted(db))
    take_doc_ids(db, 0)  # ids go on from the highest one
    for table in ("bands", "lemma_postings", "lemmas"):
        db.execute(f"DROP TABLE {table}")
    return written


def _code_sets(db: sqlite3.Connection) -> None:
    """Every ``doc_profiles`` hash blob of versions up to 6 coded as version 7 keeps it."""
    query = "SELECT id, hashes FROM doc_profiles WHERE id > ? ORDER BY id LIMIT ?"
    last = -1
    while rows := db.execute(query, (last, _RUN)).fetchall():
        coded = [(blob(raw_unblob(data)), key) for key, data in rows]
        db.executemany("UPDATE doc_profiles SET hashes = ? WHERE id = ?", coded)
        last = rows[-1][0]


def _to_current(db: sqlite3.Connection, staged: Staged, version: int) -> list[SegmentInfo]:
    """The steps of the migration, inside its transaction; the segments it wrote."""
    written = []
    if version < 5:
        written = _to_version_5(db, staged, version)
    elif version == 5:
        db.execute(CHECKSUM_DDL)
        _checksums(db, staged.path)
    _code_sets(db)
    recount_postings(db)
    return written


def _migrate(db: sqlite3.Connection, path: Path, version: int) -> tuple[int, int]:
    """The migration's one transaction; ``(documents, segments)``."""
    with Staged(path, ensure_folder(path)) as staged:
        db.execute("BEGIN IMMEDIATE")
        try:
            written = _to_current(db, staged, version)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            documents = db.execute("SELECT count(*) FROM documents").fetchone()[0]
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    return int(documents), len(written)


def upgrade(path: str | Path) -> UpgradeReport:
    """Migrate the index at ``path`` to this canon's schema version, in place."""
    path = Path(path)
    db = open_file(path)
    try:
        with reading(path):
            app, version = _marks(db)
            if app != APPLICATION_ID or not UPGRADABLE <= version < SCHEMA_VERSION:
                check_schema(db, path)  # refuses what is no index, or too old, or newer
                return UpgradeReport(version, 0, 0)
            use_wal(db)
            listed: set[str] = set()
            if version > 3:
                listed = {n for (n,) in db.execute("SELECT name FROM segments")}
            clean(path, lambda: listed)  # segments the old file does not list are orphans
        try:
            documents, segments = _migrate(db, path, version)
        except sqlite3.Error as exc:
            raise write_error(path, exc) from exc
        with reading(path):
            db.execute("VACUUM")  # the dropped tables' and the shrunk rows' pages given back
            merge_due(db, path)
    finally:
        db.close()
    return UpgradeReport(version, documents, segments)
