"""canon index upgrade: a version-3 index (postings in SQLite), a version-4 one (bands and
lemma tables in SQLite), a version-5 one (no checksums) or a version-6 one (plain hash blobs)
migrated in place, the same answers and shingle sets after; older versions refused naming the
command; a killed upgrade finishes on rerun."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from command import Ran, run_cli
from corpora import make_corpus, recounted
from repo_paths import ROOT

import canon
from canon import Index
from canon.cli import message_of
from canon.fingerprints.lsh import band_keys
from canon.fingerprints.minhash import Signature
from canon.index.manifest import read_manifest
from canon.index.schema import SCHEMA_VERSION, TABLES, unblob
from canon.index.segments import LEMMAS, folder_of
from canon.index.upgrade import upgrade

# The tables of schema version 4 that version 5 no longer has, as version 4 created them.
_V4_TABLES = """
CREATE TABLE bands (
    profile_id INTEGER NOT NULL,
    band INTEGER NOT NULL,
    key INTEGER NOT NULL,
    doc_id INTEGER NOT NULL,
    PRIMARY KEY (profile_id, band, key, doc_id)
) WITHOUT ROWID;
CREATE TABLE lemmas (
    profile_id INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    df INTEGER NOT NULL,
    common INTEGER NOT NULL,
    PRIMARY KEY (profile_id, hash)
) WITHOUT ROWID;
CREATE TABLE lemma_postings (
    profile_id INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    first_doc INTEGER NOT NULL,
    docs BLOB NOT NULL,
    PRIMARY KEY (profile_id, hash, first_doc)
) WITHOUT ROWID;
CREATE TABLE tombstones_v4 (
    doc_id INTEGER PRIMARY KEY
);
CREATE TABLE doc_profiles_v4 (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    profile_id INTEGER NOT NULL REFERENCES profiles(id),
    words INTEGER NOT NULL,
    shingles INTEGER NOT NULL,
    hashes BLOB NOT NULL,
    signature BLOB NOT NULL,
    sentences BLOB,
    PRIMARY KEY (doc_id, profile_id)
) WITHOUT ROWID;
"""

# The postings table of schema version 3, as that version created it.
_V3_POSTINGS = """
CREATE TABLE postings (
    profile_id INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    doc_id INTEGER NOT NULL,
    PRIMARY KEY (profile_id, hash, doc_id)
) WITHOUT ROWID
"""


def _v4_rows(db: Path) -> tuple[list, list, list]:
    """The rows version 4 kept of an index's bands and lemmas: ``bands``, ``lemmas`` and
    ``lemma_postings`` (every lemma under the common limit, one row of ids each)."""
    bands, lemmas, postings = [], [], []
    with Index(db) as index:
        for p in index.profiles():
            rows = index._db.execute(
                "SELECT doc_id, signature FROM doc_profiles WHERE profile_id = ?", (p.id,)
            ).fetchall()
            for doc, data in rows:
                keys = band_keys(Signature.from_bytes(data).values, p.bands, p.rows)[0]
                bands += [(p.id, b, k, doc) for b, k in enumerate(keys.view("i8").tolist())]
            keys, docs = index.posting_rows(p, LEMMAS)
            for h in np.unique(keys):
                ids = np.sort(docs[keys == h]).astype("<u4")
                signed = int(np.uint64(h).view(np.int64))
                lemmas.append((p.id, signed, len(ids), 0))
                postings.append((p.id, signed, int(ids[0]), ids.tobytes()))
    return bands, lemmas, postings


def as_version_4(db: Path) -> None:
    """Turn a version-5 index into the version-4 layout: bands and lemma tables in SQLite,
    ``doc_profiles`` keyed by document and profile with the sentence blobs in it, tombstones by
    id alone, only shingle segments."""
    bands, lemmas, postings = _v4_rows(db)
    as_version_6(db)
    raw = sqlite3.connect(db, isolation_level=None)
    try:
        raw.execute("BEGIN")
        for statement in _V4_TABLES.split(";"):
            if statement.strip():
                raw.execute(statement)
        raw.executemany("INSERT INTO bands VALUES (?,?,?,?)", bands)
        raw.executemany("INSERT INTO lemmas VALUES (?,?,?,?)", lemmas)
        raw.executemany("INSERT INTO lemma_postings VALUES (?,?,?,?)", postings)
        raw.execute(
            "INSERT INTO doc_profiles_v4 SELECT p.doc_id, p.profile_id, p.words, p.shingles, "
            "p.hashes, p.signature, s.sentences FROM doc_profiles p "
            "LEFT JOIN doc_sentences s ON s.id = p.id"
        )
        raw.execute("DROP TABLE doc_sentences")
        raw.execute("DROP TABLE doc_profiles")
        raw.execute("ALTER TABLE doc_profiles_v4 RENAME TO doc_profiles")
        raw.execute("INSERT INTO tombstones_v4 SELECT DISTINCT doc_id FROM tombstones")
        raw.execute("DROP TABLE tombstones")
        raw.execute("ALTER TABLE tombstones_v4 RENAME TO tombstones")
        gone = [n for (n,) in raw.execute("SELECT name FROM segments WHERE kind != 0")]
        raw.execute("DELETE FROM segments WHERE kind != 0")
        raw.execute("ALTER TABLE segments DROP COLUMN kind")
        raw.execute("ALTER TABLE segments DROP COLUMN checksum")
        raw.execute("DELETE FROM state WHERE key LIKE 'total:%'")  # version 5's running totals
        raw.execute("PRAGMA user_version = 4")
        raw.execute("COMMIT")
    finally:
        raw.close()
    for name in gone:
        for suffix in (".hashes.npy", ".docs.npy"):
            (folder_of(db) / f"{name}{suffix}").unlink()


def as_version_6(db: Path) -> None:
    """Turn a version-7 index into the version-6 layout: each document's hashes as a plain
    sorted little-endian uint64 blob."""
    raw = sqlite3.connect(db, isolation_level=None)
    try:
        raw.execute("BEGIN")
        rows = raw.execute("SELECT id, hashes FROM doc_profiles").fetchall()
        plain = [(unblob(data).astype("<u8").tobytes(), key) for key, data in rows]
        raw.executemany("UPDATE doc_profiles SET hashes = ? WHERE id = ?", plain)
        raw.execute("PRAGMA user_version = 6")
        raw.execute("COMMIT")
    finally:
        raw.close()


def as_version_5(db: Path) -> None:
    """Turn a version-7 index into the version-5 layout: version 6's, with no segment
    checksums and no running totals of the streams' postings."""
    as_version_6(db)
    raw = sqlite3.connect(db, isolation_level=None)
    try:
        raw.execute("BEGIN")
        raw.execute("ALTER TABLE segments DROP COLUMN checksum")
        raw.execute("DELETE FROM state WHERE key LIKE 'total:postings:%'")
        raw.execute("PRAGMA user_version = 5")
        raw.execute("COMMIT")
    finally:
        raw.close()


def as_version_3(db: Path) -> int:
    """Turn a version-5 index into the version-3 layout: version 4's, with its postings in
    the SQLite table, no manifest, no segment folder.  How many postings it wrote."""
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
    as_version_4(db)
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


def _sets(index: Index) -> dict[str, list[tuple[str, int, list[int]]]]:
    """Each profile's shingle sets, by document."""
    return {
        p.name: [(s, c, h.tolist()) for s, c, h in index.shingle_sets(p)] for p in index.profiles()
    }


@pytest.fixture(params=[3, 4, 5, 6])
def old_index(tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, dict[str, str], list]:
    """An index of 20 documents, one of them removed, made version 3, 4, 5 or 6; its answers
    to a check (with near-duplicates) and its shingle sets as the current version gave them."""
    docs = make_corpus(tmp_path / "docs", 20, seed=6)
    db = tmp_path / "old.db"
    with Index(db, create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")], settings=canon.AddSettings(batch=4))
        index.remove([sorted(docs)[3]])
        draft = " ".join(sorted(docs.values())[:3])
        answers = [_answer(p) for p in canon.check(draft, index, _SETTINGS).profiles]
        answers.append(_sets(index))
    if request.param == 3:
        assert as_version_3(db) > 0
    elif request.param == 4:
        as_version_4(db)
    elif request.param == 5:
        as_version_5(db)
    else:
        as_version_6(db)
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == request.param
    return db, docs, answers


_SETTINGS = canon.CheckSettings(top=100, min_shared=1, similar=0.05)


def _answer(profile: canon.ProfileCheck) -> tuple:
    similar = [(d.source, d.jaccard, d.estimated) for d in profile.similar or ()]
    sources = [(m.source, m.shared) for m in profile.sources]
    return profile.profile, profile.uniqueness, sources, similar


def _version(db: Path) -> int:
    with sqlite3.connect(db) as raw:
        return int(raw.execute("PRAGMA user_version").fetchone()[0])


def _canon(*args: str) -> Ran:
    return run_cli(*args)


def test_an_older_index_is_refused_naming_the_upgrade(old_index) -> None:
    db, _, _ = old_index
    version = _version(db)
    with pytest.raises(canon.IndexFileError) as info:
        Index(db, readonly=True)
    assert (info.value.reason, info.value.remedy) == ("schema", "upgrade")
    said = f"{db}: index schema version {version} was made by an older canon; migrate it in place"
    assert str(info.value) == said  # the library names no command: the CLI adds it
    checked = _canon("index", "stats", str(db))
    assert checked.returncode == 2 and checked.stderr.count("\n") == 1
    assert checked.stderr == f"canon: error: {said} with 'canon index upgrade'\n"


def test_upgrade_keeps_every_answer(old_index) -> None:
    db, docs, answers = old_index
    version = _version(db)
    done = _canon("index", "upgrade", str(db))
    assert done.returncode == 0, done.stderr
    assert f"from schema version {version} to {SCHEMA_VERSION}: 19 documents" in done.stderr
    with sqlite3.connect(db) as raw:
        tables = {n for (n,) in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert tables == set(TABLES)
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert _canon("index", "verify", str(db)).returncode == 0  # checksums, totals: all there
    texts, size, shingles = recounted(db)
    with Index(db) as index:
        stats = index.stats()  # the running totals, counted once by the upgrade
        assert (stats.texts, stats.text_bytes) == (texts, size) and texts == 19
        assert {p.name: rows for p, rows in stats.profiles} == shingles
        draft = " ".join(sorted(docs.values())[:3])
        result = canon.check(draft, index, _SETTINGS)
        assert [*(_answer(p) for p in result.profiles), _sets(index)] == answers
        streams = {s.stream for s in read_manifest(index._db).segments}
        assert streams == {(p.id, kind) for p in index.profiles() for kind in (0, 1)} | {
            (p.id, LEMMAS) for p in index.profiles() if p.name == "lemma"
        }  # shingles and bands of each profile, lemmas of the one with morphology
        canon.add_sources(index, [sorted(docs)[3]])  # and the index takes new documents
        assert index.stats().documents == 20
    again = _canon("index", "upgrade", str(db))
    assert again.returncode == 0
    assert f"already schema version {SCHEMA_VERSION}; nothing to do" in again.stderr


def test_too_old_and_newer_versions_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    Index(db, create=True).close()
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA user_version = 1")
    with pytest.raises(canon.IndexFileError, match="too old to migrate in place") as info:
        upgrade(db)
    assert info.value.remedy == "rebuild" and "canon index" not in str(info.value)
    assert str(info.value).endswith("; build a new index from the same sources")
    assert message_of(info.value) == f"{info.value} with 'canon index add'"
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
original = module._code_sets
def code_sets(db):
    original(db)
    Path(sys.argv[2]).touch(); time.sleep(60)  # segments and sets written, the transaction open
module._code_sets = code_sets
module.upgrade(sys.argv[1])
"""


def test_a_killed_upgrade_leaves_the_old_version_and_finishes_on_rerun(old_index) -> None:
    db, docs, answers = old_index
    version = _version(db)
    marker = db.parent / "marker"
    before = set(folder_of(db).glob("*.hashes.npy"))
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
    if version < 5:  # postings moved into segments: written, never listed
        assert set(folder_of(db).glob("*.hashes.npy")) - before
    with pytest.raises(canon.IndexFileError, match=f"schema version {version}"):
        Index(db, readonly=True)
    report = upgrade(db)
    assert report.upgraded and report.documents == 19
    with Index(db, readonly=True) as index:
        listed = index.stats().segments
        draft = " ".join(sorted(docs.values())[:3])
        result = canon.check(draft, index, _SETTINGS)
        assert [*(_answer(p) for p in result.profiles), _sets(index)] == answers
    assert len(list(folder_of(db).glob("*.hashes.npy"))) == listed  # the orphans went
