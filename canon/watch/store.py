"""A watch's database, ``watch.db`` in its folder (SQLite): the pages, the sites allowed to
republish, the runs with the pages each planned to check, every copy found and every change.

Each page checked is written in one transaction with its plan entry marked done, so a run
stopped midway keeps what it checked and the next run picks up the rest.  The pages come in
the order they are due (:func:`.plan.due`: never checked first, then by the time since their
last check weighed by their copies); a page removed goes with its copies, changes and plan
entries, in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import OutputError
from .plan import Copied, due
from .records import Change, Copy, WatchedPage

__all__ = ["DB_NAME", "FORMAT", "PlanEntry", "RunRow", "WatchStore", "stored_spans"]

DB_NAME = "watch.db"
FORMAT = 2  # the schema's version, kept in ``meta``; 2 keeps each copy's spans

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, final_url TEXT, canonical TEXT,
    title TEXT, text TEXT NOT NULL, added TEXT NOT NULL, checked TEXT);
CREATE TABLE IF NOT EXISTS allowed (site TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT, budget INTEGER NOT NULL,
    sent INTEGER NOT NULL DEFAULT 0, cached INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS plan (
    run INTEGER NOT NULL REFERENCES runs(id), position INTEGER NOT NULL,
    page INTEGER NOT NULL REFERENCES pages(id), queries INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run, position));
CREATE TABLE IF NOT EXISTS copies (
    page INTEGER NOT NULL REFERENCES pages(id), url TEXT NOT NULL, share REAL NOT NULL,
    kind TEXT NOT NULL, first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, gone TEXT,
    spans TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (page, url));
CREATE TABLE IF NOT EXISTS changes (
    run INTEGER NOT NULL REFERENCES runs(id), page INTEGER NOT NULL REFERENCES pages(id),
    url TEXT NOT NULL, change TEXT NOT NULL, share REAL NOT NULL, previous REAL,
    kind TEXT NOT NULL, first_seen TEXT NOT NULL, last_seen TEXT NOT NULL);
"""


def stored_spans(stored: str | None, length: int | None = None) -> tuple[tuple[int, int], ...]:
    """A copy's stored ``[start, end)`` runs (JSON); with ``length``, kept within a text of
    that many characters (a page whose text was refreshed since may be shorter)."""
    runs = ((int(start), int(end)) for start, end in json.loads(stored or "[]"))
    if length is None:
        return tuple(runs)
    clipped = ((max(0, start), min(length, end)) for start, end in runs)
    return tuple((start, end) for start, end in clipped if end > start)


@dataclass(frozen=True)
class RunRow:
    """A run as stored: its number, start, end (None: not finished), budget and queries."""

    id: int
    started: str
    finished: str | None
    budget: int
    sent: int
    cached: int


@dataclass(frozen=True)
class PlanEntry:
    """A page a run is to check, with the queries it may send; whether it is done."""

    position: int
    page_id: int
    queries: int
    done: bool


class WatchStore:
    """The database of the watch in ``folder``; ``create`` makes it when it is not there."""

    def __init__(self, folder: Path, *, create: bool = False) -> None:
        self.folder = folder
        self.path = folder / DB_NAME
        if not create and not self.path.is_file():
            what = "no such folder" if not folder.exists() else f"it has no {DB_NAME}"
            raise OutputError(folder, f"is not a watch ({what}): add pages to it first")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit needs no fsync
            self.db.execute("PRAGMA busy_timeout=5000")
            self._schema()
        except (OSError, sqlite3.Error) as exc:
            raise OutputError(self.path, f"cannot be used as a watch's database ({exc})") from None

    def _schema(self) -> None:
        found = self.db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='meta'"
        ).fetchone()
        if found:
            row = self.db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
            if row is not None and row[0] == "1":
                self._upgrade_from_1()
            elif row is None or int(row[0]) != FORMAT:
                raise OutputError(self.path, f"holds a watch of another format ({row and row[0]})")
            return
        with self.transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute("INSERT INTO meta VALUES ('format', ?)", (str(FORMAT),))

    def _upgrade_from_1(self) -> None:
        """Format 1 → 2: copies keep their spans (none known for those found before)."""
        with self.transaction():
            self.db.execute("ALTER TABLE copies ADD COLUMN spans TEXT NOT NULL DEFAULT '[]'")
            self.db.execute("UPDATE meta SET value=? WHERE key='format'", (str(FORMAT),))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> WatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ settings

    def setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def allowed(self) -> tuple[str, ...]:
        return tuple(r[0] for r in self.db.execute("SELECT site FROM allowed ORDER BY site"))

    def allow(self, sites: Sequence[str]) -> None:
        self.db.executemany("INSERT OR IGNORE INTO allowed VALUES (?)", [(s,) for s in sites])

    # ------------------------------------------------------------------ pages

    def put_page(self, page: WatchedPage) -> None:
        """Add a page, or refresh its text and addresses (its history stays)."""
        self.db.execute(
            "INSERT INTO pages (url, final_url, canonical, title, text, added) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(url) DO UPDATE SET "
            "final_url=excluded.final_url, canonical=excluded.canonical, "
            "title=excluded.title, text=excluded.text",
            (page.url, page.final_url, page.canonical, page.title, page.text, page.added),
        )

    def pages(self) -> list[tuple[int, WatchedPage]]:
        """Every page with its id, in the order they are due now (:func:`.plan.due`): the
        never checked first, then by the time since their last check weighed by how likely
        they are to be copied."""
        rows = self.db.execute(
            "SELECT id, url, final_url, canonical, title, text, added, checked FROM pages "
            "ORDER BY id"
        )
        pages = [(r[0], WatchedPage(*r[1:])) for r in rows]
        return due(pages, self.copied(), datetime.now(UTC))

    def copied(self) -> dict[int, Copied]:
        """What the copies of each page found copied say: how many are still there, how many
        were found, when the newest was first seen."""
        rows = self.db.execute(
            "SELECT page, SUM(gone IS NULL), COUNT(*), MAX(first_seen) FROM copies GROUP BY page"
        )
        return {r[0]: Copied(int(r[1]), int(r[2]), r[3]) for r in rows}

    def remove_pages(self, urls: Sequence[str]) -> list[str]:
        """Stop watching the pages at ``urls`` (as they were added): each goes with its
        copies, its changes and its entries in the runs' plans, all in one transaction.
        The URLs removed, in the order given."""
        wanted = list(dict.fromkeys(urls))
        removed: list[str] = []
        with self.transaction():
            for url in wanted:
                row = self.db.execute("SELECT id FROM pages WHERE url=?", (url,)).fetchone()
                if row is None:
                    continue
                for table, column in (("changes", "page"), ("copies", "page"), ("plan", "page"),
                                      ("pages", "id")):  # fmt: skip
                    self.db.execute(f"DELETE FROM {table} WHERE {column}=?", (row[0],))
                removed.append(url)
        return removed

    def page(self, page_id: int) -> WatchedPage:
        row = self.db.execute(
            "SELECT url, final_url, canonical, title, text, added, checked FROM pages WHERE id=?",
            (page_id,),
        ).fetchone()
        return WatchedPage(*row)

    # ------------------------------------------------------------------ runs

    def unfinished_run(self) -> RunRow | None:
        row = self.db.execute(
            "SELECT id, started, finished, budget, sent, cached FROM runs "
            "WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else RunRow(*row)

    def start_run(self, started: str, budget: int, plan: Sequence[tuple[int, int]]) -> int:
        """A new run and its plan, (page id, queries) in the order they are to be checked."""
        with self.transaction():
            cursor = self.db.execute(
                "INSERT INTO runs (started, budget) VALUES (?, ?)", (started, budget)
            )
            run = int(cursor.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO plan (run, position, page, queries) VALUES (?, ?, ?, ?)",
                [(run, n, page, queries) for n, (page, queries) in enumerate(plan)],
            )
        return run

    def plan(self, run: int) -> list[PlanEntry]:
        rows = self.db.execute(
            "SELECT position, page, queries, done FROM plan WHERE run=? ORDER BY position", (run,)
        )
        return [PlanEntry(r[0], r[1], r[2], bool(r[3])) for r in rows]

    def run_row(self, run: int) -> RunRow:
        row = self.db.execute(
            "SELECT id, started, finished, budget, sent, cached FROM runs WHERE id=?", (run,)
        ).fetchone()
        return RunRow(*row)

    def finish_run(self, run: int, finished: str) -> None:
        self.db.execute("UPDATE runs SET finished=? WHERE id=?", (finished, run))

    # ------------------------------------------------------------------ copies

    def copies(self, page_id: int | None = None, *, gone: bool = True) -> list[Copy]:
        """The copies of one page (or of all), gone ones too unless ``gone`` is False."""
        where = ["1=1"]
        args: list[object] = []
        if page_id is not None:
            where.append("c.page=?")
            args.append(page_id)
        if not gone:
            where.append("c.gone IS NULL")
        rows = self.db.execute(
            "SELECT p.url, c.url, c.share, c.kind, c.first_seen, c.last_seen, c.gone, c.spans "
            "FROM copies c JOIN pages p ON p.id=c.page "
            f"WHERE {' AND '.join(where)} ORDER BY p.id, c.share DESC, c.url",
            args,
        )
        return [Copy(r[0], r[1], r[2], r[3], r[4], r[5], r[6], stored_spans(r[7])) for r in rows]

    def page_checked(
        self, run: int, entry: PlanEntry, checked: str, copies: Sequence[Copy],
        changes: Sequence[Change], queries: tuple[int, int],
    ) -> None:  # fmt: skip
        """One page's check written at once: its copies, the changes, the plan entry done,
        the page's date and the run's ``queries`` (sent, cached)."""
        with self.transaction():
            for c in copies:
                self.db.execute(
                    "INSERT OR REPLACE INTO copies VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        entry.page_id,
                        c.url,
                        c.share,
                        c.kind,
                        c.first_seen,
                        c.last_seen,
                        c.gone,
                        json.dumps([list(span) for span in c.spans]),
                    ),
                )
            self.db.executemany(
                "INSERT INTO changes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (run, entry.page_id, c.url, c.change, c.share, c.previous, c.kind,
                     c.first_seen, c.last_seen)
                    for c in changes
                ],
            )  # fmt: skip
            self.db.execute(
                "UPDATE plan SET done=1 WHERE run=? AND position=?", (run, entry.position)
            )
            self.db.execute("UPDATE pages SET checked=? WHERE id=?", (checked, entry.page_id))
            self.db.execute(
                "UPDATE runs SET sent=sent+?, cached=cached+? WHERE id=?", (*queries, run)
            )

    def changes(self, run: int) -> list[Change]:
        rows = self.db.execute(
            "SELECT c.run, p.url, c.url, c.change, c.share, c.previous, c.kind, c.first_seen, "
            "c.last_seen FROM changes c JOIN pages p ON p.id=c.page WHERE c.run=? "
            "ORDER BY c.rowid",
            (run,),
        )
        return [Change(*r) for r in rows]
