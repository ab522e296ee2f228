"""A run of a watch → what people read: a standalone HTML report (``report.html``) and the text
of a mail, in the language of the command line (Russian or English).

The report is drawn as canon's other reports are (:mod:`canon.report.html`): Jinja with every
value autoescaped, the CSS of the pages inlined, nothing loaded from anywhere.  It shows the
run's summary, its changes, then each page with copies on the web and its copies (share, kind,
first and last seen).  Numbers, percents and dates are written by Babel's rules of the
language (``8,1 %``, ``2 320`` in Russian); counts take their plural form through
``ngettext``, from the pages' catalogs (``canon/web/locale``); the template is
``canon/web/templates/watch_report.html``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from .._version import __version__
from ..report.html import CSS, environment
from ..report.language import N_, catalog, percent
from ..report.model.numbers import grouped
from .records import CHANGES, Copy, RunReport
from .store import WatchStore

__all__ = [
    "PageCopies",
    "RunView",
    "Speech",
    "mail_text",
    "report_html",
    "run_view",
]

_FOOTER = N_(
    "share: the part of the page's characters the copy holds; copied: most of it word for "
    "word, rewritten: found only after canonicalization"
)
# Words a run's rows carry as data (a change, a kind), said in the reader's language.
_WORDS = (N_("new"), N_("grown"), N_("back"), N_("gone"), N_("copied"), N_("rewritten"))
_SIGNS = {"new": "+", "grown": "↑", "back": "+", "gone": "-"}
_LINKED = ("http://", "https://")


class Speech:
    """How ``locale`` says the figures of a run: messages, counts, percents, dates."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.translations = catalog(locale)

    def gettext(self, message: str, **figures: object) -> str:
        """``message`` in the language, ``figures`` put in."""
        said = self.translations.gettext(message)
        return said % figures if figures else said

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The plural form of ``n`` things (``%(num)s`` is ``n``, written as the language
        writes numbers)."""
        return self.translations.ngettext(singular, plural, n) % {"num": self.number(n)}

    def number(self, n: float) -> str:
        return grouped(n, locale=self.locale)

    def share(self, share: float | None) -> str:
        return "" if share is None else percent(share, self.locale)

    def date(self, iso: str, *, long: bool = False) -> str:
        """``2026-12-01 06:00`` in a table; ``1 December 2026, 06:00 UTC`` (``1 декабря 2026,
        06:00 UTC``) when ``long``."""
        if not iso:
            return ""
        when = datetime.fromisoformat(iso).astimezone(UTC)
        if not long:
            return when.strftime("%Y-%m-%d %H:%M")
        from babel.dates import format_datetime

        return f"{format_datetime(when, 'd MMMM y, HH:mm', tzinfo=UTC, locale=self.locale)} UTC"

    def counts(self, report: RunReport) -> str:
        """``1 new copy, 2 copies gone``, or ``no change``."""
        counted = report.counts()
        said = {
            "new": self.ngettext("%(num)s new copy", "%(num)s new copies", counted["new"]),
            "grown": self.ngettext("%(num)s copy grew", "%(num)s copies grew", counted["grown"]),
            "back": self.ngettext(
                "%(num)s copy is back", "%(num)s copies are back", counted["back"]
            ),
            "gone": self.ngettext("%(num)s copy gone", "%(num)s copies gone", counted["gone"]),
        }
        return ", ".join(said[k] for k in CHANGES if counted[k]) or self.gettext("no change")


@dataclass(frozen=True)
class PageCopies:
    """A watched page with copies on the web: its address, title and copies (the largest
    first)."""

    url: str
    title: str | None
    copies: tuple[Copy, ...]


@dataclass(frozen=True)
class RunView:
    """All a run's report shows: the watch's ``folder`` (its name), the run, the pages
    watched, and the pages with copies on the web now."""

    folder: str
    report: RunReport
    watched: int
    pages: tuple[PageCopies, ...]


def run_view(store: WatchStore, report: RunReport) -> RunView:
    """The view of ``report``, a run of the watch ``store`` holds, with its copies now."""
    pages = store.pages()
    titles = {page.url: page.title for _, page in pages}
    by_page: dict[str, list[Copy]] = {}
    for copy in store.copies(gone=False):
        by_page.setdefault(copy.page, []).append(copy)
    with_copies = tuple(
        PageCopies(url, titles.get(url), tuple(copies)) for url, copies in by_page.items()
    )
    folder = store.folder.resolve().name or str(store.folder)
    return RunView(folder, report, len(pages), with_copies)


# ------------------------------------------------------------------ HTML


_STYLE = """
h3.url,p.folder{overflow-wrap:anywhere}
table.w-table{width:100%;table-layout:fixed}
table.w-table th{text-align:left;vertical-align:bottom;overflow-wrap:anywhere}
table.w-table td{overflow-wrap:anywhere;white-space:normal}
col.w-change,col.w-kind{width:11%}col.w-page{width:19%}col.w-copy{width:23%}
col.w-share{width:8%}col.w-when{width:10%}
table.w-copies col.w-copy{width:44%}table.w-copies col.w-kind{width:12%}
table.w-copies col.w-share{width:10%}table.w-copies col.w-when{width:17%}
table.w-summary th{text-align:left;font-weight:normal}
td.w-change{font-weight:600}
td.w-change.new,td.w-change.grown,td.w-change.back{color:#a4001c}td.w-change.gone{color:#1e6b0c}
section.w-page{margin:1.2em 0}section.w-page h3{margin:.2em 0;font-size:1em}
"""


@cache
def _template() -> jinja2.Template:
    env = environment()
    env.globals.update(standalone=True, css=Markup(CSS.read_text("utf-8")), style=Markup(_STYLE))
    return env.get_template("watch_report.html")


def _row(say: Speech, copy: Any, change: str = "") -> dict[str, Any]:
    """A copy or a change → the strings of its table row."""
    gone = change == "gone"
    return {
        "change": change,
        "change_label": say.gettext(change) if change else "",
        "page": copy.page,
        "page_link": copy.page.startswith(_LINKED),
        "url": copy.url,
        "link": copy.url.startswith(_LINKED),
        "share": "—" if gone else say.share(copy.share),
        "before": say.share(getattr(copy, "previous", None)),
        "kind": say.gettext(copy.kind),
        "first_seen": say.date(copy.first_seen),
        "last_seen": say.date(copy.last_seen),
    }


def _queries(say: Speech, report: RunReport) -> str:
    sent, budget = say.number(report.sent), say.number(report.budget)
    if report.cached:
        return say.gettext(
            "%(sent)s of %(budget)s, %(cached)s from the cache",
            sent=sent, budget=budget, cached=say.number(report.cached),
        )  # fmt: skip
    return say.gettext("%(part)s of %(whole)s", part=sent, whole=budget)


def report_html(view: RunView, locale: str = "en", folder: Path | None = None) -> str:
    """The report of the run ``view`` shows, in ``locale``'s language; ``folder`` is the
    watch's folder as shown under the title (default: its name)."""
    say = Speech(locale)
    report = view.report
    pages = [
        {
            "url": page.url,
            "link": page.url.startswith(_LINKED),
            "title": page.title,
            "count": say.ngettext("%(num)s copy", "%(num)s copies", len(page.copies)),
            "rows": [_row(say, c) for c in page.copies],
        }
        for page in view.pages
    ]
    return _template().render(
        translations=say.translations,
        lang=locale,
        version=__version__,
        title=say.gettext(
            "canon watch: %(folder)s, run %(run)s", folder=view.folder, run=report.run
        ),
        path=str(folder) if folder is not None else view.folder,
        finished=say.date(report.finished, long=True),
        resumed=report.resumed,
        checked=say.number(report.checked),
        queries=_queries(say, report),
        counts=say.counts(report),
        copied=say.gettext(
            "%(part)s of %(whole)s",
            part=say.number(len(view.pages)),
            whole=say.number(view.watched),
        ),
        changes=[_row(say, c, c.change) for c in report.changes],
        pages=pages,
        footer=say.gettext(_FOOTER),
    )


# ------------------------------------------------------------------ mail


def _change_line(say: Speech, row: Mapping[str, Any]) -> str:
    was = say.gettext("was %(share)s", share=row["before"]) if row["before"] else ""
    if row["change"] == "gone":
        detail = f"({was})"
    else:
        detail = f"({row['share']}, {row['kind']}{'; ' + was if was else ''})"
    return f"{_SIGNS[row['change']]} {row['change_label']}: {row['page']} ← {row['url']} {detail}"


def mail_text(view: RunView, locale: str = "en") -> tuple[str, str]:
    """The subject and the plain text of the mail telling of the run ``view`` shows."""
    say = Speech(locale)
    report = view.report
    counts = say.counts(report)
    lines = [
        say.gettext(
            "Run %(run)s of the watch %(folder)s: %(counts)s",
            run=report.run,
            folder=view.folder,
            counts=counts,
        ),
        say.gettext("Finished: %(date)s", date=say.date(report.finished, long=True)),
        say.gettext(
            "Pages checked: %(pages)s; queries sent: %(queries)s",
            pages=say.number(report.checked),
            queries=_queries(say, report),
        ),
        "",
        *(_change_line(say, _row(say, c, c.change)) for c in report.changes),
        "",
        say.gettext("The full report is attached (report.html)."),
    ]
    subject = say.gettext("canon watch %(folder)s: %(counts)s", folder=view.folder, counts=counts)
    return subject, "\n".join(lines) + "\n"
