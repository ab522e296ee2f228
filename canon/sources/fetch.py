"""URL → the bytes of a web page: the only code that touches the network.

A real HTTP client (httpx) with connect and read timeouts, a body cap enforced while the
body streams in (after decompression, so a compressed bomb is caught too), redirects followed
one hop at a time (each hop checked; loops named), a content-type check, an optional refusal
of private addresses, and an optional on-disk cache.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import os
import socket
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import FetchError, OutputError

__all__ = ["FetchOptions", "Page", "PageCache", "fetch", "is_url"]

USER_AGENT = "canon/0.1 (Russian text similarity checker)"
# Media types that hold a text canon can compare; anything else (PDF, images) is refused.
TEXT_TYPES = frozenset({"text/html", "application/xhtml+xml", "text/plain"})
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


@dataclass(frozen=True)
class FetchOptions:
    """How pages are fetched; the defaults suit a command-line user."""

    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    max_bytes: int = 10_000_000
    max_redirects: int = 5
    allow_private: bool = True
    cache_dir: Path | None = None
    user_agent: str = USER_AGENT


@dataclass(frozen=True)
class Page:
    """A fetched response: where it ended up, what it declared, and its (decompressed) body."""

    url: str
    final_url: str
    status: int
    media_type: str
    charset: str | None
    date: str
    body: bytes = field(repr=False)
    from_cache: bool = False


# --------------------------------------------------------------------------- addresses


def _resolve(url: str, host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(
            url, f"cannot resolve host {host} (DNS lookup failed)", reason="dns"
        ) from exc
    return [str(info[4][0]) for info in infos]


def _is_private(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    return not ip.is_global or ip.is_multicast


def _refuse_private(url: str, addresses: list[str]) -> None:
    private = [a for a in addresses if _is_private(a)]
    if private:
        raise FetchError(
            url,
            f"resolves to the private or local address {private[0]}; "
            "fetching private addresses is turned off",
            reason="private-address",
        )


def _check_target(url: str, options: FetchOptions) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(url, "not an http(s) URL", reason="not-http")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    addresses = _resolve(url, parts.hostname, port)
    if not options.allow_private:
        _refuse_private(url, addresses)


def _check_peer(url: str, response: Any, options: FetchOptions) -> None:
    """The address actually connected to, in case DNS answered differently the second time."""
    if options.allow_private:
        return
    stream = response.extensions.get("network_stream")
    peer = stream.get_extra_info("server_addr") if stream is not None else None
    if peer:
        _refuse_private(url, [str(peer[0])])


# --------------------------------------------------------------------------- responses


def _media_type(response: Any) -> tuple[str, str | None]:
    header = response.headers.get("content-type", "")
    media = header.split(";", 1)[0].strip().lower()
    charset = None
    for param in header.split(";")[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip("\"'").lower()
    return media, charset


def _read_capped(url: str, response: Any, limit: int) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise FetchError(
            url,
            f"the page is {int(declared):,} bytes, over the {limit:,}-byte cap",
            reason="too-large",
        )
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > limit:
            raise FetchError(url, f"the page is over the {limit:,}-byte cap", reason="too-large")
        chunks.append(chunk)
    return b"".join(chunks)


def _page(url: str, response: Any, options: FetchOptions) -> Page:
    status = response.status_code
    if status >= 400:
        raise FetchError(url, f"HTTP {status} {response.reason_phrase}".rstrip(), reason="status")
    media, charset = _media_type(response)
    if media and media not in TEXT_TYPES:
        raise FetchError(
            url,
            f"the content type is {media}, not a web page or plain text; "
            "canon compares HTML and text",
            reason="content-type",
        )
    body = _read_capped(url, response, options.max_bytes)
    date = response.headers.get("date") or format_datetime(datetime.now(UTC), True)
    return Page(url, str(response.url), status, media, charset, date, body)


def _next_hop(url: str, current: str, response: Any, visited: list[str]) -> str:
    location = response.headers.get("location")
    if not location:
        raise FetchError(url, "redirect without a Location header", reason="redirect")
    target = str(response.url.join(location))
    if target in visited:
        raise FetchError(url, f"redirect loop ({current} → {target})", reason="redirect")
    return target


def _get(url: str, options: FetchOptions) -> Page:
    import httpx

    timeout = httpx.Timeout(options.read_timeout, connect=options.connect_timeout)
    headers = {
        "User-Agent": options.user_agent,
        "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1",
        "Accept-Language": "ru,en;q=0.5",
    }
    visited = [url]
    current = url
    with httpx.Client(timeout=timeout, headers=headers, follow_redirects=False) as client:
        for _ in range(options.max_redirects + 1):
            _check_target(current, options)
            with client.stream("GET", current) as response:
                _check_peer(current, response, options)
                if response.status_code not in _REDIRECTS:
                    return _page(url, response, options)
                current = _next_hop(url, current, response, visited)
                visited.append(current)
    raise FetchError(url, f"more than {options.max_redirects} redirects", reason="redirect")


def fetch(url: str, options: FetchOptions | None = None) -> Page:
    """Fetch ``url`` (from the cache when one is given and holds it); errors are FetchError."""
    import httpx

    options = options or FetchOptions()
    cache = PageCache(options.cache_dir) if options.cache_dir else None
    if cache and (page := cache.get(url)):
        return page
    try:
        page = _get(url, options)
    except httpx.ConnectTimeout as exc:
        raise FetchError(
            url, f"connection timed out after {options.connect_timeout:g} s", reason="timeout"
        ) from exc
    except httpx.TimeoutException as exc:
        raise FetchError(
            url, f"no answer within {options.read_timeout:g} s (read timeout)", reason="timeout"
        ) from exc
    except httpx.ConnectError as exc:
        raise FetchError(url, f"cannot connect ({_reason(exc)})", reason="connect") from exc
    except httpx.HTTPError as exc:
        raise FetchError(url, f"{type(exc).__name__}: {_reason(exc)}", reason="http") from exc
    if cache:
        cache.put(page)
    return page


def _reason(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    if "refused" in text.lower():
        return "connection refused"
    return text.splitlines()[0]


# --------------------------------------------------------------------------- cache


class PageCache:
    """Fetched pages on disk, keyed by URL; each entry keeps the response's date.

    An entry is a body file and a JSON file, each written to a temporary name and renamed, so
    a crash mid-write never leaves a half-written entry behind.
    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    def _paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode("utf-8")).hexdigest()[:40]
        return self.folder / f"{key}.json", self.folder / f"{key}.body"

    def get(self, url: str) -> Page | None:
        meta_path, body_path = self._paths(url)
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            body = body_path.read_bytes()
        except (OSError, ValueError):
            return None
        if meta.get("url") != url or len(body) != meta.get("size"):
            return None
        fields = {k: meta[k] for k in ("url", "final_url", "status", "media_type", "charset")}
        return Page(**fields, date=meta["date"], body=body, from_cache=True)

    def put(self, page: Page) -> None:
        meta_path, body_path = self._paths(page.url)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _write_atomic(body_path, page.body)
            meta = {k: v for k, v in asdict(page).items() if k not in ("body", "from_cache")}
            meta["size"] = len(page.body)
            _write_atomic(meta_path, json.dumps(meta, ensure_ascii=False).encode("utf-8"))
        except OSError as exc:
            raise OutputError(
                self.folder, f"cannot write the page cache ({exc.strerror or exc})"
            ) from exc


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
