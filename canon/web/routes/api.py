"""JSON requests → library results as JSON: ``/api/compare``, ``/api/check``, ``/api/stats``,
``/api/index/stats`` and ``/healthz``.  Errors are ``{"error": ..., "field": ...}``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ...textstats.targets import MAX_KEYWORD_CHARS, MAX_KEYWORDS
from ...uniqueness.rewrites import THRESHOLD
from ...uniqueness.settings import CheckSettings, SearchSettings
from .. import jobs
from ..jobs import PAGE_KS, PAGE_PROFILES
from ..quotas import reserve_queries, settle
from ..running import in_worker, side_of
from ..service import FieldError, WebCheckRequest, index_stats, need_index, refused_as
from ..settings import Settings
from ..signin import user_of

__all__ = ["PAGE_KS", "PAGE_PROFILES", "CheckBody", "CompareBody", "StatsBody", "router"]

router = APIRouter()


class CompareBody(BaseModel):
    first: str = Field(description="A text, or an http(s) URL whose main text is compared.")
    second: str = Field(description="A text, or an http(s) URL whose main text is compared.")
    k: int | None = Field(None, ge=1, le=100, description="One shingle size.")
    ks: list[Annotated[int, Field(ge=1, le=100)]] | None = Field(
        None, min_length=1, max_length=20, description="Shingle sizes."
    )
    profile: str | None = Field(None, description="One profile name.")
    profiles: list[str] | None = Field(None, min_length=1, max_length=10)


class CheckBody(BaseModel):
    draft: str = Field(description="The draft: a text, or an http(s) URL.")
    exclude: list[str] = Field(default_factory=list, description="Sources to leave out.")
    skip_quotes: bool = False
    top: int = Field(10, ge=1, le=1000)
    similar: float | None = Field(None, gt=0, le=1)
    min_shared: int = Field(3, ge=1, description="Shingles a source must hold to count.")
    common: int = Field(1000, ge=1, description="Documents above which a shingle is a set phrase.")
    sentence_threshold: float | None = Field(
        THRESHOLD, gt=0, le=1, description="Score of a rewritten sentence; null: no sentences."
    )
    web: str | None = Field(
        None,
        max_length=200,
        description="Also check against the web through this provider of the server's "
        "configuration: searxng, yandex or google (with the index too, if the server has one).",
    )
    queries: int | None = Field(
        None, ge=1, le=100, description="With web: phrase queries sent at most."
    )

    def check_settings(self) -> CheckSettings:
        """The settings of ``canon.check`` the body sets (a refusal names its field)."""
        with refused_as("draft"):
            return CheckSettings(
                exclude=tuple(self.exclude),
                skip_quotes=self.skip_quotes,
                top=self.top,
                similar=self.similar,
                min_shared=self.min_shared,
                common=self.common,
                sentence_threshold=self.sentence_threshold,
                search=SearchSettings(queries=self.queries),
            )


class StatsBody(BaseModel):
    text: str = Field(description="A text, or an http(s) URL whose main text is analysed.")
    keywords: list[Annotated[str, Field(max_length=MAX_KEYWORD_CHARS)]] = Field(
        default_factory=list,
        max_length=MAX_KEYWORDS,
        description="Target keywords, each counted by lemma in every form.",
    )
    top: int = Field(10, ge=0, le=1000, description="Keywords, and phrases of each length, listed.")


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.post("/api/compare")
async def api_compare(body: CompareBody, request: Request) -> dict[str, Any]:
    ks = body.ks or ([body.k] if body.k else list(PAGE_KS))
    profiles = body.profiles or ([body.profile] if body.profile else list(PAGE_PROFILES))
    first = await side_of(request, "first", body.first)
    second = await side_of(request, "second", body.second)
    return await in_worker(request, jobs.compare_json, first, second, ks, profiles)


@router.post("/api/check")
async def api_check(body: CheckBody, request: Request, settings: Settings) -> dict[str, Any]:
    if body.web is None:
        need_index(settings)
    options = body.check_settings()
    if body.web is None:
        draft = await side_of(request, "draft", body.draft)
        return await in_worker(request, jobs.check_json, draft, options)
    asked = WebCheckRequest(options, body.web)
    accounts = request.app.state.accounts
    reserved = reserve_queries(accounts, user_of(request), asked)
    try:
        draft = await side_of(request, "draft", body.draft)
        answer = await in_worker(request, jobs.check_json, draft, asked)
    except FieldError as exc:
        if exc.status == 503 or exc.field == "draft":  # no query was sent
            settle(accounts, reserved, None)
        raise
    settle(accounts, reserved, answer)
    return answer


@router.post("/api/stats")
async def api_stats(body: StatsBody, request: Request) -> dict[str, Any]:
    text = await side_of(request, "text", body.text)
    return await in_worker(request, jobs.stats_json, text, body.keywords, body.top)


@router.get("/api/index/stats")
def api_index_stats(settings: Settings) -> dict[str, object]:
    return index_stats(need_index(settings)).to_dict()
