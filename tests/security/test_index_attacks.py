"""Hostile index files: every one is refused in one line (exit 2, no traceback) by the command
line, and as an IndexFileError with its path and reason by the library.

The files are real: a canon index with a page overwritten, pages scribbled on, cut in half; a
crafted SQLite file with canon's marks and no tables; SQLite's header over random bytes; a
folder where a file should be; a path that does not exist.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from command import Ran, run_cli
from corpora import make_corpus
from webclient import PageClient

import canon
from canon import Index
from canon.index.schema import APPLICATION_ID, SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]


def canon_cli(*args: str | Path) -> Ran:
    return run_cli(*args, cwd=ROOT)


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real index of 30 documents, and a draft copied from one of them."""
    folder = tmp_path_factory.mktemp("good")
    texts = make_corpus(folder / "docs", 30)
    db = folder / "good.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index, [str(folder / "docs")], canon.IndexRules([canon.get_profile("raw")], k=4)
        )
    draft = folder / "draft.txt"
    draft.write_text(next(iter(texts.values())), "utf-8")
    return db, draft


def _page_size(data: bytes) -> int:
    return int.from_bytes(data[16:18], "big")


def _root_page(db: Path, table: str) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as raw:
        row = raw.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,))
        return row.fetchone()[0]


def overwritten_postings(good: Path, bad: Path) -> None:
    """The postings segment files (beside an intact SQLite file) overwritten with garbage."""
    bad.write_bytes(good.read_bytes())
    _copy_segments(good, bad)
    for segment in Path(f"{bad}-segments").glob("*.hashes.npy"):
        segment.write_bytes(b"\xa5" * segment.stat().st_size)


def overwritten_in_place(good: Path, bad: Path) -> None:
    """A few bytes of each segment's keys overwritten, the files' sizes and headers kept: an
    index that would still answer, wrongly, but for the segments' checksums."""
    bad.write_bytes(good.read_bytes())
    _copy_segments(good, bad)
    for segment in Path(f"{bad}-segments").glob("*.hashes.npy"):
        data = bytearray(segment.read_bytes())
        data[-64:] = b"\x00" * 64
        segment.write_bytes(data)


def overwritten_table(good: Path, bad: Path) -> None:
    """The documents' shingle table's root page replaced by garbage (the schema page and the
    segments intact)."""
    data = bytearray(good.read_bytes())
    size, page = _page_size(data), _root_page(good, "doc_profiles")
    data[(page - 1) * size : page * size] = b"\xa5" * size
    bad.write_bytes(data)
    _copy_segments(good, bad)


def scribbled(good: Path, bad: Path) -> None:
    """300 random bytes written over the start of every page after the schema page (its header
    and cell pointers: a page holding one large row has nothing but free space further on)."""
    data = bytearray(good.read_bytes())
    size, rng = _page_size(data), random.Random(3)
    for start in range(size, len(data), size):
        data[start : start + 300] = rng.randbytes(300)
    bad.write_bytes(data)
    _copy_segments(good, bad)


def truncated(good: Path, bad: Path) -> None:
    bad.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    _copy_segments(good, bad)


def _copy_segments(good: Path, bad: Path) -> None:
    """The segment folder beside ``bad`` as it is beside ``good``: only the file is damaged."""
    shutil.copytree(f"{good}-segments", f"{bad}-segments", dirs_exist_ok=True)


def crafted(good: Path, bad: Path) -> None:
    """canon's application id and schema version, and not one table."""
    with sqlite3.connect(bad) as db:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def random_after_header(good: Path, bad: Path) -> None:
    bad.write_bytes(b"SQLite format 3\x00" + random.Random(4).randbytes(16_000))


def folder(good: Path, bad: Path) -> None:
    bad.mkdir()


CASES: list[tuple[Callable[[Path, Path], None], str, str]] = [
    (overwritten_postings, "corrupt", "is damaged: segment "),
    (overwritten_in_place, "corrupt", "does not match its checksum"),
    (overwritten_table, "corrupt", "is damaged (database disk image is malformed)"),
    (scribbled, "corrupt", "is damaged ("),
    (truncated, "corrupt", "is damaged (database disk image is malformed)"),
    (crafted, "corrupt", "is damaged: it is marked as a canon index but lacks the tables"),
    (random_after_header, "not-an-index", "is not a canon index"),
    (folder, "not-an-index", "is a directory; give the path of an index file"),
]


def _library_error(db: Path, draft: Path) -> canon.IndexFileError:
    """What a library caller meets: opening, reading the statistics, checking the draft."""
    with pytest.raises(canon.IndexFileError) as info, Index(db, readonly=True) as index:
        index.stats()
        list(index.documents())
        canon.check(draft.read_text("utf-8"), index)
    return info.value


@pytest.mark.parametrize(("make", "reason", "message"), CASES, ids=[c[0].__name__ for c in CASES])
def test_library_raises_index_file_error(good, tmp_path: Path, make, reason, message) -> None:
    db, draft = good
    bad = tmp_path / "bad.db"
    make(db, bad)
    error = _library_error(bad, draft)
    assert (error.reason, error.path) == (reason, bad)
    assert str(error).startswith(f"{bad}: ") and message in str(error)
    assert "\n" not in str(error)


def _one_line(result: Ran, message: str, listed: bool = False) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and (listed or result.stdout == "")
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("canon: error: ")
    assert message in result.stderr


@pytest.mark.parametrize(("make", "reason", "message"), CASES, ids=[c[0].__name__ for c in CASES])
def test_command_line_says_one_line(good, tmp_path: Path, make, reason, message) -> None:
    db, draft = good
    bad = tmp_path / "bad.db"
    make(db, bad)
    commands = [["check", draft, "--index", bad]]
    if make is folder:  # check's --index is refused by click itself, see below
        commands = []
    if make not in (overwritten_postings, overwritten_in_place, overwritten_table):
        # statistics read neither the postings nor the documents' rows (running totals): they
        # work on those two; a check reads both and refuses
        commands += [["index", "stats", bad], ["serve", "--index", bad, "--port", "9"]]
    for args in commands:
        _one_line(canon_cli(*args), message)


def test_every_command_on_a_damaged_index(good, tmp_path: Path) -> None:
    db, draft = good
    bad = tmp_path / "bad.db"
    scribbled(db, bad)
    for args in (["index", "add", bad, draft], ["dedup", "--index", bad],
                 ["index", "remove", bad, draft.parent / "docs" / "doc-005.txt"]):  # fmt: skip
        _one_line(canon_cli(*args), "is damaged (")
    _one_line(canon_cli("index", "list", bad), "is damaged (", listed=True)  # lists, then stops


def test_check_and_dedup_against_a_folder_say_one_line(good, tmp_path: Path) -> None:
    _, draft = good
    for args in (("check", draft, "--index", tmp_path), ("dedup", "--index", tmp_path)):
        result = canon_cli(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert "is a directory" in result.stderr and result.stderr.count("\n") == 1


def test_serve_with_a_missing_index_stops_at_start(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    result = canon_cli("serve", "--index", missing, "--port", "9")
    _one_line(result, f"{missing}: no such index; create one with 'canon index add'")
    assert not missing.exists()  # a server opens its index read-only: nothing was created
    with pytest.raises(canon.IndexFileError) as info:
        Index(missing, readonly=True)
    assert info.value.reason == "missing" and info.value.path == missing


@pytest.mark.parametrize("damage", [overwritten_postings, overwritten_in_place])
def test_the_web_answers_a_damaged_index_without_a_500(good, tmp_path: Path, damage) -> None:
    # The index is sound when the server starts and damaged under it afterwards: the check is
    # a 503 that says so, never a 500 or a traceback.

    from canon.web import create_app

    db, draft = good
    served = tmp_path / "served.db"
    served.write_bytes(db.read_bytes())
    client = PageClient(create_app(served), raise_server_exceptions=False)
    damage(db, served)
    answer = client.post("/api/check", json={"draft": draft.read_text("utf-8")})
    assert answer.status_code == 503, answer.text
    assert answer.json()["field"] is None and "Traceback" not in answer.text
    assert f"{served}: is damaged: segment " in answer.json()["error"]
    assert client.get("/healthz").status_code == 200
