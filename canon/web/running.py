"""A route's job → a worker process of the app's pool; the pool's refusals as request errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import Request

from .pool import Busy, Overrun, PoolSettings, shared_pool
from .service import FieldError
from .settings import ServerSettings

__all__ = ["in_worker"]

T = TypeVar("T")


async def in_worker(request: Request, job: Callable[..., T], *args: Any) -> T:
    """``job(settings, *args)`` in a worker; 503 when the server is full, 422 past the deadline."""
    settings: ServerSettings = request.app.state.settings
    pool = shared_pool(PoolSettings(settings.workers, settings.queue, settings.deadline))
    try:
        return await pool.run(job, settings, *args)
    except Busy as busy:
        headers = {"Retry-After": str(busy.retry_after)}
        raise FieldError(str(busy), None, 503, headers) from None
    except Overrun as overrun:
        message = f"{overrun}; send a shorter text or a simpler page"
        raise FieldError(message, None, 422) from None
