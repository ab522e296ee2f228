"""The watches of a folder (:mod:`canon.watch`), read for the pages: the list, one watch's
runs, pages and latest changes, one page's copies and history.

The folder given to the server (``--watches``) is either a watch itself (it holds
``watch.db``) or a folder whose direct subfolders are watches; a watch is named by its
folder's name, and a name that is not one of those (``..``, a path, a folder without
``watch.db``, a symbolic link) is no watch (404).  Each ``watch.db`` is opened read-only and
nothing is ever created or written: a watch left quiet is read as it stands (SQLite's
``immutable``, which makes no journal files), one being run at the same time through its
write-ahead log, so the page shows what the run has written so far.  A database that cannot be
read, or of a format this version does not know, is a :class:`Problem` said on the page.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..watch import CHANGES, DB_NAME, Copy, WatchedPage
from ..watch.store import FORMAT, stored_spans
from .service import N_, FieldError

__all__ = [
    "CHANGE_LABELS",
    "COUNT_LABELS",
    "KIND_LABELS",
    "PROBLEMS",
    "ChangeLine",
    "Marked",
    "PageLine",
    "Problem",
    "Unreadable",
    "WatchReader",
    "WatchRun",
    "WatchSummary",
    "marked_text",
    "summaries",
    "watch_folder",
    "watch_folders",
]

PROBLEMS = {
    "damaged": N_("The watch's database cannot be read: it is damaged, or it is not a watch's."),
    "format": N_(
        "The watch's database is of another format (%(format)s): this version of canon cannot "
        "read it."
    ),
}
# What a run said of a copy (one copy: the page of changes), and the runs' counts of each.
CHANGE_LABELS = {
    "new": N_("new copy"),
    "grown": N_("copy grown"),
    "back": N_("copy back"),
    "gone": N_("copy gone"),
}
COUNT_LABELS = {
    "new": N_("new copies"),
    "grown": N_("grown copies"),
    "back": N_("copies back"),
    "gone": N_("copies gone"),
}
KIND_LABELS = {"copied": N_("copied"), "rewritten": N_("rewritten")}  # as the check page says
MARKS = {"copied": "exact", "rewritten": "rewrite"}  # the check page's classes of the two


@dataclass(frozen=True)
class Problem:
    """Why a watch cannot be shown: a key of :data:`PROBLEMS` and its parameters."""

    key: str
    params: dict[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The English sentence (the pages translate :attr:`key`)."""
        return PROBLEMS[self.key] % self.params


class Unreadable(Exception):
    """A watch's database that cannot be read, and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


@dataclass(frozen=True)
class WatchRun:
    """One run: its number, start and end (None: not finished, going on or stopped), the
    pages it planned and checked, the queries it sent and read from its cache, and its
    changes counted by kind (every kind of :data:`~canon.watch.CHANGES` named)."""

    id: int
    started: str
    finished: str | None
    planned: int
    checked: int
    sent: int
    cached: int
    counts: dict[str, int]


@dataclass(frozen=True)
class WatchSummary:
    """A watch in the list: its name, pages, pages with copies found and not gone, such
    copies, and its last run; or only its name and the :class:`Problem` reading it."""

    name: str
    pages: int = 0
    copied_pages: int = 0
    copies: int = 0
    last_run: WatchRun | None = None
    problem: Problem | None = None


@dataclass(frozen=True)
class PageLine:
    """A page of a watch in its list: its id, address, title, last check, copies there now
    and gone, and the share the most complete copy there now holds (None: none)."""

    id: int
    url: str
    title: str | None
    checked: str | None
    copies: int
    gone: int
    best: float | None


@dataclass(frozen=True)
class ChangeLine:
    """A change a run found, with the run's start and the page's id and title."""

    run: int
    date: str
    page_id: int
    page: str
    title: str | None
    url: str
    change: str
    share: float
    previous: float | None
    kind: str


@dataclass(frozen=True)
class Marked:
    """A run of a page's text as the pages mark it (``_result.html``'s ``marked``): the
    check page's ``exact`` for text a copy holds word for word, ``rewrite`` for text only
    rewritten copies hold, None for the rest."""

    text: str
    kind: str | None = None
    twins: tuple[str, ...] = ()


def _is_watch(folder: Path) -> bool:
    return not folder.is_symlink() and folder.is_dir() and (folder / DB_NAME).is_file()


def watch_folders(root: Path) -> dict[str, Path]:
    """The watches under ``root`` by name: ``root`` alone when it is a watch, else each of
    its direct subfolders that is one (symbolic links are not followed), by name."""
    root = root.resolve()
    if (root / DB_NAME).is_file():
        return {root.name or "watch": root}
    try:
        children = sorted(root.iterdir())
    except OSError:
        return {}
    return {child.name: child for child in children if _is_watch(child)}


def watch_folder(root: Path, name: str) -> Path:
    """The folder of the watch ``name`` under ``root``; 404 for any other name."""
    found = watch_folders(root).get(name)
    if found is None:
        raise FieldError(
            f"no watch {name[:60]!r} on this server", None, 404, key=N_("No such watch here")
        )
    return found


def _connect(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only, creating nothing: as it stands when no run writes it (no
    write-ahead log beside it), else through the log."""
    quiet = not Path(f"{path}-wal").exists()
    uri = path.resolve().as_uri() + ("?mode=ro&immutable=1" if quiet else "?mode=ro")
    try:
        db = sqlite3.connect(uri, uri=True, timeout=5.0)
    except sqlite3.Error:
        raise Unreadable(Problem("damaged")) from None
    return db


class WatchReader:
    """A watch's database opened read-only; every method raises :class:`Unreadable` when
    the database cannot be read."""

    def __init__(self, folder: Path) -> None:
        self.db = _connect(folder / DB_NAME)
        try:
            stored = self._one("SELECT value FROM meta WHERE key='format'")
            version = None if stored is None else str(stored[0])
            if version not in ("1", str(FORMAT)):  # 1: kept no spans, readable all the same
                raise Unreadable(Problem("format", {"format": version or "?"}))
            self.spans = version != "1"
        except Unreadable:
            self.db.close()
            raise

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> WatchReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _rows(self, sql: str, args: Sequence[object] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, args).fetchall()
        except (sqlite3.Error, ValueError, TypeError):
            raise Unreadable(Problem("damaged")) from None

    def _one(self, sql: str, args: Sequence[object] = ()) -> Any:
        rows = self._rows(sql, args)
        return rows[0] if rows else None

    # ------------------------------------------------------------------ the watch

    def summary(self, name: str) -> WatchSummary:
        pages = self._one("SELECT count(*) FROM pages")[0]
        copied, copies = self._one(
            "SELECT count(DISTINCT page), count(*) FROM copies WHERE gone IS NULL"
        )
        runs = self.runs(1)
        return WatchSummary(name, pages, copied, copies, runs[0] if runs else None)

    def run_count(self) -> int:
        return int(self._one("SELECT count(*) FROM runs")[0])

    def runs(self, limit: int) -> list[WatchRun]:
        """The last ``limit`` runs, the newest first."""
        rows = self._rows(
            "SELECT r.id, r.started, r.finished, r.sent, r.cached, "
            "(SELECT count(*) FROM plan p WHERE p.run=r.id), "
            "(SELECT count(*) FROM plan p WHERE p.run=r.id AND p.done) "
            "FROM runs r ORDER BY r.id DESC LIMIT ?",
            (limit,),
        )
        if not rows:
            return []
        counts: dict[int, dict[str, int]] = {row[0]: dict.fromkeys(CHANGES, 0) for row in rows}
        for run, change, number in self._rows(
            "SELECT run, change, count(*) FROM changes WHERE run>=? GROUP BY run, change",
            (min(counts),),
        ):
            if run in counts and change in CHANGES:
                counts[run][change] = number
        return [WatchRun(r[0], r[1], r[2], r[5], r[6], r[3], r[4], counts[r[0]]) for r in rows]

    def page_lines(self, limit: int, offset: int = 0) -> list[PageLine]:
        """Pages of the watch, the most copied first: by the share of their most complete
        copy there now, then by their copies there now."""
        rows = self._rows(
            "SELECT p.id, p.url, p.title, p.checked, "
            "COALESCE(SUM(c.url IS NOT NULL AND c.gone IS NULL), 0), "
            "COALESCE(SUM(c.gone IS NOT NULL), 0), "
            "MAX(CASE WHEN c.gone IS NULL THEN c.share END) AS best "
            "FROM pages p LEFT JOIN copies c ON c.page=p.id GROUP BY p.id "
            "ORDER BY best IS NULL, best DESC, 5 DESC, p.id LIMIT ? OFFSET ?",
            (limit, offset),
        )
        return [PageLine(*row) for row in rows]

    def page_count(self) -> int:
        return int(self._one("SELECT count(*) FROM pages")[0])

    def changes(self, limit: int, page_id: int | None = None) -> list[ChangeLine]:
        """The latest ``limit`` changes (of one page, with ``page_id``), the newest first."""
        where, args = ("WHERE c.page=?", [page_id]) if page_id is not None else ("", [])
        rows = self._rows(
            "SELECT c.run, r.started, p.id, p.url, p.title, c.url, c.change, c.share, "
            "c.previous, c.kind FROM changes c JOIN pages p ON p.id=c.page "
            f"JOIN runs r ON r.id=c.run {where} ORDER BY c.run DESC, c.rowid LIMIT ?",
            [*args, limit],
        )
        return [ChangeLine(*row) for row in rows]

    # ------------------------------------------------------------------ one page

    def page(self, page_id: int) -> WatchedPage | None:
        row = self._one(
            "SELECT url, final_url, canonical, title, text, added, checked FROM pages WHERE id=?",
            (page_id,),
        )
        return None if row is None else WatchedPage(*row)

    def copies(self, page_id: int, length: int) -> list[Copy]:
        """The page's copies, those there now first, each the most complete first; their
        characters within the page's ``length``."""
        spans = "c.spans" if self.spans else "'[]'"
        rows = self._rows(
            "SELECT p.url, c.url, c.share, c.kind, c.first_seen, c.last_seen, c.gone, "
            f"{spans} FROM copies c JOIN pages p ON p.id=c.page WHERE c.page=? "
            "ORDER BY c.gone IS NOT NULL, c.share DESC, c.url",
            (page_id,),
        )
        try:
            return [
                Copy(r[0], r[1], r[2], r[3], r[4], r[5], r[6], stored_spans(r[7], length))
                for r in rows
            ]
        except (ValueError, TypeError):
            raise Unreadable(Problem("damaged")) from None


def summaries(root: Path) -> list[WatchSummary]:
    """Every watch under ``root``, by name; one that cannot be read with its problem."""
    found = []
    for name, folder in watch_folders(root).items():
        try:
            with WatchReader(folder) as reader:
                found.append(reader.summary(name))
        except Unreadable as exc:
            found.append(WatchSummary(name, problem=exc.problem))
    return found


_RUNS = re.compile(rb"\x00+|\x01+|\x02+")


def marked_text(text: str, copies: Sequence[Copy]) -> list[Marked]:
    """``text`` in runs, those the ``copies`` hold marked: ``exact`` where a copy holds it
    word for word, ``rewrite`` where only rewritten ones do."""
    held = bytearray(len(text))
    for kind, level in (("rewritten", 1), ("copied", 2)):
        for copy in copies:
            if copy.kind == kind:
                for start, end in copy.spans:
                    start, end = max(0, start), min(len(text), end)
                    if end > start:
                        held[start:end] = bytes([level]) * (end - start)
    kinds = {0: None, 1: MARKS["rewritten"], 2: MARKS["copied"]}
    return [Marked(text[m.start() : m.end()], kinds[m.group()[0]]) for m in _RUNS.finditer(held)]
