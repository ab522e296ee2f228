"""Phrase queries → the pages to compare: asked of a provider (or its cache), deduplicated by
normalized URL, the excluded left out, fetched concurrently and their main text extracted.

A URL is normalized for deduplication only (the page fetched is the one the provider gave):
scheme and host in lower case, ``www.`` and the default port dropped, the fragment and
tracking parameters (``utm_*``, ``yclid``, ``gclid``, ``fbclid``…) dropped, a trailing slash
dropped.  Each page remembers the first query that found it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ...errors import CanonError, FetchError
from ...records import record_dict
from ...sources.client import Politeness
from ...sources.collection import Item
from ...sources.documents import Document, page_document
from ...sources.fetch import FetchOptions
from ...sources.fetchall import fetch_all
from ...sources.search.cache import QueryCache
from ...sources.search.hits import Hit, Provider
from ..exclusion import Exclusion
from .queries import Query

__all__ = [
    "PRIVATE_RESULT",
    "Asked",
    "Found",
    "PageRecord",
    "ask_all",
    "candidates",
    "fetch_pages",
    "items_of",
    "normalized_url",
]

_TRACKING = frozenset({"yclid", "gclid", "fbclid", "_openstat", "ysclid", "from", "ref"})
_DEFAULT_PORTS = {"http": 80, "https": 443}
PER_HOST = 2  # pages of one site fetched at once, at most
PRIVATE_RESULT = (
    "a search result at a private or local address is fetched only when private results are allowed"
)


@dataclass(frozen=True)
class Asked:
    """One query: what was sent, how many results came, whether from the cache, and when."""

    query: str
    start: int
    end: int
    results: int
    cached: bool
    date: str

    def to_dict(self) -> dict[str, object]:
        return record_dict(self)


@dataclass(frozen=True)
class Found:
    """A page to compare: its URL and the query that found it first."""

    url: str
    query: str
    title: str = ""


@dataclass(frozen=True)
class PageRecord:
    """What became of one page found: ``compared``, ``failed`` (with the reason) or
    ``excluded``; when it was fetched and whether from the cache."""

    url: str
    query: str
    status: str
    reason: str | None = None
    fetched: str | None = None
    cached: bool = False

    def to_dict(self) -> dict[str, object]:
        return record_dict(self)


def normalized_url(url: str) -> str:
    """The form of ``url`` two results are compared by."""
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower().removeprefix("www.")
        port = parts.port
    except ValueError:
        return url.strip()
    scheme = parts.scheme.lower()
    netloc = host if port in (None, _DEFAULT_PORTS.get(scheme)) else f"{host}:{port}"
    params = [
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not (k.lower().startswith("utm_") or k.lower() in _TRACKING)
    ]  # fmt: skip
    path = parts.path.rstrip("/") or "/"
    return urlunsplit((scheme, netloc, path, urlencode(params), ""))


def ask_all(
    provider: Provider,
    queries: Sequence[Query],
    results: int,
    options: FetchOptions,
    cache: QueryCache | None,
    on_answer: Callable[[], None] | None = None,
) -> tuple[list[Asked], list[tuple[Query, list[Hit]]]]:
    """Each query's top ``results`` hits, from the cache when it has them, else asked of
    the provider (and kept), each query within ``options.deadline``; a provider's error stops
    the run (answers so far are kept).
    ``on_answer`` is called after each query."""
    asked: list[Asked] = []
    answers: list[tuple[Query, list[Hit]]] = []
    for query in queries:
        kept = cache.get(provider.identity, query.text, results) if cache else None
        if kept is not None:
            hits, date, cached = list(kept.hits), kept.date, True
        else:
            hits = provider.search(query.text, results, options)
            date = cache.put(provider.identity, query.text, results, hits) if cache else ""
            cached = False
        asked.append(Asked(query.text, query.start, query.end, len(hits), cached, date))
        answers.append((query, hits))
        if on_answer is not None:
            on_answer()
    return asked, answers


def candidates(
    answers: Sequence[tuple[Query, list[Hit]]], exclude: Exclusion, limit: int
) -> tuple[list[Found], list[PageRecord]]:
    """The pages to fetch (each normalized URL once, at most ``limit``), and the excluded."""
    seen: set[str] = set()
    found: list[Found] = []
    excluded: list[PageRecord] = []
    for query, hits in answers:
        for hit in hits:
            key = normalized_url(hit.url)
            if key in seen:
                continue
            seen.add(key)
            if exclude and exclude(hit.url):
                excluded.append(PageRecord(hit.url, query.text, "excluded"))
            elif len(found) < limit:
                found.append(Found(hit.url, query.text, hit.title))
    return found, excluded


def fetch_pages(
    found: Sequence[Found], options: FetchOptions, on_page: Callable[[], None] | None = None
) -> tuple[list[tuple[Found, Document]], list[PageRecord]]:
    """The pages fetched concurrently through the shared pool, each page's main text
    extracted; those that fail are recorded with their reason.  ``on_page`` is called after
    each page, fetched or failed."""
    by_url = {f.url: f for f in found}
    documents: list[tuple[Found, Document]] = []
    failed: list[PageRecord] = []
    politeness = Politeness(per_host=PER_HOST)
    for url, page in fetch_all([f.url for f in found], options, politeness):
        where = by_url[url]
        if isinstance(page, FetchError):
            failed.append(PageRecord(url, where.query, "failed", _reason(page)))
        else:
            try:
                documents.append((where, page_document(page)))
            except CanonError as exc:
                failed.append(PageRecord(url, where.query, "failed", _reason(exc), page.date))
        if on_page is not None:
            on_page()
    return documents, failed


def _reason(exc: CanonError) -> str:
    """The error's message without the URL it starts with; for a result at a private
    address, what it found and that such results are fetched only when allowed."""
    message = exc.message
    source = getattr(exc, "source", None)
    if source and message.startswith(f"{source}: "):
        message = message[len(source) + 2 :]
    if isinstance(exc, FetchError) and exc.reason == "private-address":
        found = message.split("; ", 1)[0]
        return f"{found}; {PRIVATE_RESULT}"
    return message


def items_of(documents: Sequence[tuple[Found, Document]]) -> list[Item]:
    return [Item(doc.source, text=doc.text) for _, doc in documents]
