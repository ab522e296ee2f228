"""Questions to an index → answers from its tables: LSH neighbours, listings, statistics.

Every lookup is bounded by keys, never a scan.  The functions take an open connection;
:class:`~canon.index.store.Index` wraps them so that a SQLite error reaches the caller as an
``IndexFileError``.  The shingle postings are looked up in the segments
(:mod:`canon.index.snapshot`), not here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, cast

import numpy as np
import zstandard

from ..errors import IndexFileError
from ..fingerprints.minhash import Signature
from .manifest import read_manifest, totals
from .rules import IndexedProfile, read_profiles
from .schema import PROFILE_SLOTS, doc_key, unblob, unpack_text
from .segments import DOCS, HASHES, folder_of

__all__ = [
    "DocumentRow",
    "IndexStats",
    "content_hashes",
    "documents",
    "keyed_rows",
    "known_sources",
    "shingle_counts",
    "shingle_sets",
    "signatures_and_sets",
    "sources",
    "stats",
    "texts",
]

_CHUNK = 500  # ids per IN (...) query, under SQLite's limit on bound parameters


@dataclass(frozen=True)
class IndexStats:
    documents: int
    profiles: tuple[tuple[IndexedProfile, int], ...]  # each profile and its posting rows
    file_size: int
    texts: int = 0  # documents whose main text is stored
    text_bytes: int = 0  # the stored texts' compressed size
    segments: int = 0  # postings segments the manifest lists
    segment_bytes: int = 0  # their files' size (part of ``file_size``)
    tombstones: int = 0  # removed documents whose postings a merge has yet to drop

    @property
    def bytes_per_document(self) -> float:
        return self.file_size / self.documents if self.documents else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "documents": self.documents,
            "file_size": self.file_size,
            "bytes_per_document": round(self.bytes_per_document, 1),
            "stored_texts": self.texts,
            "stored_text_bytes": self.text_bytes,
            "segments": self.segments,
            "segment_bytes": self.segment_bytes,
            "tombstones": self.tombstones,
            "profiles": [
                {"profile": p.name, "fingerprint": p.fingerprint, "k": p.k, "postings": rows}
                for p, rows in self.profiles
            ],
        }


def _chunks(ids: Iterable[int]) -> Iterator[list[int]]:
    ids = list(ids)
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


def content_hashes(db: sqlite3.Connection) -> dict[str, str]:
    return dict(db.execute("SELECT source, content_hash FROM documents"))


def known_sources(db: sqlite3.Connection, sources: Iterable[str]) -> set[str]:
    """Those of ``sources`` the index holds a document of."""
    asked = list(dict.fromkeys(sources))
    known: set[str] = set()
    for at in range(0, len(asked), _CHUNK):
        chunk = asked[at : at + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        query = f"SELECT source FROM documents WHERE source IN ({marks})"
        known.update(source for (source,) in db.execute(query, chunk))
    return known


class DocumentRow(TypedDict):
    """One document of an index as :func:`documents` lists it."""

    id: int
    source: str
    title: str | None
    added: str
    content_hash: str
    method: str
    chars: int


def documents(db: sqlite3.Connection) -> Iterator[DocumentRow]:
    columns = tuple(DocumentRow.__annotations__)
    cursor = db.execute(f"SELECT {', '.join(columns)} FROM documents ORDER BY id")
    for row in cursor:
        yield cast(DocumentRow, dict(zip(columns, row)))


def sources(db: sqlite3.Connection, doc_ids: Iterable[int]) -> dict[int, tuple[str, str | None]]:
    result: dict[int, tuple[str, str | None]] = {}
    for chunk in _chunks(doc_ids):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"SELECT id, source, title FROM documents WHERE id IN ({marks})", chunk)
        result.update({row[0]: (row[1], row[2]) for row in rows})
    return result


def texts(db: sqlite3.Connection, path: Path, doc_ids: Iterable[int]) -> dict[int, str]:
    """The stored main texts of ``doc_ids`` (documents added without their text are left out)."""
    result: dict[int, str] = {}
    for chunk in _chunks(doc_ids):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"SELECT id, text, chars FROM documents WHERE id IN ({marks}) AND text IS NOT NULL",
            chunk,
        )
        for doc, data, chars in rows:
            try:
                result[doc] = unpack_text(data, chars)
            except (zstandard.ZstdError, UnicodeDecodeError, TypeError) as exc:
                raise IndexFileError(
                    f"{path}: is damaged: the stored text of document {doc} cannot be read "
                    f"({exc}); build a new index from its sources",
                    path=path,
                    reason="corrupt",
                ) from None
    return result


def stats(db: sqlite3.Connection, path: Path) -> IndexStats:
    """The index's figures; the counts come from running totals (:func:`~.manifest.totals`),
    so nothing is scanned."""
    count = db.execute("SELECT count(*) FROM documents").fetchone()[0]
    kept = totals(db)
    texts_stored, text_bytes = kept.get("texts", 0), kept.get("text_bytes", 0)
    profiles = tuple((p, kept.get(f"shingles:{p.id}", 0)) for p in read_profiles(db))
    size = sum(f.stat().st_size for f in (path, Path(f"{path}-wal")) if f.exists())
    manifest = read_manifest(db)
    folder = folder_of(path)
    files = [folder / f"{s.name}{suffix}" for s in manifest.segments for suffix in (HASHES, DOCS)]
    on_disk = sum(f.stat().st_size for f in files if f.exists())
    return IndexStats(
        count, profiles, size + on_disk, texts_stored, text_bytes, len(manifest.segments),
        on_disk, len(manifest.tombstones),
    )  # fmt: skip


def keyed_rows(
    db: sqlite3.Connection, table: str, columns: str, profile_id: int, doc_ids: Iterable[int]
) -> Iterator[tuple[Any, ...]]:
    """``(doc_id, *columns)`` of the rows of ``table`` (``doc_profiles`` or ``doc_sentences``,
    keyed by :func:`~.schema.doc_key`) of the documents named under a profile, by id; a
    document without such a row is left out."""
    for chunk in _chunks(sorted(set(doc_ids))):
        keys = [doc_key(doc, profile_id) for doc in chunk]
        marks = ",".join("?" * len(keys))
        query = f"SELECT id, {columns} FROM {table} WHERE id IN ({marks}) ORDER BY id"
        for key, *values in db.execute(query, keys).fetchall():
            yield (key // PROFILE_SLOTS, *values)


def shingle_counts(
    db: sqlite3.Connection, profile: IndexedProfile, doc_ids: Iterable[int]
) -> dict[int, int]:
    return dict(keyed_rows(db, "doc_profiles", "shingles", profile.id, doc_ids))


def shingle_sets(
    db: sqlite3.Connection, profile: IndexedProfile
) -> Iterator[tuple[str, int, np.ndarray]]:
    """``(source, chars, hashes)`` of every document, hashes as sorted uint64."""
    cursor = db.execute(
        "SELECT d.source, d.chars, p.hashes FROM documents d JOIN doc_profiles p "
        "ON p.id = d.id * ? + ? ORDER BY d.id",
        (PROFILE_SLOTS, profile.id),
    )
    for source, chars, hashes in cursor:
        yield source, chars, unblob(hashes)


def signatures_and_sets(
    db: sqlite3.Connection, profile: IndexedProfile, doc_ids: Iterable[int]
) -> list[tuple[int, Signature, np.ndarray]]:
    """``(doc_id, signature, hashes)`` of the documents named that are stored, by id."""
    rows = keyed_rows(db, "doc_profiles", "signature, hashes", profile.id, doc_ids)
    return [(doc, Signature.from_bytes(sig), unblob(h)) for doc, sig, h in rows]
