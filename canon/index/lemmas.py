"""What the sentence measure reads from an index: documents' sentence lemma sets, and the rule
that makes a content lemma common.

Under each profile with morphology, the index keeps what the sentence measure
(:mod:`canon.fingerprints.sentences`) needs:

- each document's sentences (spans and lemma hash sets), one blob in ``doc_sentences``;
- which documents hold each content lemma: the profile's lemma stream of postings segments
  (:data:`canon.index.segments.LEMMAS`), so the candidate sources of a draft sentence are
  found by binary search, never by a scan;
- each lemma's document frequency ``df`` (for IDF weights): the number of its live postings
  in that stream, counted, not stored.

A lemma held by more than :data:`COMMON_LEMMA` documents is *common*: its postings are not
read, which bounds every probe the way a set phrase bounds the shingle postings.  A common
lemma still counts in every score (the sentence blobs keep it), but it cannot make a document
a candidate by itself.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ..fingerprints.sentences import SentenceSets
from .lookups import keyed_rows
from .schema import PROFILE_SLOTS

__all__ = ["COMMON_LEMMA", "document_count", "sentence_sets", "sentence_tables"]

COMMON_LEMMA = 5_000  # documents: a lemma in more is common, its postings are not read


def document_count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT count(*) FROM documents").fetchone()[0])


def sentence_sets(
    db: sqlite3.Connection, profile_id: int, doc_ids: Iterable[int] | None = None
) -> Iterator[tuple[int, SentenceSets]]:
    """``(doc_id, sentences)`` of the documents named (every document for None), by id."""
    if doc_ids is None:
        cursor = db.execute(
            "SELECT id, sentences FROM doc_sentences WHERE id % ? = ? ORDER BY id",
            (PROFILE_SLOTS, profile_id),
        )
        rows: Iterable[tuple[Any, ...]] = ((k // PROFILE_SLOTS, d) for k, d in cursor.fetchall())
    else:
        rows = keyed_rows(db, "doc_sentences", "sentences", profile_id, doc_ids)
    for doc_id, data in rows:
        yield doc_id, SentenceSets.from_bytes(data)


def sentence_tables(
    db: sqlite3.Connection, profile_id: int, doc_ids: Iterable[int]
) -> tuple[list[int], np.ndarray, SentenceSets]:
    """The sentences of the documents named that have them stored, decoded at once: the
    documents by id, how many sentences each has, and all their sentences one document's
    after another's."""
    rows = list(keyed_rows(db, "doc_sentences", "sentences", profile_id, doc_ids))
    if not rows:
        return [], np.zeros(0, np.int64), SentenceSets.empty()
    counts, sets = SentenceSets.joined([data for _, data in rows])
    return [doc for doc, _ in rows], counts, sets
