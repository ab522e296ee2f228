"""Findings → the files of an audit: ``pages.csv``, ``clusters.jsonl``, ``pages.xlsx``, and
``changes.csv`` when the audit has a last one to be compared with.

``pages.csv`` has one row per URL with the columns of :data:`~.analysis.COLUMNS`, in that
order; a cell a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@``, a tab or a
carriage return first) is prefixed with ``'``; so is ``changes.csv``, one row per change of a
URL (:data:`~.changes.CHANGE_COLUMNS`).  ``clusters.jsonl`` has one near-duplicate
cluster a line; ``pages.xlsx`` (XlsxWriter) the same pages and clusters and one sheet per
finding: exact duplicates, thin pages, contained pages, shared titles, H1s and descriptions,
pages that are not indexable (and why), pages that answered without a main text (and what they
are), and the changes since the last audit when there was one, text written as strings, never
as formulas.  Each file is written to a temporary name and renamed, so a reader never sees half
of one.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..files import replacing
from .analysis import COLUMNS, Findings, PageFinding
from .changes import CHANGE_COLUMNS, Changes

__all__ = ["SHEETS", "inert", "write_changes", "write_clusters", "write_csv", "write_xlsx"]


def _cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return round(value, 6)
    return "" if value is None else value


def page_values(page: PageFinding) -> list[Any]:
    """A page's cells; the status of a URL never fetched (refused by robots.txt, no answer)
    is empty."""
    values = [_cell(getattr(page, column)) for column in COLUMNS]
    values[COLUMNS.index("status")] = page.status or ""
    return values


# A cell starting with one of these is a formula to a spreadsheet that opens the CSV.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(value: Any) -> Any:
    """A CSV cell no spreadsheet runs: text that would start a formula gets a leading ``'``
    (a page's title, H1 or URL is the site's text, not ours)."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(path: Path, findings: Findings) -> None:
    with replacing(path) as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for page in findings.pages:
            writer.writerow([inert(v) for v in page_values(page)])


def write_changes(path: Path, changes: Changes) -> None:
    with replacing(path) as out:
        writer = csv.writer(out)
        writer.writerow(CHANGE_COLUMNS)
        for change in changes.changes:
            writer.writerow([inert(_cell(v)) for v in change.values()])


def write_clusters(path: Path, findings: Findings) -> None:
    with replacing(path) as out:
        for cluster in findings.clusters:
            out.write(json.dumps(cluster.to_dict(), ensure_ascii=False) + "\n")


def _cells(*values: Any) -> list[Any]:
    return [_cell(v) for v in values]


def _groups(groups: dict[str, tuple[str, ...]]) -> list[list[Any]]:
    return [[value, len(urls), url] for value, urls in groups.items() for url in urls]


Sheet = tuple[str, Sequence[str], Callable[[Findings], list[list[Any]]]]
SHEETS: tuple[Sheet, ...] = (
    ("Pages", COLUMNS, lambda f: [page_values(p) for p in f.pages]),
    (
        "Clusters",
        ("cluster", "size", "representative", "url", "similarity_to_representative"),
        lambda f: [
            [c.number, len(c.members), c.representative, url, _to(c, url)]
            for c in f.clusters
            for url in c.members
        ],
    ),
    (
        "Exact duplicates",
        ("group", "url", "first_url"),
        lambda f: [[n, url, g[0]] for n, g in enumerate(f.exact_groups, 1) for url in g],
    ),
    (
        "Contained",
        ("url", "contained_in", "containment", "words"),
        lambda f: [[p.url, p.contained_in, p.contained_share, p.words] for p in f.contained],
    ),
    (
        "Thin",
        ("url", "words", "template_share"),
        lambda f: [[p.url, p.words, _cell(p.template_share)] for p in f.thin],
    ),
    ("Same titles", ("title", "pages", "url"), lambda f: _groups(f.same_titles)),
    ("Same H1", ("h1", "pages", "url"), lambda f: _groups(f.same_h1)),
    ("Same descriptions", ("description", "pages", "url"), lambda f: _groups(f.same_descriptions)),
    (
        "Not indexable",
        ("url", "status", "not_indexable_reason", "canonical", "final_url", "error"),
        lambda f: [
            [p.url, p.status, p.not_indexable_reason, *_cells(p.canonical, p.final_url, p.error)]
            for p in f.pages
            if not p.indexable
        ],
    ),
    (
        "No main text",
        ("url", "status", "indexable", "text", "page_words", "error"),
        lambda f: [
            [p.url, p.status, _cell(p.indexable), p.text, p.page_words, _cell(p.error)]
            for p in f.pages
            if p.text not in ("", "main")
        ],
    ),
)


def _to(cluster: Any, url: str) -> Any:
    if url == cluster.representative:
        return 1.0
    for a, b, j in cluster.pairs:
        if {a, b} == {url, cluster.representative}:
            return round(j, 6)
    return ""


def _write(sheet: Any, row: int, column: int, value: Any) -> None:
    """Text as a string cell, never a formula, whatever it starts with; numbers as numbers."""
    if isinstance(value, str):
        sheet.write_string(row, column, value)
    else:
        sheet.write(row, column, value)


def _sheet(book: Any, bold: Any, name: str, header: Sequence[str], rows: list[list[Any]]) -> None:
    sheet = book.add_worksheet(name)
    sheet.write_row(0, 0, header, bold)
    for number, row in enumerate(rows, 1):
        for column, value in enumerate(row):
            _write(sheet, number, column, _cell(value))
    sheet.autofilter(0, 0, max(len(rows), 1), len(header) - 1)
    sheet.freeze_panes(1, 0)
    sheet.set_column(0, 0, 60)


def write_xlsx(path: Path, findings: Findings, changes: Changes | None = None) -> None:
    """The sheets of :data:`SHEETS`, then ``Changes`` when there are ``changes`` to show."""
    import xlsxwriter

    with replacing(path, "wb") as out:
        book = xlsxwriter.Workbook(out, {"strings_to_urls": False, "strings_to_formulas": False})
        bold = book.add_format({"bold": True})
        for name, header, rows_of in SHEETS:
            _sheet(book, bold, name, header, rows_of(findings))
        if changes is not None:
            _sheet(book, bold, "Changes", CHANGE_COLUMNS, [c.values() for c in changes.changes])
        book.close()
