"""URL → the bytes of a web page: the only code that touches the network.

Every fetch is bounded whatever the server does.  The URL is checked first (:mod:`.urls`);
each hop resolves its host once, checks every address and connects to one of those
(:mod:`.transport`, so DNS rebinding gets nowhere); connect and read timeouts apply to each
operation and one total deadline to the whole fetch, redirects included; the body is decoded
here a bounded step at a time (:mod:`.decoding`) and refused as soon as it passes the byte cap;
redirects are followed one checked hop at a time (loops named); the content type must be a
text; an optional on-disk cache (:mod:`.pagecache`) remembers whether a page came from a
private address.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from ..errors import FetchError, OptionError
from .decoding import DecodingError, decoder_for
from .headers import media_type, request_headers, shown
from .pagecache import Page, PageCache
from .redirects import REDIRECTS, next_hop
from .tls import tls_context

__all__ = [
    "TEXT_TYPES",
    "USER_AGENT",
    "CappedBody",
    "FetchOptions",
    "Page",
    "PageCache",
    "fetch",
    "fetch_error",
    "is_url",
]

USER_AGENT = "canon/0.1 (Russian text similarity checker)"
# Media types that hold a text canon can compare; anything else (PDF, images) is refused.
TEXT_TYPES = frozenset({"text/html", "application/xhtml+xml", "text/plain"})


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


@dataclass(frozen=True)
class FetchOptions:
    """How pages are fetched; the defaults suit a command-line user.

    ``connect_timeout`` and ``read_timeout`` bound each connect and each read; ``deadline``
    bounds the whole fetch (resolving, connecting, TLS, every read of every redirect hop): 30 s,
    ten times what a page from a healthy site needs, and short enough that a server trickling
    bytes cannot hold a check for longer.  ``max_bytes`` caps the body after decoding (and the
    bytes on the wire), 10 MB by default; a server passes its own cap for pages it fetches.
    """

    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    max_bytes: int = 10_000_000
    max_redirects: int = 5
    allow_private: bool = True
    cache_dir: Path | None = None
    user_agent: str = USER_AGENT
    deadline: float = 30.0

    def __post_init__(self) -> None:
        for name in ("connect_timeout", "read_timeout", "deadline"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not (0 < value < math.inf):
                raise OptionError(name, "must be a positive number of seconds", value=value)
        if not isinstance(self.max_bytes, int) or self.max_bytes < 1:
            raise OptionError("max_bytes", "must be a whole number of bytes, at least 1")
        if not isinstance(self.max_redirects, int) or self.max_redirects < 0:
            raise OptionError("max_redirects", "must be a whole number, 0 or more")
        if not (self.user_agent.isascii() and self.user_agent.isprintable()):
            raise OptionError("user_agent", "must be printable ASCII", value=self.user_agent)


# --------------------------------------------------------------------------- responses


def _too_large(url: str, limit: int, size: int | None = None) -> FetchError:
    said = f"the page is {size:,} bytes" if size is not None else "the page is"
    return FetchError(url, f"{said} over the {limit:,}-byte cap", reason="too-large")


class CappedBody:
    """A body fed a chunk at a time as it arrives, decoded (``Content-Encoding``) and refused
    the moment it, or its raw form, passes the cap; :meth:`finish` gives the decoded bytes."""

    def __init__(self, url: str, headers: Any, options: FetchOptions) -> None:
        self.url = url
        self.limit = options.max_bytes
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            raise FetchError(
                url,
                f"the page is {int(declared):,} bytes, over the {self.limit:,}-byte cap",
                reason="too-large",
            )
        self.parts: list[bytes] = []
        self.raw = self.size = 0
        try:
            self.decoder = decoder_for(headers.get("content-encoding", ""))
        except DecodingError as exc:
            raise self._undecodable(exc) from exc

    def _undecodable(self, exc: DecodingError) -> FetchError:
        return FetchError(self.url, f"the body cannot be decoded ({exc})", reason="decoding")

    def _keep(self, pieces: Iterable[bytes]) -> None:
        for piece in pieces:
            self.size += len(piece)
            if self.size > self.limit:
                raise _too_large(self.url, self.limit)
            self.parts.append(piece)

    def feed(self, chunk: bytes) -> None:
        self.raw += len(chunk)
        if self.raw > self.limit:
            raise _too_large(self.url, self.limit)
        try:
            self._keep(self.decoder.feed(chunk))
        except DecodingError as exc:
            raise self._undecodable(exc) from exc

    def finish(self) -> bytes:
        try:
            self._keep(self.decoder.finish())
        except DecodingError as exc:
            raise self._undecodable(exc) from exc
        return b"".join(self.parts)


def _read_capped(url: str, chunks: Iterator[bytes], headers: Any, options: FetchOptions) -> bytes:
    """The decoded body, refused the moment it (or its raw form) passes the cap."""
    body = CappedBody(url, headers, options)
    for chunk in chunks:
        body.feed(chunk)
    return body.finish()


def _page(
    url: str,
    final: Any,
    response: Any,
    headers: Any,
    options: FetchOptions,
    types: frozenset[str] = TEXT_TYPES,
) -> Page:
    status = response.status
    if status >= 400:
        phrase = shown(response.extensions.get("reason_phrase", b"").decode("latin-1"))
        raise FetchError(url, f"HTTP {status} {phrase}".rstrip(), reason="status")
    media, charset = media_type(headers)
    if media and media not in types:
        raise FetchError(
            url,
            f"the content type is {shown(media)}, not a web page or plain text; "
            "canon compares HTML and text",
            reason="content-type",
        )
    body = _read_capped(url, response.iter_stream(), headers, options)
    date = shown(headers.get("date", "")) or format_datetime(datetime.now(UTC), True)
    return Page(url, str(final), status, media, charset, date, body)


# --------------------------------------------------------------------------- requests


def _get(url: str, options: FetchOptions, deadline: Any, types: frozenset[str]) -> Page:
    import httpcore
    import httpx

    from .transport import PinnedBackend
    from .urls import parse_url

    target = parse_url(url)
    backend = PinnedBackend(deadline, options.allow_private)
    read = options.read_timeout
    timeouts = {"connect": options.connect_timeout, "read": read, "write": read, "pool": read}
    tls = tls_context()
    visited = [str(target)]
    with httpcore.ConnectionPool(ssl_context=tls, network_backend=backend, retries=0) as pool:
        for _ in range(options.max_redirects + 1):
            core_url = httpcore.URL(
                scheme=target.raw_scheme,
                host=target.raw_host,
                port=target.port,
                target=target.raw_path,
            )
            headers = request_headers(target, options.user_agent)
            extensions = {"timeout": timeouts}
            with pool.stream("GET", core_url, headers=headers, extensions=extensions) as response:
                answer = httpx.Headers(response.headers)
                if response.status not in REDIRECTS:
                    return replace(
                        _page(url, target, response, answer, options, types),
                        private=backend.private,
                    )
                target = next_hop(url, target, answer, visited)
                visited.append(str(target))
            deadline.check()
    raise FetchError(url, f"more than {options.max_redirects} redirects", reason="redirect")


def fetch(
    url: str, options: FetchOptions | None = None, types: frozenset[str] = TEXT_TYPES
) -> Page:
    """Fetch ``url`` (from the cache when one is given and holds it); errors are FetchError.
    A content type other than ``types`` (HTML and text; a sitemap's reader gives its own) is
    refused."""
    options = options or FetchOptions()
    cache = PageCache(options.cache_dir) if options.cache_dir else None
    if cache and (page := cache.get(url, options.allow_private, options.max_bytes)):
        return page
    page = _fetch(url, options, types)
    if cache:
        cache.put(page)
    return page


def _fetch(url: str, options: FetchOptions, types: frozenset[str] = TEXT_TYPES) -> Page:
    # The network stack (httpx loads click and rich for its own command line) is imported on
    # first fetch, so that reading files and rendering reports never load it.
    from .transport import Deadline

    try:
        return _get(url, options, Deadline(options.deadline), types)
    except Exception as exc:
        failure = fetch_error(url, exc, options)
        if failure is None:
            raise
        raise failure from exc


def fetch_error(url: str, exc: BaseException, options: FetchOptions) -> FetchError | None:
    """What a failure of the network stack means for the fetch of ``url``, as a FetchError;
    None for an exception that is not the network's (a bug, to be raised as it is)."""
    import httpcore

    from .transport import DeadlinePassed, Refusal

    if isinstance(exc, FetchError):
        return exc
    if isinstance(exc, DeadlinePassed | TimeoutError):  # the total deadline, sync or async
        return FetchError(
            url,
            f"not fetched within the {options.deadline:g}-second deadline "
            "(connecting and reading, redirects included)",
            reason="deadline",
        )
    if isinstance(exc, Refusal):
        return FetchError(url, exc.message, reason=exc.reason)
    if isinstance(exc, httpcore.ConnectTimeout):
        return FetchError(
            url, f"connection timed out after {options.connect_timeout:g} s", reason="timeout"
        )
    if isinstance(exc, httpcore.TimeoutException):
        return FetchError(
            url, f"no answer within {options.read_timeout:g} s (read timeout)", reason="timeout"
        )
    if isinstance(exc, httpcore.ConnectError):
        return FetchError(url, f"cannot connect ({_reason(exc)})", reason="connect")
    if isinstance(exc, httpcore.NetworkError | httpcore.ProtocolError):
        return FetchError(url, f"{type(exc).__name__}: {_reason(exc)}", reason="http")
    return None


def _reason(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    if "refused" in text.lower():
        return "connection refused"
    return shown(text.splitlines()[0])
