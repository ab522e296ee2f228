"""Jobs → their results from a process pool, in order, only a few handed out ahead.

``Pool.imap`` takes jobs from its input as fast as the workers take them and keeps every
result the consumer has not yet taken, so a consumer slower than the workers (an index
writing batches to SQLite) lets finished results pile up without bound.  :func:`in_order`
hands a job out only as a result is taken back: at most ``ahead`` jobs are out at once, and
the input is read no further ahead than that.  ``canon index add`` and ``canon dedup`` read
their items through it, a block of items a job.

A pool's workers wait for jobs on a pipe whose writing end they hold themselves (a fork copies
it), so when their parent is killed (SIGKILL, the OOM killer) they would wait for ever: every
pool's initializer calls :func:`die_with_parent` first.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from multiprocessing.pool import AsyncResult, Pool
from typing import TypeVar

__all__ = ["blocks", "die_with_parent", "in_order"]

_PR_SET_PDEATHSIG = 1  # prctl(2) option: a signal for this process when its parent dies


def die_with_parent(parent: int | None = None) -> None:
    """Have the kernel kill this worker process when its parent dies (Linux; elsewhere
    nothing).  ``parent``: the pid it was forked from, so that a parent already gone by now
    ends the worker at once."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:
        os._exit(1)


J = TypeVar("J")
R = TypeVar("R")


def blocks(items: Iterable[J], size: int) -> Iterator[list[J]]:
    """``items`` in consecutive lists of ``size`` (the last one shorter), taken as they are
    needed."""
    iterator = iter(items)
    while block := list(islice(iterator, size)):
        yield block


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
