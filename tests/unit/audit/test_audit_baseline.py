"""A finished audit is kept whole as the baseline of the next; a stopped one is resumed; a move
stopped midway is finished by the next run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from canon.audit.baseline import finished, keep_as_previous, mark_finished, moving
from canon.audit.state import Queued, State
from canon.errors import OutputError

NAMES = ("pages.csv", "report.html", "audit.db")


def _audit_file(path: Path) -> Path:
    sqlite3.connect(path).close()
    return path


def test_finished_is_marked_or_read_from_an_audit_made_before_the_mark(tmp_path: Path) -> None:
    path = _audit_file(tmp_path / "audit.db")
    assert not finished(tmp_path / "none.db")
    assert not finished(path)
    with State(path) as state:
        state.put("seeded", True)
        state.put("crawled", "2025-01-01T00:00:00+00:00")
        state.record([Queued("https://example.ru/", 0, "start")], [])
    assert not finished(path)  # a URL is left: stopped, to resume
    with State(path) as state:
        mark_finished(state)
    assert finished(path)
    legacy = _audit_file(tmp_path / "legacy.db")
    with State(legacy) as state:
        state.put("seeded", True)
        state.put("crawled", "2025-01-01T00:00:00+00:00")
    assert finished(legacy)  # crawled, nothing left: finished before the mark existed


def _folder(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    return root


def test_the_audit_is_moved_whole_and_replaces_an_older_one(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {
        "audit.db": "db", "audit.db-wal": "wal", "audit.db-segments/1.npy": "segment",
        "pages.csv": "pages", "report.html": "report", "status.json": "the web's",
        "previous/pages.csv": "older", "previous/clusters.jsonl": "older",
    })  # fmt: skip
    previous = keep_as_previous(folder, NAMES)
    assert previous == folder / "previous"
    assert sorted(p.relative_to(previous).as_posix() for p in previous.rglob("*")) == [
        "audit.db", "audit.db-segments", "audit.db-segments/1.npy", "audit.db-wal",
        "pages.csv", "report.html",
    ]  # fmt: skip
    assert (previous / "pages.csv").read_text("utf-8") == "pages"
    assert sorted(p.name for p in folder.iterdir()) == ["previous", "status.json"]


def test_a_move_stopped_midway_is_finished_by_the_next_run(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {
        ".previous.part/pages.csv": "pages", "audit.db": "db", "report.html": "report",
        "previous/pages.csv": "older",
    })  # fmt: skip
    assert moving(folder, "audit.db")  # the stage is there: the move goes on, whatever the db
    keep_as_previous(folder, NAMES)
    assert sorted(p.name for p in (folder / "previous").iterdir()) == [
        "audit.db", "pages.csv", "report.html",
    ]  # fmt: skip
    assert (folder / "previous" / "pages.csv").read_text("utf-8") == "pages"
    assert not (folder / ".previous.part").exists() and not moving(folder, "audit.db")


def test_a_move_that_cannot_be_made_is_one_error(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"audit.db": "db", "previous": "a file where a folder goes"})
    with pytest.raises(OutputError, match="cannot move the last audit into previous/"):
        keep_as_previous(folder, NAMES)
