"""URLs → fetched pages, many at once: one shared keep-alive asynchronous connection pool.

The same bounds as :func:`canon.sources.fetch.fetch` hold for every fetch: the URL is checked
first, every redirect hop is checked and followed one at a time (loops named), every new
connection goes to an address resolved and checked by :class:`~.transport.AsyncPinnedBackend`,
connect and read timeouts bound each operation and one total deadline the whole fetch, the body
is decoded a bounded step at a time and refused past the cap.  On top of that: at most
``concurrency`` requests in flight, at most ``per_host`` to one host, an optional delay
between the starts of two requests to one host (robots.txt's ``Crawl-delay``), and retries with
exponential backoff on 429, 500, 502, 503 and 504, waiting as long as ``Retry-After`` asks
(up to a bound).

Unlike :func:`~canon.sources.fetch.fetch`, an answer of 400 or more is not an error here: a
crawl records it.  A body is read only when its content type is one the caller takes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

from ..errors import FetchError, OptionError
from .fetch import TEXT_TYPES, CappedBody, FetchOptions, fetch_error
from .headers import media_type, request_headers, retry_after, shown
from .pagecache import Page
from .redirects import REDIRECTS, next_hop
from .tls import tls_context

__all__ = ["RETRIED", "Fetched", "Fetcher", "Politeness", "Stay"]

RETRIED = frozenset({429, 500, 502, 503, 504})
Stay = Callable[[str], bool]  # whether a redirect to this URL is followed


@dataclass(frozen=True)
class Politeness:
    """How hard one run may press the servers it fetches from.

    ``concurrency`` requests in flight in all, ``per_host`` to one host (None: as many as
    ``concurrency``); ``retries`` more tries of an answer in :data:`RETRIED`, after ``backoff``
    seconds doubled each time, or what ``Retry-After`` asks when it says, up to
    ``max_retry_after`` seconds.  A host's ``Crawl-delay`` is obeyed up to ``max_crawl_delay``
    seconds; after ``give_up`` failures in a row from one host (no answer, or an answer still
    in :data:`RETRIED` after the retries), its other URLs are not asked for.
    """

    concurrency: int = 8
    per_host: int | None = None
    retries: int = 2
    backoff: float = 0.5
    max_retry_after: float = 10.0
    max_crawl_delay: float = 10.0
    give_up: int = 10

    def __post_init__(self) -> None:
        for name in ("concurrency", "per_host", "retries", "give_up"):
            value = getattr(self, name)
            low = 0 if name == "retries" else 1
            if value is None and name == "per_host":
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise OptionError(name, f"must be a whole number of at least {low}", value=value)
        for name in ("backoff", "max_retry_after", "max_crawl_delay"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 <= value < 3600:
                raise OptionError(name, "must be a number of seconds from 0 to 3600", value=value)

    @property
    def host_limit(self) -> int:
        return min(self.per_host or self.concurrency, self.concurrency)


@dataclass(frozen=True)
class Fetched:
    """One fetch: the page (its body empty unless its type was taken and its status < 400),
    the hops it was redirected through (``(url, status)``, first the one asked for), the
    ``X-Robots-Tag`` header, and how many tries it took."""

    page: Page
    redirects: tuple[tuple[str, int], ...]
    x_robots: str
    tries: int = 1

    @property
    def status(self) -> int:
        return self.page.status


class _HostGate:
    """At most ``limit`` requests in flight to one host, and ``delay`` between their starts."""

    def __init__(self, limit: int) -> None:
        self.slots = asyncio.Semaphore(limit)
        self.delay = 0.0
        self.turn = asyncio.Lock()
        self.last = -float("inf")
        self.failures = 0  # in a row; an answer that is not retried again sets it back to 0

    async def wait_turn(self) -> None:
        if self.delay <= 0:
            return
        async with self.turn:
            wait = self.last + self.delay - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.last = time.monotonic()


class Fetcher:
    """The shared pool of one run; use as ``async with Fetcher(...) as fetcher``.

    ``in_flight`` is how many requests are under way, ``most_in_flight`` the most there were;
    ``capped`` holds the hosts whose ``Crawl-delay`` asked more than the politeness allows
    (host → seconds asked), ``given_up`` the hosts no longer asked (:attr:`Politeness.give_up`).
    """

    def __init__(self, options: FetchOptions, politeness: Politeness | None = None) -> None:
        self.options = options
        self.politeness = politeness or Politeness()
        self.in_flight = 0
        self.most_in_flight = 0
        self._slots = asyncio.Semaphore(self.politeness.concurrency)
        self._gates: dict[str, _HostGate] = {}
        self.capped: dict[str, float] = {}
        self.given_up: set[str] = set()
        self._pool: Any = None
        self._backend: Any = None

    async def __aenter__(self) -> Fetcher:
        import httpcore

        from .transport import AsyncPinnedBackend

        self._backend = AsyncPinnedBackend(self.options.allow_private)
        size = self.politeness.concurrency
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=tls_context(),
            max_connections=size,
            max_keepalive_connections=size,
            keepalive_expiry=30.0,
            retries=0,
            network_backend=self._backend,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._pool.aclose()

    def gate(self, host: str) -> _HostGate:
        if host not in self._gates:
            self._gates[host] = _HostGate(self.politeness.host_limit)
        return self._gates[host]

    def set_delay(self, host: str, seconds: float) -> None:
        """Wait ``seconds`` between the starts of two requests to ``host`` (its Crawl-delay),
        at most :attr:`Politeness.max_crawl_delay`."""
        limit = self.politeness.max_crawl_delay
        if seconds > limit:
            self.capped[host] = seconds
        self.gate(host).delay = min(max(0.0, seconds), limit)

    async def get(
        self, url: str, types: Collection[str] = TEXT_TYPES, stay: Stay | None = None
    ) -> Fetched:
        """Fetch ``url``, retrying the answers worth retrying; FetchError when no answer came.
        With ``stay``, a redirect to a URL it refuses is not followed: the fetch ends there,
        the redirect's status and its target (``final_url``) recorded, with no body."""
        from .urls import parse_url

        host = parse_url(url).netloc.decode("ascii")
        politeness, gate = self.politeness, self.gate(host)
        for attempt in range(politeness.retries + 1):
            if host in self.given_up:
                failed = f"not fetched: {host} failed {politeness.give_up} times in a row"
                raise FetchError(url, failed, reason="host-failing")
            try:
                fetched = await self._once(url, host, types, stay)
            except FetchError:
                self._failed(host, gate)
                raise
            if fetched.status not in RETRIED:
                gate.failures = 0
            if fetched.status not in RETRIED or attempt == politeness.retries:
                if fetched.status in RETRIED:
                    self._failed(host, gate)
                return Fetched(fetched.page, fetched.redirects, fetched.x_robots, attempt + 1)
            fallback = politeness.backoff * 2**attempt
            wait = retry_after(fetched.x_retry, fallback, politeness.max_retry_after)
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")

    def _failed(self, host: str, gate: _HostGate) -> None:
        gate.failures += 1
        if gate.failures >= self.politeness.give_up:
            self.given_up.add(host)

    async def _once(
        self, url: str, host: str, types: Collection[str], stay: Stay | None
    ) -> _Answer:
        gate = self.gate(host)
        async with self._slots, gate.slots:
            await gate.wait_turn()
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            try:
                async with asyncio.timeout(self.options.deadline):
                    return await self._hops(url, types, stay)
            except Exception as exc:
                failure = fetch_error(url, exc, self.options)
                if failure is None:
                    raise
                raise failure from exc
            finally:
                self.in_flight -= 1

    async def _hops(self, url: str, types: Collection[str], stay: Stay | None) -> _Answer:
        import httpcore
        import httpx

        from .urls import parse_url

        options = self.options
        target = parse_url(url)
        read = options.read_timeout
        timeouts = {"connect": options.connect_timeout, "read": read, "write": read, "pool": read}
        visited = [str(target)]
        hops: list[tuple[str, int]] = []
        for _ in range(options.max_redirects + 1):
            core_url = httpcore.URL(
                scheme=target.raw_scheme, host=target.raw_host, port=target.port,
                target=target.raw_path,
            )  # fmt: skip
            headers = request_headers(target, options.user_agent)
            extensions = {"timeout": timeouts}
            async with self._pool.stream(
                "GET", core_url, headers=headers, extensions=extensions
            ) as response:
                answer = httpx.Headers(response.headers)
                if response.status not in REDIRECTS:
                    page = await self._page(url, target, response, answer, types)
                    return _Answer(
                        page,
                        tuple(hops),
                        shown(answer.get("x-robots-tag", "")),
                        answer.get("retry-after", ""),
                    )
                hops.append((str(target), response.status))
                target = next_hop(url, target, answer, visited)
                visited.append(str(target))
                if stay is not None and not stay(str(target)):
                    return _Answer(self._left(url, str(target), response.status), tuple(hops))
        raise FetchError(url, f"more than {options.max_redirects} redirects", reason="redirect")

    async def _page(
        self, url: str, final: Any, response: Any, headers: Any, types: Collection[str]
    ) -> Page:
        media, charset = media_type(headers)
        body = b""
        if response.status < 400 and (not media or media in types):
            capped = CappedBody(url, headers, self.options)
            async for chunk in response.aiter_stream():
                capped.feed(chunk)
            body = capped.finish()
        date = shown(headers.get("date", "")) or format_datetime(datetime.now(UTC), True)
        private = (final.host, final.port or (443 if final.scheme == "https" else 80))
        return Page(
            url,
            str(final),
            response.status,
            media,
            charset,
            date,
            body,
            private=private in self._backend.private,
        )

    @staticmethod
    def _left(url: str, target: str, status: int) -> Page:
        """The page of a fetch that ends at a redirect it may not follow."""
        date = format_datetime(datetime.now(UTC), True)
        return Page(url, target, status, "", None, date, b"")


@dataclass(frozen=True)
class _Answer:
    page: Page
    redirects: tuple[tuple[str, int], ...]
    x_robots: str = ""
    x_retry: str = ""

    @property
    def status(self) -> int:
        return self.page.status
