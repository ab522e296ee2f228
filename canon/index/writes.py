"""Prepared documents → rows of the index: documents, their hashes and signatures, bands, sentence
lemma sets and the lemma tables, and a postings segment per profile listed in the manifest.

Functions here run inside the caller's write transaction; they never commit.  A batch's
segments are written (and fsynced) through the caller's :class:`~.segments.Staged`, before the
transaction lists them; a removed document's postings stay in their segment under a tombstone
until a merge drops them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import numpy as np

from ..lsh import band_keys
from ..sentences import SentenceSets
from ..shingle import keep_sampled
from ..sketch import Signature, signatures
from . import lemmas
from .manifest import add_segments, take_doc_ids, tombstone
from .rules import IndexedProfile, read_profiles
from .schema import blob, signed
from .segments import Staged, sort_postings

__all__ = ["Prepared", "delete_sources", "insert_batch"]


@dataclass(frozen=True)
class Prepared:
    """A document canonicalized for the index: per profile fingerprint, words and hashes, and
    under the profiles with morphology its sentences' lemma sets."""

    source: str
    title: str | None
    method: str
    chars: int
    content_hash: str
    final_url: str | None
    shingles: dict[str, tuple[int, np.ndarray]]
    sentences: dict[str, SentenceSets] = field(default_factory=dict)
    text: bytes | None = None  # the main text as a zstd frame, when the index stores texts


@dataclass(frozen=True)
class _Sketches:
    """A batch's signatures under one profile and their LSH band keys (a row per document)."""

    signatures: list[Signature]
    keys: np.ndarray


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _sampled(doc: Prepared, profiles: dict[str, IndexedProfile]) -> Prepared:
    if all(profiles[f].sample == 1 for f in doc.shingles):
        return doc
    kept = {
        f: (words, keep_sampled(hashes, profiles[f].sample))
        for f, (words, hashes) in doc.shingles.items()
    }
    return replace(doc, shingles=kept)


def _sketch(docs: list[np.ndarray], profile: IndexedProfile) -> _Sketches:
    """Signatures of a batch's documents and their LSH band keys, under the index's settings."""
    sigs = signatures(docs, profile.num_perm, profile.seed)
    keys = band_keys(np.stack([s.values for s in sigs]), profile.bands, profile.rows)
    return _Sketches(sigs, keys)


@dataclass
class _Rows:
    """Postings (per profile) and band rows of a batch, gathered to be written sorted by key."""

    hashes: dict[int, list[np.ndarray]] = field(default_factory=dict)
    docs: dict[int, list[np.ndarray]] = field(default_factory=dict)
    bands: list[tuple[int, int, int, int]] = field(default_factory=list)

    def add(self, profile_id: int, doc_id: int, hashes: np.ndarray, keys: np.ndarray) -> None:
        self.hashes.setdefault(profile_id, []).append(hashes.astype(np.uint64))
        self.docs.setdefault(profile_id, []).append(np.full(len(hashes), doc_id, np.uint32))
        self.bands += [(profile_id, band, key, doc_id) for band, key in enumerate(signed(keys))]

    def insert(self, db: sqlite3.Connection, staged: Staged) -> None:
        written = []
        for profile_id, parts in self.hashes.items():
            hashes = np.concatenate(parts)
            if len(hashes):
                docs = np.concatenate(self.docs[profile_id])
                written.append(staged.write(profile_id, *sort_postings(hashes, docs)))
        add_segments(db, written)
        # Sorted by key, so each B-tree page is visited once per batch, not once per document.
        db.executemany("INSERT INTO bands VALUES (?,?,?,?)", sorted(self.bands))


def _insert_document(db: sqlite3.Connection, doc: Prepared, doc_id: int) -> int:
    db.execute(
        "INSERT INTO documents (id, source, title, added, content_hash, method, chars, "
        "final_url, text) VALUES (?,?,?,?,?,?,?,?,?)",
        (
            doc_id,
            doc.source,
            doc.title,
            _now(),
            doc.content_hash,
            doc.method,
            doc.chars,
            doc.final_url,
            doc.text,
        ),
    )
    return doc_id


def insert_batch(
    db: sqlite3.Connection,
    staged: Staged,
    batch: Sequence[Prepared],
    profiles: Sequence[IndexedProfile],
) -> int:
    """Store a batch, replacing documents of the same source; returns how many were stored.

    A source named twice in the batch is stored once, as its last version.  Its postings go
    to one new segment per profile, written through ``staged``.
    """
    by_fingerprint = {p.fingerprint: p for p in profiles}
    last = {doc.source: doc for doc in batch}
    batch = [_sampled(doc, by_fingerprint) for doc in last.values()]
    sketches = {
        p.fingerprint: _sketch([doc.shingles[p.fingerprint][1] for doc in batch], p)
        for p in profiles
        if batch and p.fingerprint in batch[0].shingles
    }
    rows = _Rows()
    lemma_rows: list[tuple[int, int, np.ndarray]] = []
    delete_sources(db, [doc.source for doc in batch])
    first_id = take_doc_ids(db, len(batch))
    for position, doc in enumerate(batch):
        doc_id = _insert_document(db, doc, first_id + position)
        for fingerprint, (words, hashes) in doc.shingles.items():
            profile_id = by_fingerprint[fingerprint].id
            sketch = sketches[fingerprint]
            signature = sketch.signatures[position].to_bytes()
            sentences = doc.sentences.get(fingerprint)
            db.execute(
                "INSERT INTO doc_profiles VALUES (?,?,?,?,?,?,?)",
                (doc_id, profile_id, words, len(hashes), blob(hashes), signature,
                 None if sentences is None else sentences.to_bytes()),
            )  # fmt: skip
            rows.add(profile_id, doc_id, hashes, sketch.keys[position])
            if sentences is not None:
                lemma_rows.append((profile_id, doc_id, sentences.distinct()))
    rows.insert(db, staged)
    lemmas.add_documents(db, lemma_rows)
    return len(batch)


def _delete_document(
    db: sqlite3.Connection, doc_id: int, profiles: dict[int, IndexedProfile]
) -> None:
    stored = db.execute(
        "SELECT profile_id, signature, sentences FROM doc_profiles WHERE doc_id = ?",
        (doc_id,),
    ).fetchall()
    for profile_id, signature, sentences in stored:
        if sentences is not None:
            distinct = SentenceSets.from_bytes(sentences).distinct()
            lemmas.remove_document(db, profile_id, doc_id, distinct)
        profile = profiles[profile_id]
        values = Signature.from_bytes(signature).values
        keys = signed(band_keys(values, profile.bands, profile.rows)[0])
        db.executemany(
            "DELETE FROM bands WHERE profile_id = ? AND band = ? AND key = ? AND doc_id = ?",
            ((profile_id, band, key, doc_id) for band, key in enumerate(keys)),
        )
    db.execute("DELETE FROM doc_profiles WHERE doc_id = ?", (doc_id,))
    db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))


def delete_sources(db: sqlite3.Connection, sources: Iterable[str]) -> int:
    """Remove the documents of ``sources`` with their bands and lemma rows, and tombstone their
    postings; how many there were."""
    removed = 0
    gone: list[int] = []
    profiles: dict[int, IndexedProfile] | None = None
    for source in sources:
        row = db.execute("SELECT id FROM documents WHERE source = ?", (source,)).fetchone()
        if row is None:
            continue
        if profiles is None:
            profiles = {p.id: p for p in read_profiles(db)}
        _delete_document(db, row[0], profiles)
        gone.append(row[0])
        removed += 1
    tombstone(db, gone)
    return removed
