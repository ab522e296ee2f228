"""An HTML page of a crawl → what an audit needs of it: its head's facts, links and texts.

The head's facts: ``<title>``, the first ``<h1>``, the meta description, ``rel=canonical``
(absolute), the ``robots`` meta directives.  Links: every ``<a href>`` resolved against the
page's URL (or its ``<base href>``), normalized, ``rel=nofollow`` ones left out, none at all
when the page says ``nofollow``.  Texts: the main text by trafilatura, as every other page
canon reads (:func:`canon.sources.extract.extract_html`), after the content area is narrowed
by CSS selectors to keep and to drop (lxml's cssselect), and all visible text of the page.
All of them are read from one parse of the page (:class:`~canon.sources.htmlpage.HtmlPage`);
a narrowed content area is read from a copy of it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from ...errors import CanonError, OptionError
from ..extract import extract_html, main_extracted
from ..htmlpage import HtmlPage
from ..limits import ReadLimits
from .addresses import normalize

__all__ = ["ContentArea", "PageFacts", "page_facts"]


@dataclass(frozen=True)
class ContentArea:
    """The part of a page taken as its content: the elements ``keep`` selects (all of the
    body when none), less those ``drop`` selects; then trafilatura finds the main text."""

    keep: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for option, selectors in (("content_keep", self.keep), ("content_drop", self.drop)):
            for selector in selectors:
                _selector(option, selector)

    @property
    def narrowed(self) -> bool:
        return bool(self.keep or self.drop)


def _selector(option: str, selector: str) -> Any:
    from cssselect import SelectorError
    from lxml.cssselect import CSSSelector

    try:
        return CSSSelector(selector)
    except (SelectorError, ValueError) as exc:
        raise OptionError(
            option, f"{selector!r} is not a CSS selector ({exc})", value=selector
        ) from exc


@dataclass(frozen=True)
class PageFacts:
    title: str | None
    h1: str | None
    description: str | None
    canonical: str | None
    robots: str
    links: tuple[str, ...]
    main_text: str
    page_text: str
    error: str | None = None  # why no main text was found, when it was not

    @property
    def noindex(self) -> bool:
        return "noindex" in self.robots or "none" in self.robots.split(",")


def _clean(value: str | None) -> str | None:
    text = " ".join((value or "").split())
    return text[:1000] or None


def _meta(tree: Any, name: str) -> str | None:
    for element in tree.iter("meta"):
        if (element.get("name") or "").strip().lower() == name:
            return _clean(element.get("content"))
    return None


def _canonical(tree: Any, base: str) -> str | None:
    for element in tree.iter("link"):
        rel = (element.get("rel") or "").lower().split()
        if "canonical" in rel and element.get("href"):
            return normalize(element.get("href"), base)
    return None


@lru_cache(maxsize=1 << 16)
def _normalized(href: str, base: str) -> str | None:
    return normalize(href, base)


def _link(href: str, base: str) -> str | None:
    """``href`` normalized; the links of a site's template (``/catalog/``, the same on every
    page) are normalized once per process: an absolute path depends only on the origin."""
    href = href.strip()
    if href.startswith("/") and not href.startswith("//"):
        parts = urlsplit(base)
        return _normalized(href, f"{parts.scheme}://{parts.netloc}/")
    return _normalized(href, base)


def _links(tree: Any, base: str, follow: bool) -> tuple[str, ...]:
    if not follow:
        return ()
    found: dict[str, None] = {}
    hrefs: dict[str, None] = {}
    for element in tree.iter("a"):
        href = element.get("href")
        if href and "nofollow" not in (element.get("rel") or "").lower().split():
            hrefs.setdefault(href)
    for href in hrefs:
        url = _link(href, base)
        if url is not None:
            found.setdefault(url)
    return tuple(found)


def _narrowed(tree: Any, area: ContentArea) -> str:
    """The page's HTML with only the content area left in its body."""
    import lxml.html

    for selector in area.drop:
        for element in _selector("content_drop", selector)(tree):
            if element.getparent() is not None:
                element.getparent().remove(element)
    if area.keep:
        body = tree.find("body")
        kept = [e for s in area.keep for e in _selector("content_keep", s)(tree)]
        if body is not None:
            for child in list(body):
                body.remove(child)
            body.text = None
            for element in kept:
                element.tail = None
                body.append(element)
    return str(lxml.html.tostring(tree, encoding="unicode"))


def _texts(page: HtmlPage, narrowed: str | None) -> tuple[str, str, str | None]:
    """The main text, the whole page's text and why there is no main text (None when there
    is); ``narrowed``: the markup of the content area, when the page's is narrowed."""
    page_text = page.visible()[0]
    try:
        if narrowed is not None:
            return extract_html(narrowed, page.source).text, page_text, None
        return main_extracted(page, titled=False).text, page_text, None
    except CanonError as exc:
        return "", page_text, str(exc)


def page_facts(
    html: str,
    url: str,
    area: ContentArea | None = None,
    limits: ReadLimits | None = None,
) -> PageFacts:
    """The facts, links and texts of the page ``html`` found at ``url`` (its final URL)."""
    import lxml.etree

    page = HtmlPage(html, url, limits)
    try:
        tree = page.root
    except (ValueError, lxml.etree.ParserError) as exc:
        return PageFacts(None, None, None, None, "", (), "", "", f"{url}: not HTML ({exc})")
    base_element = tree.find(".//base[@href]")
    base = normalize(base_element.get("href", ""), url) if base_element is not None else None
    base = base or url
    robots = ",".join(
        p.strip() for p in (_meta(tree, "robots") or "").lower().split(",") if p.strip()
    )
    h1 = next(iter(tree.iter("h1")), None)
    title = _clean(tree.findtext(".//title"))
    heading = _clean(h1.text_content()) if h1 is not None else None
    description, canonical = _meta(tree, "description"), _canonical(tree, base)
    links = _links(tree, base, "nofollow" not in robots and "none" not in robots)
    area = area or ContentArea()
    narrowed = _narrowed(copy.deepcopy(tree), area) if area.narrowed else None
    main, whole, error = _texts(page, narrowed)
    return PageFacts(title, heading, description, canonical, robots, links, main, whole, error)
