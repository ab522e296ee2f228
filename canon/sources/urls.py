"""A URL as typed, or a redirect's Location → a checked ``httpx.URL``, or a FetchError.

Checked before anything touches the network: the scheme is http or https, the host is there
and is a host name or an IP address, the port is a number from 1 to 65535.  A malformed URL
(``http://[::1``, port 99999, no host) is a ``bad-url`` error, another scheme ``not-http``:
never an exception from deeper down.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

import httpx

from ..errors import FetchError

__all__ = ["follow", "parse_url"]

# Letters, digits, '-', '_' and dots: what a DNS name (IDNA-encoded by httpx) is made of.
_HOST_NAME = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?")
_SHOWN = 200  # characters of a foreign value (a Location header) quoted in a message
_LONG = 2000  # a URL longer than this, or with control characters, is shown shortened


def _shown(value: str) -> str:
    clean = "".join(c if c.isprintable() else "?" for c in value)
    return clean if len(clean) <= _SHOWN else clean[:_SHOWN] + "…"


def _split_problem(text: str) -> str | None:
    """What :func:`urllib.parse.urlsplit` finds wrong with ``text`` (None: nothing)."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        if "Invalid IPv6 URL" in str(exc):
            return "the [ ] around its host do not match"
        if "address" in str(exc):
            return "its host in [ ] is not a valid IPv6 address"
        if "Port" in str(exc):
            return "its port is not a number from 1 to 65535"
        return "it is not a valid URL"
    if parts.scheme.lower() in ("http", "https") and port == 0:
        return "its port is not a number from 1 to 65535"
    return None


def _host_problem(url: httpx.URL) -> str | None:
    host = url.host
    if not host:
        return "it has no host"
    if ":" in host:
        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return "its host in [ ] is not a valid IPv6 address"
        return None
    try:
        ascii_host = url.raw_host.decode("ascii")
    except UnicodeDecodeError:
        return "its host is not a valid host name"
    if not _HOST_NAME.fullmatch(ascii_host) or len(ascii_host) > 253:
        return "its host is not a valid host name"
    return None


def _check(text: str) -> tuple[httpx.URL | None, str | None, str]:
    """(the URL, or None and the problem, and the reason of that problem)."""
    problem = _split_problem(text)
    if problem:
        return None, problem, "bad-url"
    try:
        url = httpx.URL(text)
    except (httpx.InvalidURL, UnicodeError, ValueError, TypeError):
        return None, "it is not a valid URL", "bad-url"
    if url.scheme not in ("http", "https"):
        return None, "it is not an http(s) URL", "not-http"
    if url.port is not None and not 1 <= url.port <= 65535:
        return None, "its port is not a number from 1 to 65535", "bad-url"
    problem = _host_problem(url)
    return (None, problem, "bad-url") if problem else (url, None, "")


def parse_url(text: str) -> httpx.URL:
    """``text`` as a URL canon may fetch; FetchError (``bad-url`` or ``not-http``) if not."""
    url, problem, reason = _check(text)
    if url is None:
        message = "not an http(s) URL" if reason == "not-http" else f"not a usable URL: {problem}"
        shown = text if text.isprintable() and len(text) <= _LONG else _shown(text)
        raise FetchError(shown, message, reason=reason)
    return url


def follow(source: str, current: httpx.URL, location: str) -> httpx.URL:
    """The URL a redirect from ``current`` points to; errors name the first URL, ``source``."""
    location = location.strip()
    try:
        absolute = bool(urlsplit(location).scheme)
        target: httpx.URL | None = current.join(location)
    except (httpx.InvalidURL, UnicodeError, ValueError, TypeError):
        absolute, target = False, None
    url, problem, reason = None, None, ""
    if absolute:  # checked as written: joining would quietly fill in a missing host
        url, problem, reason = _check(location)
    if target is not None and (url is not None or not absolute):
        url, problem, reason = _check(str(target))
    if url is None:
        why = problem or "it is not a valid URL"
        raise FetchError(
            source,
            f"redirected to {_shown(location)!r}, which canon cannot follow: {why}",
            reason=reason or "bad-url",
        )
    return url
