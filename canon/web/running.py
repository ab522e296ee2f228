"""A request's work → where it runs: pages fetched in the server's I/O threads (a limit of
their own), everything heavy in a worker process of the app's pool.  The refusals of either
become request errors: 503 with ``Retry-After`` when full, 422 past the deadline."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from anyio.to_thread import run_sync
from fastapi import Request

from .jobs import Side
from .pool import Admission, Busy, Overrun, PoolSettings, WorkerPool, shared_pool
from .service import N_, FieldError, fetch_page, url_of
from .settings import ServerSettings

__all__ = ["in_worker", "pool_of", "side_of"]

T = TypeVar("T")


def pool_of(settings: ServerSettings) -> WorkerPool:
    """The worker pool a server with ``settings`` runs its jobs in."""
    return shared_pool(PoolSettings(settings.workers, settings.queue, settings.deadline))


async def in_worker(request: Request, job: Callable[..., T], *args: Any) -> T:
    """``job(settings, *args)`` in a worker; 503 when the server is full, 422 past the deadline."""
    settings: ServerSettings = request.app.state.settings
    try:
        return await pool_of(settings).run(job, settings, *args)
    except Busy as busy:
        raise _busy(busy.retry_after) from None
    except Overrun as overrun:
        message = f"{overrun}; send a shorter text or a simpler page"
        key = N_(
            "The work took longer than this server allows: send a shorter text or a simpler page"
        )
        raise FieldError(message, None, 422, key=key) from None


def _busy(retry_after: int) -> FieldError:
    message = f"the server is busy; try again in {retry_after} s"
    headers = {"Retry-After": str(retry_after)}
    key = N_("The server is busy: try again in %(seconds)s s")
    params: dict[str, object] = {"seconds": retry_after}
    return FieldError(message, None, 503, headers, key=key, params=params)


class _FetchGate:
    """At most ``threads`` fetches at once, and ``queue`` more waiting: a trickling server
    holds a fetch thread until its deadline, never a worker or the event loop."""

    def __init__(self, threads: int, queue: int, retry_after: int) -> None:
        self.limiter = anyio.CapacityLimiter(threads)
        self.admission = Admission(threads + queue, retry_after)

    async def run(self, function: Callable[..., T]) -> T:
        try:
            with self.admission.held():
                return await run_sync(function, limiter=self.limiter)
        except Busy as busy:
            raise _busy(busy.retry_after) from None


_gates: dict[tuple[int, int, int], _FetchGate] = {}


def _gate(settings: ServerSettings) -> _FetchGate:
    key = (settings.fetch_threads, settings.queue, max(1, round(settings.fetch_deadline / 4)))
    return _gates.setdefault(key, _FetchGate(*key))


async def side_of(request: Request, field: str, text: str = "", url: str = "") -> Side:
    """One side of a request: ``url`` (or a ``text`` that is a URL as a whole) fetched now,
    else the text."""
    settings: ServerSettings = request.app.state.settings
    target = url_of(url) if url.strip() else url_of(text)
    if url.strip() and target is None:
        key = N_("%(side)s: the URL field needs one http(s) URL")
        raise FieldError(f"{field}: the URL field needs one http(s) URL", field, key=key)
    if target is None:
        return Side(field, text=text)
    page = await _gate(settings).run(
        lambda: fetch_page(
            target,
            field,
            allow_private=settings.allow_private,
            max_bytes=settings.max_body,
            deadline=settings.fetch_deadline,
        )
    )
    return Side(field, page=page)
