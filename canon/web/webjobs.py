"""A check against the web started from the check page or ``/api/check/jobs`` → a job in a
worker pool of its own, its progress in a file that status requests read.

A web check sends queries, fetches pages and takes far longer than a request should, so it
runs as a job: :meth:`WebJobs.start` hands it to a pool of ``web_jobs`` worker processes
(each job within ``web_deadline`` seconds) and returns at once; at most ``web_queue`` more
jobs may wait, and one more is refused (429 with ``Retry-After``).  The worker writes the
stage it is in (:data:`canon.uniqueness.web.run.STAGES`) to a file of the job; a status request
reads it.  Finished jobs are kept for :data:`KEPT_FOR` seconds, at most :data:`MAX_KEPT`.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from ..uniqueness.web.run import STAGES
from .accounts import Accounts, User
from .i18n import error_text
from .jobs import Side, WebCheckPage, web_check_job
from .pool import Busy, Overrun, PoolSettings, WorkerPool
from .quotas import Reserved, reserve_queries, settle
from .service import N_, FieldError, WebCheckRequest
from .settings import ServerSettings

__all__ = ["KEPT_FOR", "MAX_KEPT", "STAGE_LABELS", "STAGE_TEXTS", "WebJob", "WebJobs"]

MAX_KEPT = 32  # finished jobs kept for their pages, at most
KEPT_FOR = 3600.0  # seconds a finished job is kept
PROGRESS = "progress.json"

# How a page says where a job is.
STAGE_TEXTS = {
    "queued": N_("Waiting for its turn"),
    "started": N_("Building the queries"),
    "queries": N_("Queries built: %(total)s"),
    "searching": N_("Searching: query %(done)s of %(total)s"),
    "fetching": N_("Fetching the pages found: %(done)s of %(total)s"),
    "checking": N_("Checking the draft against the pages found"),
    "done": N_("Done"),
}
# How a page names the stages in its list of them.
STAGE_LABELS = {
    "queries": N_("queries built"),
    "searching": N_("searching"),
    "fetching": N_("fetching pages"),
    "checking": N_("checking"),
}
PAGE_STATES = (N_("compared"), N_("failed"), N_("excluded"))  # what became of a page found
assert set(STAGES) < set(STAGE_TEXTS) and set(STAGES) == set(STAGE_LABELS)


@dataclass
class WebJob:
    """One job: who started it (None on a server without sign-in), what it was asked (the
    page's form, to fill it in again), its state (``queued``, ``running``, ``done``,
    ``failed``), its result or its error.  Changed only on the server's event loop."""

    id: str
    folder: Path
    form: dict[str, Any]
    owner: str | None = None
    created: float = field(default_factory=time.time)
    state: str = "queued"
    result: WebCheckPage | None = None
    error: FieldError | None = None
    finished: float | None = None

    def progress(self) -> list[dict[str, Any]]:
        """The stages the worker has reached, in order, each with its last count (``[]``
        while it is queued or has only just started)."""
        try:
            return list(json.loads((self.folder / PROGRESS).read_text("utf-8"))["stages"])
        except (OSError, ValueError, KeyError):
            return []

    def started(self) -> bool:
        """Whether a worker has taken the job (it writes its progress file at once)."""
        return (self.folder / PROGRESS).is_file()

    def status(self, t: NullTranslations) -> dict[str, Any]:
        """The job's state as ``/api/check/jobs/<id>`` answers it; ``message`` says it in the
        language of ``t``."""
        stages = self.progress()
        state = self.state
        if state == "queued" and self.started():
            state = "running"
        last: dict[str, Any] = stages[-1] if stages else {"stage": None, "done": 0, "total": 0}
        status: dict[str, Any] = {"id": self.id, "state": state, **last, "stages": stages}
        if state == "failed" and self.error is not None:
            status |= {"error": self.error.message, "field": self.error.field,
                       "message": error_text(self.error, t)}  # fmt: skip
            return status
        said = state if state in ("queued", "done") else last["stage"] or "started"
        status["message"] = t.gettext(STAGE_TEXTS[said]) % last
        if state == "done" and self.result is not None:
            status["result"] = self.result.data
        return status


class WebJobs:
    """The web checks of one server: a bounded pool, the jobs by id; with ``accounts``, each
    user's search queries counted against their quota."""

    def __init__(self, settings: ServerSettings, accounts: Accounts | None = None) -> None:
        self.settings = settings
        self.accounts = accounts
        self.capacity = settings.web_jobs + settings.web_queue
        self.pool = WorkerPool(
            PoolSettings(settings.web_jobs, settings.web_queue, settings.web_deadline)
        )
        self.jobs: dict[str, WebJob] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._folder: Path | None = None

    def _unfinished(self) -> int:
        return sum(1 for job in self.jobs.values() if job.finished is None)

    def _forget_old(self) -> None:
        now = time.time()
        finished = sorted(
            (j for j in self.jobs.values() if j.finished is not None), key=lambda j: j.finished or 0
        )
        for number, job in enumerate(finished):
            if number < len(finished) - MAX_KEPT or now - (job.finished or now) > KEPT_FOR:
                del self.jobs[job.id]
                shutil.rmtree(job.folder, ignore_errors=True)

    def start(
        self, draft: Side, asked: WebCheckRequest, form: dict[str, Any], owner: User | None = None
    ) -> WebJob:
        """A new job of ``owner`` checking ``draft`` as ``asked``; 429 when ``web_jobs`` run
        and ``web_queue`` wait already, or when the owner's queries for today are spent."""
        self._forget_old()
        if self._unfinished() >= self.capacity:
            retry = max(5, round(self.settings.web_deadline / 10))
            raise FieldError(
                f"{self.capacity} checks against the web are running or waiting on this "
                f"server; try again in {retry} s",
                None,
                429,
                {"Retry-After": str(retry)},
                key=N_("Too many checks against the web are waiting: try again in %(seconds)s s"),
                params={"seconds": retry},
            )
        reserved = reserve_queries(self.accounts, owner, asked)
        if self._folder is None:  # the first job: its folder, and the pool stopped at exit
            self._folder = Path(tempfile.mkdtemp(prefix="canon-webjobs-"))
            atexit.register(self.close)
        job_id = secrets.token_hex(8)
        job = WebJob(job_id, self._folder / job_id, form, owner.name if owner else None)
        job.folder.mkdir()
        self.jobs[job_id] = job
        if self.accounts is not None and owner is not None:
            self.accounts.record(owner, "web-check", job_id)
        task = asyncio.get_running_loop().create_task(self._run(job, draft, asked, reserved))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _run(
        self, job: WebJob, draft: Side, asked: WebCheckRequest, reserved: Reserved | None
    ) -> None:
        progress = str(job.folder / PROGRESS)
        try:
            job.result = await self.pool.run(web_check_job, self.settings, draft, asked, progress)
            job.state = "done"
            settle(self.accounts, reserved, job.result.data)
        except FieldError as exc:
            job.error, job.state = exc, "failed"
        except (Busy, Overrun) as exc:
            job.error, job.state = self._refusal(exc), "failed"
            if isinstance(exc, Busy):  # it never ran
                settle(self.accounts, reserved, None)
        except Exception:  # a defect: the job fails, the server goes on
            key = N_("The check against the web stopped on an error")
            job.error = FieldError("the check against the web stopped on an error", None, 500,
                                   key=key)  # fmt: skip
            job.state = "failed"
            raise
        finally:
            job.finished = time.time()

    def _refusal(self, exc: Busy | Overrun) -> FieldError:
        if isinstance(exc, Busy):
            key = N_("The server is busy: try again in %(seconds)s s")
            return FieldError(str(exc), None, 429, key=key, params={"seconds": exc.retry_after})
        seconds = f"{self.settings.web_deadline:g}"
        return FieldError(
            f"the check against the web took longer than {seconds} s and was stopped",
            None,
            422,
            key=N_("The check against the web took longer than this server allows (%(seconds)s s)"),
            params={"seconds": seconds},
        )

    def get(self, job_id: str, owner: str | None = None) -> WebJob:
        """The job ``job_id`` of ``owner``, or a 404 (a job of another user is not there for
        them)."""
        job = self.jobs.get(job_id)
        if job is None or job.owner != owner:
            raise FieldError(f"no check {job_id[:20]!r} on this server", None, 404,
                             key=N_("There is no such check on this server"))  # fmt: skip
        return job

    def close(self) -> None:
        """Stops the pool and forgets every job (the server is stopping)."""
        self.pool.close()
        for task in list(self._tasks):
            with contextlib.suppress(RuntimeError):  # at exit: its event loop is closed
                task.cancel()
        self._tasks.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
        self.jobs.clear()
