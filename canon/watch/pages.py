"""Sources → the pages a watch keeps: page URLs, lists of them (``@urls.txt``, one a line,
``#`` starting a comment) and sitemaps (a URL whose path ends in ``.xml`` or ``.xml.gz``),
each page fetched under the fetch rules and its main text, title and canonical link kept;
pages already fetched (by a crawl of the site) are kept as they are, never fetched again.
Pages are removed from a watch with their copies and changes (:func:`remove_pages`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import CanonError, FetchError, InputError
from ..extras import require
from ..records import record_dict
from ..sources.client import Politeness
from ..sources.documents import page_document
from ..sources.fetch import FetchOptions, fetch, is_url
from ..sources.fetchall import fetch_all
from ..sources.pagecache import Page
from .lock import locked
from .own import site_name
from .records import WatchedPage
from .store import WatchStore

__all__ = ["MAX_PAGES", "AddReport", "RemoveReport", "add_pages", "page_urls", "remove_pages"]

MAX_PAGES = 10_000  # pages one watch keeps at most
MAX_SITEMAPS = 50  # sitemaps read for one source at most (an index and its children)
PER_HOST = 2  # pages of one site fetched at once


@dataclass(frozen=True)
class AddReport:
    """Pages added (or refreshed), the sources that failed with the reason, and the pages a
    crawl found but did not keep, with why (``noindex``, ``canonicalized``...)."""

    added: tuple[str, ...]
    failed: tuple[tuple[str, str], ...] = field(default=())
    skipped: tuple[tuple[str, str], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return record_dict(
            self,
            failed=[{"source": s, "reason": r} for s, r in self.failed],
            skipped=[{"url": u, "reason": r} for u, r in self.skipped],
        )


@dataclass(frozen=True)
class RemoveReport:
    """Pages no longer watched, and the URLs given that the watch did not hold."""

    removed: tuple[str, ...]
    missing: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def _listed(source: str) -> list[str]:
    path = Path(source[1:])
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            f"{path}: cannot read the list of pages ({exc})", source=str(path), reason="unreadable"
        ) from None
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def _is_sitemap(url: str) -> bool:
    return urlsplit(url).path.lower().endswith((".xml", ".xml.gz"))


def _sitemap_pages(url: str, options: FetchOptions) -> list[str]:
    """The page URLs a sitemap (or a sitemap index, followed) lists."""
    require("audit", "reading a sitemap")
    from ..sources.crawl.sitemaps import SITEMAP_TYPES, read_sitemap

    pages: list[str] = []
    todo, seen = [url], set[str]()
    while todo and len(seen) < MAX_SITEMAPS:
        current = todo.pop(0)
        if current in seen:
            continue
        seen.add(current)
        body = fetch(current, options, SITEMAP_TYPES).body
        sitemap = read_sitemap(current, body, options.max_bytes)
        pages.extend(sitemap.pages)
        todo.extend(sitemap.sitemaps)
    return pages


def page_urls(sources: Sequence[str], options: FetchOptions) -> list[str]:
    """The page URLs the sources name, each once, in order."""
    urls: list[str] = []
    for source in sources:
        for item in _listed(source) if source.startswith("@") else [source]:
            if not is_url(item):
                raise InputError(
                    f"{item}: not a page's address (http:// or https://)",
                    source=item, reason="not-http",
                )  # fmt: skip
            urls.extend(_sitemap_pages(item, options) if _is_sitemap(item) else [item])
    return list(dict.fromkeys(urls))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def add_pages(
    folder: Path,
    sources: Sequence[str],
    options: FetchOptions | None = None,
    *,
    allow: Sequence[str] = (),
    whole_page: bool = False,
    fetched: Iterable[Page] = (),
) -> AddReport:
    """Fetch the pages ``sources`` name into the watch in ``folder`` (made when missing), and
    allow the sites ``allow`` names to republish them.  A page added again has its text
    refreshed and keeps its history.  ``options`` (default: :class:`FetchOptions`) say how
    pages are fetched; with ``whole_page``, all of a page's visible text is kept, not just its
    main text.  ``fetched`` are pages fetched already (a crawl's), kept after the sources'
    without being fetched again."""
    options = options or FetchOptions()
    sites = [site_name(a) for a in allow]
    urls = page_urls(sources, options)
    if len(urls) > MAX_PAGES:
        raise InputError(
            f"the sources name {len(urls):,} pages, more than {MAX_PAGES:,} a watch keeps",
            reason="too-many",
        )
    added: list[str] = []
    failed: list[tuple[str, str]] = []
    with WatchStore(folder, create=True) as store:
        store.allow(sites)
        got = fetch_all(urls, options, Politeness(per_host=PER_HOST))
        for url, page in chain(got, ((p.url, p) for p in fetched)):
            if isinstance(page, FetchError):
                failed.append((url, page.message.removeprefix(f"{url}: ")))
                continue
            try:
                doc = page_document(page, whole_page=whole_page)
            except CanonError as exc:
                failed.append((url, exc.message.removeprefix(f"{url}: ")))
                continue
            final = doc.final_url if doc.final_url != url else None
            store.put_page(WatchedPage(url, final, doc.canonical, doc.title, doc.text, _now()))
            added.append(url)
    return AddReport(tuple(added), tuple(failed))


def remove_pages(folder: Path, urls: Sequence[str]) -> RemoveReport:
    """Stop watching the pages at ``urls`` (as they were added) in the watch in ``folder``:
    each goes with its copies and changes, in one transaction.  Refused while a run of the
    watch is going on (its plan names the pages)."""
    with WatchStore(folder) as store, locked(folder):
        removed = store.remove_pages(urls)
    gone = set(removed)
    return RemoveReport(tuple(removed), tuple(u for u in dict.fromkeys(urls) if u not in gone))
