"""Opening an index: read-only storage, writers that wait, and SQLite errors as IndexFileError.

Read-only storage is made two real ways.  The tests run as root, who may write anywhere, so:
(1) a forked child drops to the unprivileged user ``nobody`` (``os.setuid``) and opens a 0444
index in a 0555 folder; (2) a real read-only bind mount, in a private mount namespace made by
``unshare -m`` (skipped where the system does not allow one), under which even root cannot
write, read by the real command line.
"""

from __future__ import annotations

import multiprocessing
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from corpora import make_corpus

import canon
import canon.index.connection
from canon import Index

RAW = canon.get_profile("raw")


@pytest.fixture
def world_readable() -> Iterator[Path]:
    """A folder under /tmp that ``nobody`` can enter (pytest's own tmp_path is 0700)."""
    folder = Path(tempfile.mkdtemp(prefix="canon-ro-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder)


def _built(folder: Path, docs: int = 6) -> tuple[Path, dict[str, str]]:
    texts = make_corpus(folder / "docs", docs)
    db = folder / "store" / "i.db"
    db.parent.mkdir()
    with Index(db, create=True) as index:
        canon.add_sources(index, [str(folder / "docs")], canon.IndexRules([RAW], k=4))
        canon.check(next(iter(texts.values())), index)  # every module the child needs, loaded
    return db, texts


def _freeze(folder: Path) -> None:
    """Every file 0444 and every folder 0555 (the index file and its segment folder)."""
    for path in sorted(folder.rglob("*"), reverse=True):
        path.chmod(0o555 if path.is_dir() else 0o444)
    folder.chmod(0o555)


def _as_nobody(work: Callable[[], object]) -> object:
    """``work()`` in a forked child that is not root; its result, or its error as a tuple.

    As root the child drops to ``nobody`` first; as another user it already cannot write a
    0444 file in a 0555 folder.  The interpreter lives under /root here, so the child uses only
    modules the parent has already imported.
    """
    context = multiprocessing.get_context("fork")
    results = context.Queue()

    def child() -> None:
        try:
            if os.geteuid() == 0:
                nobody = pwd.getpwnam("nobody")
                os.setgroups([])
                os.setgid(nobody.pw_gid)
                os.setuid(nobody.pw_uid)
            assert os.geteuid() != 0
            results.put(("ok", work()))
        except canon.IndexFileError as exc:
            results.put(("IndexFileError", exc.reason, str(exc)))
        except BaseException as exc:
            results.put((type(exc).__name__, None, str(exc)))

    process = context.Process(target=child)
    process.start()
    outcome = results.get(timeout=60)
    process.join(timeout=30)
    return outcome


def test_read_only_folder_and_file_are_read_as_an_unprivileged_user(world_readable) -> None:
    db, texts = _built(world_readable)
    _freeze(db.parent)
    before = sorted(os.listdir(db.parent))
    draft = next(iter(texts.values()))

    def read() -> tuple[int, float, int]:
        with Index(db, readonly=True) as index:
            uniqueness = canon.check(draft, index).profiles[0].uniqueness
            return index.stats().documents, uniqueness, len(list(index.documents()))

    assert _as_nobody(read) == ("ok", (6, 0.0, 6))
    assert sorted(os.listdir(db.parent)) == before == ["i.db", "i.db-segments"]  # no -shm, -wal

    kind, reason, message = _as_nobody(lambda: Index(db).close())
    assert (kind, reason) == ("IndexFileError", "read-only")
    assert message.startswith(f"{db}: cannot write the index") and "\n" not in message
    kind, reason, message = _as_nobody(lambda: Index(db.parent / "new.db", create=True).close())
    assert (kind, reason) == ("IndexFileError", "read-only")
    assert "the folder is read-only" in message


def test_a_log_left_on_read_only_storage_is_named(world_readable) -> None:
    db, _ = _built(world_readable)
    writer = Index(db)  # a writer that has not folded its log into the file
    writer._db.execute("PRAGMA wal_autocheckpoint = 0")
    canon.add_sources(writer, [str(world_readable / "docs")], canon.IndexRules([RAW], k=4))
    writer._db.execute("INSERT INTO documents (source, added, content_hash, method, chars) "
                       "VALUES ('late', 'now', 'x', 'text', 1)")  # fmt: skip
    copy = world_readable / "copy"
    copy.mkdir()
    shutil.copy(db, copy / "i.db")
    shutil.copy(f"{db}-wal", copy / "i.db-wal")  # as a copy or backup might leave them
    writer.close()
    _freeze(copy)
    kind, reason, message = _as_nobody(lambda: Index(copy / "i.db", readonly=True).close())
    assert kind == "IndexFileError" and reason == "unreadable"
    assert f"cannot open its write-ahead log {copy / 'i.db'}-wal" in message


def test_unreadable_file(world_readable) -> None:
    db, _ = _built(world_readable)
    db.chmod(0o000)
    kind, reason, message = _as_nobody(lambda: Index(db, readonly=True).close())
    assert (kind, reason) == ("IndexFileError", "unreadable")
    assert message == f"{db}: cannot read the index (permission denied)"


def _read_only_mount_works() -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c",
         "mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp /tmp && ! touch /tmp/.x"],
        capture_output=True, timeout=30,
    )  # fmt: skip
    return probe.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _read_only_mount_works(), reason="no private read-only mount here")
def test_index_on_a_read_only_mount_from_the_command_line(tmp_path: Path) -> None:
    db, texts = _built(tmp_path)
    draft = tmp_path / "draft.txt"
    draft.write_text(next(iter(texts.values())), "utf-8")
    folder = db.parent
    python = f"{sys.executable} -m canon"
    script = (
        f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} {folder} && "
        f"{python} index stats {db} --json && {python} check {draft} --index {db} --json; "
        f"{python} index add {db} {draft}; echo add=$?"
    )
    result = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": os.getcwd()},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert '"documents": 6' in result.stdout and '"uniqueness": 0.0' in result.stdout
    assert result.stdout.rstrip().endswith("add=2")
    assert result.stderr.strip() == (
        f"canon: error: {db}: cannot write the index (the file or its folder is read-only); "
        "only reading it is possible here"
    )
    assert sorted(os.listdir(folder)) == ["i.db", "i.db-segments"]


# --- writers and errors -------------------------------------------------------------------


def test_a_writer_waits_then_says_the_index_is_busy(tmp_path: Path, monkeypatch) -> None:
    db, _ = _built(tmp_path, docs=2)
    monkeypatch.setattr(canon.index.connection, "BUSY_TIMEOUT", 0.2)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process in the middle of a batch
    try:
        with Index(db) as index:
            assert index.stats().documents == 2  # reading goes on (WAL)
            with pytest.raises(canon.IndexFileError) as info:
                index.remove(["anything"])
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert info.value.reason == "busy" and info.value.path == db
    assert str(info.value) == (
        f"{db}: cannot write: another process holds the index locked; try again when it is done "
        "(documents already committed are intact)"
    )


def test_a_failed_batch_leaves_no_open_transaction(tmp_path: Path) -> None:
    db, _ = _built(tmp_path, docs=3)
    count = "SELECT count(*) FROM doc_profiles"
    with Index(db) as index:
        before = index._db.execute(count).fetchone()[0]
        with pytest.raises(KeyError), index._write():
            index._db.execute("DELETE FROM doc_profiles")
            raise KeyError("an error in the middle of a batch")
        assert not index._db.in_transaction
        assert index._db.execute(count).fetchone()[0] == before > 0  # the delete was undone


def test_paths_with_uri_characters(tmp_path: Path) -> None:
    folder = tmp_path / "a?b#c%20d"
    folder.mkdir()
    db = folder / "i?.db"
    with Index(db, create=True) as index:
        index.use_profiles([RAW], 4, 1)
    assert db.exists() and not (folder / "a").exists()
    with Index(db, readonly=True) as index:
        assert [p.name for p in index.profiles()] == ["raw"]


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(canon.IndexFileError, match="no folder") as info:
        Index(tmp_path / "nowhere" / "i.db", create=True)
    assert info.value.reason == "missing"
    with pytest.raises(canon.IndexFileError, match="no such index") as info:
        Index(tmp_path / "i.db", create=True, readonly=True)
    assert info.value.reason == "missing" and not (tmp_path / "i.db").exists()
