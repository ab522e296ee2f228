"""Prepared documents → rows of the index: documents, their hashes and signatures, their sentence
lemma sets, and per profile a segment of each postings stream (shingles, band keys, content
lemmas) listed in the manifest.

Functions here run inside the caller's write transaction; they never commit.  A batch's
segments are written (and fsynced) through the caller's :class:`~.segments.Staged`, before the
transaction lists them; a removed document's postings stay in their segments under a tombstone
until a merge drops them.  Every row a batch writes goes to the end of its table (document
ids only grow), so the cost of a batch does not grow with the index.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import numpy as np

from ..fingerprints.lsh import band_keys
from ..fingerprints.minhash import Signature, signatures
from ..fingerprints.sentences import SentenceSets
from ..fingerprints.shingles import keep_sampled
from .manifest import add_segments, add_totals, take_doc_ids, tombstone
from .rules import IndexedProfile
from .schema import blob, doc_key, doc_keys
from .segments import BANDS, LEMMAS, SHINGLES, Staged, sort_postings

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
    """Postings of a batch per stream ``(profile id, kind)``: keys and their documents, to be
    written as one sorted segment each."""

    keys: dict[tuple[int, int], list[np.ndarray]] = field(default_factory=dict)
    docs: dict[tuple[int, int], list[np.ndarray]] = field(default_factory=dict)

    def add(self, stream: tuple[int, int], doc_id: int, keys: np.ndarray) -> None:
        self.keys.setdefault(stream, []).append(keys.astype(np.uint64))
        self.docs.setdefault(stream, []).append(np.full(len(keys), doc_id, np.uint32))

    def insert(self, db: sqlite3.Connection, staged: Staged) -> None:
        written = []
        for stream, parts in self.keys.items():
            keys = np.concatenate(parts)
            if len(keys):
                docs = np.concatenate(self.docs[stream])
                written.append(staged.write(stream, *sort_postings(keys, docs)))
        add_segments(db, written)


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
    totals: Counter[str] = Counter()
    delete_sources(db, [doc.source for doc in batch])
    first_id = take_doc_ids(db, len(batch))
    for position, doc in enumerate(batch):
        doc_id = _insert_document(db, doc, first_id + position)
        if doc.text is not None:
            totals.update(texts=1, text_bytes=len(doc.text))
        for fingerprint, (words, hashes) in doc.shingles.items():
            profile_id = by_fingerprint[fingerprint].id
            sketch = sketches[fingerprint]
            signature = sketch.signatures[position].to_bytes()
            db.execute(
                "INSERT INTO doc_profiles VALUES (?,?,?,?,?,?,?)",
                (
                    doc_key(doc_id, profile_id),
                    doc_id,
                    profile_id,
                    words,
                    len(hashes),
                    blob(hashes),
                    signature,
                ),
            )
            rows.add((profile_id, SHINGLES), doc_id, hashes)
            totals[f"shingles:{profile_id}"] += len(hashes)
            rows.add((profile_id, BANDS), doc_id, sketch.keys[position])
            sentences = doc.sentences.get(fingerprint)
            if sentences is not None:
                db.execute(
                    "INSERT INTO doc_sentences VALUES (?,?)",
                    (doc_key(doc_id, profile_id), sentences.to_bytes()),
                )
                rows.add((profile_id, LEMMAS), doc_id, sentences.distinct())
    rows.insert(db, staged)
    add_totals(db, totals)
    return len(batch)


def _delete_document(db: sqlite3.Connection, doc_id: int) -> None:
    (text,) = db.execute("SELECT length(text) FROM documents WHERE id = ?", (doc_id,)).fetchone()
    gone: Counter[str] = Counter(texts=-int(text is not None), text_bytes=-(text or 0))
    counted = db.execute(
        "SELECT profile_id, shingles FROM doc_profiles WHERE id BETWEEN ? AND ?", doc_keys(doc_id)
    )
    for profile_id, shingles in counted:
        gone[f"shingles:{profile_id}"] -= shingles
    add_totals(db, gone)
    db.execute("DELETE FROM doc_sentences WHERE id BETWEEN ? AND ?", doc_keys(doc_id))
    db.execute("DELETE FROM doc_profiles WHERE id BETWEEN ? AND ?", doc_keys(doc_id))
    db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))


def delete_sources(db: sqlite3.Connection, sources: Iterable[str]) -> int:
    """Remove the documents of ``sources`` with their rows, and tombstone their postings (in
    every stream); how many there were."""
    gone: list[int] = []
    for source in sources:
        row = db.execute("SELECT id FROM documents WHERE source = ?", (source,)).fetchone()
        if row is not None:
            _delete_document(db, row[0])
            gone.append(row[0])
    tombstone(db, gone)
    return len(gone)
