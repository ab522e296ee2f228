"""The FastAPI app: a JSON API and server-rendered pages over the library.

``create_app(index)`` serves ``/api/compare``, ``/api/check``, ``/api/index/stats``, ``/healthz``
and the pages ``/`` (compare), ``/check`` and ``/index``.  User text is escaped everywhere
(Jinja2 autoescape and the report's highlighter); the index is opened read-only unless
``allow_index_writes``; URLs that resolve to private or loopback addresses are refused unless
``allow_private``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..report.html import highlighted, stats_section
from ..sources.documents import Document
from ..sources.fetch import is_url
from .highlight import twin_marked
from .service import (
    UPLOAD_SUFFIXES,
    FieldError,
    check_draft,
    compare_docs,
    index_stats,
    read_text,
    read_upload,
)

__all__ = ["CheckBody", "CompareBody", "create_app"]

HERE = Path(__file__).parent
PAGE_KS = (3, 4, 5)
PAGE_PROFILES = ("raw", "lemma")


class CompareBody(BaseModel):
    first: str = Field(description="A text, or an http(s) URL whose main text is compared.")
    second: str = Field(description="A text, or an http(s) URL whose main text is compared.")
    k: int | None = Field(None, ge=1, le=100, description="One shingle size.")
    ks: list[int] | None = Field(None, min_length=1, max_length=20, description="Shingle sizes.")
    profile: str | None = Field(None, description="One profile name.")
    profiles: list[str] | None = Field(None, min_length=1, max_length=10)


class CheckBody(BaseModel):
    draft: str = Field(description="The draft: a text, or an http(s) URL.")
    exclude: list[str] = Field(default_factory=list, description="Sources to leave out.")
    skip_quotes: bool = False
    top: int = Field(10, ge=1, le=1000)
    similar: float | None = Field(None, gt=0, le=1)


class BodyLimit:
    """413 for a request body over ``max_body`` bytes: by Content-Length and as it arrives."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    def _message(self) -> str:
        return f"the request body is larger than the limit of {self.max_body:,} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.max_body:
            answer = JSONResponse({"error": self._message(), "field": None}, status_code=413)
            await answer(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body:
                raise HTTPException(413, self._message())
            return message

        await self.app(scope, limited, send)


def _error(message: str, field: str | None, status: int) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status)


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(FieldError)
    async def field_error(request: Request, exc: FieldError) -> JSONResponse:
        return _error(exc.message, exc.field, exc.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(str(exc.detail), None, exc.status_code)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        return _error("internal server error", None, 500)


def _templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals["version"] = __version__
    env.globals["is_url"] = is_url
    return Jinja2Templates(env=env)


def _upload_or_text(form: FormData, field: str, *, allow_private: bool, max_text: int) -> Document:
    """The side of a form: an uploaded file, else a URL, else the pasted text."""
    upload = form.get(f"{field}_file")
    if isinstance(upload, UploadFile) and upload.filename:
        data = upload.file.read()
        return read_upload(upload.filename, data, field, max_text=max_text)
    url = str(form.get(f"{field}_url") or "").strip()
    if url:
        if not is_url(url):
            raise FieldError(f"{field}: {url} is not an http(s) URL", field)
        return read_text(url, field, allow_private=allow_private, max_text=max_text)
    text = str(form.get(f"{field}_text") or "")
    return read_text(text, field, allow_private=allow_private, max_text=max_text)


def create_app(
    index: Path | None = None,
    *,
    allow_private: bool = False,
    allow_index_writes: bool = False,
    max_body: int = 2_000_000,
    max_text: int = 200_000,
) -> FastAPI:
    """The web app; ``index`` (an index file) enables checking a draft against it."""
    if index is not None:
        index = Path(index)
        index_stats(index)  # fail at start on a missing or foreign file, not at first request
    app = FastAPI(title="canon", version=__version__, description=__doc__)
    app.add_middleware(BodyLimit, max_body=max_body)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _install_errors(app)
    templates = _templates()
    reading: dict[str, Any] = {"allow_private": allow_private, "max_text": max_text}

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        context.setdefault("error", None)
        context["has_index"] = index is not None
        context["suffixes"] = ",".join(UPLOAD_SUFFIXES)
        return templates.TemplateResponse(request, name, context, status_code=status)

    def need_index() -> Path:
        if index is None:
            raise FieldError("this server has no index: start it with an index file", None, 404)
        return index

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/compare")
    def api_compare(body: CompareBody) -> dict[str, Any]:
        docs = [read_text(getattr(body, f), f, **reading) for f in ("first", "second")]
        ks = body.ks or ([body.k] if body.k else list(PAGE_KS))
        profiles = body.profiles or ([body.profile] if body.profile else list(PAGE_PROFILES))
        table = compare_docs(docs[0], docs[1], ks, profiles)
        return {"first": docs[0].to_dict(), "second": docs[1].to_dict(), **table.to_dict()}

    @app.post("/api/check")
    def api_check(body: CheckBody) -> dict[str, Any]:
        path = need_index()
        draft = read_text(body.draft, "draft", **reading)
        result = check_draft(
            path,
            draft,
            writable=allow_index_writes,
            exclude=body.exclude,
            skip_quotes=body.skip_quotes,
            top=body.top,
            similar=body.similar,
        )
        return {"draft": draft.to_dict(), **result.to_dict()}

    @app.get("/api/index/stats")
    def api_index_stats() -> dict[str, object]:
        return index_stats(need_index()).to_dict()

    @app.get("/", response_class=HTMLResponse)
    def compare_page(request: Request) -> HTMLResponse:
        return page(request, "compare.html", result=None)

    def compare_result(form: FormData) -> dict[str, Any]:
        docs = [_upload_or_text(form, f, **reading) for f in ("first", "second")]
        table = compare_docs(docs[0], docs[1], PAGE_KS, PAGE_PROFILES)
        k, first, second = twin_marked(table, docs)
        return {
            "table": table,
            "docs": docs,
            "k": k,
            "texts": [Markup(first), Markup(second)],
            "stats": [Markup(stats_section(d.text)) for d in docs],
        }

    @app.post("/", response_class=HTMLResponse)
    async def compare_submit(request: Request) -> HTMLResponse:
        form = await request.form()
        try:
            result = await run_in_threadpool(compare_result, form)
        except FieldError as exc:
            return page(request, "compare.html", exc.status, result=None, error=exc)
        return page(request, "compare.html", result=result)

    if index is None:
        return app

    @app.get("/check", response_class=HTMLResponse)
    def check_page(request: Request) -> HTMLResponse:
        return page(request, "check.html", result=None)

    def check_result(form: FormData) -> dict[str, Any]:
        draft = _upload_or_text(form, "draft", **reading)
        patterns = str(form.get("exclude") or "").replace(",", "\n").split("\n")
        result = check_draft(
            need_index(),
            draft,
            writable=allow_index_writes,
            exclude=[p.strip() for p in patterns if p.strip()],
            skip_quotes=bool(form.get("skip_quotes")),
        )
        groups = [(p.word_for_word, p.fragments) for p in result.profiles]
        return {
            "check": result,
            "draft": draft,
            "text": Markup(highlighted(result.text, groups)),
            "stats": Markup(stats_section(result.text)),
        }

    @app.post("/check", response_class=HTMLResponse)
    async def check_submit(request: Request) -> HTMLResponse:
        form = await request.form()
        try:
            result = await run_in_threadpool(check_result, form)
        except FieldError as exc:
            return page(request, "check.html", exc.status, result=None, error=exc)
        return page(request, "check.html", result=result)

    @app.get("/index", response_class=HTMLResponse)
    def index_page(request: Request) -> HTMLResponse:
        return page(request, "index.html", stats=index_stats(need_index()).to_dict())

    return app
