"""The index's sentence storage: sentence blobs, lemma frequencies and lemma postings stay equal
to a recount from the texts through adds, re-adds and removes; common lemmas lose their rows."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from test_index import SENTENCES

import canon
import canon.index.lemmas
from canon import Index, canonicalize
from canon.rewrites import find_rewrites
from canon.sentences import sentence_sets

LEMMA = canon.get_profile("lemma")


def lemma(index: Index) -> canon.IndexedProfile:
    return next(p for p in index.profiles() if p.name == "lemma")


def make_docs(count: int, seed: int) -> dict[str, str]:
    """Documents of 4-9 sentences drawn from one pool of real sentences, so they overlap."""
    rng = random.Random(seed)
    return {
        f"doc-{i:03d}": " ".join(rng.sample(SENTENCES, rng.randint(4, 9))) for i in range(count)
    }


def write_jsonl(path: Path, docs: dict[str, str]) -> Path:
    lines = [json.dumps({"id": k, "text": v}, ensure_ascii=False) for k, v in docs.items()]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def add(index: Index, path: Path, docs: dict[str, str], **options: object) -> canon.AddReport:
    return canon.add_sources(index, [str(write_jsonl(path, docs))], **options)


def segments(raw: sqlite3.Connection, profile: int) -> set[tuple[int, int]]:
    """The ``(hash, doc_id)`` pairs the postings segments hold, each segment checked: its ids
    sorted, at most ``SEGMENT``, keyed by the first, all below the lemma's next segment."""
    pairs: set[tuple[int, int]] = set()
    last: dict[int, int] = {}
    for h, first, data in raw.execute(
        "SELECT hash, first_doc, docs FROM lemma_postings WHERE profile_id = ? "
        "ORDER BY hash, first_doc",
        (profile,),
    ):
        ids = np.frombuffer(data, dtype="<u4").tolist()
        assert ids and ids == sorted(set(ids)) and ids[0] == first
        assert len(ids) <= canon.index.lemmas.SEGMENT
        assert last.get(h, -1) < first
        last[h] = ids[-1]
        pairs.update((h, i) for i in ids)
    return pairs


def stored(db: Path) -> tuple[dict[str, list], Counter, set[tuple[int, str]], set[int]]:
    """What the file holds: sentence spans and lemmas by source, frequencies, postings, and
    the common lemmas (hashes as unsigned ints)."""
    with sqlite3.connect(db) as raw:
        (profile,) = raw.execute("SELECT id FROM profiles WHERE name = 'lemma'").fetchone()
        blobs = raw.execute(
            "SELECT d.source, p.sentences FROM doc_profiles p JOIN documents d ON d.id = p.doc_id "
            "WHERE p.profile_id = ?",
            (profile,),
        ).fetchall()
        rows = raw.execute(
            "SELECT hash, df, common FROM lemmas WHERE profile_id = ?", (profile,)
        ).fetchall()
        names = dict(raw.execute("SELECT id, source FROM documents"))
        pairs = segments(raw, profile)
    assert {i for _, i in pairs} <= names.keys()  # no posting of a removed document
    unsigned = lambda h: int(np.int64(h).view(np.uint64))  # noqa: E731
    sentences = {
        source: [(s.start, s.end, s.lemmas) for s in canon.sentences.SentenceSets.from_bytes(data)]
        for source, data in blobs
    }
    df = Counter({unsigned(h): n for h, n, _ in rows})
    common = {unsigned(h) for h, _, flag in rows if flag}
    return sentences, df, {(unsigned(h), names[i]) for h, i in pairs}, common


def expected(docs: dict[str, str]) -> tuple[dict[str, list], Counter]:
    """The sentences and frequencies recounted from the texts."""
    sentences = {
        source: [(s.start, s.end, s.lemmas) for s in sentence_sets(canonicalize(text, LEMMA))]
        for source, text in docs.items()
    }
    df = Counter(h for rows in sentences.values() for h in {h for *_, ls in rows for h in ls})
    return sentences, df


def assert_consistent(db: Path, docs: dict[str, str]) -> set[int]:
    """The file equals a recount from ``docs``; returns its common lemmas."""
    sentences, df, postings, common = stored(db)
    want_sentences, want_df = expected(docs)
    assert sentences == want_sentences
    assert df == want_df
    held = {(h, s) for s, rows in want_sentences.items() for *_, ls in rows for h in ls}
    assert postings == {(h, s) for h, s in held if h not in common}
    return common


def test_the_tables_equal_a_recount(tmp_path: Path) -> None:
    docs = make_docs(12, seed=1)
    db = tmp_path / "l.db"
    with Index(db, create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs)
    assert assert_consistent(db, docs) == set()


def test_the_sentences_are_made_in_worker_processes_alike(tmp_path: Path) -> None:
    docs = make_docs(16, seed=2)
    for workers in (1, 2):
        with Index(tmp_path / f"w{workers}.db", create=True) as index:
            add(index, tmp_path / "docs.jsonl", docs, workers=workers, batch=5)
        assert_consistent(tmp_path / f"w{workers}.db", docs)


def test_remove_leaves_nothing_of_the_document(tmp_path: Path) -> None:
    docs = make_docs(8, seed=3)
    db = tmp_path / "r.db"
    with Index(db, create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs)
        gone = "doc-002"
        (doc_id,) = index._db.execute(
            "SELECT id FROM documents WHERE source = ?", (gone,)
        ).fetchone()
        assert index.remove([gone]) == 1
        for table in ("doc_profiles", "bands"):
            rows = index._db.execute(f"SELECT count(*) FROM {table} WHERE doc_id = ?", (doc_id,))
            assert rows.fetchone()[0] == 0, table
        for profile in index.profiles():
            assert doc_id not in index.posting_rows(profile)[1].tolist()
        assert doc_id not in {i for _, i in segments(index._db, lemma(index).id)}
        draft = docs[gone].split(". ")[0]
        result = find_rewrites(draft, index, lemma(index))
        assert gone not in {r.source for r in result.rewrites}
    rest = {k: v for k, v in docs.items() if k != gone}
    assert_consistent(db, rest)
    with Index(db) as index:
        index.remove(list(rest))
        assert index._db.execute("SELECT count(*) FROM lemmas").fetchone()[0] == 0
        assert index._db.execute("SELECT count(*) FROM lemma_postings").fetchone()[0] == 0


def test_segments_fill_split_and_shrink(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With segments of 2 ids, 9 documents added in batches of 4 fill, split and (as some are
    removed from the middle, the start and the end) shrink and re-key segments."""
    monkeypatch.setattr(canon.index.lemmas, "SEGMENT", 2)
    docs = make_docs(9, seed=7)
    db = tmp_path / "s.db"
    with Index(db, create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs, batch=4)
    assert_consistent(db, docs)
    with sqlite3.connect(db) as raw:
        (longest,) = raw.execute("SELECT max(length(docs)) FROM lemma_postings").fetchone()
        (rows,) = raw.execute("SELECT count(*) FROM lemma_postings").fetchone()
    assert longest == 8 and rows > len(expected(docs)[1])  # full segments, several per lemma
    gone = ["doc-000", "doc-004", "doc-005", "doc-008"]
    with Index(db) as index:
        assert index.remove(gone) == 4
        add(index, tmp_path / "more.jsonl", make_docs(3, seed=8) | {"doc-004": docs["doc-004"]})
    rest = {k: v for k, v in docs.items() if k not in gone}
    assert_consistent(db, rest | make_docs(3, seed=8) | {"doc-004": docs["doc-004"]})


def test_a_readd_replaces_the_rows(tmp_path: Path) -> None:
    docs = make_docs(6, seed=4)
    db = tmp_path / "a.db"
    changed = "Совсем другой текст о выращивании томатов на застеклённом балконе летом."
    with Index(db, create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs)
        again = dict(docs, **{"doc-001": changed})
        report = add(index, tmp_path / "docs.jsonl", again)
        assert (report.replaced, report.skipped) == (1, 5)
        indexed = next(p for p in index.profiles() if p.name == "lemma")
        new = find_rewrites("Летом на застеклённом балконе выращивают томаты.", index, indexed)
        assert [r.source for r in new.rewrites] == ["doc-001"]
        old = find_rewrites(docs["doc-001"], index, indexed, per_sentence=100)
        assert "doc-001" not in {r.source for r in old.rewrites}
    assert_consistent(db, again)


def test_common_lemmas_lose_their_postings_for_good(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(canon.index.lemmas, "COMMON_LEMMA", 3)
    docs = make_docs(10, seed=5)
    db = tmp_path / "c.db"
    with Index(db, create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs)
    common = assert_consistent(db, docs)
    _, df = expected(docs)
    assert common == {h for h, n in df.items() if n > 3} != set()
    with Index(db) as index:  # fewer documents: still common, still without rows
        index.remove(["doc-000", "doc-001", "doc-002"])
    rest = {k: v for k, v in docs.items() if k not in ("doc-000", "doc-001", "doc-002")}
    _, df = expected(rest)
    still = assert_consistent(db, rest)
    assert still == {h for h in common if df[h] > 0}
    assert any(df[h] <= 3 for h in still)


def test_a_sentence_of_common_lemmas_is_not_looked_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(canon.index.lemmas, "COMMON_LEMMA", 2)
    sentence = "Опытные любители чая советуют выбирать фарфоровый или стеклянный чайник."
    rare = "Садовод укрывает розы лапником и мешковиной от морозов и ветра."
    docs = {f"copy-{i}": sentence for i in range(4)} | {"garden": rare}
    with Index(tmp_path / "t.db", create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs)
        result = find_rewrites(
            f"{sentence} {rare}", index, next(p for p in index.profiles() if p.name == "lemma")
        )
    assert result.too_common == ((0, len(sentence)),)
    assert (result.sentences, result.judged) == (2, 1)
    assert [r.source for r in result.rewrites] == ["garden"]


def test_a_raw_only_index_keeps_no_sentences(tmp_path: Path) -> None:
    docs = make_docs(3, seed=6)
    db = tmp_path / "raw.db"
    with Index(db, create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs, profiles=[canon.get_profile("raw")])
        assert (
            index._db.execute(
                "SELECT count(*) FROM doc_profiles WHERE sentences IS NOT NULL"
            ).fetchone()[0]
            == 0
        )
        assert index._db.execute("SELECT count(*) FROM lemmas").fetchone()[0] == 0
        assert list(index.sentence_sets(index.profiles()[0])) == []
