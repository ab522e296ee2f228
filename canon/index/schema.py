"""An SQLite file → a canon index: the tables, the marks of the format, creating and checking them.

Layout (schema version 7; ``PRAGMA application_id`` marks a canon index).  The postings are
not in this file: they are immutable segment files in the folder beside it
(:mod:`canon.index.segments`), three streams per profile (shingle hashes, LSH band keys,
content lemmas); this file keeps their manifest.

- ``profiles``: each profile the index was built with: name, fingerprint, settings, k, step.
- ``documents``: source, title, added time, content hash, extraction method, length, and the
  main text compressed with zstd (NULL when the add was told not to store it).
- ``doc_profiles``: per document and profile, keyed by ``doc_id * 256 + profile_id``
  (:func:`doc_key`), the canonical word and distinct-shingle counts, the document's sorted
  shingle hashes, Elias–Fano coded (:mod:`canon.index.hashsets`; version 7, about 7.2 bytes a
  hash where versions up to 6 kept 8: a sorted little-endian uint64 blob), for exact Jaccard in
  dedup and near-duplicate checks, and its MinHash signature.  A rowid table: a row of a few KB
  lies in one leaf page (a ``WITHOUT ROWID`` table keeps about 1 KB of it there and the rest in
  an overflow page of its own, a third of the file's pages wasted).
- ``doc_sentences``: under a profile with morphology (lemma, stem), each document's sentences
  as character spans and content-lemma hash sets
  (``canon.fingerprints.sentences.SentenceSets`` bytes),
  under the same key: a table of its own, so that the sentences of a check's candidates are
  read without the rest of their rows.
- ``segments``: the manifest of the postings segments: each file's name, profile, kind (which
  stream), rows, the range of document ids it holds and the checksum of its two files
  (:mod:`canon.index.checksums`; version 6).  A segment is listed in the same
  transaction that stores its documents (or, for a merged one, drops the segments it replaces).
- ``tombstones``: per stream, ids of removed documents whose postings some listed segment of
  the stream still holds; lookups skip them, merges drop their postings, and a tombstone goes
  once the merge that dropped them leaves no other segment of its stream covering its id.
- ``state``: counters: ``next_doc`` (document ids are never given out twice, so a tombstone
  never hides a later document), ``generation`` (bumped by every manifest change, so a
  reader knows when its snapshot is stale) and running totals (``total:…``: stored texts, each
  profile's shingles, each stream's postings, so a lost manifest row shows).

A content lemma's document frequency is the number of its live postings in the lemma stream
(counted by binary search, never stored), so adding a document writes no row at a random
place of a B-tree: the ``documents``, ``doc_profiles`` and ``doc_sentences`` rows of a batch
are appended at the end of theirs (ids only grow), and the postings go to new segment files.

Creating is one ``BEGIN IMMEDIATE`` transaction that looks again, under the write lock,
whether another process created the tables first: two writers on a new file both succeed.
"""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path

import numpy as np
import zstandard

from ..errors import IndexFileError
from .hashsets import decode, encode

__all__ = [
    "APPLICATION_ID",
    "CHECKSUM_DDL",
    "KIND_DDL",
    "PAGE_SIZE",
    "PROFILE_SLOTS",
    "SCHEMA_VERSION",
    "SEGMENTS_DDL",
    "TABLES",
    "TOMBSTONES_DDL",
    "UPGRADABLE",
    "V5_DDL",
    "blob",
    "check_schema",
    "create_schema",
    "create_tables",
    "doc_key",
    "doc_keys",
    "is_blank",
    "older_message",
    "older_remedy",
    "pack_text",
    "raw_unblob",
    "signed",
    "unblob",
    "unpack_text",
]

SCHEMA_VERSION = 7  # 2: signatures, bands, hash blobs, sampling; 3: texts, sentences;
# 4: shingle segments; 5: band and lemma segments, sentences in a table of their own;
# 6: segment checksums, each stream's postings counted; 7: hash blobs Elias–Fano coded
UPGRADABLE = 3  # the oldest version the upgrade migrates
APPLICATION_ID = 0x63616E6E  # "cann"
# Pages of 16 KB: a document's rows (a few KB each) pack two or three to a page, where pages of
# 4 KB hold one and waste the rest (8.2 KB a document in doc_profiles for 5.8 KB of rows).
PAGE_SIZE = 16_384
# zstd's default level: 2.5x smaller than UTF-8 on Russian news (level 9: 2.7x, 3x slower).
_ZSTD_LEVEL = 3

PROFILE_SLOTS = 256  # profile ids a document's sentence key has room for

# Tombstones by stream (version 5; version 4 kept ids alone).
TOMBSTONES_DDL = """
CREATE TABLE tombstones (
    profile_id INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    doc_id INTEGER NOT NULL,
    PRIMARY KEY (profile_id, kind, doc_id)
) WITHOUT ROWID;
"""

# The tables version 4 added (``canon index upgrade`` creates them in a version-3 file), with
# the columns versions 5 and 6 added to ``segments`` (:data:`KIND_DDL`, :data:`CHECKSUM_DDL`).
SEGMENTS_DDL = (
    """
CREATE TABLE segments (
    name TEXT PRIMARY KEY,
    profile_id INTEGER NOT NULL REFERENCES profiles(id),
    rows INTEGER NOT NULL,
    first_doc INTEGER NOT NULL,
    last_doc INTEGER NOT NULL,
    kind INTEGER NOT NULL DEFAULT 0,
    checksum TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
"""
    + TOMBSTONES_DDL
    + """
CREATE TABLE state (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
"""
)

KIND_DDL = "ALTER TABLE segments ADD COLUMN kind INTEGER NOT NULL DEFAULT 0"
# The column version 6 added to ``segments`` (in a version-4 or 5 file).
CHECKSUM_DDL = "ALTER TABLE segments ADD COLUMN checksum TEXT NOT NULL DEFAULT ''"

# What version 5 added (``canon index upgrade`` creates it in older files).
V5_DDL = """
CREATE TABLE doc_profiles (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL,
    profile_id INTEGER NOT NULL,
    words INTEGER NOT NULL,
    shingles INTEGER NOT NULL,
    hashes BLOB NOT NULL,
    signature BLOB NOT NULL
);
CREATE TABLE doc_sentences (
    id INTEGER PRIMARY KEY,
    sentences BLOB NOT NULL
);
"""

_DDL = (
    """
CREATE TABLE profiles (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    fingerprint TEXT NOT NULL UNIQUE,
    settings TEXT NOT NULL,
    k INTEGER NOT NULL,
    step INTEGER NOT NULL,
    num_perm INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    bands INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    sample INTEGER NOT NULL
);
CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    title TEXT,
    added TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    method TEXT NOT NULL,
    chars INTEGER NOT NULL,
    final_url TEXT,
    text BLOB
);
"""
    + SEGMENTS_DDL
    + V5_DDL
)

TABLES = (
    "doc_profiles",
    "doc_sentences",
    "documents",
    "profiles",
    "segments",
    "state",
    "tombstones",
)


# ------------------------------------------------------------------ column values


def signed(hashes: np.ndarray) -> list[int]:
    """uint64 hashes as the signed 64-bit integers SQLite stores."""
    values: list[int] = hashes.astype(np.uint64).view(np.int64).tolist()
    return values


def doc_key(doc_id: int, profile_id: int) -> int:
    """The key of a document's ``doc_profiles`` and ``doc_sentences`` rows under a profile."""
    if not 0 < profile_id < PROFILE_SLOTS:
        raise ValueError(f"profile id {profile_id} is outside 1..{PROFILE_SLOTS - 1}")
    return doc_id * PROFILE_SLOTS + profile_id


def doc_keys(doc_id: int) -> tuple[int, int]:
    """The first and last key a document's rows may have."""
    return doc_id * PROFILE_SLOTS, doc_id * PROFILE_SLOTS + PROFILE_SLOTS - 1


def blob(hashes: np.ndarray) -> bytes:
    """A document's hashes as one blob: their sorted sequence, Elias–Fano coded."""
    return encode(hashes)


def unblob(data: bytes) -> np.ndarray:
    """The sorted uint64 hashes of a blob made by :func:`blob`; ``ValueError`` if it is none."""
    return decode(data)


def raw_unblob(data: bytes) -> np.ndarray:
    """The hashes of a blob as versions up to 6 kept them: sorted little-endian uint64."""
    return np.frombuffer(data, dtype="<u8").astype(np.uint64)


def pack_text(text: str) -> bytes:
    """A document's text as a zstd frame (which records its size)."""
    return zstandard.ZstdCompressor(level=_ZSTD_LEVEL).compress(text.encode("utf-8"))


def unpack_text(data: bytes, chars: int) -> str:
    """The text of a frame made by :func:`pack_text` for a text of ``chars`` characters.

    A frame that claims more than ``chars`` characters can hold (a crafted or damaged file)
    raises ``zstandard.ZstdError`` instead of filling memory.
    """
    limit = 4 * chars + 16  # UTF-8 spends at most four bytes a character
    claimed = zstandard.frame_content_size(data)
    if claimed > limit:
        raise zstandard.ZstdError(f"the frame claims {claimed} bytes, more than {limit}")
    out = zstandard.ZstdDecompressor().decompress(data, max_output_size=limit)
    return out.decode("utf-8")


# ------------------------------------------------------------------ the file's marks


def _marks(db: sqlite3.Connection) -> tuple[int, int]:
    app = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    return int(app), int(version)


def is_blank(db: sqlite3.Connection) -> bool:
    """A database nothing was written to yet (a new or zero-length file)."""
    empty = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
    return empty and _marks(db) == (0, 0)


def create_tables(db: sqlite3.Connection, ddl: str) -> None:
    """Run the ``CREATE`` statements of ``ddl`` inside the caller's transaction."""
    for statement in ddl.split(";"):
        if statement.strip():
            db.execute(statement)


def create_schema(db: sqlite3.Connection) -> bool:
    """Create the tables if the file is still blank under the write lock; True if this did.

    A SQLite error propagates (the caller turns it into an :class:`IndexFileError`).
    """
    db.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # no effect once the file has pages
    db.execute("BEGIN IMMEDIATE")
    try:
        if not is_blank(db):  # another writer was first
            db.execute("ROLLBACK")
            return False
        create_tables(db, _DDL)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return True


def _refuse(path: Path, message: str, reason: str) -> IndexFileError:
    return IndexFileError(f"{path}: {message}", path=path, reason=reason)


def check_schema(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a file that is not a canon index of this schema version, or lacks its tables."""
    app, version = _marks(db)
    if app == 0 and version == 0 and is_blank(db):
        raise _refuse(path, "is not a canon index (an empty database)", "not-an-index")
    if app != APPLICATION_ID:
        raise _refuse(path, "is not a canon index (another kind of SQLite file)", "not-an-index")
    if version > SCHEMA_VERSION:
        raise _refuse(
            path,
            f"index schema version {version} is newer than this canon supports "
            f"({SCHEMA_VERSION}); upgrade canon",
            "schema",
        )
    if version < SCHEMA_VERSION:
        raise IndexFileError(
            f"{path}: {older_message(version)}",
            path=path,
            reason="schema",
            remedy=older_remedy(version),
        )
    missing = _missing(db)
    if missing:
        raise _refuse(
            path,
            f"is damaged: it is marked as a canon index but lacks {missing}; "
            "build a new index from its sources",
            "corrupt",
        )


def older_message(version: int) -> str:
    """Why an index of an older schema ``version`` is refused, and what to do."""
    if version >= UPGRADABLE:
        return f"index schema version {version} was made by an older canon; migrate it in place"
    return (
        f"index schema version {version} was made by an older canon, too old to migrate in "
        f"place (the upgrade takes version {UPGRADABLE} and later); build a new index from the "
        "same sources"
    )


def older_remedy(version: int) -> str:
    """What makes an index of an older schema ``version`` usable: ``upgrade`` or ``rebuild``."""
    return "upgrade" if version >= UPGRADABLE else "rebuild"


@cache
def _columns() -> dict[str, frozenset[str]]:
    """Each table's columns, as the DDL declares them."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(_DDL)
        return {t: frozenset(r[1] for r in db.execute(f"PRAGMA table_info({t})")) for t in TABLES}
    finally:
        db.close()


def _missing(db: sqlite3.Connection) -> str:
    """The tables and columns of the schema that the file lacks, in words (``""``: none)."""
    tables: list[str] = []
    columns: list[str] = []
    for table, declared in _columns().items():
        found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not found:
            tables.append(table)
        else:
            columns += [f"{table}.{c}" for c in sorted(declared - found)]
    parts = [
        f"the {noun}{'s' if len(names) > 1 else ''} {', '.join(names)}"
        for noun, names in (("table", tables), ("column", columns))
        if names
    ]
    return " and ".join(parts)
