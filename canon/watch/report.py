"""A run of a watch → what people read: a standalone HTML report (``report.html``) and the text
of a mail, in the language of the command line (Russian or English).

The report is drawn as canon's other reports are (:mod:`canon.report.html`): Jinja with every
value autoescaped, the CSS of the pages inlined, nothing loaded from anywhere.  It shows the
run's summary, its changes, then each page with copies on the web and its copies (share, kind,
first and last seen).  Numbers, percents and dates are written by Babel's rules of the
language (``8,1 %``, ``2 320`` in Russian); counts take their plural form through
``ngettext``.  The Russian of these messages is kept here (:data:`RUSSIAN`), compiled by Babel
like the pages' catalog and falling back on it.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from .._version import __version__
from ..report.html import CSS, environment
from ..report.language import LOCALES, catalog, percent
from ..report.model.numbers import grouped
from .records import CHANGES, Copy, RunReport
from .store import WatchStore

__all__ = [
    "RUSSIAN",
    "PageCopies",
    "RunView",
    "Speech",
    "mail_text",
    "report_html",
    "run_view",
    "translations",
]

# Each message of the watch's report, sheets and mail → its Russian; a plural message is its
# two English forms → the three Russian ones (one, few, many).
RUSSIAN: Mapping[str | tuple[str, str], str | tuple[str, str, str]] = {
    "canon watch: %(folder)s, run %(run)s": "canon watch: %(folder)s, прогон %(run)s",
    "Summary": "Сводка",
    "Finished": "Завершён",
    "Pages checked": "Проверено страниц",
    "Queries sent": "Отправлено запросов",
    "Changes": "Изменения",
    "Copies": "Копии",
    "Pages with copies": "Страниц с копиями",
    "%(part)s of %(whole)s": "%(part)s из %(whole)s",
    "%(sent)s of %(budget)s, %(cached)s from the cache": (
        "%(sent)s из %(budget)s, из кэша: %(cached)s"
    ),
    "taken up where it stopped": "продолжен с места остановки",
    "no change": "изменений нет",
    "Changes since the last run": "Изменения с прошлого прогона",
    "Copies on the web": "Копии в сети",
    "No page of the watch has copies on the web.": "Копий страниц в сети не найдено.",
    "Run": "Прогон",
    "Change": "Изменение",
    "Page": "Страница",
    "Copy": "Копия",
    "Share": "Доля",
    "Before": "Было",
    "Kind": "Вид",
    "First seen": "Впервые найдена",
    "Last seen": "Последний раз найдена",
    "new": "новая",
    "grown": "выросла",
    "back": "вернулась",
    "gone": "пропала",
    "copied": "скопировано",
    "rewritten": "рерайт",
    "was %(share)s": "было %(share)s",
    "share: the part of the page's characters the copy holds; copied: most of it word for "
    "word, rewritten: found only after canonicalization": (
        "доля — часть символов страницы, которая есть в копии; скопировано — в основном "
        "дословно, рерайт — найдено только после канонизации"
    ),
    "Run %(run)s of the watch %(folder)s: %(counts)s": (
        "Прогон %(run)s мониторинга %(folder)s: %(counts)s"
    ),
    "Finished: %(date)s": "Завершён: %(date)s",
    "Pages checked: %(pages)s; queries sent: %(queries)s": (
        "Проверено страниц: %(pages)s; отправлено запросов: %(queries)s"
    ),
    "The full report is attached (report.html).": "Полный отчёт — во вложении (report.html).",
    "canon watch %(folder)s: %(counts)s": "canon watch %(folder)s: %(counts)s",
    ("%(num)s new copy", "%(num)s new copies"): (
        "%(num)s новая копия", "%(num)s новые копии", "%(num)s новых копий",
    ),
    ("%(num)s copy grew", "%(num)s copies grew"): (
        "%(num)s копия выросла", "%(num)s копии выросли", "%(num)s копий выросло",
    ),
    ("%(num)s copy is back", "%(num)s copies are back"): (
        "%(num)s копия вернулась", "%(num)s копии вернулись", "%(num)s копий вернулось",
    ),
    ("%(num)s copy gone", "%(num)s copies gone"): (
        "%(num)s копия пропала", "%(num)s копии пропали", "%(num)s копий пропало",
    ),
    ("%(num)s copy", "%(num)s copies"): ("%(num)s копия", "%(num)s копии", "%(num)s копий"),
}  # fmt: skip

_COUNTS = {
    "new": ("%(num)s new copy", "%(num)s new copies"),
    "grown": ("%(num)s copy grew", "%(num)s copies grew"),
    "back": ("%(num)s copy is back", "%(num)s copies are back"),
    "gone": ("%(num)s copy gone", "%(num)s copies gone"),
}
_FOOTER = (
    "share: the part of the page's characters the copy holds; copied: most of it word for "
    "word, rewritten: found only after canonicalization"
)
_SIGNS = {"new": "+", "grown": "↑", "back": "+", "gone": "-"}
_LINKED = ("http://", "https://")


@cache
def translations(locale: str) -> gettext.NullTranslations:
    """The messages of the watch's outputs in ``locale`` (``en``: as written), the pages'
    catalog behind them."""
    if locale not in LOCALES:
        raise ValueError(f"no such language: {locale!r}")
    if locale == "en":
        return gettext.NullTranslations()
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    messages = Catalog(locale=locale)
    for msgid, string in RUSSIAN.items():
        messages.add(msgid, string)
    compiled = BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    found = Translations(compiled)
    found.add_fallback(catalog(locale))
    return found


class Speech:
    """How ``locale`` says the figures of a run: messages, counts, percents, dates."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.translations = translations(locale)

    def __call__(self, message: str, **figures: object) -> str:
        said = self.translations.gettext(message)
        return said % figures if figures else said

    def plural(self, forms: tuple[str, str], n: int) -> str:
        return self.translations.ngettext(forms[0], forms[1], n) % {"num": self.number(n)}

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
        said = [self.plural(_COUNTS[kind], counted[kind]) for kind in CHANGES if counted[kind]]
        return ", ".join(said) or self("no change")


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

_TEMPLATE = """<!doctype html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>{{ css }}{{ style }}</style>
</head>
<body>
<main>
{% macro address(url, link) %}
{% if link %}<a href="{{ url }}" rel="nofollow noopener noreferrer">{{ url }}</a>
{% else %}{{ url }}{% endif %}
{% endmacro %}
<h1>{{ title }}</h1>
<p class="muted folder">{{ path }}</p>
<h2>{{ _("Summary") }}</h2>
<table class="w-summary">
  <tr><th>{{ _("Finished") }}</th><td>{{ finished }}
    {%- if resumed %} ({{ _("taken up where it stopped") }}){% endif %}</td></tr>
  <tr><th>{{ _("Pages checked") }}</th><td>{{ checked }}</td></tr>
  <tr><th>{{ _("Queries sent") }}</th><td>{{ queries }}</td></tr>
  <tr><th>{{ _("Changes") }}</th><td id="counts">{{ counts }}</td></tr>
  <tr><th>{{ _("Pages with copies") }}</th><td>{{ copied }}</td></tr>
</table>
<h2 id="changes">{{ _("Changes since the last run") }}</h2>
{% if changes %}
<table class="w-table w-changes">
  <colgroup><col class="w-change"><col class="w-page"><col class="w-copy"><col class="w-share">
    <col class="w-share"><col class="w-kind"><col class="w-when"><col class="w-when"></colgroup>
  <tr>
    <th>{{ _("Change") }}</th><th class="url">{{ _("Page") }}</th>
    <th class="url">{{ _("Copy") }}</th><th>{{ _("Share") }}</th><th>{{ _("Before") }}</th>
    <th>{{ _("Kind") }}</th><th>{{ _("First seen") }}</th><th>{{ _("Last seen") }}</th>
  </tr>
  {% for row in changes %}
  <tr>
    <td class="w-change {{ row.change }}">{{ row.change_label }}</td>
    <td class="url">{{ address(row.page, row.page_link) }}</td>
    <td class="url">{{ address(row.url, row.link) }}</td>
    <td class="num">{{ row.share }}</td><td class="num">{{ row.before }}</td>
    <td>{{ row.kind }}</td>
    <td class="w-when">{{ row.first_seen }}</td><td class="w-when">{{ row.last_seen }}</td>
  </tr>
  {% endfor %}
</table>
{% else %}
<p class="muted">{{ _("no change") }}</p>
{% endif %}
<h2 id="copies">{{ _("Copies on the web") }}</h2>
{% for page in pages %}
<section class="w-page">
<h3 class="url">{{ address(page.url, page.link) }}</h3>
<p class="muted">{% if page.title %}{{ page.title }} · {% endif %}{{ page.count }}</p>
<table class="w-table w-copies">
  <colgroup><col class="w-copy"><col class="w-share"><col class="w-kind"><col class="w-when">
    <col class="w-when"></colgroup>
  <tr>
    <th class="url">{{ _("Copy") }}</th><th>{{ _("Share") }}</th><th>{{ _("Kind") }}</th>
    <th>{{ _("First seen") }}</th><th>{{ _("Last seen") }}</th>
  </tr>
  {% for row in page.rows %}
  <tr>
    <td class="url">{{ address(row.url, row.link) }}</td><td class="num">{{ row.share }}</td>
    <td>{{ row.kind }}</td>
    <td class="w-when">{{ row.first_seen }}</td><td class="w-when">{{ row.last_seen }}</td>
  </tr>
  {% endfor %}
</table>
</section>
{% else %}
<p class="muted">{{ _("No page of the watch has copies on the web.") }}</p>
{% endfor %}
</main>
<footer class="muted">canon {{ version }} · {{ footer }}</footer>
</body>
</html>
"""


@cache
def _template() -> jinja2.Template:
    env = environment()
    env.globals.update(standalone=True, css=Markup(CSS.read_text("utf-8")), style=Markup(_STYLE))
    return env.from_string(_TEMPLATE)


def _row(say: Speech, copy: Any, change: str = "") -> dict[str, Any]:
    """A copy or a change → the strings of its table row."""
    gone = change == "gone"
    return {
        "change": change,
        "change_label": say(change) if change else "",
        "page": copy.page,
        "page_link": copy.page.startswith(_LINKED),
        "url": copy.url,
        "link": copy.url.startswith(_LINKED),
        "share": "—" if gone else say.share(copy.share),
        "before": say.share(getattr(copy, "previous", None)),
        "kind": say(copy.kind),
        "first_seen": say.date(copy.first_seen),
        "last_seen": say.date(copy.last_seen),
    }


def _queries(say: Speech, report: RunReport) -> str:
    sent, budget = say.number(report.sent), say.number(report.budget)
    if report.cached:
        return say(
            "%(sent)s of %(budget)s, %(cached)s from the cache",
            sent=sent, budget=budget, cached=say.number(report.cached),
        )  # fmt: skip
    return say("%(part)s of %(whole)s", part=sent, whole=budget)


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
            "count": say.plural(("%(num)s copy", "%(num)s copies"), len(page.copies)),
            "rows": [_row(say, c) for c in page.copies],
        }
        for page in view.pages
    ]
    return _template().render(
        translations=say.translations,
        lang=locale,
        version=__version__,
        title=say("canon watch: %(folder)s, run %(run)s", folder=view.folder, run=report.run),
        path=str(folder) if folder is not None else view.folder,
        finished=say.date(report.finished, long=True),
        resumed=report.resumed,
        checked=say.number(report.checked),
        queries=_queries(say, report),
        counts=say.counts(report),
        copied=say(
            "%(part)s of %(whole)s",
            part=say.number(len(view.pages)),
            whole=say.number(view.watched),
        ),
        changes=[_row(say, c, c.change) for c in report.changes],
        pages=pages,
        footer=say(_FOOTER),
    )


# ------------------------------------------------------------------ mail


def _change_line(say: Speech, row: Mapping[str, Any]) -> str:
    if row["change"] == "gone":
        detail = f"({say('was %(share)s', share=row['before'])})"
    else:
        was = f"; {say('was %(share)s', share=row['before'])}" if row["before"] else ""
        detail = f"({row['share']}, {row['kind']}{was})"
    return f"{_SIGNS[row['change']]} {row['change_label']}: {row['page']} ← {row['url']} {detail}"


def mail_text(view: RunView, locale: str = "en") -> tuple[str, str]:
    """The subject and the plain text of the mail telling of the run ``view`` shows."""
    say = Speech(locale)
    report = view.report
    counts = say.counts(report)
    lines = [
        say(
            "Run %(run)s of the watch %(folder)s: %(counts)s",
            run=report.run,
            folder=view.folder,
            counts=counts,
        ),
        say("Finished: %(date)s", date=say.date(report.finished, long=True)),
        say(
            "Pages checked: %(pages)s; queries sent: %(queries)s",
            pages=say.number(report.checked),
            queries=_queries(say, report),
        ),
        "",
        *(_change_line(say, _row(say, c, c.change)) for c in report.changes),
        "",
        say("The full report is attached (report.html)."),
    ]
    subject = say("canon watch %(folder)s: %(counts)s", folder=view.folder, counts=counts)
    return subject, "\n".join(lines) + "\n"
