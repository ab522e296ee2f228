"""A request's heavy work, as functions a worker process runs: extracting, comparing, checking,
counting a text's statistics.

Each job takes plain, picklable inputs (the server's settings, the sides of a request: a text,
an upload's bytes, or a page already fetched) and returns a JSON-ready dict or a view of
:mod:`canon.report.model`; a refusal is a :class:`~canon.web.service.FieldError`.  Routes
fetch pages in the server's I/O threads and hand jobs to the worker pool
(:mod:`canon.web.pool`), so a hostile input costs a worker, never the server.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..report.model import CheckView, CompareView, check_view, compare_view
from ..sources.documents import Document
from ..sources.pagecache import Page
from ..uniqueness.settings import CheckSettings
from ..uniqueness.web.run import WebProgress
from .service import (
    WebCheckRequest,
    check_draft,
    compare_docs,
    need_index,
    page_text,
    read_text,
    read_upload,
    text_statistics,
    web_check_draft,
)
from .settings import ServerSettings

__all__ = [
    "PAGE_KS",
    "PAGE_PROFILES",
    "Side",
    "WebCheckPage",
    "check_json",
    "check_page",
    "compare_json",
    "compare_page",
    "stats_json",
    "web_check_job",
]

PAGE_KS = (3, 4, 5)
PAGE_PROFILES = ("raw", "lemma")


@dataclass(frozen=True)
class Side:
    """One side of a request as sent: pasted text, an upload (name and bytes), or a page the
    server has fetched for it."""

    field: str
    text: str = ""
    upload_name: str = ""
    upload: bytes = b""
    page: Page | None = None


def _document(side: Side, settings: ServerSettings) -> Document:
    if side.page is not None:
        return page_text(side.page, side.field, max_text=settings.max_text)
    if side.upload_name:
        return read_upload(side.upload_name, side.upload, side.field, max_text=settings.max_text)
    return read_text(side.text, side.field, max_text=settings.max_text)


def compare_json(
    settings: ServerSettings,
    first: Side,
    second: Side,
    ks: Sequence[int],
    profiles: Sequence[str],
) -> dict[str, Any]:
    """``/api/compare``: two sides, compared."""
    docs = (_document(first, settings), _document(second, settings))
    table = compare_docs(docs[0], docs[1], ks, profiles)
    return {"first": docs[0].to_dict(), "second": docs[1].to_dict(), **table.to_dict()}


def check_json(
    settings: ServerSettings, draft: Side, asked: CheckSettings | WebCheckRequest
) -> dict[str, Any]:
    """``/api/check``: a draft against the server's index (or the web, or both)."""
    document = _document(draft, settings)
    if isinstance(asked, WebCheckRequest):
        found = web_check_draft(settings, document, asked)
        return {"draft": document.to_dict(), **found.to_dict()}
    result = check_draft(
        need_index(settings), document, asked, writable=settings.allow_index_writes
    )
    return {"draft": document.to_dict(), **result.to_dict()}


def stats_json(
    settings: ServerSettings, text: Side, keywords: Sequence[str], top: int
) -> dict[str, Any]:
    """``/api/stats``: a text's statistics, as ``canon stats --json`` prints them."""
    document = _document(text, settings)
    return {"source": document.to_dict(), **text_statistics(document, keywords, top).to_dict()}


def compare_page(
    settings: ServerSettings,
    first: Side,
    second: Side,
    ks: Sequence[int] = PAGE_KS,
    profiles: Sequence[str] = PAGE_PROFILES,
) -> CompareView:
    """The compare page's result: both sides read, compared, highlighted with twins."""
    docs = (_document(first, settings), _document(second, settings))
    table = compare_docs(docs[0], docs[1], ks, profiles)
    return compare_view(table, docs, twins=True)


def check_page(settings: ServerSettings, draft: Side, options: CheckSettings) -> CheckView:
    """The check page's result: the draft read, checked under ``options``, highlighted."""
    document = _document(draft, settings)
    index = need_index(settings)
    result = check_draft(index, document, options, writable=settings.allow_index_writes)
    return check_view(result, document)


@dataclass(frozen=True)
class WebCheckPage:
    """A check against the web, as its job hands it back: the check page's view, the JSON of
    ``/api/check`` with ``web``, and the query that found each source of the web."""

    view: CheckView
    data: dict[str, Any]
    queries: dict[str, str]


def _progress_file(path: Path) -> Callable[[WebProgress], None]:
    """A callback that keeps ``path`` (rewritten atomically) saying how far the check is:
    the current stage and, for each stage reached, its last count."""
    stages: dict[str, dict[str, Any]] = {}

    def write(progress: WebProgress | None) -> None:
        if progress is not None:
            stages[progress.stage] = {"stage": progress.stage, "done": progress.done,
                                      "total": progress.total}  # fmt: skip
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps({"stages": list(stages.values())}), "utf-8")
        os.replace(partial, path)

    write(None)  # started: the job has left the queue
    return write


def web_check_job(
    settings: ServerSettings, draft: Side, asked: WebCheckRequest, progress: str
) -> WebCheckPage:
    """A check against the web started as a job: the draft read and checked as ``asked``,
    its progress kept in the file ``progress``."""
    document = _document(draft, settings)
    found = web_check_draft(settings, document, asked, _progress_file(Path(progress)))
    queries = {
        m.source: query
        for p in found.result.profiles
        for m in p.sources
        if isinstance(query := getattr(m, "query", None), str)
    }
    data = {"draft": document.to_dict(), **found.to_dict()}
    return WebCheckPage(check_view(found.result, document), data, queries)
