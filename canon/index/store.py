"""An index path → an open :class:`Index`: transactions around writes, lookups, one error type.

Writes go in transactions, a batch of documents at a time, in WAL mode, so a check can read
while an add is under way, and a crash loses at most the batch being written.  A batch's
postings go to new segment files (:mod:`canon.index.segments`), written and fsynced before the
transaction that lists them commits.  Whatever SQLite or the file system reports (a damaged
page, a full disk, a lock held too long) reaches the caller as one
:class:`~canon.errors.IndexFileError` with ``path`` and ``reason``.

Postings are looked up in a :class:`~canon.index.snapshot.Snapshot`: the segments of one
manifest, mapped and held until the manifest changes (checked before each lookup) or the index
is closed; a damaged segment or manifest is refused there.  A writer's open checks the
manifest, then deletes the orphan segments left by crashes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import numpy as np

from ..fingerprints.lsh import band_keys
from ..fingerprints.minhash import Signature
from ..fingerprints.sentences import SentenceSets
from ..profile import Profile
from . import lemmas, lookups, merging, writes
from .connection import open_index, reading, transaction
from .lookups import DocumentRow, IndexStats
from .manifest import listed_names, read_manifest
from .merging import OptimizeReport
from .rules import IndexedProfile, read_profiles, register_profiles
from .schema import SCHEMA_VERSION
from .segments import BANDS, LEMMAS, SHINGLES, Staged, clean, ensure_folder, folder_of
from .snapshot import Snapshot, check_manifest, is_stale, load_snapshot
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
        self._snapshot: Snapshot | None = None
        self._folder = folder_of(self.path)
        if not readonly:
            try:
                self._folder = ensure_folder(self.path)
                self._check_manifest()  # before cleaning: a segment whose row was lost stays
                self.clean()
            except BaseException:
                self._db.close()
                raise

    def _check_manifest(self) -> None:
        with self._reading():
            check_manifest(self.path, read_manifest(self._db))

    def close(self) -> None:
        self._drop_snapshot()
        self._db.close()

    def _drop_snapshot(self) -> None:
        if self._snapshot is not None:
            self._snapshot.close()
            self._snapshot = None

    def _current(self) -> Snapshot:
        """The snapshot of the postings, read again if the manifest changed since."""
        if self._snapshot is not None and is_stale(self._db, self._snapshot):
            self._drop_snapshot()
        if self._snapshot is None:
            self._snapshot = load_snapshot(self._db, self.path)
        return self._snapshot

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
        (:mod:`canon.fingerprints.winnowing`): any shared run of ``winnow + k - 1`` words is
        still found.
        """
        with self._reading():
            return register_profiles(self._db, self.path, profiles, k, step, sample, winnow)

    # ------------------------------------------------------------------ writing

    def write_batch(self, batch: Sequence[Prepared], profiles: Sequence[IndexedProfile]) -> int:
        """Store a batch in one transaction, replacing documents of the same source.

        The batch's postings become one new segment per stream, listed in the same
        transaction; merging them is left to :meth:`merge` (or a :class:`Merger`).
        """
        self._drop_snapshot()  # stale after this; and it would keep merged files alive
        with Staged(self.path, self._folder) as staged, self._write():
            return writes.insert_batch(self._db, staged, batch, profiles)

    def remove(self, sources: Iterable[str]) -> int:
        """Remove documents; their postings are tombstoned until a merge drops them."""
        with self._write():
            return writes.delete_sources(self._db, sources)

    # ------------------------------------------------------------------ segments

    def merge(self) -> int:
        """Run the merges the tiered policy asks for now; how many were run."""
        self._drop_snapshot()
        with self._reading():
            return merging.merge_due(self._db, self.path)

    def optimize(self) -> OptimizeReport:
        """Merge each stream's postings into one segment, dropping every removed document's,
        and delete the files no manifest lists."""
        self._drop_snapshot()
        with self._reading():
            return merging.optimize(self._db, self.path)

    def clean(self) -> int:
        """Delete the segment files the manifest does not list and nobody holds."""
        with self._reading():
            return clean(self.path, lambda: listed_names(self._db))

    def posting_rows(
        self, profile: IndexedProfile, kind: int = SHINGLES
    ) -> tuple[np.ndarray, np.ndarray]:
        """Every live posting of one of ``profile``'s streams (its shingles unless ``kind``
        says otherwise) as ``(keys, doc_ids)`` (a full read: for verification and tests, not
        for lookups)."""
        with self._reading():
            snapshot = self._current()
            return snapshot.everything((profile.id, kind))

    # ------------------------------------------------------------------ lookups

    def content_hashes(self) -> dict[str, str]:
        with self._reading():
            return lookups.content_hashes(self._db)

    def known(self, sources: Iterable[str]) -> set[str]:
        """Those of ``sources`` the index holds a document of."""
        with self._reading():
            return lookups.known_sources(self._db, sources)

    def documents(self) -> Iterator[DocumentRow]:
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
            found, docs, frequent = self._current().lookup((profile.id, SHINGLES), hashes, common)
        rows = list(zip(found.view(np.int64).tolist(), docs.tolist(), strict=True))
        return rows, set(frequent.view(np.int64).tolist())

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
        keys = band_keys(signature.values, profile.bands, profile.rows)[0]
        with self._reading():
            _, docs, _ = self._current().lookup((profile.id, BANDS), keys, None)
            return lookups.signatures_and_sets(self._db, profile, docs.tolist())

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
            df = self._current().counts((profile.id, LEMMAS), hashes)
        return df, df > lemmas.COMMON_LEMMA

    def lemma_postings(
        self, profile: IndexedProfile, hashes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(hashes, doc_ids)``: a row for every document holding one of ``hashes`` (none for
        a common lemma), found by binary search.  A document's postings are all in one segment,
        so its rows come in hash order (sums over them do not depend on the segments)."""
        with self._reading():
            found, docs, _ = self._current().lookup(
                (profile.id, LEMMAS), hashes, lemmas.COMMON_LEMMA
            )
        return found, docs

    def sentence_sets(
        self, profile: IndexedProfile, doc_ids: Iterable[int] | None = None
    ) -> Iterator[tuple[int, SentenceSets]]:
        """``(doc_id, sentences)`` of the documents named, or of every document, under a
        profile with morphology (none under the others)."""
        with self._reading():
            yield from lemmas.sentence_sets(self._db, profile.id, doc_ids)

    def sentence_tables(
        self, profile: IndexedProfile, doc_ids: Iterable[int]
    ) -> tuple[list[int], np.ndarray, SentenceSets]:
        """The sentences of the documents named, decoded at once: the documents that have them
        stored (by id), how many sentences each has, and all those sentences in one
        :class:`SentenceSets`, one document's after another's."""
        with self._reading():
            return lemmas.sentence_tables(self._db, profile.id, doc_ids)

    @contextmanager
    def consistent(self) -> Iterator[None]:
        """Reads of the file inside see one state of it (one read transaction), even while
        another process adds documents; inside a transaction already open, that one's."""
        if self._db.in_transaction:
            yield
            return
        with self._reading():
            self._db.execute("BEGIN")
        try:
            yield
        finally:
            if self._db.in_transaction:
                with self._reading():
                    self._db.execute("COMMIT")

    def integrity(self) -> str:
        """SQLite's integrity check: ``"ok"``, or the first problem it found."""
        with self._reading():
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
