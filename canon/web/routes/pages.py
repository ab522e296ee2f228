"""Forms → HTML pages: compare two texts (``/``), check a draft (``/check``), the index
(``/index``).  The pages draw the views of :mod:`canon.report.model` with the same templates
as the HTML reports; the check and index pages exist only on a server with an index."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData, UploadFile

from ...report.html import environment
from .. import jobs
from ..jobs import Side
from ..running import in_worker, side_of
from ..service import UPLOAD_SUFFIXES, FieldError, index_stats, need_index
from ..settings import ServerSettings, Settings

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


async def _side(request: Request, form: FormData, field: str) -> Side:
    """The side of a form: an uploaded file, else a URL (fetched now), else the pasted text."""
    upload = form.get(f"{field}_file")
    if isinstance(upload, UploadFile) and upload.filename:
        return Side(field, upload_name=upload.filename, upload=await upload.read())
    url = str(form.get(f"{field}_url") or "")
    text = str(form.get(f"{field}_text") or "")
    return await side_of(request, field, text=text if not url.strip() else "", url=url)


def _exclusions(form: FormData) -> list[str]:
    # One entry a line: a comma may belong to a pattern (re:a{1,3}).
    return [p.strip() for p in str(form.get("exclude") or "").splitlines() if p.strip()]


@router.get("/")
def compare_page(request: Request) -> HTMLResponse:
    return _page(request, "compare.html", result=None)


@router.post("/")
async def compare_submit(request: Request) -> HTMLResponse:
    form = await request.form()
    try:
        sides = [await _side(request, form, field) for field in ("first", "second")]
        result = await in_worker(request, jobs.compare_page, *sides)
    except FieldError as exc:
        return _page(request, "compare.html", exc.status, result=None, error=exc)
    return _page(request, "compare.html", result=result)


@index_router.get("/check")
def check_page(request: Request) -> HTMLResponse:
    return _page(request, "check.html", result=None)


@index_router.post("/check")
async def check_submit(request: Request) -> HTMLResponse:
    form = await request.form()
    try:
        draft, skip = await _side(request, form, "draft"), bool(form.get("skip_quotes"))
        result = await in_worker(request, jobs.check_page, draft, _exclusions(form), skip)
    except FieldError as exc:
        return _page(request, "check.html", exc.status, result=None, error=exc)
    return _page(request, "check.html", result=result)


@index_router.get("/index")
def index_page(request: Request, settings: Settings) -> HTMLResponse:
    return _page(request, "index.html", stats=index_stats(need_index(settings)).to_dict())
