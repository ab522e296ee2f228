"""The index's schema: created once under the write lock, checked on every open, column codecs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import canon
from canon import Index
from canon.index.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    TABLES,
    blob,
    check_schema,
    create_schema,
    is_blank,
    signed,
    unblob,
)


def test_create_once_then_leave_alone(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
    assert is_blank(db)
    assert create_schema(db) is True
    assert create_schema(db) is False  # a second writer finds the tables made
    assert not is_blank(db) and not db.in_transaction
    names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names == set(TABLES)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    check_schema(db, tmp_path / "s.db")  # no refusal


def test_a_zero_length_file_becomes_an_index(tmp_path: Path) -> None:
    db = tmp_path / "zero.db"
    db.touch()  # as another process that just opened it leaves it
    with pytest.raises(canon.IndexFileError, match="an empty database") as info:
        Index(db)
    assert info.value.reason == "not-an-index"
    with Index(db, create=True) as index:
        assert index.profiles() == []


def _crafted(path: Path, ddl: str) -> Path:
    with sqlite3.connect(path) as db:
        db.executescript(ddl)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return path


@pytest.mark.parametrize(
    ("ddl", "lacks"),
    [
        (
            "",
            "lacks the tables doc_profiles, doc_sentences, documents, profiles, segments, state, "
            "tombstones;",
        ),
        (
            "CREATE TABLE profiles (id); CREATE TABLE documents (id); CREATE TABLE segments "
            "(name, profile_id, rows, first_doc, last_doc, kind);"
            "CREATE TABLE tombstones (profile_id, kind, doc_id);"
            "CREATE TABLE state (key, value);"
            "CREATE TABLE doc_sentences (id, sentences);"
            "CREATE TABLE doc_profiles (doc_id)",
            "lacks the columns doc_profiles.hashes, doc_profiles.id, doc_profiles.profile_id",
        ),
    ],
)
def test_marks_without_the_tables_are_refused(tmp_path: Path, ddl: str, lacks: str) -> None:
    db = _crafted(tmp_path / "crafted.db", ddl)
    for readonly in (True, False):
        with pytest.raises(canon.IndexFileError) as info:
            Index(db, readonly=readonly)
        assert info.value.reason == "corrupt" and info.value.path == db
        assert str(info.value).startswith(f"{db}: is damaged: it is marked as a canon index but")
        assert lacks in str(info.value)


@pytest.mark.parametrize(
    ("pragma", "reason", "message"),
    [
        ("application_id = 7", "not-an-index", "another kind of SQLite file"),
        ("user_version = 1", "schema", "made by an older canon"),
        (f"user_version = {SCHEMA_VERSION + 1}", "schema", "is newer than this canon supports"),
    ],
)
def test_marks_are_checked(tmp_path: Path, pragma: str, reason: str, message: str) -> None:
    db = tmp_path / "m.db"
    Index(db, create=True).close()
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA {pragma}")
    with pytest.raises(canon.IndexFileError, match=message) as info:
        Index(db, create=True)  # create never overwrites a file that is something else
    assert info.value.reason == reason


hashes = arrays(np.uint64, st.integers(0, 300), elements=st.integers(0, 2**64 - 1))


@given(hashes)
def test_blobs_keep_sorted_hashes(values: np.ndarray) -> None:
    stored = unblob(blob(values))
    assert stored.dtype == np.uint64
    assert stored.tolist() == sorted(values.tolist())


@given(hashes, st.sampled_from([2, 4, 8, 64]))
def test_signed_values_round_trip_and_keep_sampling(values: np.ndarray, m: int) -> None:
    stored = signed(values)
    assert all(-(2**63) <= v < 2**63 for v in stored)
    assert np.array(stored, dtype=np.int64).view(np.uint64).tolist() == values.tolist()
    assert [v % m == 0 for v in stored] == [int(v) % m == 0 for v in values]
