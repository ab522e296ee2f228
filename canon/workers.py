"""Jobs → their results from a process pool, in order, only a few handed out ahead.

``Pool.imap`` takes jobs from its input as fast as the workers take them and keeps every
result the consumer has not yet taken, so a consumer slower than the workers (an index
writing batches to SQLite) lets finished results pile up without bound.  :func:`in_order`
hands a job out only as a result is taken back: at most ``ahead`` jobs are out at once, and
the input is read no further ahead than that.  ``canon index add`` and ``canon dedup`` read
their items through it, a block of items a job.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.pool import AsyncResult, Pool
from typing import TypeVar

__all__ = ["in_order"]

J = TypeVar("J")
R = TypeVar("R")


def in_order(pool: Pool, work: Callable[[J], R], jobs: Iterable[J], ahead: int) -> Iterator[R]:
    """``work(job)`` for each of ``jobs``, run in ``pool``, in the order given; a job is taken
    from ``jobs`` only while fewer than ``ahead`` (at least 1) are out and not taken back."""
    pending: deque[AsyncResult[R]] = deque()
    for job in jobs:
        pending.append(pool.apply_async(work, (job,)))
        if len(pending) >= max(ahead, 1):
            yield pending.popleft().get()
    while pending:
        yield pending.popleft().get()
