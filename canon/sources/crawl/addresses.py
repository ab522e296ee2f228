"""A link → the URL a crawl knows it by, and whether the crawl goes there.

Normalization is courlan's (scheme and host in lower case, default port dropped, query
parameters sorted, tracking parameters such as ``utm_*``, ``fbclid``, ``gclid``, ``yclid``
removed), plus the Russian ad trackers courlan does not know (``_openstat``, ``from`` of
Yandex.Direct is left alone: sites use it for their own filters) and the fragment, which never
reaches a server.  A trailing slash is kept: ``/a`` and ``/a/`` are two URLs a server may
answer differently, and an audit reports them when it answers the same.

``--include`` and ``--exclude`` patterns are RE2 regular expressions searched in the whole
URL, so a pattern a user writes cannot take exponential time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ...errors import FetchError, OptionError

__all__ = ["Scope", "normalize", "site_of"]

# Trackers courlan's list lacks (it removes utm_*, fbclid, gclid, yclid, mc_* and more).
_MORE_TRACKERS = frozenset({"_openstat", "ysclid", "roistat", "etext", "cm_id"})


def normalize(link: str, base: str | None = None) -> str | None:
    """``link`` (resolved against ``base``) as an absolute http(s) URL without tracking
    parameters or fragment; None when it is no such URL (``mailto:``, ``javascript:``, a
    malformed one)."""
    import courlan
    import httpx

    from ..urls import parse_url

    try:
        absolute = str(httpx.URL(base).join(link.strip())) if base else link.strip()
        url = parse_url(absolute)
    except (FetchError, httpx.InvalidURL, ValueError, TypeError, UnicodeError):
        return None
    try:
        cleaned = courlan.normalize_url(str(url), strict=False, trailing_slash=True)
    except (ValueError, TypeError, UnicodeError):
        return None
    parts = urlsplit(cleaned)
    query = [(k, v) for k, v in parse_qsl(parts.query, True) if k.lower() not in _MORE_TRACKERS]
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode(query), ""))


def site_of(url: str) -> str:
    """The host (and port) a URL belongs to, as a crawl compares them: lower case, no
    ``www.``."""
    host = (urlsplit(url).netloc or "").lower()
    return host.removeprefix("www.")


def _compile(option: str, pattern: str) -> Any:
    import re2

    options = re2.Options()
    options.max_mem = 1 << 20
    options.log_errors = False
    options.never_capture = True
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raise OptionError(
            option, f"{pattern!r} is not a valid regular expression (RE2 syntax)", value=pattern
        ) from exc


@dataclass(frozen=True)
class Scope:
    """Which URLs a crawl fetches: those on ``sites`` (hosts, no ``www.``) matching one of
    ``include`` (when any is given) and none of ``exclude``."""

    sites: frozenset[str]
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "_include", [_compile("include", p) for p in self.include])
        object.__setattr__(self, "_exclude", [_compile("exclude", p) for p in self.exclude])

    @classmethod
    def of(
        cls, starts: Sequence[str], include: Sequence[str] = (), exclude: Sequence[str] = ()
    ) -> Scope:
        return cls(frozenset(site_of(u) for u in starts), tuple(include), tuple(exclude))

    def on_site(self, url: str) -> bool:
        return site_of(url) in self.sites

    def wanted(self, url: str) -> bool:
        if not self.on_site(url):
            return False
        # the compiled patterns, kept beside the fields by __post_init__ (not fields themselves)
        included: list[Any] = self._include  # type: ignore[attr-defined]
        excluded: list[Any] = self._exclude  # type: ignore[attr-defined]
        if included and not any(p.search(url) for p in included):
            return False
        return not any(p.search(url) for p in excluded)
