"""The profile registry: registered once, checked on every later add, and atomic when several
processes add to a new index at the same moment (real processes, released by one barrier)."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest
from corpora import make_corpus

import canon
from canon import Index
from canon.index.rules import IndexedProfile, mismatch, profile_of, read_profiles

RAW, LEMMA = canon.get_profile("raw"), canon.get_profile("lemma")


def test_first_add_registers_later_adds_reuse(tmp_path: Path) -> None:
    with Index(tmp_path / "r.db", create=True) as index:
        first = index.use_profiles([RAW, LEMMA], 4, 1)
        again = index.use_profiles([LEMMA], 4, 1)
        assert [p.fingerprint for p in first] == [RAW.fingerprint, LEMMA.fingerprint]
        assert again == [first[1]]
        assert (first[0].num_perm, first[0].seed, first[0].sample) == (128, 1, 1)
        assert first[0].bands * first[0].rows <= first[0].num_perm
        assert read_profiles(index._db) == first == index.profiles()


def test_other_rules_name_both_sides(tmp_path: Path) -> None:
    with Index(tmp_path / "m.db", create=True) as index:
        index.use_profiles([RAW], 4, 1, sample=2)
        with pytest.raises(canon.IndexFileError) as info:
            index.use_profiles([RAW], 5, 2, sample=2)
        assert info.value.reason == "rules" and info.value.path == index.path
        assert f"built with raw ({RAW.fingerprint}, k=4, sample 1/2)" in str(info.value)
        assert f"asks for raw ({RAW.fingerprint}, k=5, step=2, sample 1/2)" in str(info.value)
        with pytest.raises(canon.IndexFileError, match=f"asks for lemma \\({LEMMA.fingerprint}"):
            index.use_profiles([RAW, LEMMA], 4, 1, sample=2)
        with pytest.raises(canon.OptionError, match=r"^sample must be a positive integer"):
            index.use_profiles([RAW], 4, 1, sample=0)
        assert len(index.profiles()) == 1  # nothing was added by the refusals


def test_mismatch_message_is_one_line() -> None:
    built = [IndexedProfile(1, "raw", RAW.fingerprint, 4, 1, "{}")]
    text = mismatch(Path("x.db"), built, [LEMMA], 3, 1, 1)
    assert text == (
        f"x.db: the index was built with raw ({RAW.fingerprint}, k=4); this asks for lemma "
        f"({LEMMA.fingerprint}, k=3): use the index's rules or a new index"
    )


def test_profile_of_checks_the_fingerprint(tmp_path: Path) -> None:
    with Index(tmp_path / "p.db", create=True) as index:
        (stored,) = index.use_profiles([LEMMA], 4, 1)
    assert profile_of(stored) == LEMMA
    forged = IndexedProfile(stored.id, "lemma", "0" * 16, 4, 1, stored.settings)
    with pytest.raises(canon.IndexFileError, match=r"has fingerprint 0{16}, but") as info:
        profile_of(forged)
    assert info.value.reason == "rules"
    for settings in ("not json", '{"no_such_rule": 1}', "[1, 2]"):
        with pytest.raises(canon.IndexFileError, match="settings this canon cannot read"):
            profile_of(IndexedProfile(1, "lemma", LEMMA.fingerprint, 4, 1, settings))


# --- several writers at once --------------------------------------------------------------


def _add(db: str, folder: str, barrier, results) -> None:  # runs in a child process
    try:
        barrier.wait(timeout=60)
        with Index(db, create=True) as index:
            report = canon.add_sources(index, [folder], canon.IndexRules(k=4))
        results.put(("ok", report.added, len(report.failures)))
    except BaseException as exc:  # the parent asserts on what happened here
        results.put(("error", type(exc).__name__, str(exc)))


@pytest.mark.slow
@pytest.mark.parametrize("start", ["no file", "empty file", "tables only"])
def test_concurrent_adds_on_a_new_index_all_succeed(tmp_path: Path, start: str) -> None:
    writers, trials, per_writer = 4, 6, 3
    folders = []
    for w in range(writers):
        folder = tmp_path / f"w{w}"
        make_corpus(folder, per_writer, seed=w + 1)
        for path in folder.iterdir():  # distinct sources per writer
            path.rename(folder / f"w{w}-{path.name}")
        folders.append(folder)
    canon.canonicalize("прогрев словаря", "lemma")  # load the dictionary once, before fork
    context = multiprocessing.get_context("fork")
    for trial in range(trials):
        db = tmp_path / f"t{trial}.db"
        if start == "empty file":
            db.touch()
        elif start == "tables only":
            Index(db, create=True).close()
        barrier, results = context.Barrier(writers), context.Queue()
        children = [
            context.Process(target=_add, args=(str(db), str(f), barrier, results)) for f in folders
        ]
        for child in children:
            child.start()
        outcomes = [results.get(timeout=120) for _ in children]
        for child in children:
            child.join(timeout=60)
        assert outcomes == [("ok", per_writer, 0)] * writers, f"trial {trial}: {outcomes}"
        with Index(db, readonly=True) as index:
            assert len(list(index.documents())) == writers * per_writer
            assert [p.name for p in index.profiles()] == ["raw", "lemma"]
            assert index.integrity() == "ok"
        with sqlite3.connect(db) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
