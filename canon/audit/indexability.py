"""A page's row → what search engines are told about it, and, apart from that, what text it has.

Whether a page is *indexable* depends only on what the site tells a search engine: robots.txt
lets the URL be fetched, the answer is a 200 (not a redirect, an error or no answer at all), no
``noindex`` (or ``none``) in a robots meta tag or an ``X-Robots-Tag`` header, and no canonical
link to another URL.  The first of these that fails is the reason it is not:

====================  ============================================================
``blocked``           robots.txt disallows the URL: it was never fetched
``error``             no answer (connection, timeout, size...)
``redirect``          the URL redirects (its target is a row of its own)
``status``            an answer other than 200 (404, 410, 500...)
``noindex``           a robots meta tag or an ``X-Robots-Tag`` says ``noindex``
``canonicalized``     the canonical link names another URL
====================  ============================================================

What the page's main text is, is another matter, said by ``text`` for a page that answered 200:
``main`` (a main text), ``no-text`` (an HTML page without one, such as a home page of links),
``not-html`` (a PDF, an image...), ``unreadable`` (reading the page failed; an indexable page
so judged by its status and its ``X-Robots-Tag``, its meta tags being unknown).  Only pages
with a main text are compared.  Both are worked out from the facts an audit stores, so an
audit made before they were told apart is read the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import PageRow

__all__ = ["HTML_TYPES", "REASONS", "TEXTS", "Indexability", "indexability", "noindex"]

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
REASONS = ("blocked", "error", "redirect", "status", "noindex", "canonicalized")
TEXTS = ("main", "no-text", "not-html", "unreadable")


@dataclass(frozen=True)
class Indexability:
    """``indexable`` and, when it is not, the ``reason`` (one of :data:`REASONS`, else ``""``);
    ``text``: one of :data:`TEXTS` for a page that answered 200, else ``""``."""

    indexable: bool
    reason: str
    text: str


def noindex(value: str) -> bool:
    """Whether robots directives (a meta tag's or an ``X-Robots-Tag``, possibly naming a
    crawler: ``googlebot: noindex``) keep a page out of an index."""
    directives = {d.strip() for part in value.lower().split(",") for d in part.split(":")}
    return bool(directives & {"noindex", "none"})


def _reason(row: PageRow) -> str:
    if row.status == 0:
        return "blocked" if row.reason == "blocked" else "error"
    if row.reason == "redirect":
        return "redirect"
    if row.status != 200:
        return "status"
    if noindex(row.meta_robots) or noindex(row.x_robots):
        return "noindex"
    if row.canonical and row.canonical != row.url:
        return "canonicalized"
    return ""


def _text(row: PageRow) -> str:
    if row.status != 200:
        return ""
    if row.reason == "not-html" or row.content_type not in HTML_TYPES:
        return "not-html"
    if row.reason == "error":
        return "unreadable"
    return "main" if row.main_words > 0 else "no-text"


def indexability(row: PageRow) -> Indexability:
    """What search engines are told about the page of ``row``, and what text it has."""
    reason = _reason(row)
    return Indexability(not reason, reason, _text(row))
