"""Forms → site audits: start one (``/audit``), watch it and browse its clusters, pages and
changes since the last audit (``/audit/<id>``; its pages a grid filtered, sorted and paged by
the query, :mod:`canon.web.pagegrid`), resume it or make it again
(``/audit/<id>/resume``, ``/audit/<id>/again``), download its files
(``/audit/<id>/files/<name>``).  Only on a server given a folder for audits
(:class:`~canon.web.settings.ServerSettings` ``audits``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from ...audit import Analysis
from .. import audits as jobs
from ..i18n import locale_of, translations
from ..pagegrid import SUMMARY_FILTERS, Grid, GridQuery, grid
from ..service import N_, FieldError
from ..settings import ServerSettings, Settings
from ..signin import Owner, owner_of, user_of
from .forms import number, text
from .render import page, redirect_to

__all__ = ["router"]

router = APIRouter(default_response_class=HTMLResponse)
SHOWN_CLUSTERS = 20  # the clusters an audit's page lists; the pages' grid lists them all
SHOWN_MEMBERS = 20  # the pages of a cluster it lists


def _folder(settings: Any) -> Path:
    if settings.audits is None:  # the router is mounted only with a folder
        raise FieldError("this server runs no audits", None, 404)
    return Path(settings.audits)


def _form(values: dict[str, str] | None = None) -> dict[str, str]:
    defaults = {"start": "", "max_pages": "100", "max_depth": "",
                "threshold": f"{Analysis().threshold:g}"}  # fmt: skip
    return {**defaults, **(values or {})}


def _starter(request: Request, settings: ServerSettings) -> jobs.Starter:
    user = user_of(request)
    limit = user.audits_at_once if user is not None else None
    return jobs.Starter(owner_of(request), limit, settings.audits_at_once)


def _record(request: Request, audit_id: str) -> None:
    user, accounts = user_of(request), request.app.state.accounts
    if user is not None and accounts is not None:
        accounts.record(user, "audit", audit_id)


def _list_page(request: Request, settings: Any, status: int = 200, **context: Any) -> Response:
    context.setdefault("form", _form())
    runs = jobs.audits(_folder(settings), owner_of(request))
    return page(request, "audits.html", status, runs=runs, max_pages=jobs.MAX_PAGES, **context)


@router.get("/audit")
def audit_list(request: Request, settings: Settings) -> Response:
    return _list_page(request, settings)


@router.post("/audit")
async def audit_start(request: Request, settings: Settings) -> Response:
    form = await request.form()
    kept = _form({name: text(form, name) for name in ("start", "max_pages", "max_depth",
                                                        "threshold")})  # fmt: skip
    try:
        depth = text(form, "max_depth").strip()
        asked = jobs.AuditRequest(
            text(form, "start").strip(),
            int(number(form, "max_pages", 100, 1, jobs.MAX_PAGES)),
            int(number(form, "max_depth", 0, 0, 100)) if depth else None,
            number(form, "threshold", Analysis().threshold, 0.05, 1),
        )
        if not asked.start:
            raise FieldError("start: give the site's URL", "start",
                             key=N_("%(side)s is empty: give the site's URL"))  # fmt: skip
        starter = _starter(request, settings)
        audit_id = jobs.start_audit(_folder(settings), asked, settings.allow_private, starter)
        _record(request, audit_id)
    except FieldError as exc:
        return _list_page(request, settings, exc.status, error=exc, form=kept)
    return redirect_to(request, "audit_view", audit_id=audit_id)


def _started_again(
    request: Request, settings: Any, audit_id: str, action: Callable[..., None], new: bool
) -> Response:
    """The audit ``audit_id`` of the asking user started again by ``action`` (a resume, or a
    ``new`` audit of the same site, kept as started), then its page; the list with the
    refusal otherwise."""
    try:
        folder = jobs.audit_folder(_folder(settings), audit_id, owner_of(request))
        action(folder, settings.allow_private, _starter(request, settings))
        if new:
            _record(request, audit_id)
    except FieldError as exc:
        return _list_page(request, settings, exc.status, error=exc)
    return redirect_to(request, "audit_view", audit_id=audit_id)


@router.post("/audit/{audit_id}/resume")
def audit_resume(request: Request, settings: Settings, audit_id: str) -> Response:
    return _started_again(request, settings, audit_id, jobs.resume_audit, new=False)


@router.post("/audit/{audit_id}/again")
def audit_again(request: Request, settings: Settings, audit_id: str) -> Response:
    return _started_again(request, settings, audit_id, jobs.audit_again, new=True)


@router.get("/audit/{audit_id}")
def audit_view(request: Request, settings: Settings, audit_id: str) -> Response:
    try:
        folder = jobs.audit_folder(_folder(settings), audit_id, owner_of(request))
    except FieldError as exc:
        return _list_page(request, settings, exc.status, error=exc)
    status = jobs.status_of(folder)
    files = [name for name in jobs.OUTPUTS if (folder / name).is_file()]
    return page(
        request, "audits.html", audit_id=audit_id, run=status, files=files, form=None,
        labels=jobs.SUMMARY_LABELS, resumable=jobs.resumable(status),
        repeatable=jobs.repeatable(status), change_labels=jobs.CHANGE_LABELS,
        grid=_grid(request, status), summary_filters=SUMMARY_FILTERS,
        shown_clusters=SHOWN_CLUSTERS, shown_members=SHOWN_MEMBERS,
    )  # fmt: skip


def _grid(request: Request, status: dict[str, Any]) -> Grid | None:
    """The page of the audit's pages the request asks for (``?show=…&sort=…&dir=…&page=…``);
    None while the audit has none to show."""
    if status.get("state") != "done":
        return None
    locale = locale_of(request)
    kept = locale if "lang" in request.query_params else None
    query = GridQuery.of(request.query_params, kept)
    return grid(status, query, translations(locale), locale)


@router.get("/audit/{audit_id}/status", response_class=JSONResponse)
def audit_status(settings: Settings, audit_id: str, owner: Owner) -> dict[str, Any]:
    status = jobs.status_of(jobs.audit_folder(_folder(settings), audit_id, owner))
    return {key: status.get(key) for key in ("state", "done", "total", "errors", "error")}


@router.get("/audit/{audit_id}/files/{name}", response_class=Response)
def audit_file(settings: Settings, audit_id: str, name: str, owner: Owner) -> Response:
    folder = jobs.audit_folder(_folder(settings), audit_id, owner)
    if name not in jobs.OUTPUTS or not (folder / name).is_file():
        raise FieldError(f"no file {name[:40]!r} in this audit", None, 404)
    return FileResponse(folder / name, filename=name)
