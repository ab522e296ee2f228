"""An audit's pages → the grid its page shows: one filter, one order, a hundred rows at a time.

The rows are the audit's status file's ``pages``: a list of cells per page, in the order of its
``columns`` (those of ``pages.csv``, kept as they are there).  A request names what it wants in
its query (``?show=thin&sort=words&dir=desc&page=2``); :func:`grid` filters, sorts and cuts the
rows on the server, so a page of 10,000 rows is drawn as fast as one of 100 and needs no script.
Each cell is said for a person: a label for a code (``да``, ``закрыто в robots.txt``), a
count grouped as the command line groups it (:func:`~canon.report.model.numbers.grouped`), a
share to three decimals, a URL of the audited site by its path (the whole URL in its title and
link).  The filters count what the audit's summary counts, so a figure and its filter agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from gettext import NullTranslations
from typing import Any
from urllib.parse import urlencode, urlsplit

from ..audit import Analysis
from ..report.model.numbers import grouped
from .service import N_

__all__ = [
    "COLUMN_LABELS",
    "FILTERS",
    "ROWS_PER_PAGE",
    "SUMMARY_FILTERS",
    "Cell",
    "Choice",
    "Grid",
    "GridQuery",
    "Header",
    "PageLink",
    "grid",
]

ROWS_PER_PAGE = 100

# How the page names each column of pages.csv, and how its cells read and sort.
COLUMN_LABELS = {
    "url": N_("address"),
    "status": N_("status"),
    "indexable": N_("indexing"),
    "not_indexable_reason": N_("why not indexable"),
    "canonical": N_("canonical URL"),
    "title": N_("page title"),
    "text": N_("main text"),
    "words": N_("words"),
    "closest_url": N_("closest page"),
    "closest_similarity": N_("similarity to the closest"),
    "near_duplicates": N_("near duplicates"),
    "exact_duplicate_of": N_("exact copy of"),
    "cluster": N_("cluster"),
    "containment_max": N_("share inside another page"),
}
_KINDS = {
    "url": "url", "canonical": "url", "closest_url": "url", "exact_duplicate_of": "url",
    "title": "prose", "status": "code", "cluster": "code", "indexable": "flag",
    "not_indexable_reason": "reason", "text": "content", "words": "count",
    "near_duplicates": "count", "closest_similarity": "share", "containment_max": "share",
}  # fmt: skip
# Why a page is not indexable (canon.audit.indexability.REASONS), and what its text is (TEXTS).
_REASON_LABELS = {
    "blocked": N_("blocked by robots.txt"),
    "error": N_("no answer"),
    "redirect": N_("redirect"),
    "status": N_("status other than 200"),
    "noindex": N_("noindex"),
    "canonicalized": N_("canonical elsewhere"),
}
_TEXT_LABELS = {
    "main": N_("yes"),
    "no-text": N_("no"),
    "not-html": N_("not HTML"),
    "unreadable": N_("unreadable"),
}
_FLAG_LABELS = {"true": N_("yes"), "false": N_("no")}

# The questions the grid answers, each a filter of the rows.
FILTERS = {
    "all": N_("All"),
    "exact": N_("Exact duplicates"),
    "near": N_("Near duplicates"),
    "thin": N_("Thin pages"),
    "not-indexable": N_("Not indexable"),
    "errors": N_("Errors (4xx, 5xx, no answer)"),
    "canonicalized": N_("Canonical elsewhere"),
    "no-text": N_("No main text"),
}
# The figures of the summary that a filter lists, by the summary's keys.
SUMMARY_FILTERS = {
    "pages": "all",
    "exact_duplicates": "exact",
    "near_duplicate_clusters": "near",
    "pages_in_clusters": "near",
    "thin": "thin",
    "not_indexable": "not-indexable",
    "no_text": "no-text",
    "errors": "errors",
}

Row = Mapping[str, Any]


@dataclass(frozen=True)
class GridQuery:
    """What a request asks of the grid: a filter, a column to sort by (None: the crawl's order)
    and which way, a page of rows; and the language to keep on its links (None: none asked)."""

    show: str = "all"
    sort: str | None = None
    descending: bool = False
    page: int = 1
    lang: str | None = None

    @classmethod
    def of(cls, params: Mapping[str, str], lang: str | None = None) -> GridQuery:
        """The query of a request; a value the grid does not know is left at its default."""
        sort = params.get("sort")
        page = params.get("page", "")
        return cls(
            show=params.get("show", "all") if params.get("show") in FILTERS else "all",
            sort=sort if sort in COLUMN_LABELS else None,
            descending=params.get("dir") == "desc",
            page=int(page) if page.isdigit() and 0 < len(page) < 7 else 1,
            lang=lang,
        )

    def link(self, **changes: Any) -> str:
        """The query of this grid with ``changes`` (``?show=thin&page=2#pages``); a default
        is left out."""
        asked = replace(self, **changes)
        params = {
            "show": asked.show if asked.show != "all" else None,
            "sort": asked.sort,
            "dir": "desc" if asked.sort and asked.descending else None,
            "page": str(asked.page) if asked.page > 1 else None,
            "lang": asked.lang,
        }
        query = urlencode({name: value for name, value in params.items() if value})
        return f"?{query}#pages" if query else "?#pages"


@dataclass(frozen=True)
class Cell:
    """One cell as it reads: its ``text``, the whole value when the text may be cut
    (``title``), a link, and its kind (the column's width and alignment)."""

    text: str
    kind: str
    title: str = ""
    href: str = ""


@dataclass(frozen=True)
class Header:
    """A column's header: its name in pages.csv, its label (an msgid), its kind, the link
    that sorts by it and how the grid is sorted by it now (``aria-sort``: None when not)."""

    name: str
    label: str
    kind: str
    link: str
    sorted: str | None


@dataclass(frozen=True)
class Choice:
    """A filter: its label (an msgid), how many rows it lists, its link, whether it is on."""

    name: str
    label: str
    count: int
    link: str
    current: bool


@dataclass(frozen=True)
class PageLink:
    """A link to a page of rows (``number`` None: a gap in the numbers)."""

    number: int | None
    link: str
    current: bool


@dataclass(frozen=True)
class Grid:
    """One page of rows of the grid, with what leads to the others."""

    headers: tuple[Header, ...]
    rows: tuple[tuple[Cell, ...], ...]
    choices: tuple[Choice, ...]
    pages: tuple[PageLink, ...]
    page: int
    page_count: int
    first: int  # the rows shown, counted from 1 (0, 0 when none)
    last: int
    total: int  # the rows the filter lists
    previous: str  # links to the page before and after ("" on the first, the last)
    following: str
    by_cluster: str  # a link to the near duplicates, cluster by cluster

    def choice(self, name: str) -> Choice:
        """The filter ``name``."""
        return next(choice for choice in self.choices if choice.name == name)


def _number(value: Any) -> float | None:
    if value in ("", None):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _failed(row: Row) -> bool:
    """No answer, an error status (4xx, 5xx), or a page that could not be read (as the
    audit's summary counts its errors)."""
    status = _number(row.get("status"))
    unanswered = row.get("not_indexable_reason") == "error"
    return unanswered or (status or 0) >= 400 or row.get("text") == "unreadable"


def _thin_urls(status: Mapping[str, Any], rows: Sequence[Row]) -> frozenset[str]:
    """The thin pages: as the status file lists them, else the indexable pages with a main text
    shorter than the audit's least words."""
    listed = status.get("thin")
    if isinstance(listed, list):
        return frozenset(listed)
    return frozenset(
        row["url"] for row in rows
        if row.get("indexable") == "true" and row.get("text") == "main"
        and (_number(row.get("words")) or 0) < Analysis().min_words
    )  # fmt: skip


def _tests(thin: frozenset[str]) -> dict[str, Callable[[Row], bool]]:
    return {
        "all": lambda row: True,
        "exact": lambda row: bool(row.get("exact_duplicate_of")),
        "near": lambda row: row.get("cluster") not in ("", None),
        "thin": lambda row: row.get("url") in thin,
        "not-indexable": lambda row: bool(row.get("status")) and row.get("indexable") == "false",
        "errors": _failed,
        "canonicalized": lambda row: row.get("not_indexable_reason") == "canonicalized",
        "no-text": lambda row: row.get("text") == "no-text",
    }


def _sort_key(kind: str, value: Any) -> tuple[int, Any]:
    """Numbers as numbers (a cell that is none, after them), texts without case."""
    if kind in ("code", "count", "share"):
        number = _number(value)
        return (0, number) if number is not None else (1, 0)
    return (0, str(value).casefold())


def _sorted(rows: list[Row], query: GridQuery) -> list[Row]:
    """The rows by the query's column, either way, those without a value last."""
    column = query.sort
    if column is None:
        return rows
    kind = _KINDS[column]
    filled = [row for row in rows if row.get(column) not in ("", None)]
    empty = [row for row in rows if row.get(column) in ("", None)]
    ordered = sorted(filled, key=lambda row: _sort_key(kind, row[column]),
                     reverse=query.descending)  # fmt: skip
    return ordered + empty


def _shown_url(url: str, origin: str) -> str:
    """A URL of the audited site by its path; another site's whole."""
    if origin and url.startswith(origin + "/"):
        return url[len(origin) :]
    return url


def _cell(kind: str, value: Any, t: NullTranslations, locale: str, origin: str) -> Cell:
    """A value as the grid shows it in ``locale``."""
    if value in ("", None):
        return Cell("", kind)
    if kind == "url":
        return Cell(_shown_url(str(value), origin), kind, str(value), str(value))
    labels = {"flag": _FLAG_LABELS, "reason": _REASON_LABELS, "content": _TEXT_LABELS}.get(kind)
    if labels is not None:
        said = t.gettext(labels.get(str(value), str(value)))
        return Cell(said, kind, said if kind == "reason" else "")
    number = _number(value)
    if kind == "count" and number is not None:
        return Cell(grouped(number, locale=locale), kind)
    if kind == "share" and number is not None:
        return Cell(grouped(number, 3, locale), kind)
    return Cell(str(value), kind, str(value) if kind == "prose" else "")


def _headers(columns: Sequence[str], query: GridQuery) -> tuple[Header, ...]:
    headers = []
    for name in columns:
        now = query.sort == name
        sorted_now = ("descending" if query.descending else "ascending") if now else None
        link = query.link(sort=name, descending=now and not query.descending, page=1)
        headers.append(Header(name, COLUMN_LABELS.get(name, name), _KINDS.get(name, "prose"),
                              link, sorted_now))  # fmt: skip
    return tuple(headers)


def _page_links(page: int, count: int, query: GridQuery) -> tuple[PageLink, ...]:
    """The first and last pages, and two on each side of this one; a gap between."""
    wanted = sorted({1, count, *range(page - 2, page + 3)} & set(range(1, count + 1)))
    links: list[PageLink] = []
    for number in wanted:
        if links and links[-1].number is not None and number - links[-1].number > 1:
            links.append(PageLink(None, "", False))
        links.append(PageLink(number, query.link(page=number), number == page))
    return tuple(links) if count > 1 else ()


def _origin(status: Mapping[str, Any]) -> str:
    """The scheme and host of the audit's start (``https://shop.example``), or ""."""
    start = urlsplit(str(status.get("start", "")))
    return f"{start.scheme}://{start.netloc}" if start.scheme and start.netloc else ""


def _choices(
    rows: Sequence[Row], tests: Mapping[str, Callable[[Row], bool]], query: GridQuery
) -> tuple[Choice, ...]:
    return tuple(
        Choice(name, label, sum(1 for row in rows if tests[name](row)),
               query.link(show=name, page=1), name == query.show)
        for name, label in FILTERS.items()
    )  # fmt: skip


def _cells(
    rows: Sequence[Row], columns: Sequence[str], t: NullTranslations, locale: str, origin: str
) -> tuple[tuple[Cell, ...], ...]:
    kinds = [_KINDS.get(name, "prose") for name in columns]
    return tuple(
        tuple(_cell(kind, row.get(name), t, locale, origin) for name, kind in zip(columns, kinds))
        for row in rows
    )


def grid(status: Mapping[str, Any], query: GridQuery, t: NullTranslations, locale: str) -> Grid:
    """The page of rows of the audit ``status`` that ``query`` asks for, said in ``locale``."""
    columns = list(status.get("columns") or COLUMN_LABELS)
    rows = [dict(zip(columns, values, strict=False)) for values in status.get("pages") or ()]
    tests = _tests(_thin_urls(status, rows))
    listed = _sorted([row for row in rows if tests[query.show](row)], query)
    count = max(1, math.ceil(len(listed) / ROWS_PER_PAGE))
    page = min(query.page, count)
    shown = listed[(page - 1) * ROWS_PER_PAGE : page * ROWS_PER_PAGE]
    first = (page - 1) * ROWS_PER_PAGE + 1 if shown else 0
    return Grid(
        _headers(columns, query), _cells(shown, columns, t, locale, _origin(status)),
        _choices(rows, tests, query), _page_links(page, count, query), page, count,
        first, first + len(shown) - 1 if shown else 0, len(listed),
        query.link(page=page - 1) if page > 1 else "",
        query.link(page=page + 1) if page < count else "",
        query.link(show="near", sort="cluster", descending=False, page=1),
    )  # fmt: skip
