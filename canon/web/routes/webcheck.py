"""Checks against the web as jobs: started from the check page (``POST /check/web``, then
``/check/web/<id>`` shows its progress and, when done, its result) or by the JSON API
(``POST /api/check/jobs``, then ``GET /api/check/jobs/<id>``).  The jobs themselves are
:mod:`canon.web.webjobs`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from ...uniqueness.web.run import STAGES
from ..i18n import locale_of, translations
from ..running import side_of
from ..service import N_, FieldError, WebCheckRequest, configured_providers
from ..settings import ServerSettings, Settings
from ..signin import owner_of, user_of
from ..webjobs import WebJob, WebJobs
from .api import CheckBody
from .checkform import check_context, check_form, check_options
from .forms import number, side, text
from .render import page, redirect_to

__all__ = ["JobBody", "JobStatus", "api_router", "page_router"]

api_router = APIRouter()
page_router = APIRouter(default_response_class=HTMLResponse)
MAX_QUERIES = 100


class JobBody(CheckBody):
    # A web check needs the provider the index check does without: the field narrows here.
    web: str = Field(  # pyright: ignore[reportIncompatibleVariableOverride]
        max_length=200,
        description="The search provider, one of the server's configuration: searxng, yandex "
        "or google.",
    )
    with_index: bool = Field(
        True, description="Check against the server's index too (when it has one)."
    )


class JobStage(BaseModel):
    stage: str = Field(description="One of: " + ", ".join(STAGES) + ".")
    done: int
    total: int


class JobStatus(BaseModel):
    id: str
    state: str = Field(description="queued, running, done or failed.")
    stage: str | None = Field(None, description="The stage now: " + ", ".join(STAGES) + ".")
    done: int = Field(0, description="Queries searched or pages fetched in this stage.")
    total: int = Field(0, description="Queries or pages of this stage.")
    stages: list[JobStage] = Field(description="The stages reached, in order, each with its count.")
    message: str = Field(description="The state in the language asked (?lang=, Accept-Language; "
                         "Russian by default), as the check page shows it.")  # fmt: skip
    error: str | None = Field(None, description="failed: the refusal, in English.")
    field: str | None = Field(None, description="failed: its field (web: the provider).")
    result: dict[str, Any] | None = Field(
        None, description="done: the answer of POST /api/check with web."
    )


class JobStarted(BaseModel):
    id: str
    state: str
    status: str = Field(description="Where to ask for its progress.")


_REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": 'A field refused: `{"error", "field"}`.'},
    404: {"description": "No such job (finished jobs are kept an hour)."},
    429: {"description": "Too many checks running and waiting; `Retry-After` says when to retry."},
}


def _jobs(request: Request) -> WebJobs:
    jobs: WebJobs = request.app.state.web_jobs
    return jobs


def _provider(name: str) -> str:
    """``name`` when this server is configured for that provider; a refusal naming ``web``."""
    configured = configured_providers()
    if name not in configured:
        known = ", ".join(configured) or "none"
        raise FieldError(
            f"web: give a provider this server is configured for ({known}), not {name[:40]!r}",
            "web",
            key=N_("%(side)s: choose one of the providers this server is configured for"),
        )
    return name


@api_router.post("/api/check/jobs", status_code=202, response_model=JobStarted, responses=_REFUSALS)
async def api_check_job(body: JobBody, request: Request) -> dict[str, Any]:
    """Start a check of the draft against the web (and the server's index, unless
    ``with_index`` is false): the answer names the job; ask ``status`` for its progress."""
    provider = _provider(body.web)
    asked = WebCheckRequest(body.check_settings(), provider, body.with_index)
    draft = await side_of(request, "draft", body.draft)
    job = _jobs(request).start(draft, asked, {}, user_of(request))
    where = request.url_for("api_check_job_status", job_id=job.id).path
    return {"id": job.id, "state": job.state, "status": where}


@api_router.get("/api/check/jobs/{job_id}", response_model=JobStatus, responses=_REFUSALS)
def api_check_job_status(job_id: str, request: Request) -> dict[str, Any]:
    """A job's progress: its stage and count, the stages so far; its result when done, its
    refusal when failed."""
    job = _jobs(request).get(job_id, owner_of(request))
    return job.status(translations(locale_of(request)))


def _web_options(form: Any, settings: ServerSettings) -> WebCheckRequest:
    options = check_options(form, settings)
    provider = _provider(text(form, "web"))
    given = text(form, "queries").strip()
    queries = int(number(form, "queries", 1, 1, MAX_QUERIES)) if given else None
    search = replace(options.search, queries=queries)
    return WebCheckRequest(replace(options, search=search), provider, bool(form.get("web_index")))


@page_router.post("/check/web")
async def check_web_submit(request: Request, settings: Settings) -> Response:
    form = await request.form()
    kept = check_form(settings, form)
    try:
        number(form, "pass_mark", 0, 0, 100)
        options = _web_options(form, settings)
        draft = await side(request, form, "draft")
        job = _jobs(request).start(draft, options, kept, user_of(request))
    except FieldError as exc:
        context = check_context(settings, kept)
        return page(request, "check.html", exc.status, result=None, error=exc, **context)
    return redirect_to(request, "check_web_view", job_id=job.id)


@page_router.get("/check/web/{job_id}")
def check_web_view(request: Request, settings: Settings, job_id: str) -> Response:
    try:
        job = _jobs(request).get(job_id, owner_of(request))
    except FieldError as exc:
        context = check_context(settings, check_form(settings))
        return page(request, "check.html", exc.status, result=None, error=exc, **context)
    return _job_page(request, settings, job)


def _job_page(request: Request, settings: ServerSettings, job: WebJob) -> Response:
    context = check_context(settings, job.form or check_form(settings))
    status = job.status(translations(locale_of(request)))
    where = request.url_for("api_check_job_status", job_id=job.id).path
    lang = locale_of(request)
    context |= {"web_job": status, "web_status": f"{where}?lang={lang}", "stage_names": STAGES}
    if job.state == "failed" and job.error is not None:
        return page(request, "check.html", job.error.status, result=None, error=job.error,
                     **context)  # fmt: skip
    if job.state == "done" and job.result is not None:
        web = job.result.data["web"]
        return page(request, "check.html", result=job.result.view, web=web,
                     web_queries=job.result.queries, **context)  # fmt: skip
    return page(request, "check.html", result=None, **context)
