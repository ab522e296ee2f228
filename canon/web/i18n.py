"""A request → the language of its page: message catalogs read at start-up, the locale chosen by
``?lang=``, then ``Accept-Language``, else Russian; a refusal's message in that language.

The catalogs are gettext ``.po`` files under ``canon/web/locale/<lang>/LC_MESSAGES/`` with
English msgids; Babel reads them and compiles them in memory when the app starts, so a fresh
clone needs no build step.  The templates translate through Jinja's i18n extension
(``{{ _("…") }}``), with the request's translations in their context.  The JSON API keeps its
English messages: only pages are translated.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping

from babel.core import negotiate_locale
from fastapi import Request

from ..report.language import LOCALE_DIR, LOCALES, catalog
from .service import N_, FieldError

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "LOCALE_DIR",
    "N_",
    "error_text",
    "languages",
    "load_catalogs",
    "locale_of",
    "translations",
]

DEFAULT_LOCALE = "ru"


# Words the library and the presentation model hand to the pages, translated where shown.
MODEL_WORDS = (
    N_("characters"),
    N_("characters without spaces"),
    N_("words"),
    N_("unique lemmas"),
    N_("water"),
    N_("classic nausea"),
    N_("academic nausea"),
    N_("Zipf slope, R²"),
    N_("keywords"),
    N_("norm"),
    N_("high"),
    N_("low"),
    N_("steep"),
    N_("flat"),
    N_("look-alike letters"),
    N_("combining marks"),
    N_("invisible characters"),
    N_("hyphen"),
    N_("transliteration"),
    N_("spaced letters"),
    N_("hidden text"),
    N_("text"),
    N_("Word document"),
    N_("main text by trafilatura"),
    N_("whole page"),
    N_("draft"),
    N_("Jaccard"),
    N_("Dice"),
    N_("A in B"),
    N_("B in A"),
)

# How a page names the field an error belongs to.
FIELD_LABELS = {
    "first": N_("Text A"),
    "second": N_("Text B"),
    "draft": N_("The draft"),
    "text": N_("The text"),
    "k": N_("k"),
    "profiles": N_("Profiles"),
    "exclude": N_("Exclude"),
    "sentence_threshold": N_("Rewrite threshold"),
    "min_shared": N_("Shingles a source must share"),
    "pass_mark": N_("Pass mark"),
    "start": N_("Site URL"),
    "max_pages": N_("Pages, at most"),
    "max_depth": N_("Links deep"),
    "threshold": N_("Near-duplicate threshold"),
    "web": N_("Search provider"),
    "queries": N_("Queries, at most"),
}

# Messages of refusals without a key of their own, by the reason the library gives.
REASONS = {
    "private-address": N_("%(side)s: the address is private or local; this server fetches only public pages"),  # noqa: E501
    "timeout": N_("%(side)s: the page did not answer in time"),
    "deadline": N_("%(side)s: the page took too long to arrive"),
    "too-large": N_("%(side)s: the page is larger than this server accepts"),
    "status": N_("%(side)s: the server of the page answered with an error"),
    "connect": N_("%(side)s: the page's server cannot be reached"),
    "no-main-text": N_("%(side)s: the page has no main text"),
    "not-html": N_("%(side)s: the address is not an HTML page"),
    "content-type": N_("%(side)s: the address is not an HTML page or a text"),
}  # fmt: skip

# A search provider's refusals, by the reason the library gives; each names the provider.
SEARCH_REASONS = {
    "not-configured": N_("%(provider)s: this server has no settings for this search provider"),
    "unreachable": N_("%(provider)s: the search provider cannot be reached; try again later"),
    "bad-key": N_("%(provider)s: the search provider refused this server's key"),
    "quota": N_("%(provider)s: the search provider's quota is spent; try again when it resets"),
    "rate-limit": N_("%(provider)s: the search provider asks to slow down; try again later"),
    "refused": N_("%(provider)s: the search provider refused the query"),
    "bad-answer": N_("%(provider)s: the search provider's answer cannot be read"),
}


def translations(locale: str) -> gettext.NullTranslations:
    """The catalog of ``locale`` (one of :data:`LOCALES`), compiled in memory once: the
    report's own (:func:`canon.report.language.catalog`), which the reports speak too."""
    return catalog(locale)


def load_catalogs() -> None:
    """Reads every catalog now, so that a broken one stops the server at start-up."""
    for locale in LOCALES:
        translations(locale)


def _accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first."""
    weighted = []
    for position, part in enumerate(header.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*" and quality > 0:
            weighted.append((-quality, position, tag.strip().replace("-", "_")))
    return [tag for _, _, tag in sorted(weighted)]


def locale_of(request: Request) -> str:
    """The page's language: ``?lang=``, else the best of ``Accept-Language``, else Russian."""
    asked = request.query_params.get("lang", "")
    if asked in LOCALES:
        return asked
    preferred = _accepted(request.headers.get("accept-language", ""))
    for tag in preferred:
        chosen = negotiate_locale([tag], LOCALES) or negotiate_locale([tag.split("_")[0]], LOCALES)
        if chosen:
            return chosen
    return DEFAULT_LOCALE


def languages(request: Request, current: str) -> list[tuple[str, str, bool]]:
    """The language switch: ``(code, link, current)`` per locale, each link keeping the rest
    of the query."""
    links = []
    for locale in LOCALES:
        query = request.url.include_query_params(lang=locale).query
        links.append((locale, f"{request.url.path}?{query}", locale == current))
    return links


def _side(field: str | None, t: gettext.NullTranslations) -> str:
    return t.gettext(FIELD_LABELS.get(field or "", field or "")) if field else ""


def error_text(error: FieldError, t: gettext.NullTranslations) -> str:
    """A refusal as its page says it: its keyed message translated, else the library's
    message under a translated heading."""
    params: Mapping[str, object] = {**error.params, "side": _side(error.field, t)}
    searched = SEARCH_REASONS.get(error.reason or "") if "provider" in error.params else None
    key = error.key or searched or REASONS.get(error.reason or "")
    if key:
        return t.gettext(key) % params
    heading = t.gettext("The request was refused")
    return f"{heading}: {error.message}"
