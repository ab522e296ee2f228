"""An index's documents → dedup inputs: sources, lengths and band keys from what the index
stores; shingle sets read from it a document at a time, only when a pair is verified or a
cluster's member to keep is chosen.

An index keeps each document's MinHash signature under its own settings
(:mod:`canon.index.rules`).  With the same ``num_perm`` and ``seed`` the run bands the stored
signatures (under the index's own banding: the keys its band stream holds); with other MinHash
settings the signatures are computed again from the stored shingle sets, a chunk at a time, and
the run says so.  All reads are one read transaction, so the documents do not change under the
run.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from ..errors import IndexFileError
from ..fingerprints.lsh import band_keys
from ..fingerprints.minhash import Signature
from ..index.connection import open_index, reading
from ..index.rules import IndexedProfile, read_profiles
from ..index.schema import PROFILE_SLOTS, doc_key, unblob
from .reading import keys_of
from .settings import MinHashSettings
from .stages import Entry

__all__ = ["CHUNK", "IndexDocuments", "IndexReader", "KeySource"]

CHUNK = 4096  # documents whose signatures or sets are read at once
_JOIN = f"FROM documents d JOIN doc_profiles p ON p.id = d.id * {PROFILE_SLOTS} + ? ORDER BY d.id"


@dataclass(frozen=True)
class IndexDocuments:
    """The documents of the index at ``path`` under one of its profiles."""

    path: Path
    profile: IndexedProfile

    @classmethod
    def choose(cls, path: Path, profile_name: str) -> IndexDocuments:
        """The index's profile of that name, else its last one (an empty index is an error)."""
        db = open_index(path, readonly=True)
        try:
            with reading(path):
                built = read_profiles(db)
        finally:
            db.close()
        if not built:
            raise IndexFileError(
                f"{path}: the index is empty; add documents first", path=path, reason="empty"
            )
        return cls(path, next((p for p in built if p.name == profile_name), built[-1]))

    def reader(self) -> IndexReader:
        return IndexReader(self)

    def entries(self) -> Iterator[Entry]:
        """Every document as an entry with its shingle set (for engines that need them)."""
        with self.reader() as index:
            yield from index.entries()


@dataclass(frozen=True)
class KeySource:
    """Where a run's band keys for an index's documents came from: ``bands`` (the index's own
    band keys, made from its stored signatures as its band stream was), ``signatures`` (stored
    signatures, banded otherwise) or ``recomputed`` (from the sets)."""

    kind: str
    note: str | None = None


class IndexReader:
    """One read transaction over an index's documents under a profile."""

    def __init__(self, documents: IndexDocuments) -> None:
        self.path = documents.path
        self.profile = documents.profile
        self._db: sqlite3.Connection | None = None
        self.reads = 0  # shingle sets read one by one

    def __enter__(self) -> IndexReader:
        self._db = open_index(self.path, readonly=True)
        with reading(self.path):
            self._db.execute("BEGIN")
            self.ids = np.array(
                [row[0] for row in self._query("SELECT d.id " + _JOIN)], dtype=np.int64
            )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _query(self, sql: str, *args: object) -> sqlite3.Cursor:
        assert self._db is not None
        return self._db.execute(sql, (self.profile.id, *args))

    def _chunks(self, column: str) -> Iterator[list[tuple[Any, ...]]]:
        with reading(self.path):
            cursor = self._query(f"SELECT {column} " + _JOIN)
            while rows := cursor.fetchmany(CHUNK):
                yield rows

    def __len__(self) -> int:
        return len(self.ids)

    def documents(self) -> Iterator[tuple[str, int]]:
        """``(source, chars)`` of each document, in order."""
        for rows in self._chunks("d.source, d.chars"):
            yield from rows

    def entries(self) -> Iterator[Entry]:
        for rows in self._chunks("d.source, d.chars, p.hashes"):
            for source, chars, hashes in rows:
                yield Entry(source, unblob(hashes), chars)

    def hashes(self, position: int) -> np.ndarray:
        """The shingle set of the document at ``position``."""
        self.reads += 1
        assert self._db is not None, "read inside the reader's with block"
        with reading(self.path):
            row = self._db.execute(
                "SELECT hashes FROM doc_profiles WHERE id = ?",
                (doc_key(int(self.ids[position]), self.profile.id),),
            ).fetchone()
        return unblob(row[0])

    def keys(self, settings: MinHashSettings) -> tuple[np.ndarray, KeySource]:
        """Every document's band keys under ``settings`` (a row each), and where they came
        from."""
        profile = self.profile
        same = (profile.num_perm, profile.seed) == (settings.num_perm, settings.seed)
        if same and self._signatures_readable():
            own = (profile.bands, profile.rows) == settings.banding
            return self._from_signatures(settings), KeySource("bands" if own else "signatures")
        note = (
            f"signatures recomputed from the index's shingle sets: it stores them with "
            f"num_perm {profile.num_perm} and seed {profile.seed}, the run has "
            f"num_perm {settings.num_perm} and seed {settings.seed}"
        )
        return self._recomputed(settings), KeySource("recomputed", note)

    def _signatures_readable(self) -> bool:
        for rows in self._chunks("p.signature"):
            try:
                Signature.from_bytes(rows[0][0])
            except ValueError:
                return False  # made by another signature scheme
            return True
        return True

    def _from_signatures(self, settings: MinHashSettings) -> np.ndarray:
        bands, rows = settings.banding
        parts = [np.zeros((0, bands), dtype=np.uint64)]
        for chunk in self._chunks("p.signature"):
            values = np.stack([Signature.from_bytes(s).values for (s,) in chunk])
            parts.append(band_keys(values, bands, rows))
        return np.concatenate(parts)

    def _recomputed(self, settings: MinHashSettings) -> np.ndarray:
        parts = [np.zeros((0, settings.banding[0]), dtype=np.uint64)]
        for chunk in self._chunks("p.hashes"):
            parts.append(keys_of([unblob(h) for (h,) in chunk], settings))
        return np.concatenate(parts)
