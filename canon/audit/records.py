"""A fetched URL → the row it gives; a crawl's progress and its report."""

from __future__ import annotations

import json
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from ..errors import CanonError
from ..sources.client import Fetched
from .indexability import HTML_TYPES, indexability
from .pages import Read, one_line, read_fields
from .state import PageRow, Queued

__all__ = [
    "HTML_TYPES",
    "CrawlProgress",
    "CrawlReport",
    "crawl_failure",
    "is_sitemap",
    "judged",
    "one_line",
    "page_row",
    "read_row",
]


@dataclass(frozen=True)
class CrawlProgress:
    """``done`` pages of ``done + queued`` known so far, ``errors`` among them."""

    done: int
    queued: int
    errors: int
    seconds: float
    in_flight: int

    @property
    def total(self) -> int:
        return self.done + self.queued

    @property
    def rate(self) -> float:
        return self.done / max(self.seconds, 1e-9)

    @property
    def note(self) -> str:
        return f"queue {self.queued} · in flight {self.in_flight} · errors {self.errors}"


@dataclass(frozen=True)
class CrawlReport:
    fetched: int  # pages fetched by this run (a resumed run counts only its own)
    pages: int  # pages the audit holds
    seconds: float
    most_in_flight: int
    left: int  # URLs found but not fetched (the page limit was reached)
    unfollowed: int = 0  # links this run did not follow: the audit held ``max_urls`` URLs
    max_urls: int = 0
    out_of_time: bool = False  # stopped at ``max_time`` seconds, the rest left for a resume
    max_time: float | None = None
    capped: tuple[tuple[str, float], ...] = ()  # hosts whose Crawl-delay asked more, and what
    max_crawl_delay: float = 0.0  # the Crawl-delay obeyed at most
    given_up: tuple[str, ...] = ()  # hosts not asked again after failing too often in a row


def crawl_failure(exc: BaseException) -> CanonError:
    """A failure that stops an audit (not one page's), as one line saying that what was done
    is kept and the audit resumes when run again."""
    if isinstance(exc, CanonError):
        return exc
    if isinstance(exc, BrokenProcessPool):
        what = "a process reading pages stopped abruptly (killed, or out of memory)"
    else:
        what = f"the audit failed ({one_line(exc)})"
    return CanonError(
        f"{what}; the pages done so far are kept: run the audit again to resume",
        reason="audit-failed",
    )


def is_sitemap(url: str) -> bool:
    path = urlsplit(url).path.lower()
    return path.endswith((".xml", ".xml.gz")) or "sitemap" in path.rsplit("/", 1)[-1]


def page_row(q: Queued, fetched: Fetched | None, **values: object) -> PageRow:
    page = fetched.page if fetched else None
    fields: dict[str, object] = {
        "url": q.url,
        "status": page.status if page else 0,
        "final_url": page.final_url if page else None,
        "redirects": json.dumps(list(fetched.redirects) if fetched else []),
        "content_type": page.media_type if page else None,
        "canonical": None,
        "meta_robots": "",
        "x_robots": fetched.x_robots if fetched else "",
        "title": None,
        "h1": None,
        "description": None,
        "main_words": 0,
        "page_words": 0,
        "indexable": False,
        "reason": "",
        "canonical_hash": None,
        "tries": fetched.tries if fetched else 0,
        "error": None,
        "depth": q.depth,
        "charset": page.charset if page else None,
        "html": None,
    }
    fields.update(values)
    row = PageRow(**fields)  # type: ignore[arg-type]  # a value per field, of the field's type
    return judged(row)


def judged(row: PageRow) -> PageRow:
    """``row`` with ``indexable`` as its facts say (:func:`~.indexability.indexability`)."""
    return replace(row, indexable=indexability(row).indexable)


def read_row(q: Queued, fetched: Fetched, read: Read) -> PageRow:
    import zstandard

    html = zstandard.ZstdCompressor(level=3).compress(fetched.page.body)
    return page_row(q, fetched, **read_fields(q.url, fetched.x_robots, read), html=html)
