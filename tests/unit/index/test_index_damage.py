"""A damaged index is refused, never answered from: a segment overwritten in place (same size),
document ids out of range, a manifest row lost or wrong, a FIFO where a file should be.

Each index is real (SQLite file and segment files), copied from one built once, then damaged
on disk the way a disk, a copy or a hand would.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import xxhash
from corpora import make_corpus

import canon
from canon import Index
from canon.index import checksums
from canon.index.manifest import read_manifest
from canon.index.segments import BANDS, DOCS, HASHES, SHINGLES, folder_of

RAW = canon.get_profile("raw")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """An index of 12 documents (raw profile, two batches), and a draft copied from one."""
    folder = tmp_path_factory.mktemp("built")
    docs = make_corpus(folder / "docs", 12, seed=4)
    db = folder / "built.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index,
            [str(folder / "docs")],
            canon.IndexRules([RAW], k=4),
            canon.AddSettings(batch=6, workers=1),
        )
    return db, sorted(docs.values())[0]


@pytest.fixture
def db(built: tuple[Path, str], tmp_path: Path) -> Path:
    """A fresh copy of the built index, to damage."""
    copy = tmp_path / "copy.db"
    shutil.copyfile(built[0], copy)
    shutil.copytree(folder_of(built[0]), folder_of(copy))
    return copy


@pytest.fixture
def draft(built: tuple[Path, str]) -> str:
    return built[1]


def _check(db: Path, draft: str) -> canon.CheckResult:
    with Index(db, readonly=True) as index:
        return canon.check(draft, index, canon.CheckSettings(top=100, min_shared=1))


def _refused(db: Path, draft: str) -> canon.IndexFileError:
    with pytest.raises(canon.IndexFileError) as info:
        _check(db, draft)
    error = info.value
    assert (error.reason, error.remedy, error.path) == ("corrupt", "verify", db)
    assert str(error).startswith(f"{db}: is damaged: ") and "\n" not in str(error)
    assert str(error).endswith("; build a new index from its sources, and list all that is damaged")
    return error


def _segment(db: Path, kind: int = SHINGLES) -> tuple[str, int, int]:
    """The name and document range of the index's first segment of ``kind``."""
    with sqlite3.connect(db) as raw:
        row = raw.execute(
            "SELECT name, first_doc, last_doc FROM segments WHERE kind = ? ORDER BY first_doc",
            (kind,),
        ).fetchone()
    return str(row[0]), int(row[1]), int(row[2])


def _data_offset(file: Path) -> int:
    """Where a ``.npy`` file's array starts (after its header)."""
    return file.stat().st_size - np.load(file, mmap_mode="r").nbytes


def test_a_sound_index_answers(db: Path, draft: str) -> None:
    result = _check(db, draft)
    assert result.profiles[0].sources  # the draft's source is found


@pytest.mark.parametrize("suffix", [HASHES, DOCS])
def test_a_segment_overwritten_in_place_is_refused(db: Path, draft: str, suffix: str) -> None:
    name, _, _ = _segment(db)
    file = folder_of(db) / f"{name}{suffix}"
    size = file.stat().st_size
    with open(file, "r+b") as out:  # the same size, other bytes: keys or ids
        out.seek(_data_offset(file))
        out.write(bytes(size - _data_offset(file)))
    assert file.stat().st_size == size
    error = _refused(db, draft)
    assert f"segment file {file} does not match its checksum" in str(error)


def _rewrite_docs(db: Path, name: str, docs: np.ndarray) -> None:
    """New document ids in a segment's docs file, its checksum in the manifest made to match
    (so that only the ids themselves are wrong)."""
    file = folder_of(db) / f"{name}{DOCS}"
    mapped = np.load(file, mmap_mode="r+")
    mapped[:] = docs
    mapped.flush()
    del mapped
    with sqlite3.connect(db) as raw:
        query = "SELECT checksum FROM segments WHERE name = ?"
        (checksum,) = raw.execute(query, (name,)).fetchone()
        digest = xxhash.xxh3_128(file.read_bytes()).hexdigest()
        fixed = checksums.join(checksums.split(checksum)[0], digest)
        raw.execute("UPDATE segments SET checksum = ? WHERE name = ?", (fixed, name))


def test_document_ids_out_of_range_are_refused(db: Path, draft: str) -> None:
    name, first, last = _segment(db)
    file = folder_of(db) / f"{name}{DOCS}"
    docs = np.load(file).copy()
    docs[0] = 10_000  # an id no document has, far past the segment's range
    _rewrite_docs(db, name, np.sort(docs))
    error = _refused(db, draft)
    assert f"segment file {file} holds document ids" in str(error)
    assert f"outside the {first}..{last} of its manifest row" in str(error)


def test_document_ids_out_of_range_are_refused_in_place(db: Path, draft: str) -> None:
    """Ids past every document, written over the docs file: refused by its checksum."""
    name, _, _ = _segment(db)
    file = folder_of(db) / f"{name}{DOCS}"
    mapped = np.load(file, mmap_mode="r+")
    mapped[:] = 4_000_000
    mapped.flush()
    del mapped
    assert "does not match its checksum" in str(_refused(db, draft))


def test_a_lost_manifest_row_is_refused_and_its_file_kept(db: Path, draft: str) -> None:
    name, _, _ = _segment(db)
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM segments WHERE name = ?", (name,))
    error = _refused(db, draft)
    assert "the manifest lists" in str(error) and "a segment's row was lost" in str(error)
    with pytest.raises(canon.IndexFileError, match="a segment's row was lost"):
        Index(db)  # a writer's open refuses it too, before its clean-up
    assert (folder_of(db) / f"{name}{HASHES}").exists()  # so the unlisted file is not deleted


def test_a_manifest_row_past_the_ids_given_out_is_refused(db: Path, draft: str) -> None:
    name, _, _ = _segment(db, BANDS)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE segments SET last_doc = 999999 WHERE name = ?", (name,))
    error = _refused(db, draft)
    assert f"the manifest row of segment {name}" in str(error)
    assert "where the index has given out ids 1..12" in str(error)


def test_a_row_without_its_file_is_refused(db: Path, draft: str) -> None:
    name, _, _ = _segment(db)
    (folder_of(db) / f"{name}{DOCS}").unlink()
    assert f"segment {name} has lost its file" in str(_refused(db, draft))


def test_a_merge_refuses_a_damaged_segment_and_changes_nothing(db: Path) -> None:
    name, _, _ = _segment(db)
    file = folder_of(db) / f"{name}{HASHES}"
    with open(file, "r+b") as out:
        out.seek(_data_offset(file) + 8)
        out.write(b"\xff" * 8)
    with Index(db) as index:
        before = read_manifest(index._db).segments
        with pytest.raises(canon.IndexFileError, match="does not match its checksum"):
            index.optimize()
        assert read_manifest(index._db).segments == before


def test_segments_are_checked_once_a_process(
    db: Path, draft: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first open reads each segment; later ones (new snapshots, new Index objects) do
    not, until a file changes."""
    from canon.index import mapping

    read: list[int] = []
    original = mapping.digest_of
    monkeypatch.setattr(mapping, "digest_of", lambda fd: read.append(fd) or original(fd))
    _check(db, draft)
    segments = len(read_manifest(sqlite3.connect(db)).segments)
    assert len(read) == 2 * segments  # both files of each
    _check(db, draft)
    assert len(read) == 2 * segments
    name, _, _ = _segment(db)
    file = folder_of(db) / f"{name}{HASHES}"
    file.write_bytes(file.read_bytes())  # the same bytes, written again: checked again
    _check(db, draft)
    assert len(read) == 2 * segments + 2


def test_new_segments_carry_checksums(db: Path) -> None:
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT name, checksum FROM segments").fetchall()
    for name, checksum in rows:
        files = [folder_of(db) / f"{name}{suffix}" for suffix in (HASHES, DOCS)]
        assert checksum == "".join(xxhash.xxh3_128(f.read_bytes()).hexdigest() for f in files)


def _blocked(call: object, unblock: Path, seconds: float = 5.0) -> BaseException | None:
    """What ``call`` raised, run in a thread; fails if it is still running after ``seconds``
    (then a writer opens the FIFO ``unblock``, which lets a blocked open go on)."""
    caught: list[BaseException] = []

    def run() -> None:
        try:
            call()  # type: ignore[operator]
        except BaseException as exc:
            caught.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        fd = os.open(unblock, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        thread.join(seconds)
        pytest.fail(f"blocked on the FIFO {unblock} for {seconds} s")
    assert time.monotonic() - started < seconds
    return caught[0] if caught else None


@needs_fifo
def test_a_fifo_as_the_lock_file_is_refused_at_once(db: Path, draft: str) -> None:
    lock = folder_of(db) / "lock"
    lock.unlink()
    os.mkfifo(lock)
    for call in (lambda: _check(db, draft), lambda: Index(db).close()):
        error = _blocked(call, lock)
        assert isinstance(error, canon.IndexFileError), error
        assert str(error) == (
            f"{db}: the lock file {lock} is a FIFO, not a regular file; delete it (the next "
            "command that writes the index makes a new one)"
        )


@needs_fifo
def test_a_fifo_as_a_segment_file_is_refused_at_once(db: Path, draft: str) -> None:
    name, _, _ = _segment(db)
    file = folder_of(db) / f"{name}{DOCS}"
    file.unlink()
    os.mkfifo(file)
    error = _blocked(lambda: _check(db, draft), file)
    assert isinstance(error, canon.IndexFileError)
    assert f"is damaged: segment file {file} is a FIFO, not a regular file" in str(error)


@needs_fifo
def test_a_fifo_as_the_index_file_is_refused_at_once(tmp_path: Path, draft: str) -> None:
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    error = _blocked(lambda: _check(fifo, draft), fifo)
    assert isinstance(error, canon.IndexFileError) and error.reason == "not-an-index"
    assert str(error).startswith(f"{fifo}: is not a regular file (a FIFO")
