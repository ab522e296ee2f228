"""Forms → HTML pages: compare two texts (``/``), check a draft (``/check``), the index
(``/index``).  The pages draw the views of :mod:`canon.report.model` with the same templates
as the HTML reports, in the request's language (:mod:`canon.web.i18n`).  The index page, and
the check against the index, exist only on a server with an index (:data:`index_router`); the
check page itself (:data:`check_router`) also on a server with a search provider and no index,
where it checks against the web only.  A page keeps every value of its form after a submit, so
that a user can change one and submit again.  Every page is drawn by :func:`.render.page`, reads
its fields through :mod:`.forms`; the check form is :mod:`.checkform`, shared with the web
check."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.datastructures import FormData

from ...profile import BUILTIN_PROFILES
from ...report.model.numbers import index_rows
from .. import jobs
from ..i18n import locale_of
from ..jobs import PAGE_KS, PAGE_PROFILES
from ..running import in_worker
from ..service import N_, FieldError, index_stats, need_index
from ..settings import Settings
from .checkform import PASS_MARK, check_context, check_form, check_options
from .forms import kept, number, side
from .render import page

__all__ = ["check_router", "index_router", "router"]

router = APIRouter(default_response_class=HTMLResponse)
index_router = APIRouter(default_response_class=HTMLResponse)  # needs an index
check_router = APIRouter(default_response_class=HTMLResponse)  # an index or a provider
K_CHOICES = tuple(range(1, 11))


def _compare_form(form: FormData | None = None) -> dict[str, Any]:
    if form is None:
        return {"k": str(PAGE_KS[0]), "profiles": list(PAGE_PROFILES)}
    return kept(form, "first_text", "first_url", "second_text", "second_url", "k")


@router.get("/")
def compare_page(request: Request) -> HTMLResponse:
    return page(request, "compare.html", result=None, form=_compare_form(), **_compare_choices())


def _compare_choices() -> dict[str, Any]:
    return {"k_choices": K_CHOICES, "profile_choices": tuple(BUILTIN_PROFILES)}


def _compare_options(form: FormData) -> tuple[list[int], list[str]]:
    k = int(number(form, "k", PAGE_KS[0], K_CHOICES[0], K_CHOICES[-1]))
    profiles = [p for p in form.getlist("profiles") if isinstance(p, str)]
    unknown = [p for p in profiles if p not in BUILTIN_PROFILES]
    if unknown or (form.getlist("profiles") == [] and "k" in form):
        raise FieldError(
            "profiles: choose at least one of " + ", ".join(BUILTIN_PROFILES),
            "profiles",
            key=N_("%(side)s: choose at least one"),
        )
    return [k, k + 1, k + 2], profiles or list(PAGE_PROFILES)


@router.post("/")
async def compare_submit(request: Request) -> HTMLResponse:
    form = await request.form()
    kept = _compare_form(form)
    if "k" not in form:  # a bare form (as the API's clients post): the page's defaults
        kept.update(_compare_form())
    try:
        ks, profiles = _compare_options(form)
        sides = [await side(request, form, field) for field in ("first", "second")]
        result = await in_worker(request, jobs.compare_page, *sides, ks, profiles)
    except FieldError as exc:
        return page(
            request, "compare.html", exc.status, result=None, error=exc, form=kept,
            **_compare_choices(),
        )  # fmt: skip
    return page(request, "compare.html", result=result, form=kept, **_compare_choices())


@check_router.get("/check")
def check_page(request: Request, settings: Settings) -> HTMLResponse:
    context = check_context(settings, check_form(settings))
    return page(request, "check.html", result=None, **context)


@index_router.post("/check")
async def check_submit(request: Request, settings: Settings) -> HTMLResponse:
    form = await request.form()
    context = check_context(settings, check_form(settings, form))
    try:
        number(form, "pass_mark", PASS_MARK, 0, 100)
        options = check_options(form, settings)
        draft = await side(request, form, "draft")
        result = await in_worker(request, jobs.check_page, draft, options)
    except FieldError as exc:
        return page(request, "check.html", exc.status, result=None, error=exc, **context)
    return page(request, "check.html", result=result, **context)


@index_router.get("/index")
def index_page(request: Request, settings: Settings) -> HTMLResponse:
    stats = index_stats(need_index(settings))
    return page(request, "index.html", rows=index_rows(stats, locale_of(request)))
