"""A request's heavy work, as functions a worker process runs: reading, comparing, checking.

Each job takes plain, picklable inputs (the server's settings, texts, an upload's bytes) and
returns a JSON-ready dict or a view of :mod:`canon.report.model`; a refusal is a
:class:`~canon.web.service.FieldError`.  Routes hand jobs to the worker pool
(:mod:`canon.web.pool`), so a hostile input costs a worker, never the server.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..report.model import CheckView, CompareView, check_view, compare_view
from ..sources.documents import Document
from .service import FieldError, check_draft, compare_docs, read_text, read_upload, url_of
from .settings import ServerSettings

__all__ = [
    "PAGE_KS",
    "PAGE_PROFILES",
    "FormSide",
    "check_json",
    "check_page",
    "compare_json",
    "compare_page",
]

PAGE_KS = (3, 4, 5)
PAGE_PROFILES = ("raw", "lemma")


@dataclass(frozen=True)
class FormSide:
    """One side of a form as sent: an upload (name and bytes), a URL, or pasted text."""

    field: str
    text: str = ""
    url: str = ""
    upload_name: str = ""
    upload: bytes = b""


def _reading(settings: ServerSettings) -> dict[str, Any]:
    return {
        "allow_private": settings.allow_private,
        "max_text": settings.max_text,
        "max_bytes": settings.max_body,
        "deadline": settings.fetch_deadline,
    }


def _document(side: FormSide, settings: ServerSettings) -> Document:
    if side.upload_name:
        return read_upload(side.upload_name, side.upload, side.field, max_text=settings.max_text)
    if side.url.strip():
        url = url_of(side.url)
        if url is None:
            message = f"{side.field}: the URL field needs one http(s) URL"
            raise FieldError(message, side.field)
        return read_text(url, side.field, **_reading(settings))
    return read_text(side.text, side.field, **_reading(settings))


def _index(settings: ServerSettings) -> Any:
    if settings.index is None:
        raise FieldError("this server has no index: start it with an index file", None, 404)
    return settings.index


def compare_json(
    settings: ServerSettings, first: str, second: str, ks: Sequence[int], profiles: Sequence[str]
) -> dict[str, Any]:
    """``/api/compare``: two texts or URLs, compared."""
    sides = (("first", first), ("second", second))
    docs = [read_text(value, field, **_reading(settings)) for field, value in sides]
    table = compare_docs(docs[0], docs[1], ks, profiles)
    return {"first": docs[0].to_dict(), "second": docs[1].to_dict(), **table.to_dict()}


def check_json(settings: ServerSettings, draft: str, options: dict[str, Any]) -> dict[str, Any]:
    """``/api/check``: a text or URL against the server's index."""
    document = read_text(draft, "draft", **_reading(settings))
    result = check_draft(
        _index(settings), document, writable=settings.allow_index_writes, **options
    )
    return {"draft": document.to_dict(), **result.to_dict()}


def compare_page(settings: ServerSettings, first: FormSide, second: FormSide) -> CompareView:
    """The compare page's result: both sides read, compared, highlighted with twins."""
    docs = (_document(first, settings), _document(second, settings))
    table = compare_docs(docs[0], docs[1], PAGE_KS, PAGE_PROFILES)
    return compare_view(table, docs, twins=True)


def check_page(
    settings: ServerSettings, draft: FormSide, exclude: Sequence[str], skip_quotes: bool
) -> CheckView:
    """The check page's result: the draft read, checked, highlighted."""
    document = _document(draft, settings)
    result = check_draft(
        _index(settings),
        document,
        writable=settings.allow_index_writes,
        exclude=list(exclude),
        skip_quotes=skip_quotes,
    )
    return check_view(result, document)
