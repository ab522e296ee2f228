"""The worker pool: real processes, a deadline that kills a runaway job, a queue that refuses."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from canon.web.pool import Busy, Overrun, PoolSettings, WorkerPool


def _spin(seconds: float) -> int:
    end = time.monotonic() + seconds
    while time.monotonic() < end:  # pure CPU, holding the worker's GIL
        pass
    return os.getpid()


def _pid() -> int:
    return os.getpid()


def _quiet() -> None:
    pass


@pytest.fixture
def pool():
    running = WorkerPool(PoolSettings(workers=2, queue=1, deadline=1.5), initializer=_quiet)
    yield running
    running.close()


@pytest.mark.slow
def test_a_runaway_job_is_stopped_and_its_worker_replaced(pool: WorkerPool) -> None:
    async def scenario() -> tuple[float, int, int]:
        started = time.monotonic()
        with pytest.raises(Overrun):
            await pool.run(_spin, 60)
        stopped = time.monotonic() - started
        first = await pool.run(_pid)
        second = await pool.run(_pid)
        return stopped, first, second

    stopped, first, second = asyncio.run(scenario())
    assert stopped < 10  # the deadline (1.5 s) plus a worker's start, not the job's 60 s
    assert first != os.getpid() and second != os.getpid()  # jobs still run, in other processes


@pytest.mark.slow
def test_a_full_queue_refuses_at_once(pool: WorkerPool) -> None:
    async def scenario() -> list[object]:
        jobs = [pool.run(_spin, 1.0) for _ in range(5)]  # 2 workers + 1 waiting: 2 refused
        return await asyncio.gather(*jobs, return_exceptions=True)

    results = asyncio.run(scenario())
    refused = [r for r in results if isinstance(r, Busy)]
    assert len(refused) == 2 and all(r.retry_after >= 1 for r in refused)
    assert sum(isinstance(r, int) for r in results) == 3


def _workers_of_this_process() -> list:
    import psutil

    return [child for child in psutil.Process().children()
            if "spawn_main" in " ".join(child.cmdline())]  # fmt: skip


@pytest.mark.slow
def test_an_idle_worker_killed_from_outside_costs_no_job(pool: WorkerPool) -> None:
    async def scenario() -> list[int]:
        await asyncio.gather(pool.run(_pid), pool.run(_pid))  # both workers up
        for victim in _workers_of_this_process()[:1]:
            victim.kill()  # as an operator's kill -9, or the kernel's OOM killer (not reaped
            # here: the pool must find it dead itself)
        await asyncio.sleep(1.5)  # the pool notices its worker gone
        return [await pool.run(_pid) for _ in range(4)]

    pids = asyncio.run(scenario())
    assert len(pids) == 4 and os.getpid() not in pids  # every job ran, in a worker
