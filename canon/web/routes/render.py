"""A template → an HTML page in the request's language, with what every page's layout shows
(the server's rooms, the languages, a refusal said in the request's language).

The pages draw with the same Jinja environment as the HTML reports (:mod:`canon.report.html`),
plus the web's own names (the library's sentences are said by :mod:`canon.report.said`, as in
the reports).
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context

from ...report.html import environment
from ...report.model.numbers import grouped
from ..crosssite import FIELD, form_token
from ..i18n import LOCALES, error_text, languages, locale_of, translations
from ..service import N_, UPLOAD_SUFFIXES
from ..settings import ServerSettings
from ..signin import user_of
from ..webjobs import STAGE_LABELS

__all__ = ["PROVIDER_NAMES", "page", "templates"]

templates = Jinja2Templates(env=environment())
PROVIDER_NAMES = {"searxng": N_("SearXNG"), "yandex": N_("Yandex"), "google": N_("Google")}


@pass_context
def _grouped(context: Any, value: float, digits: int = 0) -> str:
    """A figure in the page's language, as the command line groups it (``2 320``)."""
    return grouped(value, digits, context["lang"])


@pass_context
def _url_for(context: Any, name: str, /, **params: Any) -> str:
    """The path of the route ``name``: links stay relative, whatever ``Host`` a request names
    (Starlette's own ``url_for`` writes absolute URLs from it)."""
    request: Request = context["request"]
    root: str = request.scope.get("root_path", "")
    return root + str(request.app.url_path_for(name, **params))


def redirect_to(request: Request, name: str, **params: Any) -> RedirectResponse:
    """A 303 to the page ``name``, by its path, in the language the request asked for."""
    lang = request.query_params.get("lang")
    where = request.scope.get("root_path", "") + str(request.app.url_path_for(name, **params))
    return RedirectResponse(where + (f"?lang={lang}" if lang in LOCALES else ""), 303)


templates.env.filters["grouped"] = _grouped
templates.env.globals.update(
    provider_names=PROVIDER_NAMES,
    stage_labels=STAGE_LABELS,
    url_for=_url_for,
    token_field=FIELD,
)


def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The template ``name`` rendered for ``request`` with ``context`` and the layout's."""
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
        form_token=form_token(request),
        user=user_of(request),
        signed_out=request.app.state.accounts is not None and user_of(request) is None,
        error_message=error_text(error, t) if error is not None else "",
    )
    return templates.TemplateResponse(request, name, context, status_code=status)
