"""JSON requests → library results as JSON: ``/api/compare``, ``/api/check``,
``/api/index/stats`` and ``/healthz``.  Errors are ``{"error": ..., "field": ...}``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from ..service import FieldError, check_draft, compare_docs, index_stats, read_text
from ..settings import ServerSettings, Settings

__all__ = ["PAGE_KS", "PAGE_PROFILES", "CheckBody", "CompareBody", "need_index", "router"]

PAGE_KS = (3, 4, 5)
PAGE_PROFILES = ("raw", "lemma")

router = APIRouter()


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


def need_index(settings: ServerSettings) -> Path:
    """The server's index, or a 404 saying it has none."""
    if settings.index is None:
        raise FieldError("this server has no index: start it with an index file", None, 404)
    return settings.index


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.post("/api/compare")
def api_compare(body: CompareBody, settings: Settings) -> dict[str, Any]:
    reading = {"allow_private": settings.allow_private, "max_text": settings.max_text}
    docs = [read_text(getattr(body, f), f, **reading) for f in ("first", "second")]
    ks = body.ks or ([body.k] if body.k else list(PAGE_KS))
    profiles = body.profiles or ([body.profile] if body.profile else list(PAGE_PROFILES))
    table = compare_docs(docs[0], docs[1], ks, profiles)
    return {"first": docs[0].to_dict(), "second": docs[1].to_dict(), **table.to_dict()}


@router.post("/api/check")
def api_check(body: CheckBody, settings: Settings) -> dict[str, Any]:
    path = need_index(settings)
    draft = read_text(
        body.draft, "draft", allow_private=settings.allow_private, max_text=settings.max_text
    )
    result = check_draft(
        path,
        draft,
        writable=settings.allow_index_writes,
        exclude=body.exclude,
        skip_quotes=body.skip_quotes,
        top=body.top,
        similar=body.similar,
    )
    return {"draft": draft.to_dict(), **result.to_dict()}


@router.get("/api/index/stats")
def api_index_stats(settings: Settings) -> dict[str, object]:
    return index_stats(need_index(settings)).to_dict()
