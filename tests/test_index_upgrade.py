"""canon index upgrade: a version-3 index (postings in SQLite) migrated in place to segments, the
same answers after; older versions refused naming the command; a killed upgrade finishes on
rerun."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_index import make_corpus

import canon
from canon import Index
from canon.index.segments import folder_of
from canon.index.upgrade import upgrade

ROOT = Path(__file__).resolve().parent.parent

# The postings table of schema version 3, as that version created it.
_V3_POSTINGS = """
CREATE TABLE postings (
    profile_id INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    doc_id INTEGER NOT NULL,
    PRIMARY KEY (profile_id, hash, doc_id)
) WITHOUT ROWID
"""


def as_version_3(db: Path) -> int:
    """Turn a version-4 index into the version-3 layout: its postings in the SQLite table, no
    manifest, no segment folder.  How many postings it wrote."""
    with Index(db) as index:
        rows = [
            (p.id, h, d)
            for p in index.profiles()
            for h, d in zip(
                index.posting_rows(p)[0].view("i8").tolist(),
                index.posting_rows(p)[1].tolist(),
                strict=True,
            )
        ]
    raw = sqlite3.connect(db, isolation_level=None)
    try:
        raw.execute("BEGIN")
        raw.execute(_V3_POSTINGS)
        raw.executemany("INSERT INTO postings VALUES (?,?,?)", rows)
        for table in ("segments", "tombstones", "state"):
            raw.execute(f"DROP TABLE {table}")
        raw.execute("PRAGMA user_version = 3")
        raw.execute("COMMIT")
    finally:
        raw.close()
    for file in folder_of(db).iterdir():
        file.unlink()
    folder_of(db).rmdir()
    return len(rows)


@pytest.fixture
def old_index(tmp_path: Path) -> tuple[Path, dict[str, str], list]:
    docs = make_corpus(tmp_path / "docs", 20, seed=6)
    db = tmp_path / "old.db"
    with Index(db, create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")], batch=4)
        index.remove([sorted(docs)[3]])
        draft = " ".join(sorted(docs.values())[:3])
        answers = [_answer(p) for p in canon.check(draft, index, top=100, min_shared=1).profiles]
    assert as_version_3(db) > 0
    return db, docs, answers


def _answer(profile: canon.ProfileCheck) -> tuple:
    return profile.profile, profile.uniqueness, [(m.source, m.shared) for m in profile.sources]


def _canon(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "canon", *args], capture_output=True, text=True, timeout=300
    )


def test_a_version_3_index_is_refused_naming_the_upgrade(old_index) -> None:
    db, _, _ = old_index
    with pytest.raises(canon.IndexFileError) as info:
        Index(db, readonly=True)
    assert info.value.reason == "schema"
    assert str(info.value) == (
        f"{db}: index schema version 3 was made by an older canon; migrate it in place with "
        "'canon index upgrade'"
    )
    checked = _canon("index", "stats", str(db))
    assert checked.returncode == 2 and checked.stderr.count("\n") == 1
    assert "canon index upgrade" in checked.stderr


def test_upgrade_keeps_every_answer(old_index) -> None:
    db, docs, answers = old_index
    done = _canon("index", "upgrade", str(db))
    assert done.returncode == 0, done.stderr
    assert "from schema version 3 to 4: 19 documents" in done.stderr
    with sqlite3.connect(db) as raw:
        tables = {n for (n,) in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "postings" not in tables and raw.execute("PRAGMA user_version").fetchone()[0] == 4
    with Index(db) as index:
        draft = " ".join(sorted(docs.values())[:3])
        result = canon.check(draft, index, top=100, min_shared=1)
        assert [_answer(p) for p in result.profiles] == answers
        assert index.stats().segments >= 2  # a profile's postings in segments
        canon.add_sources(index, [sorted(docs)[3]])  # and the index takes new documents
        assert index.stats().documents == 20
    again = _canon("index", "upgrade", str(db))
    assert again.returncode == 0 and "already schema version 4; nothing to do" in again.stderr


def test_too_old_and_newer_versions_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    Index(db, create=True).close()
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA user_version = 1")
    with pytest.raises(canon.IndexFileError, match="too old for 'canon index upgrade'"):
        upgrade(db)
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA user_version = 9")
    with pytest.raises(canon.IndexFileError, match="schema version 9 is newer"):
        upgrade(db)
    with pytest.raises(canon.IndexFileError, match="no such index"):
        upgrade(tmp_path / "missing.db")


_KILLED_UPGRADE = """
import sys, time
from pathlib import Path
from canon.index import upgrade as module
original = module.add_segments
def add_segments(db, written):
    original(db, written)
    Path(sys.argv[2]).touch(); time.sleep(60)  # the segments written, the transaction open
module.add_segments = add_segments
module.upgrade(sys.argv[1])
"""


def test_a_killed_upgrade_leaves_version_3_and_finishes_on_rerun(old_index) -> None:
    db, docs, answers = old_index
    marker = db.parent / "marker"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", _KILLED_UPGRADE, str(db), str(marker)], env=env
    )
    deadline = time.monotonic() + 60
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert marker.exists(), "the upgrade never reached the point"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert list(folder_of(db).glob("*.hashes.npy"))  # written, never listed
    with pytest.raises(canon.IndexFileError, match="schema version 3"):
        Index(db, readonly=True)
    report = upgrade(db)
    assert report.upgraded and report.documents == 19
    with Index(db, readonly=True) as index:
        listed = index.stats().segments
        draft = " ".join(sorted(docs.values())[:3])
        result = canon.check(draft, index, top=100, min_shared=1)
        assert [_answer(p) for p in result.profiles] == answers
    assert len(list(folder_of(db).glob("*.hashes.npy"))) == listed  # the orphans went
