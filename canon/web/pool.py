"""A request's heavy work → worker processes, each job under a deadline, behind a bounded queue.

Extraction, canonicalization and checks run in a pool of worker processes (pebble), so that
no request can hold the server's event loop or its threads: a job that overruns its deadline
has its worker killed and replaced, and when every worker is busy and the queue is full a
request is refused at once (the app answers 503 with ``Retry-After``).  A pool that breaks
(pebble stops scheduling when an idle worker is killed from outside) is replaced by a new one
at the next job, which runs there.  Workers start with the lemmatizer's dictionary loaded.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import multiprocessing
import threading
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Admission", "Busy", "Overrun", "PoolSettings", "WorkerPool", "shared_pool"]

T = TypeVar("T")


class Busy(Exception):
    """Every worker is busy and the queue is full: try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy; try again in {retry_after} s")
        self.retry_after = retry_after


class Overrun(Exception):
    """A job ran past its deadline (or its worker died) and was stopped."""

    def __init__(self, deadline: float, died: bool = False) -> None:
        what = "its worker stopped" if died else f"it ran past the {deadline:g}-second deadline"
        super().__init__(f"the request was stopped: {what}")
        self.deadline = deadline


@dataclass(frozen=True)
class PoolSettings:
    """``workers`` processes; at most ``queue`` jobs waiting beyond them; ``deadline`` seconds
    per job, from when it starts."""

    workers: int = 2
    queue: int = 64
    deadline: float = 30.0


def _nothing() -> None:
    pass


def warm_up() -> None:
    """Load what every job needs once per worker: canon and the lemmatizer's dictionary."""
    import canon

    canon.canonicalize("проверка готовности", "lemma")


class Admission:
    """At most ``capacity`` holders at once; one more is refused with :class:`Busy`."""

    def __init__(self, capacity: int, retry_after: int) -> None:
        self.capacity = capacity
        self.retry_after = retry_after
        self._held = 0
        self._lock = threading.Lock()

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._lock:
            if self._held >= self.capacity:
                raise Busy(self.retry_after)
            self._held += 1
        try:
            yield
        finally:
            with self._lock:
                self._held -= 1


class WorkerPool:
    """The pool; started on first use, stopped by :meth:`close`."""

    def __init__(
        self, settings: PoolSettings = PoolSettings(), initializer: Callable[[], None] = warm_up
    ) -> None:
        self.settings = settings
        self._initializer = initializer
        self._pool: Any = None
        self._lock = threading.Lock()
        retry_after = max(1, round(settings.deadline / 4))
        self._admission = Admission(settings.workers + settings.queue, retry_after)

    def _started(self) -> Any:
        with self._lock:
            if self._pool is None:
                import pebble

                self._pool = pebble.ProcessPool(
                    max_workers=self.settings.workers,
                    initializer=self._initializer,
                    context=multiprocessing.get_context("spawn"),
                )
            return self._pool

    def start(self) -> None:
        """Start the worker processes now rather than at the first job (a job that does
        nothing starts them; the dictionary loads in each)."""
        self._started().schedule(_nothing)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker; :class:`Busy` or :class:`Overrun` when it cannot."""
        import pebble

        with self._admission.held():
            future = self._schedule(function, args)
            try:
                return await asyncio.wrap_future(future)
            except concurrent.futures.TimeoutError:
                raise Overrun(self.settings.deadline) from None
            except pebble.ProcessExpired:
                raise Overrun(self.settings.deadline, died=True) from None
            except BrokenProcessPool:
                self.close()  # every worker died (killed from outside): start afresh
                raise Overrun(self.settings.deadline, died=True) from None

    def _schedule(self, function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """The job scheduled on the pool, or on a new one when the pool has broken."""
        pool = self._started()
        try:
            return pool.schedule(function, args, timeout=self.settings.deadline)
        except RuntimeError:  # pebble's "Unexpected error within the Pool" (or not running)
            self._discard(pool)
            return self._started().schedule(function, args, timeout=self.settings.deadline)

    def _discard(self, broken: Any) -> None:
        """Forgets ``broken`` (unless another job has replaced it already) and stops it in a
        thread of its own, so that the event loop never waits for its workers."""
        with self._lock:
            if self._pool is broken:
                self._pool = None
        threading.Thread(target=_stop, args=(broken,), daemon=True).start()

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool)


def _stop(pool: Any) -> None:
    pool.stop()
    pool.join(timeout=10)


_pools: dict[PoolSettings, WorkerPool] = {}
_pools_lock = threading.Lock()


def shared_pool(settings: PoolSettings) -> WorkerPool:
    """One pool per settings in this process (apps made alike share it), stopped at exit."""
    with _pools_lock:
        if settings not in _pools:
            _pools[settings] = WorkerPool(settings)
            atexit.register(_pools[settings].close)
        return _pools[settings]
