"""The index and check commands as a user runs them, including a real SIGKILL mid-add."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from pathlib import Path

import numpy as np
import psutil
import pytest
import xxhash
from command import CANON, run_cli
from corpora import make_corpus

import canon
from canon import Index


def test_add_list_stats_check_remove(tmp_path: Path, examples: Path) -> None:
    db = str(tmp_path / "corpus.db")
    make_corpus(tmp_path / "docs", 6)
    added = run_cli("index", "add", db, str(tmp_path / "docs"), str(examples / "original.txt"))
    assert added.returncode == 0, added.stderr
    assert "added 7, replaced 0, unchanged 0, failed 0" in added.stderr
    assert added.stderr.count("\n") == 1  # no progress bar when piped
    again = run_cli("index", "add", db, str(tmp_path / "docs"))
    assert "unchanged 6" in again.stderr

    original = str(examples / "original.txt")
    header, *listed = run_cli("index", "list", db).stdout.splitlines()
    assert header == "source\ttitle\tchars\tadded"
    assert len(listed) == 7 and any(
        line.startswith(str(examples / "original.txt")) for line in listed
    )
    stats = json.loads(run_cli("index", "stats", db, "--json").stdout)
    assert stats["documents"] == 7
    assert [p["profile"] for p in stats["profiles"]] == ["raw", "lemma"]
    assert stats["bytes_per_document"] > 0

    checked = run_cli("check", str(examples / "rewrite.txt"), "--index", db, "--json")
    result = json.loads(checked.stdout)
    by_profile = {p["profile"]: p for p in result["profiles"]}
    assert by_profile["lemma"]["uniqueness"] < by_profile["raw"]["uniqueness"] < 1.0
    assert by_profile["lemma"]["sources"][0]["source"] == str(examples / "original.txt")
    draft = (examples / "rewrite.txt").read_text("utf-8")
    for start, end in by_profile["raw"]["fragments"]:
        assert draft[start:end].strip()

    text = run_cli("check", str(examples / "rewrite.txt"), "--index", db).stdout
    assert "[[" in text and "{{" in text and "uniqueness" in text

    removed = run_cli("index", "remove", db, str(examples / "original.txt"), "no/such.txt")
    assert removed.stderr.splitlines() == [
        "removed 1 of 2",
        "  not in the index: no/such.txt (see 'canon index list')",
    ]
    after = run_cli("check", str(examples / "rewrite.txt"), "--index", db, "--json")
    for profile in json.loads(after.stdout)["profiles"]:
        assert original not in {s["source"] for s in profile["sources"]}
        assert profile["uniqueness"] > by_profile[profile["profile"]]["uniqueness"]


def test_min_uniqueness_gates_and_several_drafts(tmp_path: Path, examples: Path) -> None:
    db = str(tmp_path / "c.db")
    run_cli("index", "add", db, str(examples / "original.txt"), "-p", "lemma", "-k", "3")
    drafts = [str(examples / "rewrite.txt"), str(examples / "original.txt")]
    passing = run_cli("check", *drafts, "--index", db, "--min-uniqueness", "0", "--json")
    assert passing.returncode == 0
    assert len(passing.stdout.splitlines()) == 2  # one JSON line a draft
    failing = run_cli("check", *drafts, "--index", db, "--min-uniqueness", "90")
    assert failing.returncode == 1
    said = failing.stderr.strip().splitlines()  # a line for each draft below the mark
    assert [line.split(": ")[1] for line in said] == drafts
    assert all(re.search(r"is below --min-uniqueness 90% by \d+\.\d points$", line)
               for line in said), said  # fmt: skip
    excluded = run_cli("check", drafts[1], "--index", db, "--min-uniqueness", "90",
                         "--exclude", str(examples / "original.txt"))  # fmt: skip
    # The draft is all in the excluded source: nothing is left to count, and it says so.
    assert excluded.returncode == 2
    assert excluded.stderr.strip() == (
        f"canon: error: {drafts[1]} has nothing left to check: all its text is quoted or "
        "found only in excluded sources"
    )


def test_the_verdict_sources_and_one_source_beside_the_draft(
    tmp_path: Path, examples: Path
) -> None:
    db = str(tmp_path / "c.db")
    garden = Path(__file__).parents[1] / "fixtures" / "site" / "article-garden.txt"
    run_cli("index", "add", db, str(examples / "original.txt"), str(garden))
    draft = str(examples / "rewrite.txt")
    result = json.loads(run_cli("check", draft, "--index", db, "--json").stdout)
    verdict = result["verdict"]
    assert verdict["uniqueness"] == pytest.approx(1 - verdict["copied"] - verdict["rewritten"])
    assert 0 < verdict["copied"] < verdict["rewritten"] and verdict["chars"] > 2000
    assert "raw" in verdict["formula"] and "lemma" in verdict["formula"]
    assert {t["kind"] for t in result["tricks"]} == {"lookalike"}
    lemma = next(p for p in result["profiles"] if p["profile"] == "lemma")
    top = lemma["sources"][0]
    assert top["source"] == str(examples / "original.txt") and top["fragments"]
    assert all(len(owners) >= 1 for owners in lemma["fragment_sources"])

    plain = run_cli("check", draft, "--index", db).stdout
    first = plain.index("uniqueness")
    assert first < plain.index("Sources") < plain.index("Draft (")
    assert "Shingles per profile" not in plain
    assert "Shingles per profile" in run_cli("check", draft, "--index", db, "--details").stdout
    beside = run_cli("check", draft, "--index", db, "--source", "1").stdout
    assert f"Source 1: {examples / 'original.txt'}" in beside
    assert "[[Чай кажется самым простым" in beside.split("Source 1:")[1]


@pytest.mark.parametrize(
    ("args", "flag"),
    [(["--min-shared", "0"], "--min-shared"), (["--common", "-1"], "--common"),
     (["--source", "9"], "--source"), (["--sentence-threshold", "0"], "--sentence-threshold")],
)  # fmt: skip
def test_bad_check_options_are_one_line_naming_the_flag(
    tmp_path: Path, examples: Path, args: list[str], flag: str
) -> None:
    db = str(tmp_path / "c.db")
    run_cli("index", "add", db, str(examples / "original.txt"))
    done = run_cli("check", str(examples / "rewrite.txt"), "--index", db, *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and flag in done.stderr, done.stderr


def test_failed_sources_are_listed_and_exit_3(tmp_path: Path) -> None:
    make_corpus(tmp_path / "docs", 3)
    (tmp_path / "docs" / "bad.docx").write_bytes(b"not a zip")
    urls = tmp_path / "urls.txt"
    urls.write_text(f"# pages\n{tmp_path / 'docs' / 'doc-000.txt'}\n{tmp_path / 'nope.txt'}\n")
    result = run_cli("index", "add", str(tmp_path / "i.db"), str(tmp_path / "docs"), f"@{urls}")
    assert result.returncode == 3  # some sources failed; 1 is "below the bar"
    assert "added 3, replaced 0, unchanged 0, failed 2" in result.stderr  # doc-000 named twice
    assert (
        "bad.docx: not a valid .docx" in result.stderr and "nope.txt: no such file" in result.stderr
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_text("just text", "utf-8"), "is not a canon index"),
        (lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)"), "another kind of SQLite"),
    ],
)
def test_bad_index_files_are_one_line_exit_2(tmp_path: Path, make, message: str) -> None:
    db = tmp_path / "x.db"
    make(db)
    draft = tmp_path / "d.txt"
    draft.write_text("раз два три четыре пять шесть", "utf-8")
    for args in (["check", str(draft), "--index", str(db)], ["index", "stats", str(db)],
                 ["index", "add", str(db), str(draft)]):  # fmt: skip
        result = run_cli(*args)
        assert result.returncode == 2, result.stderr
        assert message in result.stderr and result.stderr.count("\n") == 1


def test_other_rules_refused_on_the_command_line(tmp_path: Path, examples: Path) -> None:
    db = str(tmp_path / "k.db")
    run_cli("index", "add", db, str(examples / "original.txt"))
    result = run_cli("index", "add", db, str(examples / "rewrite.txt"), "-k", "5")
    assert result.returncode == 2
    assert "the index was built with raw" in result.stderr and "k=5" in result.stderr


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_sigkill_mid_add_loses_nothing_committed(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 400, seed=7)
    db = tmp_path / "killed.db"
    args = [*CANON, "index", "add", str(db), str(tmp_path / "docs"),
            "--batch", "25", "--workers", "2"]  # fmt: skip
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while _count(db) < 50 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the add finished before it could be killed"
    workers = psutil.Process(process.pid).children(recursive=True)
    assert len(workers) >= 2
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert alive == []  # the workers die with their parent, not wait for ever on their pipe

    committed = _count(db)
    assert 50 <= committed < 400 and committed % 25 == 0
    with Index(db, readonly=True) as index:
        assert index.integrity() == "ok"
        rows = index._db.execute(
            "SELECT d.id, count(DISTINCT dp.profile_id), "
            "(SELECT sum(shingles) FROM doc_profiles x WHERE x.doc_id = d.id) "
            "FROM documents d LEFT JOIN doc_profiles dp ON dp.doc_id = d.id GROUP BY d.id"
        ).fetchall()
        held = Counter()
        for profile in index.profiles():
            held.update(index.posting_rows(profile)[1].tolist())
    assert len(rows) == committed
    assert all(profiles == 2 and held[doc] == shingles for doc, profiles, shingles in rows)
    assert set(held) == {doc for doc, _, _ in rows}  # no posting of an uncommitted batch

    rerun = run_cli("index", "add", str(db), str(tmp_path / "docs"))
    assert rerun.returncode == 0, rerun.stderr
    assert f"added {400 - committed}, replaced 0, unchanged {committed}" in rerun.stderr
    with Index(db, readonly=True) as index:
        assert {d["source"] for d in index.documents()} == set(docs)
        assert index.integrity() == "ok"
    # and a check gives the numbers of an index built in one go
    with Index(db, readonly=True) as index:
        draft = next(iter(docs.values()))
        assert canon.check(draft, index).profiles[0].uniqueness == 0.0


def test_two_adds_on_a_new_index_at_once(tmp_path: Path) -> None:
    """As a user would start them: two `canon index add` processes on one new file."""
    folders = []
    for name in ("a", "b"):
        make_corpus(tmp_path / name, 5, seed=ord(name))
        for path in (tmp_path / name).iterdir():
            path.rename(path.with_name(f"{name}-{path.name}"))
        folders.append(tmp_path / name)
    for trial in range(3):
        db = tmp_path / f"t{trial}.db"
        adds = [
            subprocess.Popen(
                [*CANON, "index", "add", str(db), str(f), "--workers", "1"],
                stderr=subprocess.PIPE, text=True,
            )
            for f in folders
        ]  # fmt: skip
        outcomes = [(add.wait(timeout=300), add.stderr.read()) for add in adds]
        for add in adds:
            add.stderr.close()
        assert [code for code, _ in outcomes] == [0, 0], outcomes
        assert all("added 5, replaced 0" in err for _, err in outcomes), outcomes
        assert _count(db) == 10


# ---------------------------------------------------------------- canon index verify and damage


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of 10 documents (raw and lemma), one removed: every stream, tombstones too."""
    folder = tmp_path_factory.mktemp("sound")
    docs = make_corpus(folder / "docs", 10, seed=9)
    db = folder / "sound.db"
    added = run_cli("index", "add", db, folder / "docs", "--batch", "5", "--workers", "1")
    assert added.returncode == 0, added.stderr
    assert run_cli("index", "remove", db, sorted(docs)[2]).returncode == 0
    return db


@pytest.fixture
def copy(sound: Path, tmp_path: Path) -> Path:
    db = tmp_path / "copy.db"
    shutil.copyfile(sound, db)
    shutil.copytree(f"{sound}-segments", f"{db}-segments")
    return db


def _segment(db: Path, kind: int = 0) -> str:
    return _row(db, kind)[0]


def _row(db: Path, kind: int) -> tuple[str, int]:
    """The name and profile id of the first segment of ``kind``."""
    with sqlite3.connect(db) as raw:
        query = "SELECT name, profile_id FROM segments WHERE kind = ? ORDER BY first_doc, name"
        name, profile_id = raw.execute(query, (kind,)).fetchone()
    return str(name), int(profile_id)


def _verified(db: Path) -> tuple[int, list[str]]:
    ran = run_cli("index", "verify", db)
    assert "Traceback" not in ran.stderr and ran.stderr.count("\n") == 1
    return ran.returncode, ran.stdout.splitlines()


def test_verify_a_sound_index_exits_0(sound: Path, tmp_path: Path) -> None:
    ran = run_cli("index", "verify", sound)
    assert (ran.returncode, ran.stdout) == (0, ""), ran.stderr
    assert ran.stderr == f"{sound}: 9 documents, 10 segments checked: sound\n"
    found = json.loads(run_cli("index", "verify", sound, "--json").stdout)
    assert (found["sound"], found["documents"], found["problems"]) == (True, 9, [])
    # and after what rewrites segments: an add, a merge of everything, a removal applied
    db = tmp_path / "more.db"
    shutil.copyfile(sound, db)
    shutil.copytree(f"{sound}-segments", f"{db}-segments")
    make_corpus(tmp_path / "more", 3, seed=10)
    assert run_cli("index", "add", db, tmp_path / "more", "--workers", "1").returncode == 0
    assert run_cli("index", "optimize", db).returncode == 0
    assert run_cli("index", "verify", db).returncode == 0


def test_verify_names_a_segment_overwritten_in_place(copy: Path, examples: Path) -> None:
    file = Path(f"{copy}-segments") / f"{_segment(copy)}.hashes.npy"
    data = bytearray(file.read_bytes())
    data[-8:] = bytes(8)  # the last key: same size, other bytes
    file.write_bytes(data)
    code, lines = _verified(copy)
    assert code == 2
    assert lines == [f"{file}: does not match its checksum (it was changed after it was written)"]
    checked = run_cli("check", examples / "rewrite.txt", "--index", copy)
    assert checked.returncode == 2 and checked.stderr == (
        f"canon: error: {copy}: is damaged: segment file {file} does not match its checksum (it "
        "was changed after it was written); build a new index from its sources, and list all "
        "that is damaged with 'canon index verify'\n"
    )


def test_verify_names_document_ids_out_of_range(copy: Path) -> None:
    name = _segment(copy, 1)  # a band key segment
    file = Path(f"{copy}-segments") / f"{name}.docs.npy"
    docs = np.load(file, mmap_mode="r+")
    docs[-1] = 70_000
    docs.flush()
    del docs
    with sqlite3.connect(copy) as raw:  # its checksum made to match: the ids alone are wrong
        query = "SELECT checksum FROM segments WHERE name = ?"
        (checksum,) = raw.execute(query, (name,)).fetchone()
        fixed = checksum[:32] + xxhash.xxh3_128(file.read_bytes()).hexdigest()
        raw.execute("UPDATE segments SET checksum = ? WHERE name = ?", (fixed, name))
    code, lines = _verified(copy)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith(f"{file}: holds document ids 1..70000, outside the 1..5 of its ")
    assert lines[0].endswith("manifest row and the 1..10 the index has given out")


def test_verify_names_a_lost_manifest_row(copy: Path) -> None:
    name, profile_id = _row(copy, 0)
    with sqlite3.connect(copy) as raw:
        raw.execute("DELETE FROM segments WHERE name = ?", (name,))
    code, lines = _verified(copy)
    assert code == 2
    assert lines[0].startswith(f"{copy}-segments/{name}: a segment no manifest row lists")
    assert "manifest: the manifest lists" in lines[1] and "a segment's row was lost" in lines[1]
    stream = f"profile {profile_id}'s shingle stream"
    assert lines[2].startswith(f"manifest: the segments of {stream} do not hold the postings")
    assert len(lines) == 3


def test_verify_names_a_missing_file_and_a_stream_left_short(copy: Path) -> None:
    name = _segment(copy, 2)  # the lemma profile's content lemmas
    missing = Path(f"{copy}-segments") / f"{name}.docs.npy"
    missing.unlink()
    code, lines = _verified(copy)
    assert (code, lines) == (2, [f"{missing}: listed in the manifest, and missing"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_as_the_lock_file_is_one_line_at_once(copy: Path, examples: Path) -> None:
    lock = Path(f"{copy}-segments") / "lock"
    lock.unlink()
    os.mkfifo(lock)
    started = time.monotonic()
    ran = subprocess.run(
        [*CANON, "check", str(examples / "rewrite.txt"), "--index", str(copy)],
        capture_output=True,
        text=True,
        timeout=30,  # the process once waited on the FIFO for ever
    )
    assert time.monotonic() - started < 20
    assert ran.returncode == 2 and ran.stdout == ""
    assert ran.stderr == (
        f"canon: error: {copy}: the lock file {lock} is a FIFO, not a regular file; delete it "
        "(the next command that writes the index makes a new one)\n"
    )


def test_files_canon_does_not_read_and_short_texts_are_left_out_not_failed(
    tmp_path: Path,
) -> None:
    only_others = tmp_path / "sitemaps"
    only_others.mkdir()
    (only_others / "a.xml").write_text("<urlset/>", "utf-8")
    (only_others / "b.json").write_text("{}", "utf-8")
    db = tmp_path / "c.db"
    refused = run_cli("index", "add", str(db), str(only_others))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "only 2 files of other types (.json, .xml)" in refused.stderr
    assert not db.exists()  # no empty index made

    mixed = tmp_path / "news"
    mixed.mkdir()
    (mixed / "headline.txt").write_text("Заголовок новости", "utf-8")
    (mixed / "story.txt").write_text(
        "Чай кажется самым простым из напитков, но заварить его хорошо умеют немногие.", "utf-8"
    )
    (mixed / "feed.xml").write_text("<rss/>", "utf-8")
    added = run_cli("index", "add", str(db), str(mixed))
    assert added.returncode == 0, added.stderr
    assert "added 1, replaced 0, unchanged 0, left out 2, failed 0" in added.stderr
    assert f"left out: {mixed / 'feed.xml'} (not a text, HTML or .docx file)" in added.stderr
    assert f"left out: {mixed / 'headline.txt'} (fewer words than k)" in added.stderr
    strict = run_cli("index", "add", str(tmp_path / "d.db"), str(mixed), "--strict")
    assert strict.returncode == 3 and "failed: " in strict.stderr


def test_piped_output_keeps_long_sources_whole(tmp_path: Path, examples: Path) -> None:
    folder = tmp_path / ("a-long-folder-name-for-the-sources-of-this-corpus" * 2) / "sub-folder"
    folder.mkdir(parents=True)
    source = folder / "the-original-article-about-tea-brewing-and-its-long-history.txt"
    source.write_text((examples / "original.txt").read_text("utf-8"), "utf-8")
    db = str(tmp_path / "c.db")
    assert run_cli("index", "add", db, str(source)).returncode == 0
    checked = run_cli("check", str(examples / "rewrite.txt"), "--index", db)  # piped
    assert checked.returncode == 0 and str(source) in checked.stdout  # not cut with "…"
    assert "…" not in checked.stdout.split("Sources", 1)[1].split("Draft", 1)[0]


def test_the_check_report_speaks_the_environments_language(tmp_path: Path, examples: Path) -> None:
    db = str(tmp_path / "c.db")
    assert run_cli("index", "add", db, str(examples / "original.txt")).returncode == 0
    draft = str(examples / "rewrite.txt")
    for env, lang in (({"LANG": "ru_RU.UTF-8", "LC_ALL": None, "LC_MESSAGES": None}, "ru"),
                      ({"LANG": "C", "LC_ALL": None, "LC_MESSAGES": None}, "en")):  # fmt: skip
        report = tmp_path / f"{lang}.html"
        assert run_cli("check", draft, "--index", db, "--html", report, env=env).returncode == 0
        page = report.read_text("utf-8")
        assert f'<html lang="{lang}">' in page
        assert ("<h2>Источники</h2>" in page) is (lang == "ru")
        if lang == "ru":  # every library sentence said in Russian too
            assert 'lang="en"' not in page
    english = tmp_path / "forced.html"
    forced = run_cli("check", draft, "--index", db, "--html", english, "--lang", "en",
                     env={"LANG": "ru_RU.UTF-8"})  # fmt: skip
    assert forced.returncode == 0 and '<html lang="en">' in english.read_text("utf-8")
