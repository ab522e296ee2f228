"""The watches of ``canon watch`` on the web, read-only: the list (``/watch``), one watch's
runs, pages and latest changes (``/watch/<name>``, its pages a hundred at a time by
``?page=``), and one page's text with what its copies hold marked beside the copies and its
history (``/watch/<name>/page/<id>``; ``?copy=URL`` marks only that copy's).  Only on a server
given a folder of watches (:class:`~canon.web.settings.ServerSettings` ``watches``); running a
watch stays the command line's (``canon watch run``, from cron or a timer).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from ...report.language import percent
from ..i18n import LOCALES, locale_of
from ..service import N_, FieldError
from ..settings import Settings
from ..watches import (
    CHANGE_LABELS,
    COUNT_LABELS,
    KIND_LABELS,
    PROBLEMS,
    Unreadable,
    WatchReader,
    marked_text,
    summaries,
    watch_folder,
)
from .render import page

__all__ = ["router"]

router = APIRouter(default_response_class=HTMLResponse)
PAGES_SHOWN = 100  # pages of a watch a page of its list shows
RUNS_SHOWN = 30  # runs of a watch its page lists
CHANGES_SHOWN = 50  # the latest changes its page lists
PAGE_CHANGES_SHOWN = 200  # the changes a page's own page lists
_DATES = {"ru": ("%d.%m.%Y, %H:%M", "%d.%m.%Y"), "en": ("%Y-%m-%d %H:%M", "%Y-%m-%d")}


def _root(settings: Any) -> Path:
    if settings.watches is None:  # the router is mounted only with a folder of watches
        raise FieldError("this server shows no watches", None, 404)
    return Path(settings.watches)


class _Say:
    """Figures and dates as the page's language writes them, for the templates."""

    def __init__(self, locale: str) -> None:
        self.locale = locale

    def percent(self, share: float | None) -> str:
        return "—" if share is None else percent(share, self.locale)

    def _date(self, iso: str | None, with_time: bool) -> Markup:
        if not iso:
            return Markup("—")
        try:
            when = datetime.fromisoformat(iso).astimezone(UTC)
        except ValueError:
            return Markup("{}").format(iso)
        pattern = _DATES.get(self.locale, _DATES["en"])[0 if with_time else 1]
        return Markup('<time datetime="{}">{}</time>').format(iso, when.strftime(pattern))

    def when(self, iso: str | None) -> Markup:
        """A date and time, in a ``<time>`` carrying the stored one."""
        return self._date(iso, with_time=True)

    def day(self, iso: str | None) -> Markup:
        """A date, in a ``<time>`` carrying the stored date and time."""
        return self._date(iso, with_time=False)


def _context(request: Request) -> dict[str, Any]:
    return {
        "say": _Say(locale_of(request)),
        "change_labels": CHANGE_LABELS,
        "count_labels": COUNT_LABELS,
        "kind_labels": KIND_LABELS,
        "problems": PROBLEMS,
    }


def _query(request: Request, **params: object) -> str:
    """A query string of ``params`` (None: left out), keeping ``lang`` when the request
    named it."""
    lang = request.query_params.get("lang")
    kept = {"lang": lang} if lang in LOCALES else {}
    given = {name: value for name, value in params.items() if value is not None}
    return "?" + urlencode({**given, **kept}) if given or kept else ""


def _refused(request: Request, settings: Any, error: FieldError) -> Response:
    return page(
        request, "watches.html", error.status, watches=summaries(_root(settings)), error=error,
        **_context(request),
    )  # fmt: skip


@router.get("/watch")
def watch_list(request: Request, settings: Settings) -> Response:
    return page(request, "watches.html", watches=summaries(_root(settings)), **_context(request))


def _page_number(request: Request, pages: int) -> int:
    asked = request.query_params.get("page", "1")
    last = max(1, -(-pages // PAGES_SHOWN))
    return min(last, max(1, int(asked))) if asked.isdigit() else 1


@router.get("/watch/{name}")
def watch_view(request: Request, settings: Settings, name: str) -> Response:
    try:
        folder = watch_folder(_root(settings), name)
    except FieldError as exc:
        return _refused(request, settings, exc)
    context = _context(request)
    try:
        with WatchReader(folder) as reader:
            pages = reader.page_count()
            number = _page_number(request, pages)
            context.update(
                summary=reader.summary(name),
                runs=reader.runs(RUNS_SHOWN),
                run_count=reader.run_count(),
                pages=reader.page_lines(PAGES_SHOWN, (number - 1) * PAGES_SHOWN),
                changes=reader.changes(CHANGES_SHOWN),
            )
    except Unreadable as exc:
        return page(request, "watch.html", watch_name=name, problem=exc.problem, **context)
    last = max(1, -(-pages // PAGES_SHOWN))
    paging = {
        "first": (number - 1) * PAGES_SHOWN + 1 if pages else 0,
        "last": min(pages, number * PAGES_SHOWN),
        "previous": _query(request, page=number - 1) if number > 1 else None,
        "next": _query(request, page=number + 1) if number < last else None,
    }
    return page(
        request, "watch.html", watch_name=name, problem=None, page_total=pages, paging=paging,
        keep=_query(request), **context,
    )  # fmt: skip


def _not_found(page_id: str) -> FieldError:
    return FieldError(
        f"no page {page_id[:20]!r} in this watch", None, 404, key=N_("No such page in this watch")
    )


@router.get("/watch/{name}/page/{page_id}")
def watch_page(request: Request, settings: Settings, name: str, page_id: str) -> Response:
    try:
        folder = watch_folder(_root(settings), name)
        if not page_id.isdigit() or len(page_id) > 18:
            raise _not_found(page_id)
    except FieldError as exc:
        return _refused(request, settings, exc)
    context = _context(request)
    copies, history = [], []
    try:
        with WatchReader(folder) as reader:
            watched = reader.page(int(page_id))
            if watched is not None:
                copies = reader.copies(int(page_id), len(watched.text))
                history = reader.changes(PAGE_CHANGES_SHOWN, int(page_id))
    except Unreadable as exc:
        return page(request, "watch.html", watch_name=name, problem=exc.problem, **context)
    if watched is None:
        return _refused(request, settings, _not_found(page_id))
    asked = request.query_params.get("copy")
    chosen = next((c for c in copies if c.url == asked), None)
    marked = [chosen] if chosen is not None else [c for c in copies if c.gone is None]
    return page(
        request, "watch_page.html", watch_name=name, page_id=int(page_id), watched=watched,
        copies=copies, chosen=chosen, history=history, text=marked_text(watched.text, marked),
        picks={c.url: _query(request, copy=c.url) for c in copies}, keep=_query(request),
        **context,
    )  # fmt: skip
