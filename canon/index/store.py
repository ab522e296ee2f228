"""The corpus index: one SQLite file of documents and their shingle hashes (hash → documents).

Layout (schema version 2; ``PRAGMA application_id`` marks a canon index):

- ``profiles``: each profile the index was built with: name, fingerprint, settings, k, step.
- ``documents``: source, title, added time, content hash, extraction method, length.
- ``doc_profiles``: per document and profile, the canonical word and distinct-shingle counts,
  and the document's sorted shingle hashes as one little-endian uint64 blob (for exact
  Jaccard in dedup, and to remove a document's postings by key).
- ``postings``: the inverted table ``(profile, hash, document)``; hashes are the stable 64-bit
  shingle hashes stored as signed SQLite integers.
- ``bands``: LSH band keys of each document's MinHash signature (kept in ``doc_profiles``),
  so near-duplicates of a draft are found without a scan.

Writes go in transactions, a batch of documents at a time, in WAL mode, so a check can read
while an add is under way, and a crash loses at most the batch being written.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from ..errors import CanonError, IndexFileError, OptionError
from ..lsh import band_keys, optimal_bands
from ..profile import Profile
from ..shingle import keep_sampled
from ..sketch import Signature, signatures

__all__ = [
    "SCHEMA_VERSION",
    "Index",
    "IndexStats",
    "IndexedProfile",
    "Prepared",
]

SCHEMA_VERSION = 2  # 2: signatures, LSH bands, hash blobs and sampling
APPLICATION_ID = 0x63616E6E  # "cann"

_SCHEMA = """
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
    final_url TEXT
);
CREATE TABLE doc_profiles (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    profile_id INTEGER NOT NULL REFERENCES profiles(id),
    words INTEGER NOT NULL,
    shingles INTEGER NOT NULL,
    hashes BLOB NOT NULL,
    signature BLOB NOT NULL,
    PRIMARY KEY (doc_id, profile_id)
) WITHOUT ROWID;
CREATE TABLE postings (
    profile_id INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    doc_id INTEGER NOT NULL,
    PRIMARY KEY (profile_id, hash, doc_id)
) WITHOUT ROWID;
CREATE TABLE bands (
    profile_id INTEGER NOT NULL,
    band INTEGER NOT NULL,
    key INTEGER NOT NULL,
    doc_id INTEGER NOT NULL,
    PRIMARY KEY (profile_id, band, key, doc_id)
) WITHOUT ROWID;
"""

# MinHash settings of every index: signatures of 128 values, and LSH bands chosen for Jaccard
# 0.5, so that a query for any threshold from 0.5 up finds its near-duplicates among the
# candidates with high probability (each is then verified exactly).
NUM_PERM = 128
SEED = 1
LSH_THRESHOLD = 0.5


@dataclass(frozen=True)
class IndexedProfile:
    id: int
    name: str
    fingerprint: str
    k: int
    step: int
    settings: str
    num_perm: int = NUM_PERM
    seed: int = SEED
    bands: int = 1
    rows: int = NUM_PERM
    sample: int = 1  # only shingles whose hash is 0 modulo this are kept


@dataclass(frozen=True)
class Prepared:
    """A document canonicalized for the index: per profile fingerprint, words and hashes."""

    source: str
    title: str | None
    method: str
    chars: int
    content_hash: str
    final_url: str | None
    shingles: dict[str, tuple[int, np.ndarray]]


@dataclass(frozen=True)
class IndexStats:
    documents: int
    profiles: tuple[tuple[IndexedProfile, int], ...]  # each profile and its posting rows
    file_size: int

    @property
    def bytes_per_document(self) -> float:
        return self.file_size / self.documents if self.documents else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "documents": self.documents,
            "file_size": self.file_size,
            "bytes_per_document": round(self.bytes_per_document, 1),
            "profiles": [
                {"profile": p.name, "fingerprint": p.fingerprint, "k": p.k, "postings": rows}
                for p, rows in self.profiles
            ],
        }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _signed(hashes: np.ndarray) -> list[int]:
    return hashes.astype(np.uint64).view(np.int64).tolist()


def _sampled(doc: Prepared, profiles: dict[str, IndexedProfile]) -> Prepared:
    if all(profiles[f].sample == 1 for f in doc.shingles):
        return doc
    kept = {
        f: (words, keep_sampled(hashes, profiles[f].sample))
        for f, (words, hashes) in doc.shingles.items()
    }
    return replace(doc, shingles=kept)


def _sketch(docs: list[np.ndarray], profile: IndexedProfile) -> tuple[list[Signature], np.ndarray]:
    """Signatures of a batch's documents and their LSH band keys, under the index's settings."""
    sigs = signatures(docs, profile.num_perm, profile.seed)
    keys = band_keys(np.stack([s.values for s in sigs]), profile.bands, profile.rows)
    return sigs, keys


def _blob(hashes: np.ndarray) -> bytes:
    return np.sort(hashes.astype(np.uint64)).astype("<u8").tobytes()


def _unblob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype="<u8").astype(np.uint64)


class Index:
    """An open index file.  Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | Path, *, create: bool = False, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._db = self._connect(create)
        self._check_or_create(create)

    # ------------------------------------------------------------------ opening

    def _connect(self, create: bool) -> sqlite3.Connection:
        label = str(self.path)
        if self.path.is_dir():
            raise IndexFileError(
                f"{label}: is a directory; give the path of an index file",
                path=self.path,
                reason="not-an-index",
            )
        if not self.path.exists() and not create:
            raise IndexFileError(
                f"{label}: no such index; create one with 'canon index add'",
                path=self.path,
                reason="missing",
            )
        if not self.path.exists() and not os.access(self.path.parent.resolve(), os.W_OK):
            raise IndexFileError(
                f"{label}: cannot create the index here (the folder is read-only)",
                path=self.path,
                reason="read-only",
            )
        uri = f"file:{self.path.resolve()}?mode={'ro' if self.readonly else 'rwc'}"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)
            db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise IndexFileError(
                f"{label}: cannot open ({exc})", path=self.path, reason="sqlite"
            ) from exc
        return db

    def _check_or_create(self, create: bool) -> None:
        label = str(self.path)
        try:
            app, version = self._pragmas()
            if app == 0 and version == 0 and self._is_empty():
                if not create or self.readonly:
                    raise IndexFileError(
                        f"{label}: is not a canon index (an empty database)",
                        path=self.path,
                        reason="not-an-index",
                    )
                self._create()
                return
        except sqlite3.DatabaseError as exc:
            raise IndexFileError(
                f"{label}: is not a canon index ({exc})", path=self.path, reason="not-an-index"
            ) from exc
        if app != APPLICATION_ID:
            raise IndexFileError(
                f"{label}: is not a canon index (another kind of SQLite file)",
                path=self.path,
                reason="not-an-index",
            )
        if version > SCHEMA_VERSION:
            raise IndexFileError(
                f"{label}: index schema version {version} is newer than this canon supports "
                f"({SCHEMA_VERSION}); upgrade canon",
                path=self.path,
                reason="schema",
            )
        if version < SCHEMA_VERSION:
            raise IndexFileError(
                f"{label}: index schema version {version} was made by an older canon; "
                "build a new index from the same sources with 'canon index add'",
                path=self.path,
                reason="schema",
            )
        self._tune()

    def _tune(self) -> None:
        # WAL: readers go on while a batch is written.  synchronous=NORMAL keeps every
        # committed batch through a crash or kill of the process (only a power cut can lose
        # the last ones).  A large page cache keeps the inverted table's upper levels in memory.
        if not self.readonly:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute("PRAGMA cache_size = -262144")

    def _pragmas(self) -> tuple[int, int]:
        app = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        return int(app), int(version)

    def _is_empty(self) -> bool:
        return self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0

    def _create(self) -> None:
        with self._write():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self._tune()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One transaction; a SQLite error (full disk, read-only file) rolls it back whole."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            yield
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise self._write_error(exc) from exc
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _write_error(self, exc: sqlite3.Error) -> CanonError:
        text = str(exc).lower()
        code = "sqlite"
        if "full" in text:
            code, reason = (
                "disk-full",
                "the disk is full; free some space, then run the command again",
            )
        elif "readonly" in text or "read-only" in text:
            code, reason = "read-only", "the index is read-only; check the file's permissions"
        else:
            reason = str(exc)
        return IndexFileError(
            f"{self.path}: cannot write: {reason} (documents already committed are intact)",
            path=self.path,
            reason=code,
        )

    # ------------------------------------------------------------------ profiles

    def profiles(self) -> list[IndexedProfile]:
        rows = self._db.execute(
            "SELECT id, name, fingerprint, k, step, settings, num_perm, seed, bands, rows, "
            "sample FROM profiles ORDER BY id"
        ).fetchall()
        return [IndexedProfile(*row) for row in rows]

    def use_profiles(
        self, profiles: Sequence[Profile], k: int, step: int, sample: int = 1
    ) -> list[IndexedProfile]:
        """Register ``profiles`` in a new index, or check that an index was built with them.

        ``sample`` > 1 keeps only the shingles whose hash is 0 modulo ``sample`` (Broder's
        mod-m sampling): the inverted table shrinks that many times, at some cost in accuracy.
        """
        if type(sample) is not int or sample < 1:
            raise OptionError("sample", f"must be a positive integer, got {sample}", value=sample)
        known = {p.fingerprint: p for p in self.profiles()}
        if known:
            missing = [p for p in profiles if p.fingerprint not in known]
            rules = {
                (known[p.fingerprint].k, known[p.fingerprint].step, known[p.fingerprint].sample)
                for p in profiles
                if p.fingerprint in known
            }
            if missing or rules - {(k, step, sample)}:
                message = self._mismatch(missing or profiles, k, step, sample)
                raise IndexFileError(message, path=self.path, reason="rules")
            return [known[p.fingerprint] for p in profiles]
        bands, rows = optimal_bands(LSH_THRESHOLD, NUM_PERM)
        with self._write():
            for profile in profiles:
                self._db.execute(
                    "INSERT INTO profiles (name, fingerprint, settings, k, step, num_perm, seed, "
                    "bands, rows, sample) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        profile.name,
                        profile.fingerprint,
                        json.dumps(profile.settings()),
                        k,
                        step,
                        NUM_PERM,
                        SEED,
                        bands,
                        rows,
                        sample,
                    ),
                )
        return self.profiles()

    def _mismatch(self, asked: Sequence[Profile], k: int, step: int, sample: int) -> str:
        def rules(k: int, step: int, sample: int) -> str:
            extra = (f", step={step}" if step != 1 else "") + (
                f", sample 1/{sample}" if sample != 1 else ""
            )
            return f"k={k}{extra}"

        built = ", ".join(
            f"{p.name} ({p.fingerprint}, {rules(p.k, p.step, p.sample)})" for p in self.profiles()
        )
        wanted = ", ".join(f"{p.name} ({p.fingerprint}, {rules(k, step, sample)})" for p in asked)
        return (
            f"{self.path}: the index was built with {built}; this asks for {wanted}: "
            "use the index's rules or a new index"
        )

    # ------------------------------------------------------------------ documents

    def content_hashes(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT source, content_hash FROM documents"))

    def write_batch(self, batch: Sequence[Prepared], profiles: Sequence[IndexedProfile]) -> int:
        """Store a batch in one transaction, replacing documents of the same source.

        The batch's postings are inserted sorted by key, so each B-tree page is visited once
        per batch instead of once per document.
        """
        by_fingerprint = {p.fingerprint: p for p in profiles}
        batch = [_sampled(doc, by_fingerprint) for doc in batch]
        sketches = {
            p.fingerprint: _sketch([doc.shingles[p.fingerprint][1] for doc in batch], p)
            for p in profiles
            if batch and p.fingerprint in batch[0].shingles
        }
        postings: list[np.ndarray] = []
        band_rows: list[tuple[int, int, int, int]] = []
        with self._write():
            for position, doc in enumerate(batch):
                self._delete_sources([doc.source])
                cursor = self._db.execute(
                    "INSERT INTO documents (source, title, added, content_hash, method, chars, "
                    "final_url) VALUES (?,?,?,?,?,?,?)",
                    (
                        doc.source,
                        doc.title,
                        _now(),
                        doc.content_hash,
                        doc.method,
                        doc.chars,
                        doc.final_url,
                    ),
                )
                doc_id = cursor.lastrowid
                for fingerprint, (words, hashes) in doc.shingles.items():
                    profile_id = by_fingerprint[fingerprint].id
                    signature, keys = sketches[fingerprint][0][position], sketches[fingerprint][1]
                    self._db.execute(
                        "INSERT INTO doc_profiles VALUES (?,?,?,?,?,?)",
                        (
                            doc_id,
                            profile_id,
                            words,
                            len(hashes),
                            _blob(hashes),
                            signature.to_bytes(),
                        ),
                    )
                    band_rows += [
                        (profile_id, band, key, doc_id)
                        for band, key in enumerate(_signed(keys[position]))
                    ]
                    rows = np.empty((len(hashes), 3), dtype=np.int64)
                    rows[:, 0] = profile_id
                    rows[:, 1] = hashes.astype(np.uint64).view(np.int64)
                    rows[:, 2] = doc_id
                    postings.append(rows)
            if postings:
                rows = np.concatenate(postings)
                rows = rows[np.lexsort((rows[:, 2], rows[:, 1], rows[:, 0]))]
                self._db.executemany("INSERT INTO postings VALUES (?,?,?)", rows.tolist())
            self._db.executemany("INSERT INTO bands VALUES (?,?,?,?)", sorted(band_rows))
        return len(batch)

    def _delete_sources(self, sources: Iterable[str]) -> int:
        removed = 0
        for source in sources:
            found = self._db.execute("SELECT id FROM documents WHERE source = ?", (source,))
            row = found.fetchone()
            if row:
                stored = self._db.execute(
                    "SELECT profile_id, hashes, signature FROM doc_profiles WHERE doc_id = ?", row
                ).fetchall()
                profiles = {p.id: p for p in self.profiles()}
                for profile_id, blob, signature in stored:
                    self._db.executemany(
                        "DELETE FROM postings WHERE profile_id = ? AND hash = ? AND doc_id = ?",
                        ((profile_id, h, row[0]) for h in _signed(_unblob(blob))),
                    )
                    profile = profiles[profile_id]
                    values = Signature.from_bytes(signature).values
                    keys = _signed(band_keys(values, profile.bands, profile.rows)[0])
                    self._db.executemany(
                        "DELETE FROM bands WHERE profile_id = ? AND band = ? AND key = ? "
                        "AND doc_id = ?",
                        ((profile_id, band, key, row[0]) for band, key in enumerate(keys)),
                    )
                self._db.execute("DELETE FROM doc_profiles WHERE doc_id = ?", row)
                self._db.execute("DELETE FROM documents WHERE id = ?", row)
                removed += 1
        return removed

    def remove(self, sources: Iterable[str]) -> int:
        with self._write():
            return self._delete_sources(sources)

    def documents(self) -> Iterator[dict[str, object]]:
        cursor = self._db.execute(
            "SELECT id, source, title, added, content_hash, method, chars FROM documents "
            "ORDER BY id"
        )
        names = [c[0] for c in cursor.description]
        for row in cursor:
            yield dict(zip(names, row))

    def sources(self, doc_ids: Iterable[int]) -> dict[int, tuple[str, str | None]]:
        ids = list(doc_ids)
        result: dict[int, tuple[str, str | None]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT id, source, title FROM documents WHERE id IN ({marks})", chunk
            )
            result.update({row[0]: (row[1], row[2]) for row in rows})
        return result

    def stats(self) -> IndexStats:
        documents = self._db.execute("SELECT count(*) FROM documents").fetchone()[0]
        rows = dict(
            self._db.execute(
                "SELECT profile_id, sum(shingles) FROM doc_profiles GROUP BY profile_id"
            )
        )
        profiles = tuple((p, int(rows.get(p.id) or 0)) for p in self.profiles())
        size = sum(f.stat().st_size for f in (self.path, Path(f"{self.path}-wal")) if f.exists())
        return IndexStats(documents, profiles, size)

    # ------------------------------------------------------------------ lookups

    def postings(
        self, profile: IndexedProfile, hashes: np.ndarray, common: int | None = None
    ) -> tuple[list[tuple[int, int]], set[int]]:
        """``(hash, doc_id)`` for every indexed document holding one of ``hashes``.

        With ``common``, a hash held by more than ``common`` documents (a set phrase) is
        returned apart, in the second value, instead of as that many rows: the cost of a
        lookup then stays bounded however large the index grows.
        """
        self._db.execute("CREATE TEMP TABLE IF NOT EXISTS probe (hash INTEGER PRIMARY KEY)")
        self._db.execute("DELETE FROM probe")
        probe = ((h,) for h in _signed(hashes))
        self._db.executemany("INSERT OR IGNORE INTO probe VALUES (?)", probe)
        frequent: set[int] = set()
        if common is not None:
            frequent = {
                h
                for (h,) in self._db.execute(
                    "SELECT hash FROM probe WHERE (SELECT count(*) FROM (SELECT 1 FROM postings p "
                    "WHERE p.profile_id = ? AND p.hash = probe.hash LIMIT ?)) > ?",
                    (profile.id, common + 1, common),
                )
            }
            self._db.executemany("DELETE FROM probe WHERE hash = ?", ((h,) for h in frequent))
        rows = self._db.execute(
            # CROSS JOIN keeps the probe outside: one key lookup per draft shingle, never a
            # scan of the inverted table.
            "SELECT p.hash, p.doc_id FROM probe CROSS JOIN postings p "
            "ON p.profile_id = ? AND p.hash = probe.hash",
            (profile.id,),
        ).fetchall()
        return rows, frequent

    def shingle_counts(self, profile: IndexedProfile, doc_ids: Iterable[int]) -> dict[int, int]:
        ids = list(doc_ids)
        counts: dict[int, int] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            counts.update(
                self._db.execute(
                    f"SELECT doc_id, shingles FROM doc_profiles WHERE profile_id = ? "
                    f"AND doc_id IN ({marks})",
                    [profile.id, *chunk],
                )
            )
        return counts

    def shingle_sets(self, profile: IndexedProfile) -> Iterator[tuple[str, int, np.ndarray]]:
        """``(source, chars, hashes)`` of every document, hashes as sorted uint64."""
        cursor = self._db.execute(
            "SELECT d.source, d.chars, p.hashes FROM documents d JOIN doc_profiles p "
            "ON p.doc_id = d.id WHERE p.profile_id = ? ORDER BY d.id",
            (profile.id,),
        )
        for source, chars, blob in cursor:
            yield source, chars, _unblob(blob)

    def similar(
        self, profile: IndexedProfile, signature: Signature
    ) -> list[tuple[int, Signature, np.ndarray]]:
        """Documents sharing an LSH band with ``signature``: ``(doc_id, signature, hashes)``."""
        keys = _signed(band_keys(signature.values, profile.bands, profile.rows)[0])
        found: set[int] = set()
        for band, key in enumerate(keys):
            found.update(
                doc
                for (doc,) in self._db.execute(
                    "SELECT doc_id FROM bands WHERE profile_id = ? AND band = ? AND key = ?",
                    (profile.id, band, key),
                )
            )
        result = []
        for doc in sorted(found):
            blob, stored = self._db.execute(
                "SELECT hashes, signature FROM doc_profiles WHERE doc_id = ? AND profile_id = ?",
                (doc, profile.id),
            ).fetchone()
            result.append((doc, Signature.from_bytes(stored), _unblob(blob)))
        return result

    def integrity(self) -> str:
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
