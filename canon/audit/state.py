"""A crawl in progress → rows beside the canon index in ``DIR/audit.db``, so it can resume.

The audit's file is a canon index (its ``documents`` hold each crawled page's main text and
shingles, so ``canon check --index`` and ``canon dedup --index`` work on it) with three tables
of the audit's own, which the index never reads:

- ``audit_meta``: ``key → value`` (JSON): the crawl's settings, the robots.txt of each site,
  whether the sitemaps were read.
- ``audit_urls``: every URL the crawl found (in order), its depth, how it was found (``start``,
  ``sitemap``, ``link``, ``redirect``) and from where, and whether it is done.
- ``audit_pages``: what each fetched (or refused) URL gave: status, final URL and redirect
  chain, content type, the head's facts, word counts, indexability and what the crawl found
  against the page (``reason``), the canonical form's hash,
  and the page's HTML compressed (so the content area can be changed without crawling again).

A page's rows are written after its document: a crawl killed in between fetches the page again
on resume and replaces the document, so the two never disagree.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ..index.connection import BUSY_TIMEOUT, reading, transaction

__all__ = ["PageRow", "Queued", "State"]

_DDL = """
CREATE TABLE IF NOT EXISTS audit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit_urls (
    seq INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    depth INTEGER NOT NULL,
    via TEXT NOT NULL,
    found_on TEXT,
    done INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS audit_pages (
    url TEXT PRIMARY KEY,
    status INTEGER NOT NULL,
    final_url TEXT,
    redirects TEXT NOT NULL,
    content_type TEXT,
    canonical TEXT,
    meta_robots TEXT NOT NULL,
    x_robots TEXT NOT NULL,
    title TEXT,
    h1 TEXT,
    description TEXT,
    main_words INTEGER NOT NULL,
    page_words INTEGER NOT NULL,
    indexable INTEGER NOT NULL,
    reason TEXT NOT NULL,
    canonical_hash TEXT,
    tries INTEGER NOT NULL,
    error TEXT,
    depth INTEGER NOT NULL,
    charset TEXT,
    html BLOB
);
"""


@dataclass(frozen=True)
class Queued:
    """A URL to fetch: how deep it is, how it was found and where."""

    url: str
    depth: int
    via: str
    found_on: str | None = None


@dataclass(frozen=True)
class PageRow:
    """What one URL gave.  ``status`` 0: not fetched (``reason`` says why: ``blocked`` by
    robots.txt, ``error``); else ``reason`` is what the crawl found first (``redirect``,
    ``status``, ``not-html``, ``error``: reading failed, ``noindex``, ``canonicalized``,
    ``no-text``), ``""`` for a page of text with nothing against it.  ``indexable`` says only
    what search engines are told (:mod:`.indexability`): a page without text is indexable."""

    url: str
    status: int
    final_url: str | None
    redirects: str  # JSON: [[url, status], ...]
    content_type: str | None
    canonical: str | None
    meta_robots: str
    x_robots: str
    title: str | None
    h1: str | None
    description: str | None
    main_words: int
    page_words: int
    indexable: bool
    reason: str
    canonical_hash: str | None
    tries: int
    error: str | None
    depth: int
    charset: str | None = None
    html: bytes | None = None

    @property
    def chain(self) -> list[tuple[str, int]]:
        return [(url, status) for url, status in json.loads(self.redirects)]


_COLUMNS = [f.name for f in fields(PageRow)]


class State:
    """The audit's own tables in an index file; one connection, writes in transactions."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        mode = "ro" if readonly else "rw"
        self._db = sqlite3.connect(
            f"{self.path.resolve().as_uri()}?mode={mode}",
            uri=True,
            isolation_level=None,
            timeout=BUSY_TIMEOUT,
        )
        with reading(self.path):
            if not readonly:
                self._db.execute("PRAGMA synchronous = NORMAL")
                with transaction(self._db, self.path):
                    for statement in _DDL.split(";"):
                        if statement.strip():
                            self._db.execute(statement)
            self._db.execute("PRAGMA trusted_schema = OFF")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> State:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ meta

    def get(self, key: str) -> Any:
        with reading(self.path):
            row = self._db.execute("SELECT value FROM audit_meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: Any) -> None:
        with transaction(self._db, self.path):
            self._db.execute(
                "INSERT OR REPLACE INTO audit_meta VALUES (?, ?)",
                (key, json.dumps(value, ensure_ascii=False)),
            )

    # ------------------------------------------------------------------ URLs

    def known(self) -> set[str]:
        with reading(self.path):
            return {row[0] for row in self._db.execute("SELECT url FROM audit_urls")}

    def pending(self) -> list[Queued]:
        """The URLs found but not done yet, in the order they were found."""
        with reading(self.path):
            rows = self._db.execute(
                "SELECT url, depth, via, found_on FROM audit_urls WHERE done = 0 ORDER BY seq"
            ).fetchall()
        return [Queued(*row) for row in rows]

    def done_count(self) -> int:
        with reading(self.path):
            return int(self._db.execute("SELECT count(*) FROM audit_pages").fetchone()[0])

    def record(self, found: Sequence[Queued], pages: Sequence[PageRow]) -> None:
        """In one transaction: URLs newly found, and pages done."""
        with transaction(self._db, self.path):
            self._db.executemany(
                "INSERT OR IGNORE INTO audit_urls (url, depth, via, found_on) VALUES (?,?,?,?)",
                [(q.url, q.depth, q.via, q.found_on) for q in found],
            )
            marks = ",".join("?" * len(_COLUMNS))
            self._db.executemany(
                f"INSERT OR REPLACE INTO audit_pages ({','.join(_COLUMNS)}) VALUES ({marks})",
                [tuple(asdict(p).values()) for p in pages],
            )
            self._db.executemany(
                "UPDATE audit_urls SET done = 1 WHERE url = ?", [(p.url,) for p in pages]
            )

    # ------------------------------------------------------------------ pages

    def pages(self, with_html: bool = False) -> Iterator[PageRow]:
        """Every page done, in the order its URL was found."""
        wanted = _COLUMNS if with_html else [c for c in _COLUMNS if c != "html"]
        columns = ",".join(f"p.{c}" for c in wanted)
        with reading(self.path):
            rows = self._db.execute(
                f"SELECT {columns} FROM audit_pages p LEFT JOIN audit_urls u ON u.url = p.url "
                "ORDER BY coalesce(u.seq, 1e18), p.url"
            ).fetchall()
        for row in rows:
            values = dict(zip(wanted, row))
            values["indexable"] = bool(values["indexable"])
            yield PageRow(**values)

    def update_texts(self, rows: Iterable[PageRow]) -> None:
        """Replace the facts of pages read again (a new content area)."""
        self.record([], list(rows))
