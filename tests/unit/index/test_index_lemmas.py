"""The index's sentence storage: sentence blobs, lemma frequencies and lemma postings stay equal
to a recount from the texts through adds, re-adds, removes and merges; common lemmas are not
looked up."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from corpora import SENTENCES

import canon
import canon.index.lemmas
import canon.index.snapshot
from canon import Index, canonicalize
from canon.fingerprints.sentences import sentence_sets
from canon.index.segments import BANDS, LEMMAS, SHINGLES
from canon.uniqueness.rewrites import find_rewrites

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


def add(
    index: Index,
    path: Path,
    docs: dict[str, str],
    profiles: list[canon.Profile] | None = None,
    **options: Any,
) -> canon.AddReport:
    sources = [str(write_jsonl(path, docs))]
    return canon.add_sources(
        index, sources, canon.IndexRules(profiles), canon.AddSettings(**options)
    )


def stored(db: Path) -> tuple[dict[str, list], Counter, set[tuple[int, str]], set[int]]:
    """What the index holds: sentence spans and lemmas by source, frequencies, the lemma
    stream's postings, and the common lemmas (hashes as unsigned ints); the lookups of the
    postings checked against the stream."""
    with Index(db, readonly=True) as index:
        profile = lemma(index)
        names = {d["id"]: d["source"] for d in index.documents()}
        sentences = {
            names[doc]: [(s.start, s.end, s.lemmas) for s in sets]
            for doc, sets in index.sentence_sets(profile)
        }
        keys, docs = index.posting_rows(profile, LEMMAS)
        distinct = np.unique(keys)
        df, common = index.lemma_frequencies(profile, distinct)
        found, holders = index.lemma_postings(profile, distinct)
    assert set(docs.tolist()) <= names.keys()  # no posting of a removed document
    pairs = set(zip(keys.tolist(), docs.tolist(), strict=True))
    rare = {h for h, c in zip(distinct.tolist(), common.tolist(), strict=True) if not c}
    looked_up = list(zip(found.tolist(), holders.tolist(), strict=True))
    for doc in set(holders.tolist()):  # each document's rows in hash order
        own = [h for h, d in looked_up if d == doc]
        assert own == sorted(own)
    assert sorted(looked_up) == sorted({(h, d) for h, d in pairs if h in rare})
    frequencies = Counter(dict(zip(distinct.tolist(), df.tolist(), strict=True)))
    heavy = {h for h, c in zip(distinct.tolist(), common.tolist(), strict=True) if c}
    return sentences, frequencies, {(h, names[d]) for h, d in pairs}, heavy


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
    assert postings == held
    assert common == {h for h, n in want_df.items() if n > canon.index.lemmas.COMMON_LEMMA}
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
        rows = index._db.execute("SELECT count(*) FROM doc_profiles WHERE doc_id = ?", (doc_id,))
        assert rows.fetchone()[0] == 0
        assert not list(index.sentence_sets(lemma(index), [doc_id]))
        for profile in index.profiles():
            for kind in (SHINGLES, BANDS, LEMMAS):
                assert doc_id not in index.posting_rows(profile, kind)[1].tolist()
        draft = docs[gone].split(". ")[0]
        result = find_rewrites(draft, index, lemma(index))
        assert gone not in {r.source for r in result.rewrites}
    rest = {k: v for k, v in docs.items() if k != gone}
    assert_consistent(db, rest)
    with Index(db) as index:
        index.remove(list(rest))
        assert len(index.posting_rows(lemma(index), LEMMAS)[0]) == 0
        assert index._db.execute("SELECT count(*) FROM doc_sentences").fetchone()[0] == 0


@pytest.mark.parametrize("gather", [1, 256])
def test_frequencies_stay_exact_through_removes_re_adds_and_merges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gather: int
) -> None:
    """Documents removed from the middle, the start and the end of batches of 4 leave
    tombstones in the lemma stream's segments: a lemma's frequency subtracts them, whether
    its postings are read (short runs) or searched (runs over ``gather``); a merge drops them
    and the counts stay."""
    monkeypatch.setattr(canon.index.snapshot, "_GATHER", gather)
    docs = make_docs(9, seed=7)
    db = tmp_path / "s.db"
    with Index(db, create=True) as index:
        add(index, tmp_path / "docs.jsonl", docs, batch=4, merge=False)
    assert_consistent(db, docs)
    gone = ["doc-000", "doc-004", "doc-005", "doc-008"]
    more = make_docs(3, seed=8) | {"doc-004": docs["doc-004"]}
    with Index(db) as index:
        assert index.remove(gone) == 4
        add(index, tmp_path / "more.jsonl", more, merge=False)
        assert index.stats().tombstones == 6  # 4 removed, 2 replaced (doc-001, doc-002)
    rest = {k: v for k, v in docs.items() if k not in gone}
    assert_consistent(db, rest | more)
    with Index(db) as index:
        index.optimize()
        assert index.stats().tombstones == 0
    assert_consistent(db, rest | more)


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


def test_common_lemmas_are_those_held_by_more_than_the_limit(
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
    with Index(db) as index:  # fewer documents: some are no longer common
        index.remove(["doc-000", "doc-001", "doc-002"])
    rest = {k: v for k, v in docs.items() if k not in ("doc-000", "doc-001", "doc-002")}
    _, df = expected(rest)
    still = assert_consistent(db, rest)
    assert still == {h for h in common if df[h] > 3}
    assert any(0 < df[h] <= 3 for h in common)  # those are looked up again


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
        assert index._db.execute("SELECT count(*) FROM doc_sentences").fetchone()[0] == 0
        assert len(index.posting_rows(index.profiles()[0], LEMMAS)[0]) == 0
        assert list(index.sentence_sets(index.profiles()[0])) == []
