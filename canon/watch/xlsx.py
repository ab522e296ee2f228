"""A run of a watch → ``changes.xlsx``: a sheet of the run's changes and a sheet of every copy on
the web now, as canon's other tables are written (XlsxWriter, from the ``audit`` extra).

Each sheet has its header row bold and frozen, a filter on every column, the shares as
percents, the dates as dates (UTC) and the addresses as links; text is always a string cell,
never a formula.  The headers, the changes and the kinds speak the report's language.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from datetime import UTC, datetime
from io import BytesIO
from typing import Any

from ..report.language import N_
from .records import Change, Copy
from .report import RunView, Speech

__all__ = ["CHANGE_HEADERS", "COPY_HEADERS", "changes_xlsx", "xlsx_available"]

CHANGE_HEADERS = (
    N_("Run"), N_("Page"), N_("Copy"), N_("Change"), N_("Share"), N_("Before"), N_("Kind"),
    N_("First seen"), N_("Last seen"),
)  # fmt: skip
COPY_HEADERS = ("Page", "Copy", "Share", "Kind", "First seen", "Last seen")  # of CHANGE_HEADERS
_WIDTHS = {"Run": 7, "Page": 50, "Copy": 60, "Change": 12, "Share": 9, "Before": 9, "Kind": 13,
           "First seen": 18, "Last seen": 18}  # fmt: skip
_DATES = ("First seen", "Last seen")
_MAX_URL = 2079  # the longest address a cell may link to
_MAX_LINKS = 65_530  # links one sheet may hold


def xlsx_available() -> bool:
    """Whether XlsxWriter (the ``audit`` extra) is installed."""
    try:
        return importlib.util.find_spec("xlsxwriter") is not None
    except (ImportError, ValueError):  # a finder that refuses it; a module set to None
        return False


class _Sheet:
    """One sheet being written: its formats, and the links it holds so far."""

    def __init__(self, book: Any, name: str, headers: Sequence[str], say: Speech) -> None:
        self.sheet = book.add_worksheet(name)
        self.say = say
        self.links = 0
        self.percent = book.add_format({"num_format": "0.0%"})
        self.date = book.add_format({"num_format": "yyyy-mm-dd hh:mm"})
        self.link = book.get_default_url_format()
        bold = book.add_format({"bold": True})
        for column, header in enumerate(headers):
            shown = say.gettext(header) + (" (UTC)" if header in _DATES else "")
            self.sheet.write_string(0, column, shown, bold)
            self.sheet.set_column(column, column, _WIDTHS[header])
        self.headers = headers

    def row(self, number: int, values: Sequence[Any]) -> None:
        for column, (header, value) in enumerate(zip(self.headers, values)):
            self._cell(number, column, header, value)

    def _cell(self, row: int, column: int, header: str, value: Any) -> None:
        sheet = self.sheet
        if value is None or value == "":
            sheet.write_blank(row, column, None)
        elif header in ("Share", "Before"):
            sheet.write_number(row, column, value, self.percent)
        elif header in _DATES:
            when = datetime.fromisoformat(value).astimezone(UTC).replace(tzinfo=None)
            sheet.write_datetime(row, column, when, self.date)
        elif header in ("Change", "Kind"):
            sheet.write_string(row, column, self.say.gettext(value))
        elif isinstance(value, str) and self._linked(value):
            sheet.write_url(row, column, value, self.link, string=value)
            self.links += 1
        elif isinstance(value, str):
            sheet.write_string(row, column, value)
        else:
            sheet.write_number(row, column, value)

    def _linked(self, value: str) -> bool:
        return (
            value.startswith(("http://", "https://"))
            and len(value) <= _MAX_URL
            and self.links < _MAX_LINKS
        )

    def close(self, rows: int) -> None:
        self.sheet.autofilter(0, 0, max(rows, 1), len(self.headers) - 1)
        self.sheet.freeze_panes(1, 0)


def _change_values(c: Change) -> tuple[Any, ...]:
    return (
        c.run, c.page, c.url, c.change, c.share, c.previous, c.kind, c.first_seen, c.last_seen,
    )  # fmt: skip


def _copy_values(c: Copy) -> tuple[Any, ...]:
    return (c.page, c.url, c.share, c.kind, c.first_seen, c.last_seen)


def changes_xlsx(view: RunView, locale: str = "en") -> bytes:
    """The workbook of the run ``view`` shows, in ``locale``'s language: its changes (one a
    row), then every copy on the web now, page by page."""
    import xlsxwriter

    say = Speech(locale)
    out = BytesIO()
    options = {
        "in_memory": True,
        "strings_to_urls": False,
        "strings_to_formulas": False,
        "strings_to_numbers": False,
    }
    book = xlsxwriter.Workbook(out, options)
    changes = _Sheet(book, say.gettext("Changes"), CHANGE_HEADERS, say)
    for number, change in enumerate(view.report.changes, 1):
        changes.row(number, _change_values(change))
    changes.close(len(view.report.changes))
    copies = _Sheet(book, say.gettext("Copies"), COPY_HEADERS, say)
    number = 0
    for page in view.pages:
        for copy in page.copies:
            number += 1
            copies.row(number, _copy_values(copy))
    copies.close(number)
    book.close()
    return out.getvalue()
