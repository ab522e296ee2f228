"""Documents' sentence lemma sets → the lemma tables, kept in step on add and remove; probes.

Under each profile with morphology, the index keeps what the sentence measure
(:mod:`canon.sentences`) needs:

- each document's sentences (spans and lemma hash sets), one blob in ``doc_profiles``;
- ``lemmas``: each content lemma's document frequency ``df`` (for IDF weights);
- ``lemma_postings``: which documents hold each lemma, so the candidate sources of a draft
  sentence are found by key, never by a scan.  A row is a *segment*: the sorted ids of up to
  :data:`SEGMENT` documents as one little-endian uint32 blob, keyed by its first id.  New
  documents always have the highest ids, so an add appends them to each lemma's last
  segment (a new one once it is full); a remove rewrites the one segment that holds the
  document.  A lemma held by a few hundred documents is read as one row, not hundreds.

A lemma held by more than :data:`COMMON_LEMMA` documents becomes *common*, for good: its
postings are deleted and no more are written (its ``df`` is still counted).  This bounds both
the table and every probe, the way a set phrase bounds the shingle postings.  A common lemma
still counts in every score (the sentence blobs keep it), but it cannot make a document a
candidate by itself.

Write functions run inside the caller's transaction and never commit.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from ..errors import IndexFileError
from ..sentences import SentenceSets
from .schema import signed

__all__ = [
    "COMMON_LEMMA",
    "SEGMENT",
    "add_documents",
    "document_count",
    "frequencies",
    "postings",
    "remove_document",
    "sentence_sets",
    "sentence_tables",
]

COMMON_LEMMA = 5_000  # documents: a lemma in more is common, its postings are not kept
SEGMENT = 128  # document ids per postings row: 512 bytes, kept within its B-tree page
_MAX_ID = 2**32 - 1  # document ids are stored as uint32

_CHUNK = 500  # ids per IN (...) query


def _probe(db: sqlite3.Connection, hashes: np.ndarray) -> None:
    db.execute("CREATE TEMP TABLE IF NOT EXISTS lemma_probe (hash INTEGER PRIMARY KEY)")
    db.execute("DELETE FROM lemma_probe")
    # In key order, so that the temporary B-tree is appended to, never split at random.
    keys = np.unique(np.asarray(hashes, dtype=np.uint64).view(np.int64))
    db.executemany("INSERT INTO lemma_probe VALUES (?)", ((h,) for h in keys.tolist()))


def _unsigned(values: Iterable[int]) -> np.ndarray:
    return np.fromiter(values, dtype=np.int64).view(np.uint64)


# ------------------------------------------------------------------ writing


def _count(db: sqlite3.Connection, profile_id: int, hashes: np.ndarray, counts: np.ndarray) -> None:
    db.executemany(
        "INSERT INTO lemmas VALUES (?,?,?,0) ON CONFLICT (profile_id, hash) "
        "DO UPDATE SET df = df + excluded.df",
        ((profile_id, h, c) for h, c in zip(signed(hashes), counts.tolist())),
    )


def _common(db: sqlite3.Connection, profile_id: int, hashes: np.ndarray) -> np.ndarray:
    """Which of ``hashes`` are common now; the ones that just became so lose their postings."""
    _probe(db, hashes)
    rows = db.execute(
        "SELECT l.hash, l.df, l.common FROM lemma_probe p CROSS JOIN lemmas l "
        "ON l.profile_id = ? AND l.hash = p.hash",
        (profile_id,),
    ).fetchall()
    newly = [(profile_id, h) for h, df, common in rows if not common and df > COMMON_LEMMA]
    db.executemany("UPDATE lemmas SET common = 1 WHERE profile_id = ? AND hash = ?", newly)
    db.executemany("DELETE FROM lemma_postings WHERE profile_id = ? AND hash = ?", newly)
    return _unsigned(h for h, df, common in rows if common or df > COMMON_LEMMA)


def _ids(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype="<u4").astype(np.int64)


def _blob(ids: np.ndarray) -> bytes:
    return ids.astype("<u4").tobytes()


def _last_segments(
    db: sqlite3.Connection, profile_id: int, hashes: np.ndarray
) -> dict[int, tuple[int, bytes]]:
    """Each lemma's last segment: signed hash → (first id, its blob as stored)."""
    _probe(db, hashes)
    rows = db.execute(
        "SELECT l.hash, l.first_doc, l.docs FROM lemma_probe p CROSS JOIN lemma_postings l "
        "ON l.profile_id = ? AND l.hash = p.hash AND l.first_doc = (SELECT max(x.first_doc) "
        "FROM lemma_postings x WHERE x.profile_id = ? AND x.hash = p.hash)",
        (profile_id, profile_id),
    ).fetchall()
    return {h: (first, data) for h, first, data in rows}


def _post(db: sqlite3.Connection, profile_id: int, hashes: np.ndarray, ids: np.ndarray) -> None:
    """Append the ``(hash, id)`` pairs (sorted by hash, then id; every id above those already
    posted) to the lemmas' segments.  Blobs are joined as bytes: a segment's ids are its blob's
    uint32 values, so nothing is decoded."""
    if len(ids) and int(ids.max()) > _MAX_ID:
        raise IndexFileError(
            f"the index has given out more than {_MAX_ID:,} document ids; build a new index "
            "from its sources",
            reason="full",
        )
    distinct, starts = np.unique(hashes, return_index=True)
    ends = [*starts[1:].tolist(), len(hashes)]
    last = _last_segments(db, profile_id, distinct)
    data, firsts = _blob(ids), ids.tolist()
    updates, inserts = [], []
    for h, start, end in zip(signed(distinct), starts.tolist(), ends):
        held = last.get(h)
        if held is not None and len(held[1]) < 4 * SEGMENT:
            first, blob = held
            take = min(end - start, SEGMENT - len(blob) // 4)
            updates.append((blob + data[4 * start : 4 * (start + take)], profile_id, h, first))
            start += take
        for at in range(start, end, SEGMENT):
            inserts.append((profile_id, h, firsts[at], data[4 * at : 4 * min(at + SEGMENT, end)]))
    db.executemany(
        "UPDATE lemma_postings SET docs = ? WHERE profile_id = ? AND hash = ? AND first_doc = ?",
        updates,
    )
    db.executemany("INSERT INTO lemma_postings VALUES (?,?,?,?)", inserts)


def add_documents(db: sqlite3.Connection, entries: Sequence[tuple[int, int, np.ndarray]]) -> None:
    """Count and post ``(profile_id, doc_id, distinct lemma hashes)`` of a batch's documents,
    whose ids are above every id already in the index."""
    by_profile: dict[int, list[tuple[int, np.ndarray]]] = defaultdict(list)
    for profile_id, doc_id, hashes in entries:
        if len(hashes):
            by_profile[profile_id].append((doc_id, hashes))
    for profile_id, docs in by_profile.items():
        hashes = np.concatenate([h for _, h in docs])
        ids = np.repeat([doc for doc, _ in docs], [len(h) for _, h in docs]).astype(np.int64)
        distinct, counts = np.unique(hashes, return_counts=True)
        _count(db, profile_id, distinct, counts)
        keep = ~np.isin(hashes, _common(db, profile_id, distinct))
        hashes, ids = hashes[keep], ids[keep]
        order = np.lexsort((ids, hashes))
        _post(db, profile_id, hashes[order], ids[order])


def _unpost(db: sqlite3.Connection, profile_id: int, doc_id: int, h: int) -> None:
    """Take one document out of the segment of lemma ``h`` that holds it."""
    row = db.execute(
        "SELECT first_doc, docs FROM lemma_postings WHERE profile_id = ? AND hash = ? "
        "AND first_doc <= ? ORDER BY first_doc DESC LIMIT 1",
        (profile_id, h, doc_id),
    ).fetchone()
    if row is None:  # a common lemma: no postings
        return
    first, held = row[0], _ids(row[1])
    kept = held[held != doc_id]
    if len(kept) == len(held):
        return
    key = (profile_id, h, first)
    if len(kept) and int(kept[0]) == first:
        db.execute(
            "UPDATE lemma_postings SET docs = ? WHERE profile_id = ? AND hash = ? "
            "AND first_doc = ?",
            (_blob(kept), *key),
        )
        return
    db.execute(
        "DELETE FROM lemma_postings WHERE profile_id = ? AND hash = ? AND first_doc = ?", key
    )
    if len(kept):
        db.execute(
            "INSERT INTO lemma_postings VALUES (?,?,?,?)",
            (profile_id, h, int(kept[0]), _blob(kept)),
        )


def remove_document(
    db: sqlite3.Connection, profile_id: int, doc_id: int, hashes: np.ndarray
) -> None:
    """Take a document's distinct lemma hashes out of the counts and the postings."""
    keys = [(profile_id, h) for h in signed(hashes)]
    for _, h in keys:
        _unpost(db, profile_id, doc_id, h)
    db.executemany("UPDATE lemmas SET df = df - 1 WHERE profile_id = ? AND hash = ?", keys)
    db.executemany("DELETE FROM lemmas WHERE profile_id = ? AND hash = ? AND df <= 0", keys)


# ------------------------------------------------------------------ reading


def document_count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT count(*) FROM documents").fetchone()[0])


def _keys(hashes: np.ndarray) -> list[int]:
    """``hashes`` as the signed keys SQLite stores, each once, in key order."""
    return np.unique(np.asarray(hashes, dtype=np.uint64).view(np.int64)).tolist()


def _by_hash(
    db: sqlite3.Connection, select: str, order: str, profile_id: int, keys: list[int]
) -> list[tuple[object, ...]]:
    """The rows of ``select`` (of one table, ending in ``hash IN``) for ``keys`` (sorted) in
    the ``order`` of that table's key: a query a chunk of keys, each a key lookup, nothing
    written."""
    rows: list[tuple[object, ...]] = []
    for chunk in _chunks(keys):
        marks = ",".join("?" * len(chunk))
        query = f"{select} ({marks}) ORDER BY {order}"
        rows += db.execute(query, [profile_id, *chunk]).fetchall()
    return rows


def frequencies(
    db: sqlite3.Connection, profile_id: int, hashes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Document frequency of each of ``hashes`` (0 if no document holds it), and whether it is
    common; both aligned with ``hashes``."""
    keys = signed(np.asarray(hashes, dtype=np.uint64))
    df = np.zeros(len(keys), np.int64)
    common = np.zeros(len(keys), bool)
    rows = _by_hash(
        db, "SELECT hash, df, common FROM lemmas WHERE profile_id = ? AND hash IN", "hash",
        profile_id, _keys(hashes),
    )  # fmt: skip
    if rows:
        table = np.array(rows, dtype=np.int64)  # sorted by hash, each once
        wanted = np.array(keys, dtype=np.int64)
        at = np.minimum(np.searchsorted(table[:, 0], wanted), len(table) - 1)
        held = table[at, 0] == wanted
        df[held] = table[at[held], 1]
        common[held] = table[at[held], 2] != 0
    return df, common


def postings(
    db: sqlite3.Connection, profile_id: int, hashes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(hash, doc_id)`` of every document holding one of ``hashes`` (common lemmas have
    none), as a uint64 and an int64 array: by hash (as SQLite orders the signed keys), then
    by document."""
    rows = _by_hash(
        db, "SELECT hash, docs FROM lemma_postings WHERE profile_id = ? AND hash IN",
        "hash, first_doc", profile_id, _keys(hashes),
    )  # fmt: skip
    if not rows:
        return np.zeros(0, np.uint64), np.zeros(0, np.int64)
    if any(len(data) % 4 for _, data in rows):
        raise ValueError("a lemma postings segment is not a whole number of document ids")
    ids = np.frombuffer(b"".join(data for _, data in rows), dtype="<u4").astype(np.int64)
    keys = np.array([h for h, _ in rows], dtype=np.int64).view(np.uint64)
    return np.repeat(keys, [len(data) // 4 for _, data in rows]), ids


def _chunks(ids: Iterable[int]) -> Iterator[list[int]]:
    ids = list(ids)
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


def sentence_sets(
    db: sqlite3.Connection, profile_id: int, doc_ids: Iterable[int] | None = None
) -> Iterator[tuple[int, SentenceSets]]:
    """``(doc_id, sentences)`` of the documents named (every document for None)."""
    query = "SELECT doc_id, sentences FROM doc_profiles WHERE profile_id = ?"
    if doc_ids is None:
        cursor = db.execute(query + " AND sentences IS NOT NULL ORDER BY doc_id", (profile_id,))
        for doc_id, data in cursor.fetchall():
            yield doc_id, SentenceSets.from_bytes(data)
        return
    for chunk in _chunks(doc_ids):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"{query} AND doc_id IN ({marks})", [profile_id, *chunk]).fetchall()
        for doc_id, data in rows:
            if data is not None:
                yield doc_id, SentenceSets.from_bytes(data)


def sentence_tables(
    db: sqlite3.Connection, profile_id: int, doc_ids: Iterable[int]
) -> tuple[list[int], np.ndarray, SentenceSets]:
    """The sentences of the documents named that have them stored, decoded at once: the
    documents by id, how many sentences each has, and all their sentences one document's
    after another's."""
    query = "SELECT doc_id, sentences FROM doc_profiles WHERE profile_id = ?"
    rows: list[tuple[int, bytes]] = []
    for chunk in _chunks(sorted(set(doc_ids))):
        marks = ",".join("?" * len(chunk))
        found = db.execute(
            f"{query} AND doc_id IN ({marks}) AND sentences IS NOT NULL ORDER BY doc_id",
            [profile_id, *chunk],
        )
        rows += found.fetchall()
    if not rows:
        return [], np.zeros(0, np.int64), SentenceSets.empty()
    counts, sets = SentenceSets.joined([data for _, data in rows])
    return [doc for doc, _ in rows], counts, sets
