"""An index path → an open :class:`Index`: transactions around writes, lookups, one error type.

Writes go in transactions, a batch of documents at a time, in WAL mode, so a check can read
while an add is under way, and a crash loses at most the batch being written.  Whatever SQLite
reports (a damaged page, a full disk, a lock held too long) reaches the caller as one
:class:`~canon.errors.IndexFileError` with ``path`` and ``reason``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

import numpy as np

from ..profile import Profile
from ..sentences import SentenceSets
from ..sketch import Signature
from . import lemmas, lookups, writes
from .connection import open_index, reading, transaction
from .lookups import IndexStats
from .rules import IndexedProfile, read_profiles, register_profiles
from .schema import SCHEMA_VERSION
from .writes import Prepared

__all__ = [
    "SCHEMA_VERSION",
    "Index",
    "IndexStats",
    "IndexedProfile",
    "Prepared",
]


class Index:
    """An open index file.  Use as a context manager, or call :meth:`close`.

    ``create`` makes the file if it does not exist (safe when several processes do it at
    once); ``readonly`` opens it for reading only, also on storage this process cannot write.
    """

    def __init__(self, path: str | Path, *, create: bool = False, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._db = open_index(self.path, create=create, readonly=readonly)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _reading(self) -> AbstractContextManager[None]:
        return reading(self.path)

    def _write(self) -> AbstractContextManager[None]:
        """One transaction; a SQLite error (full disk, read-only file) rolls it back whole."""
        return transaction(self._db, self.path)

    # ------------------------------------------------------------------ rules

    def profiles(self) -> list[IndexedProfile]:
        with self._reading():
            return read_profiles(self._db)

    def use_profiles(
        self, profiles: Sequence[Profile], k: int, step: int, sample: int = 1, winnow: int = 1
    ) -> list[IndexedProfile]:
        """Register ``profiles`` in a new index, or check that an index was built with them.

        ``sample`` > 1 keeps only the shingles whose hash is 0 modulo ``sample`` (Broder's
        mod-m sampling): the inverted table shrinks that many times, at some cost in accuracy.
        ``winnow`` > 1 keeps the smallest hash of every ``winnow`` consecutive shingles
        (:mod:`canon.winnowing`): any shared run of ``winnow + k - 1`` words is still found.
        """
        with self._reading():
            return register_profiles(self._db, self.path, profiles, k, step, sample, winnow)

    # ------------------------------------------------------------------ writing

    def write_batch(self, batch: Sequence[Prepared], profiles: Sequence[IndexedProfile]) -> int:
        """Store a batch in one transaction, replacing documents of the same source.

        The batch's postings are inserted sorted by key, so each B-tree page is visited once
        per batch instead of once per document.
        """
        with self._write():
            return writes.insert_batch(self._db, batch, profiles)

    def remove(self, sources: Iterable[str]) -> int:
        with self._write():
            return writes.delete_sources(self._db, sources)

    # ------------------------------------------------------------------ lookups

    def content_hashes(self) -> dict[str, str]:
        with self._reading():
            return lookups.content_hashes(self._db)

    def documents(self) -> Iterator[dict[str, object]]:
        with self._reading():
            yield from lookups.documents(self._db)

    def sources(self, doc_ids: Iterable[int]) -> dict[int, tuple[str, str | None]]:
        with self._reading():
            return lookups.sources(self._db, doc_ids)

    def texts(self, doc_ids: Iterable[int]) -> dict[int, str]:
        """The stored main texts of ``doc_ids``; a document added without its text is left out."""
        with self._reading():
            return lookups.texts(self._db, self.path, doc_ids)

    def stats(self) -> IndexStats:
        with self._reading():
            return lookups.stats(self._db, self.path)

    def postings(
        self, profile: IndexedProfile, hashes: np.ndarray, common: int | None = None
    ) -> tuple[list[tuple[int, int]], set[int]]:
        """``(hash, doc_id)`` for every indexed document holding one of ``hashes``.

        With ``common``, a hash held by more than ``common`` documents (a set phrase) is
        returned apart, in the second value, instead of as that many rows: the cost of a
        lookup then stays bounded however large the index grows.
        """
        with self._reading():
            return lookups.postings(self._db, profile, hashes, common)

    def shingle_counts(self, profile: IndexedProfile, doc_ids: Iterable[int]) -> dict[int, int]:
        with self._reading():
            return lookups.shingle_counts(self._db, profile, doc_ids)

    def shingle_sets(self, profile: IndexedProfile) -> Iterator[tuple[str, int, np.ndarray]]:
        """``(source, chars, hashes)`` of every document, hashes as sorted uint64."""
        with self._reading():
            yield from lookups.shingle_sets(self._db, profile)

    def similar(
        self, profile: IndexedProfile, signature: Signature
    ) -> list[tuple[int, Signature, np.ndarray]]:
        """Documents sharing an LSH band with ``signature``: ``(doc_id, signature, hashes)``."""
        with self._reading():
            return lookups.similar(self._db, profile, signature)

    # ------------------------------------------------------------------ sentence lemmas

    def document_count(self) -> int:
        with self._reading():
            return lemmas.document_count(self._db)

    def lemma_frequencies(
        self, profile: IndexedProfile, hashes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """How many documents hold each of ``hashes`` (content lemmas under ``profile``), and
        whether it is common (held by more than ``COMMON_LEMMA`` documents, so it has no
        postings); both aligned with ``hashes``."""
        with self._reading():
            return lemmas.frequencies(self._db, profile.id, hashes)

    def lemma_postings(
        self, profile: IndexedProfile, hashes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(hashes, doc_ids)``: a row for every document holding one of ``hashes`` (none for
        a common lemma), found by key."""
        with self._reading():
            return lemmas.postings(self._db, profile.id, hashes)

    def sentence_sets(
        self, profile: IndexedProfile, doc_ids: Iterable[int] | None = None
    ) -> Iterator[tuple[int, SentenceSets]]:
        """``(doc_id, sentences)`` of the documents named, or of every document, under a
        profile with morphology (none under the others)."""
        with self._reading():
            yield from lemmas.sentence_sets(self._db, profile.id, doc_ids)

    def integrity(self) -> str:
        """SQLite's integrity check: ``"ok"``, or the first problem it found."""
        with self._reading():
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
