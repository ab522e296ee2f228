"""The SQLite index and uniqueness checks: equal to brute force, refusals, re-add, remove,
exclusion, quotes, and every kind of bad index file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from corpora import SENTENCES, brute_force, make_corpus, recounted
from hypothesis import given, settings
from hypothesis import strategies as st

import canon
from canon import Index
from canon.index.segments import BANDS
from canon.text.quotes import quoted_ranges


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("corpus")
    docs = make_corpus(folder / "docs", 30)
    db = folder / "corpus.db"
    with Index(db, create=True) as index:
        report = canon.add_sources(
            index,
            [str(folder / "docs")],
            canon.IndexRules([canon.get_profile("raw"), canon.get_profile("lemma")], k=4),
        )
    assert (report.added, report.failures) == (30, ())
    return db, docs


draft_texts = st.lists(st.sampled_from(SENTENCES), min_size=2, max_size=6).map(" ".join)


@settings(max_examples=25, deadline=None)
@given(draft=draft_texts)
def test_check_equals_brute_force(corpus, draft: str) -> None:
    db, docs = corpus
    with Index(db, readonly=True) as index:
        result = canon.check(draft, index, canon.CheckSettings(top=1000, min_shared=1))
    for profile in result.profiles:
        uniqueness, per_source = brute_force(draft, docs, profile.profile, 4)
        assert profile.uniqueness == pytest.approx(uniqueness)
        found = {m.source: (m.shared, m.containment, m.jaccard) for m in profile.sources}
        assert found.keys() == per_source.keys()
        for source, (shared, containment, jaccard) in per_source.items():
            assert found[source][0] == shared
            assert found[source][1:] == (pytest.approx(containment), pytest.approx(jaccard))


def test_fragments_point_at_borrowed_text(corpus) -> None:
    db, docs = corpus
    borrowed = SENTENCES[3]
    draft = f"Совершенно новое вступление копирайтера о пользе прогулок. {borrowed}"
    with Index(db, readonly=True) as index:
        result = canon.check(draft, index)
    raw = next(p for p in result.profiles if p.profile == "raw")
    if not any(borrowed in text for text in docs.values()):
        pytest.skip("the sampled corpus does not hold this sentence")
    (fragment,) = raw.fragments
    assert draft[fragment.start : fragment.end].rstrip(".!?") == borrowed.rstrip(".!?")


def test_unique_draft(corpus) -> None:
    db, _ = corpus
    with Index(db, readonly=True) as index:
        result = canon.check(
            "Квантовые компьютеры моделируют молекулы белков быстрее обычных", index
        )
    assert all(p.uniqueness == 1.0 and not p.sources and not p.fragments for p in result.profiles)


def test_skip_quotes_leaves_citations_out(corpus, tmp_path: Path) -> None:
    db, docs = corpus
    quote = next(iter(docs.values())).split(". ")[0]
    own = "Мы написали этот абзац сами и ничего не заимствовали у коллег по цеху"
    draft = f"{own}: «{quote}»."
    with Index(db, readonly=True) as index:
        plain = canon.check(draft, index, canon.CheckSettings(profiles=["raw"])).profiles[0]
        skipped = canon.check(
            draft, index, canon.CheckSettings(profiles=["raw"], skip_quotes=True)
        ).profiles[0]
    assert plain.uniqueness < 1.0
    assert skipped.uniqueness == 1.0 and skipped.quoted_shingles > 0
    assert quoted_ranges('a «b» „c“ "d"') == [(2, 5), (6, 9), (10, 13)]
    assert quoted_ranges("«а «б» в» и «г»") == [(0, 9), (12, 15)]  # nested quotes are one


def _jsonl_index(tmp_path: Path, records: list[dict]) -> Path:
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), "utf-8")
    db = tmp_path / "j.db"
    with Index(db, create=True) as index:
        report = canon.add_sources(
            index, [str(path)], canon.IndexRules([canon.get_profile("raw")], k=3)
        )
    assert not report.failures, report.failures
    return db


def test_exclude_by_source_domain_and_regex(tmp_path: Path) -> None:
    text = "Зелёный чай заваривают водой около восьмидесяти градусов и не дольше трёх минут"
    db = _jsonl_index(
        tmp_path,
        [
            {"id": "https://www.client.ru/tea", "text": text},
            {"id": "https://blog.client.ru/tea", "text": text},
            {"id": "https://rival.ru/tea", "text": text},
            {"id": "draft-7", "text": text},
        ],
    )

    def sources(*exclude: str) -> set[str]:
        with Index(db, readonly=True) as index:
            result = canon.check(text, index, canon.CheckSettings(exclude=exclude))
        return {m.source for m in result.profiles[0].sources}

    everything = sources()
    assert len(everything) == 4
    assert sources("client.ru") == {"https://rival.ru/tea", "draft-7"}
    assert sources("https://rival.ru/tea") == everything - {"https://rival.ru/tea"}
    assert sources(r"re:^draft-\d+$", "rival.ru") == {
        "https://www.client.ru/tea",
        "https://blog.client.ru/tea",
    }
    with Index(db, readonly=True) as index:
        # A draft found only in excluded sources has nothing left to count.
        with pytest.raises(canon.InputError, match="nothing left to check") as left:
            canon.check(
                text, index, canon.CheckSettings(exclude=["client.ru", "rival.ru", "draft-7"])
            )
        assert left.value.source == "draft"
        with pytest.raises(canon.OptionError, match="not a valid regular expression") as info:
            canon.check(text, index, canon.CheckSettings(exclude=["re:("]))
        assert info.value.option == "exclude"


def test_readd_skips_unchanged_and_replaces_changed(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 5)
    db = tmp_path / "r.db"
    profiles = [canon.get_profile("lemma")]
    with Index(db, create=True) as index:
        first = canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules(profiles, k=3))
        again = canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules(profiles, k=3))
        changed_path = next(iter(docs))
        Path(changed_path).write_text(
            "Совсем другой текст о выращивании томатов на балконе летом", "utf-8"
        )
        third = canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules(profiles, k=3))
        assert (first.added, again.skipped, third.replaced, third.skipped) == (5, 5, 1, 4)
        assert index.stats().documents == 5
        result = canon.check(
            "выращивании томатов на балконе летом", index, canon.CheckSettings(min_shared=1)
        )
        assert [m.source for m in result.profiles[0].sources] == [changed_path]
        old = canon.check(docs[changed_path], index).profiles[0]
        assert changed_path not in {m.source for m in old.sources}


def test_remove(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 4)
    db = tmp_path / "m.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index, [str(tmp_path / "docs")], canon.IndexRules([canon.get_profile("raw")], k=3)
        )
        gone = next(iter(docs))
        assert index.remove([gone, "never-indexed"]) == 1
        sources = {d["source"] for d in index.documents()}
        assert gone not in sources and len(sources) == 3
        result = canon.check(docs[gone], index)
        assert gone not in {m.source for m in result.profiles[0].sources}
        ids = {d["id"] for d in index.documents()}
        (profile,) = index.profiles()
        _, docs_held = index.posting_rows(profile)
        assert set(docs_held.tolist()) == ids  # no live posting of the removed document
        assert index.stats().tombstones == 1
        index.optimize()  # the tombstone is applied: the files hold nothing of it either
        assert index.stats().tombstones == 0
        assert set(np.concatenate(segment_docs(db)).tolist()) == ids


def segment_docs(db: Path) -> list[np.ndarray]:
    """The document ids every segment file beside ``db`` holds, read from the files."""
    folder = Path(f"{db}-segments")
    return [np.load(f) for f in sorted(folder.glob("*.docs.npy"))]


def test_other_rules_are_refused(corpus) -> None:
    db, _ = corpus
    with Index(db) as index:
        with pytest.raises(canon.IndexFileError, match=r"built with raw \(\w+, k=4\).*k=3"):
            canon.add_sources(index, ["x.txt"], canon.IndexRules([canon.get_profile("raw")], k=3))
        custom = canon.get_profile("lemma").replace(keep_negation=False)
        with pytest.raises(canon.IndexFileError, match=custom.fingerprint):
            canon.add_sources(index, ["x.txt"], canon.IndexRules([custom], k=4))
        with pytest.raises(canon.IndexFileError, match="not with stem"):
            canon.check(
                "какой-то текст для проверки уникальности",
                index,
                canon.CheckSettings(profiles=["stem"]),
            )


def test_a_failing_source_does_not_stop_the_others(tmp_path: Path) -> None:
    make_corpus(tmp_path / "docs", 3)
    (tmp_path / "docs" / "broken.docx").write_bytes(b"not a zip")
    (tmp_path / "docs" / "tiny.txt").write_text("два слова", "utf-8")
    with Index(tmp_path / "f.db", create=True) as index:
        report = canon.add_sources(
            index,
            [str(tmp_path / "docs"), str(tmp_path / "missing.txt")],
            canon.IndexRules([canon.get_profile("raw")], k=4),
        )
    assert report.added == 3
    reasons = sorted(f.reason for f in report.failures)
    assert len(reasons) == 2
    assert any("not a valid .docx" in r for r in reasons)
    assert any("no such file" in r for r in reasons)
    # a text shorter than k is left out and reported, not a failure
    assert [(e.source, e.reason) for e in report.left_out] == [
        (str(tmp_path / "docs" / "tiny.txt"), "too-short")]  # fmt: skip


# --- bad index files ---------------------------------------------------------------------


def test_not_an_index(tmp_path: Path) -> None:
    text_file = tmp_path / "notes.db"
    text_file.write_text("это не база данных, а просто текст " * 100, "utf-8")
    with pytest.raises(canon.IndexFileError, match="is not a canon index"):
        Index(text_file)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(canon.IndexFileError, match="another kind of SQLite file"):
        Index(other)
    with pytest.raises(canon.IndexFileError, match="no such index"):
        Index(tmp_path / "missing.db")
    with pytest.raises(canon.IndexFileError, match="is a directory"):
        Index(tmp_path)


def test_older_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    Index(db, create=True).close()
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA user_version = 1")
    with pytest.raises(canon.IndexFileError, match="made by an older canon") as info:
        Index(db)
    assert "build a new index" in str(info.value) and "\n" not in str(info.value)


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    Index(db, create=True).close()
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.raises(canon.IndexFileError, match="schema version 99 is newer"):
        Index(db)


def test_read_only_location() -> None:
    with pytest.raises(canon.IndexFileError, match=r"/proc/canon\.db"):
        Index("/proc/canon.db", create=True)


def test_full_disk_keeps_committed_documents(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 40)
    db = tmp_path / "full.db"
    items = sorted(docs)
    with Index(db, create=True) as index:
        canon.add_sources(index, items[:5], canon.IndexRules([canon.get_profile("raw")], k=3))
        pages = index._db.execute("PRAGMA page_count").fetchone()[0]
        index._db.execute(f"PRAGMA max_page_count = {pages + 2}")  # a disk with no room left
        with pytest.raises(canon.IndexFileError, match="the disk is full"):
            canon.add_sources(
                index,
                items[5:],
                canon.IndexRules([canon.get_profile("raw")], k=3),
                canon.AddSettings(batch=100),
            )
    with Index(db, readonly=True) as index:
        assert index.integrity() == "ok"
        assert {d["source"] for d in index.documents()} == set(items[:5])


def test_similar_finds_near_duplicates_of_the_whole_draft(corpus) -> None:
    db, docs = corpus
    source, text = sorted(docs.items())[4]
    near_copy = text.replace(".", ",", 1)  # a single comma: the same words
    with Index(db, readonly=True) as index:
        result = canon.check(near_copy, index, canon.CheckSettings(similar=0.8))
        with pytest.raises(canon.OptionError, match=r"^similar must be") as info:
            canon.check(near_copy, index, canon.CheckSettings(similar=1.5))
    assert info.value.option == "similar" and info.value.value == 1.5
    for profile in result.profiles:
        assert profile.similar
        best = profile.similar[0]
        assert best.source == source and best.jaccard == 1.0 and best.estimated > 0.9
        truth = {
            s for s, t in docs.items()
            if canon.compare(near_copy, t, k=4, profile=profile.profile).jaccard >= 0.8
        }  # fmt: skip
        assert {d.source for d in profile.similar} == truth


def test_bands_follow_documents(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 6)
    db = tmp_path / "b.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index, [str(tmp_path / "docs")], canon.IndexRules([canon.get_profile("raw")], k=3)
        )
        (profile,) = index.profiles()
        index.remove([next(iter(docs))])
        keys, docs = index.posting_rows(profile, BANDS)
        assert len(keys) == 5 * profile.bands and len(set(docs.tolist())) == 5


def test_sampled_index_keeps_one_shingle_in_m(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 12, seed=3)
    full, sampled = tmp_path / "full.db", tmp_path / "sampled.db"
    profiles = [canon.get_profile("raw")]
    with Index(full, create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules(profiles, k=3))
        rows_full = index.stats().profiles[0][1]
    with Index(sampled, create=True) as index:
        canon.add_sources(
            index, [str(tmp_path / "docs")], canon.IndexRules(profiles, k=3, sample=4)
        )
        (profile,) = index.profiles()
        rows_sampled = index.stats().profiles[0][1]
        hashes, _ = index.posting_rows(profile)
        assert profile.sample == 4 and len(hashes) == rows_sampled
        assert all(h % 4 == 0 for h in hashes.tolist())
        assert 0.15 < rows_sampled / rows_full < 0.35
        with pytest.raises(canon.IndexFileError, match=r"sample 1/4"):
            canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules(profiles, k=3))
        draft = next(iter(docs.values()))
        result = canon.check(draft, index).profiles[0]
    assert result.uniqueness == 0.0  # a copy of an indexed document
    assert result.sources[0].jaccard == 1.0


def test_set_phrases_count_as_borrowed_but_credit_no_source(corpus) -> None:
    db, docs = corpus
    draft = " ".join(sorted(docs.values())[:2])
    with Index(db, readonly=True) as index:
        exact = canon.check(
            draft, index, canon.CheckSettings(common=None, top=1000, min_shared=1)
        ).profiles[0]
        capped = canon.check(
            draft, index, canon.CheckSettings(common=2, top=1000, min_shared=1)
        ).profiles[0]
    assert capped.uniqueness == exact.uniqueness  # every borrowed shingle still counts
    assert capped.set_phrases and not exact.set_phrases
    # A set phrase makes no fragment: what it alone covers is marked as a set phrase only.
    marked = {i for f in capped.fragments for i in range(f.start, f.end)}
    every = {i for f in exact.fragments for i in range(f.start, f.end)}
    phrases = {i for f in capped.set_phrases for i in range(f.start, f.end)}
    assert marked < every and every - marked <= phrases
    credited = {m.source: m.shared for m in capped.sources}
    assert sum(credited.values()) < sum(m.shared for m in exact.sources)
    assert all(credited.get(m.source, 0) <= m.shared for m in exact.sources)


def test_stats_totals_equal_a_recount_through_adds_re_adds_and_removes(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 12, seed=9)
    db = tmp_path / "t.db"
    names = sorted(docs)
    with Index(db, create=True) as index:
        canon.add_sources(index, names[:6], settings=canon.AddSettings(batch=4))
        canon.add_sources(index, names[6:], settings=canon.AddSettings(batch=4, store_text=False))
        Path(names[2]).write_text(docs[names[7]] + " " + docs[names[2]], "utf-8")
        Path(names[8]).write_text(docs[names[8]] + " " + docs[names[1]], "utf-8")
        canon.add_sources(
            index, [names[2], names[8]], settings=canon.AddSettings(store_text=True)
        )  # replaced
        index.remove([names[0], names[9]])
        stats = index.stats()
    texts, size, shingles = recounted(db)
    assert (stats.texts, stats.text_bytes) == (texts, size) and texts == 6  # 0-5, 8; 0 gone
    assert {p.name: rows for p, rows in stats.profiles} == shingles
    assert all(rows > 0 for rows in shingles.values())
