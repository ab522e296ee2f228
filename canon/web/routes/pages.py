"""Forms → HTML pages: compare two texts (``/``), check a draft (``/check``), the index
(``/index``).  The pages draw the views of :mod:`canon.report.model` with the same templates
as the HTML reports, in the request's language (:mod:`canon.web.i18n`).  The index page, and
the check against the index, exist only on a server with an index (:data:`index_router`); the
check page itself (:data:`check_router`) also on a server with a search provider and no index,
where it checks against the web only.  A page keeps every value of its form after a submit, so
that a user can change one and submit again."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from markupsafe import Markup
from starlette.datastructures import FormData, UploadFile

from ...profile import BUILTIN_PROFILES
from ...report.html import environment
from ...report.model.numbers import index_rows
from ...uniqueness.rewrites import THRESHOLD
from .. import jobs
from ..i18n import error_text, languages, locale_of, translations
from ..jobs import PAGE_KS, PAGE_PROFILES, Side
from ..running import in_worker, side_of
from ..said import said, said_parts
from ..service import (
    N_,
    UPLOAD_SUFFIXES,
    FieldError,
    configured_providers,
    index_profiles,
    index_stats,
    need_index,
)
from ..settings import ServerSettings, Settings
from ..webjobs import STAGE_LABELS

__all__ = ["PASS_MARK", "check_router", "index_router", "router"]

router = APIRouter(default_response_class=HTMLResponse)
index_router = APIRouter(default_response_class=HTMLResponse)  # needs an index
check_router = APIRouter(default_response_class=HTMLResponse)  # an index or a provider
templates = Jinja2Templates(env=environment())
PROVIDER_NAMES = {"searxng": N_("SearXNG"), "yandex": N_("Yandex"), "google": N_("Google")}


@pass_context
def _said(context: Any, text: str) -> Markup:
    return said(text, context["translations"], context["lang"])


@pass_context
def _said_parts(context: Any, text: str) -> str:
    return said_parts(text, context["translations"])


templates.env.globals.update(
    said=_said, said_parts=_said_parts, provider_names=PROVIDER_NAMES, stage_labels=STAGE_LABELS
)

PASS_MARK = 80.0  # the uniqueness (%) at and above which the headline figure is green
K_CHOICES = tuple(range(1, 11))


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    settings: ServerSettings = request.app.state.settings
    locale = locale_of(request)
    t = translations(locale)
    error = context.get("error")
    context.setdefault("error", None)
    context.setdefault("form", {})
    context.update(
        has_index=settings.index is not None,
        has_check=getattr(request.app.state, "check_page", False),
        has_audits=settings.audits is not None,
        suffixes=",".join(UPLOAD_SUFFIXES),
        translations=t,
        lang=locale,
        languages=languages(request, locale),
        keep_lang=f"?lang={locale}" if "lang" in request.query_params else "",
        error_message=error_text(error, t) if error is not None else "",
    )
    return templates.TemplateResponse(request, name, context, status_code=status)


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _number(form: FormData, name: str, default: float, low: float, high: float) -> float:
    """A number field of a form, within ``[low, high]``; a field error otherwise."""
    raw = _text(form, name).strip().replace(",", ".")
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        raise FieldError(
            f"{name}: give a number from {low:g} to {high:g}, not {raw[:20]!r}",
            name,
            key=N_("%(side)s: give a number from %(low)s to %(high)s"),
            params={"low": f"{low:g}", "high": f"{high:g}"},
        )
    return value


async def _side(request: Request, form: FormData, field: str) -> Side:
    """The side of a form: an uploaded file, a URL (fetched now) or the pasted text; at most
    one of them."""
    upload = form.get(f"{field}_file")
    has_file = isinstance(upload, UploadFile) and bool(upload.filename)
    url, text = _text(form, f"{field}_url"), _text(form, f"{field}_text")
    if sum((has_file, bool(url.strip()), bool(text.strip()))) > 1:
        raise FieldError(
            f"{field}: give a text, a URL or a file, one of them",
            field,
            key=N_("%(side)s: fill in one of text, URL or file, not several"),
        )
    if has_file:
        assert isinstance(upload, UploadFile)
        return Side(field, upload_name=upload.filename or "", upload=await upload.read())
    if not url.strip() and not text.strip():
        raise FieldError(
            f"{field}: the text is empty",
            field,
            key=N_("%(side)s is empty: paste a text, give a URL or upload a file"),
        )
    return await side_of(request, field, text=text, url=url)


def _kept(form: FormData, *names: str) -> dict[str, Any]:
    """The values of a submitted form, to fill it in again."""
    kept: dict[str, Any] = {name: _text(form, name) for name in names}
    kept["profiles"] = [p for p in form.getlist("profiles") if isinstance(p, str)]
    kept["skip_quotes"] = bool(form.get("skip_quotes"))
    return kept


def _compare_form(form: FormData | None = None) -> dict[str, Any]:
    if form is None:
        return {"k": str(PAGE_KS[0]), "profiles": list(PAGE_PROFILES)}
    return _kept(form, "first_text", "first_url", "second_text", "second_url", "k")


@router.get("/")
def compare_page(request: Request) -> HTMLResponse:
    return _page(request, "compare.html", result=None, form=_compare_form(), **_compare_choices())


def _compare_choices() -> dict[str, Any]:
    return {"k_choices": K_CHOICES, "profile_choices": tuple(BUILTIN_PROFILES)}


def _compare_options(form: FormData) -> tuple[list[int], list[str]]:
    k = int(_number(form, "k", PAGE_KS[0], K_CHOICES[0], K_CHOICES[-1]))
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
        sides = [await _side(request, form, field) for field in ("first", "second")]
        result = await in_worker(request, jobs.compare_page, *sides, ks, profiles)
    except FieldError as exc:
        return _page(
            request, "compare.html", exc.status, result=None, error=exc, form=kept,
            **_compare_choices(),
        )  # fmt: skip
    return _page(request, "compare.html", result=result, form=kept, **_compare_choices())


def _profiles_of(settings: ServerSettings) -> tuple[tuple[str, int], ...]:
    """The index's profiles and their k; none on a server without an index (web only)."""
    return index_profiles(settings.index) if settings.index is not None else ()


def _check_form(settings: ServerSettings, form: FormData | None = None) -> dict[str, Any]:
    defaults = {
        "profiles": [p for p, _ in _profiles_of(settings)],
        "sentence_threshold": f"{THRESHOLD:g}",
        "min_shared": "3",
        "pass_mark": f"{PASS_MARK:g}",
        "web_index": True,
    }
    if form is None:
        return defaults
    names = ("draft_text", "draft_url", "exclude", "sentence_threshold", "min_shared")
    kept = _kept(form, *names, "pass_mark", "web", "queries")
    kept["web_index"] = bool(form.get("web_index"))
    return kept if "pass_mark" in form else {**kept, **defaults}


def _exclusions(form: FormData) -> list[str]:
    # One entry a line: a comma may belong to a pattern (re:a{1,3}).
    return [p.strip() for p in _text(form, "exclude").splitlines() if p.strip()]


def _check_options(form: FormData, settings: ServerSettings) -> dict[str, Any]:
    known = [p for p, _ in _profiles_of(settings)]
    profiles = [p for p in form.getlist("profiles") if isinstance(p, str)] if known else []
    if known and "pass_mark" in form and (not profiles or any(p not in known for p in profiles)):
        raise FieldError(
            "profiles: choose at least one of " + ", ".join(known),
            "profiles",
            key=N_("%(side)s: choose at least one"),
        )
    return {
        "profiles": profiles or None,
        "exclude": _exclusions(form),
        "skip_quotes": bool(form.get("skip_quotes")),
        "sentence_threshold": _number(form, "sentence_threshold", THRESHOLD, 0.05, 1),
        "min_shared": int(_number(form, "min_shared", 3, 1, 1000)),
    }


def _check_context(settings: ServerSettings, form: dict[str, Any]) -> dict[str, Any]:
    try:
        mark = float(str(form.get("pass_mark") or PASS_MARK).replace(",", "."))
    except ValueError:
        mark = PASS_MARK
    return {
        "form": form,
        "pass_mark": mark,
        "index_profiles": _profiles_of(settings),
        "providers": configured_providers(),
    }


@check_router.get("/check")
def check_page(request: Request, settings: Settings) -> HTMLResponse:
    context = _check_context(settings, _check_form(settings))
    return _page(request, "check.html", result=None, **context)


@index_router.post("/check")
async def check_submit(request: Request, settings: Settings) -> HTMLResponse:
    form = await request.form()
    context = _check_context(settings, _check_form(settings, form))
    try:
        _number(form, "pass_mark", PASS_MARK, 0, 100)
        options = _check_options(form, settings)
        draft = await _side(request, form, "draft")
        result = await in_worker(request, jobs.check_page, draft, options)
    except FieldError as exc:
        return _page(request, "check.html", exc.status, result=None, error=exc, **context)
    return _page(request, "check.html", result=result, **context)


@index_router.get("/index")
def index_page(request: Request, settings: Settings) -> HTMLResponse:
    stats = index_stats(need_index(settings))
    return _page(request, "index.html", rows=index_rows(stats, locale_of(request)))
