"""Stored texts: each document's main text kept compressed, read back exactly, or not kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from corpora import make_corpus
from hypothesis import given
from hypothesis import strategies as st

import canon
from canon import Index
from canon.errors import IndexFileError
from canon.index.schema import pack_text, unpack_text


@given(st.text(max_size=2000))
def test_a_packed_text_unpacks_to_itself(text: str) -> None:
    assert unpack_text(pack_text(text), len(text)) == text


def test_a_frame_larger_than_its_document_is_refused() -> None:
    big = pack_text("я" * 100_000)
    with pytest.raises(Exception, match="more than"):
        unpack_text(big, 10)


def _ids(index: Index) -> dict[str, int]:
    rows = index._db.execute("SELECT source, id FROM documents")  # the ids checks work with
    return dict(rows)


def test_texts_are_stored_and_read_back(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 6)
    with Index(tmp_path / "i.db", create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")])
        ids = _ids(index)
        stored = index.texts(ids.values())
        stats = index.stats()
    assert {source: stored[ids[source]] for source in docs} == docs
    assert stats.texts == 6
    # Compressed, the stored texts take well under their UTF-8 size.
    assert 0 < stats.text_bytes < sum(len(t.encode()) for t in docs.values())


def test_no_store_text_keeps_none_and_costs_less(tmp_path: Path) -> None:
    make_corpus(tmp_path / "docs", 6)
    sizes = {}
    for store in (True, False):
        with Index(tmp_path / f"{store}.db", create=True) as index:
            canon.add_sources(
                index, [str(tmp_path / "docs")], settings=canon.AddSettings(store_text=store)
            )
            assert bool(index.texts(_ids(index).values())) is store
            sizes[store] = index.stats().text_bytes
    assert sizes[False] == 0 < sizes[True]


def test_a_replaced_document_stores_its_new_text(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("первый вариант текста о погоде в городе", "utf-8")
    with Index(tmp_path / "i.db", create=True) as index:
        canon.add_sources(index, [str(path)])
        path.write_text("второй вариант текста о погоде в деревне", "utf-8")
        canon.add_sources(index, [str(path)])
        (text,) = index.texts(_ids(index).values()).values()
    assert text == "второй вариант текста о погоде в деревне"


def test_a_damaged_stored_text_is_one_index_error(tmp_path: Path) -> None:
    make_corpus(tmp_path / "docs", 3)
    db = tmp_path / "i.db"
    with Index(db, create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")])
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE documents SET text = x'28b52ffd00' WHERE id = 1")
    with Index(db, readonly=True) as index, pytest.raises(IndexFileError) as caught:
        index.texts([1, 2])
    assert caught.value.reason == "corrupt" and "\n" not in str(caught.value)
