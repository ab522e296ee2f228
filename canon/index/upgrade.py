"""A version-3 index → version 4 in place: its postings table moved into segments, crash-safe.

The documents' shingle hashes are already in the file, one sorted blob per document and
profile (``doc_profiles.hashes``, exactly the postings each document has), so the segments are
written from them, a run of documents at a time, and fsynced.  Then one transaction, under
the write lock, creates the manifest tables, lists the segments, drops the postings table and
marks the file version 4.  A kill before that commit leaves a version-3 file and unlisted
segment files (deleted when the upgrade is run again); after it, a version-4 index.  The freed
pages are then given back (``VACUUM``) and the segments merged by the tiered policy.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .connection import _check_path, _connect, _use_wal, reading, write_error
from .manifest import add_segments, take_doc_ids
from .merging import merge_due
from .schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    SEGMENTS_DDL,
    UPGRADABLE,
    check_schema,
    create_tables,
    unblob,
)
from .segments import SegmentInfo, Staged, clean, ensure_folder, sort_postings

__all__ = ["UpgradeReport", "upgrade"]

_RUN = 20_000  # documents a segment is written from


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


def _write_segments(db: sqlite3.Connection, staged: Staged) -> list[SegmentInfo]:
    """Segments of every profile's postings, from the documents' hash blobs."""
    written = []
    for (profile_id,) in db.execute("SELECT id FROM profiles ORDER BY id").fetchall():
        cursor = db.execute(
            "SELECT doc_id, hashes FROM doc_profiles WHERE profile_id = ? ORDER BY doc_id",
            (profile_id,),
        )
        while rows := cursor.fetchmany(_RUN):
            sets = [unblob(data) for _, data in rows]
            hashes = np.concatenate(sets)
            if not len(hashes):
                continue
            docs = np.repeat([doc for doc, _ in rows], [len(s) for s in sets])
            written.append(staged.write(profile_id, *sort_postings(hashes, docs)))
    return written


def _migrate(db: sqlite3.Connection, path: Path) -> tuple[int, int]:
    """The migration's one transaction; ``(documents, segments)``."""
    with Staged(path, ensure_folder(path)) as staged:
        db.execute("BEGIN IMMEDIATE")
        try:
            written = _write_segments(db, staged)
            create_tables(db, SEGMENTS_DDL)
            add_segments(db, written)
            take_doc_ids(db, 0)  # ids go on from the highest one
            db.execute("DROP TABLE postings")
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
    _check_path(path, create=False, readonly=False)
    db = _connect(path, readonly=False)
    try:
        with reading(path):
            app, version = _marks(db)
            if app != APPLICATION_ID or not UPGRADABLE <= version < SCHEMA_VERSION:
                check_schema(db, path)  # refuses what is no index, or too old, or newer
                return UpgradeReport(version, 0, 0)
            _use_wal(db)
            clean(path, set)  # a version-3 file lists no segment: any there are orphans
        try:
            documents, segments = _migrate(db, path)
        except sqlite3.Error as exc:
            raise write_error(path, exc) from exc
        with reading(path):
            db.execute("VACUUM")  # the dropped table's pages back to the file system
            merge_due(db, path)
    finally:
        db.close()
    return UpgradeReport(version, documents, segments)
