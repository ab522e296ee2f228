"""The settings of an audit, each validated once: what to crawl and how, and how to analyse it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import OptionError
from ..sources.client import Politeness
from ..sources.crawl.addresses import Scope
from ..sources.crawl.page import ContentArea
from ..sources.fetch import FetchOptions

__all__ = ["URLS_PER_PAGE", "Analysis", "CrawlSettings"]

# The URLs a crawl keeps (fetched, queued or refused by robots.txt) are at most this many times
# its page limit: links found past that are not followed, so a site of endless links costs a
# bounded file and memory.
URLS_PER_PAGE = 4


def _private_off() -> FetchOptions:
    return FetchOptions(allow_private=False)


@dataclass(frozen=True)
class CrawlSettings:
    """What a crawl fetches: the sites of ``starts`` (URLs of pages or sitemaps), URLs matching
    ``include`` and none of ``exclude`` (RE2 patterns), at most ``max_pages`` pages (URLs
    refused by robots.txt not counted) and ``max_depth`` links from a start (None: any),
    keeping at most ``max_urls`` URLs found (``URLS_PER_PAGE`` times ``max_pages``);
    how: ``fetch`` (private addresses off by default), ``politeness``, ``workers`` processes
    reading pages, the content ``area``; for at most ``max_time`` seconds a run (None: no
    limit; a run stopped so resumes where it stopped)."""

    starts: tuple[str, ...]
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_pages: int = 10_000
    max_depth: int | None = None
    fetch: FetchOptions = field(default_factory=_private_off)
    politeness: Politeness = field(default_factory=Politeness)
    area: ContentArea = field(default_factory=ContentArea)
    workers: int = 1
    profiles: tuple[str, ...] = ("raw", "lemma")
    k: int = 4
    max_sitemaps: int = 200
    max_time: float | None = 3600.0

    @property
    def max_urls(self) -> int:
        return URLS_PER_PAGE * self.max_pages

    def __post_init__(self) -> None:
        if not self.starts:
            raise OptionError("sources", "are missing: give a site URL or a sitemap URL")
        for name in ("max_pages", "workers", "k", "max_sitemaps"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise OptionError(name, "must be a whole number of at least 1", value=value)
        Scope.of(self.starts, self.include, self.exclude)  # the patterns compile
        if self.max_time is not None and (
            not isinstance(self.max_time, int | float) or not self.max_time > 0
        ):
            raise OptionError(
                "max_time", "must be a number of seconds above 0", value=self.max_time
            )
        if self.max_depth is not None and (
            not isinstance(self.max_depth, int) or self.max_depth < 0
        ):
            raise OptionError(
                "max_depth", "must be a whole number, 0 or more", value=self.max_depth
            )


@dataclass(frozen=True)
class Analysis:
    """How the crawled pages are compared: near duplicates at Jaccard ``threshold`` or more
    (lemma shingles, MinHash + LSH, each pair verified exactly), a page ``contained`` in
    another when that much of its shingles are there, ``thin`` under ``min_words`` words of
    main text; pages that are not indexable (noindex, canonicalized elsewhere) left out unless
    ``include_nonindexable``.  Against the last audit of the same folder, a page's text has
    changed when the Jaccard of its shingles then and now is below ``changed_below``."""

    threshold: float = 0.9
    containment: float = 0.8
    min_words: int = 200
    include_nonindexable: bool = False
    profile: str = "lemma"
    num_perm: int = 128
    changed_below: float = 0.95

    def __post_init__(self) -> None:
        for name in ("threshold", "containment", "changed_below"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 < value <= 1:
                raise OptionError(name, f"must be in (0, 1], got {value}", value=value)
        if not isinstance(self.min_words, int) or self.min_words < 0:
            raise OptionError("min_words", "must be a whole number, 0 or more")
