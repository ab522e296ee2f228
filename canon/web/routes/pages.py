"""Forms → HTML pages: compare two texts (``/``), check a draft (``/check``), the index
(``/index``).  The pages draw the views of :mod:`canon.report.model` with the same templates
as the HTML reports; the check and index pages exist only on a server with an index."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from ...report.html import environment
from ...report.model import CheckView, CompareView, check_view, compare_view
from ...sources.documents import Document
from ...sources.fetch import is_url
from ..service import (
    UPLOAD_SUFFIXES,
    FieldError,
    check_draft,
    compare_docs,
    index_stats,
    read_text,
    read_upload,
)
from ..settings import ServerSettings, Settings
from .api import PAGE_KS, PAGE_PROFILES, need_index

__all__ = ["index_router", "router"]

router = APIRouter(default_response_class=HTMLResponse)
index_router = APIRouter(default_response_class=HTMLResponse)
templates = Jinja2Templates(env=environment())


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    settings: ServerSettings = request.app.state.settings
    context.setdefault("error", None)
    context["has_index"] = settings.index is not None
    context["suffixes"] = ",".join(UPLOAD_SUFFIXES)
    return templates.TemplateResponse(request, name, context, status_code=status)


def _side(form: FormData, field: str, settings: ServerSettings) -> Document:
    """The side of a form: an uploaded file, else a URL, else the pasted text."""
    upload = form.get(f"{field}_file")
    if isinstance(upload, UploadFile) and upload.filename:
        return read_upload(upload.filename, upload.file.read(), field, max_text=settings.max_text)
    reading = {"allow_private": settings.allow_private, "max_text": settings.max_text}
    url = str(form.get(f"{field}_url") or "").strip()
    if url:
        if not is_url(url):
            raise FieldError(f"{field}: {url} is not an http(s) URL", field)
        return read_text(url, field, **reading)
    return read_text(str(form.get(f"{field}_text") or ""), field, **reading)


def _compared(form: FormData, settings: ServerSettings) -> CompareView:
    first, second = (_side(form, field, settings) for field in ("first", "second"))
    table = compare_docs(first, second, PAGE_KS, PAGE_PROFILES)
    return compare_view(table, (first, second), twins=True)


def _checked(form: FormData, settings: ServerSettings) -> CheckView:
    draft = _side(form, "draft", settings)
    patterns = str(form.get("exclude") or "").replace(",", "\n").split("\n")
    result = check_draft(
        need_index(settings),
        draft,
        writable=settings.allow_index_writes,
        exclude=[p.strip() for p in patterns if p.strip()],
        skip_quotes=bool(form.get("skip_quotes")),
    )
    return check_view(result, draft)


@router.get("/")
def compare_page(request: Request) -> HTMLResponse:
    return _page(request, "compare.html", result=None)


@router.post("/")
async def compare_submit(request: Request, settings: Settings) -> HTMLResponse:
    form = await request.form()
    try:
        result = await run_in_threadpool(_compared, form, settings)
    except FieldError as exc:
        return _page(request, "compare.html", exc.status, result=None, error=exc)
    return _page(request, "compare.html", result=result)


@index_router.get("/check")
def check_page(request: Request) -> HTMLResponse:
    return _page(request, "check.html", result=None)


@index_router.post("/check")
async def check_submit(request: Request, settings: Settings) -> HTMLResponse:
    form = await request.form()
    try:
        result = await run_in_threadpool(_checked, form, settings)
    except FieldError as exc:
        return _page(request, "check.html", exc.status, result=None, error=exc)
    return _page(request, "check.html", result=result)


@index_router.get("/index")
def index_page(request: Request, settings: Settings) -> HTMLResponse:
    return _page(request, "index.html", stats=index_stats(need_index(settings)).to_dict())
