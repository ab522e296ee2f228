"""A site audit started from a page → a process of its own, its progress and findings in files.

An audit runs :func:`canon.audit.audit_site` in a process started for it (spawned, not
forked from the server's threads), into ``<audits>/<id>/``: beside the audit's own files it
writes ``status.json``, rewritten atomically as the crawl goes (``running``, pages done and
known, errors) and at the end (``done`` with the summary, clusters, pages and the URLs of the
thin pages, or ``failed`` with the error's message), and who started it (``owner``; None on a
server without sign-in, where everyone sees every audit; else each user sees their own).  At
most a server's ``audits_at_once`` run at once, and at most a user's own quota of them; the
pages read the files.
An audit whose process ended without a word (killed, or the server stopped) is marked
interrupted, and can be resumed in its folder: the pages done are kept.  An audit that is done
can be made again in its folder: the done one is kept as the baseline, and the status of the
new one holds the changes since it (:mod:`canon.audit.changes`).
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import multiprocessing.process
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..audit import COLUMNS, Analysis, Changes, CrawlProgress, CrawlSettings, audit_site
from ..audit.outputs import page_values
from ..audit.run import OUTPUTS
from ..errors import CanonError
from ..sources.fetch import FetchOptions
from .service import N_, FieldError, field_error, url_of

__all__ = [
    "CHANGE_LABELS",
    "MAX_PAGES",
    "OUTPUTS",
    "SUMMARY_LABELS",
    "AuditRequest",
    "Starter",
    "audit_again",
    "audit_folder",
    "audits",
    "repeatable",
    "resumable",
    "resume_audit",
    "start_audit",
    "status_of",
    "stop_audits",
]

MAX_PAGES = 1000  # the most pages an audit started from the web may crawl
STATUS = "status.json"
_ID = re.compile(r"^[0-9a-f]{12}$")
_running: dict[Path, tuple[multiprocessing.process.BaseProcess, str | None]] = {}
_INTERRUPTED = "the audit was interrupted (its process ended, or the server stopped)"

# How a page names the figures of an audit's summary and its states.
SUMMARY_LABELS = {
    "pages": N_("pages"),
    "fetched": N_("fetched"),
    "indexable": N_("indexable"),
    "compared": N_("compared"),
    "exact_duplicates": N_("exact duplicates"),
    "near_duplicate_clusters": N_("near-duplicate clusters"),
    "pages_in_clusters": N_("pages in clusters"),
    "contained": N_("mostly inside another page"),
    "thin": N_("thin pages"),
    "same_titles": N_("titles on several pages"),
    "same_h1": N_("H1s on several pages"),
    "same_descriptions": N_("descriptions on several pages"),
    "not_indexable": N_("not indexable"),
    "no_text": N_("pages without main text"),
    "errors": N_("errors (4xx, 5xx, no answer)"),
    "blocked": N_("blocked by robots.txt"),
    "threshold": N_("threshold"),
}
STATES = (N_("running"), N_("done"), N_("failed"))
# How a page names each kind of change since the last audit.
CHANGE_LABELS = {
    "new": N_("new page"),
    "gone": N_("page gone"),
    "status": N_("status changed"),
    "text": N_("text changed"),
    "duplicated": N_("newly duplicated"),
    "resolved": N_("no longer duplicated"),
}


@dataclass(frozen=True)
class AuditRequest:
    """What a page asks: the start URL, how many pages and links deep, the Jaccard threshold."""

    start: str
    max_pages: int = 100
    max_depth: int | None = None
    threshold: float = 0.9

    def settings(self, allow_private: bool) -> tuple[CrawlSettings, Analysis]:
        """The library's settings; a refusal names its field."""
        if url_of(self.start) is None:
            raise FieldError(
                f"start: give one http(s) URL, not {self.start[:60]!r}",
                "start",
                key=N_("%(side)s: give one http(s) URL"),
            )
        try:
            crawl = CrawlSettings(
                starts=(self.start,),
                max_pages=self.max_pages,
                max_depth=self.max_depth,
                fetch=FetchOptions(allow_private=allow_private),
                workers=1,
            )
            return crawl, Analysis(threshold=self.threshold)
        except CanonError as exc:
            raise field_error(exc, "start") from exc


def _write(path: Path, status: dict[str, Any]) -> None:
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(status, ensure_ascii=False), "utf-8")
    os.replace(partial, path)


def _asked(request: AuditRequest) -> dict[str, Any]:
    """The request as the status file keeps it, for a resume."""
    return dataclasses.asdict(request)


def _run(folder: str, request: AuditRequest, allow_private: bool, owner: str | None) -> None:
    """The audit's process: crawl, analyse, write; the status file says how far it is."""
    path = Path(folder) / STATUS
    base = {"start": request.start, "started": time.time(), "request": _asked(request),
            "owner": owner}  # fmt: skip
    last = [0.0]

    def progress(p: CrawlProgress) -> None:
        if time.monotonic() - last[0] >= 0.3:
            last[0] = time.monotonic()
            _write(path, {**base, "state": "running", "done": p.done, "total": p.total,
                          "errors": p.errors})  # fmt: skip

    try:
        crawl, analysis = request.settings(allow_private)
        result = audit_site(crawl, Path(folder), analysis, progress)
    except (CanonError, FieldError) as exc:
        _write(path, {**base, "state": "failed", "error": str(getattr(exc, "message", exc))})
        return
    except Exception:
        _write(path, {**base, "state": "failed", "error": "the audit stopped on an error"})
        raise
    findings = result.findings
    clusters = [
        {"number": c.number, "representative": c.representative, "members": list(c.members),
         "exact": c.exact}
        for c in findings.clusters
    ]  # fmt: skip
    pages = [page_values(p) for p in findings.pages]
    done = {"summary": findings.summary(), "clusters": clusters, "columns": list(COLUMNS),
            "thin": [p.url for p in findings.thin],
            "changes": _changes(result.changes)}  # fmt: skip
    _write(path, {**base, "state": "done", **done, "pages": pages})


def _changes(changes: Changes | None) -> dict[str, Any] | None:
    """The changes since the last audit as the status file keeps them (None: there was none)."""
    if changes is None:
        return None
    return {"summary": changes.summary(), "rows": [dataclasses.asdict(c) for c in changes.changes]}


@dataclass(frozen=True)
class Starter:
    """Who starts an audit and what they may: their name (None without sign-in) and how many
    audits they may run at once (None: as many as the server); the server's own limit."""

    owner: str | None = None
    own_limit: int | None = None
    server_limit: int = 1


def start_audit(
    audits: Path, request: AuditRequest, allow_private: bool, starter: Starter = Starter()
) -> str:
    """Starts an audit in a process of its own; its id.  503 while the server runs as many
    as it may, 429 while the starter does."""
    request.settings(allow_private)  # refused here, not in the process
    _room_for(starter)
    audit_id = secrets.token_hex(6)
    folder = audits / audit_id
    folder.mkdir(parents=True)
    _launch(folder, request, allow_private, starter.owner)
    return audit_id


def resume_audit(folder: Path, allow_private: bool, starter: Starter = Starter()) -> None:
    """Starts an audit that was interrupted again, in its own folder: the pages done are kept
    and the crawl goes on where it stopped.  409 unless it was interrupted; 503 or 429 as for
    a new one."""
    status = status_of(folder)
    if not resumable(status):
        raise _conflict("only an interrupted audit can be resumed",
                        N_("Only an interrupted audit can be resumed"))  # fmt: skip
    _relaunch(folder, status, allow_private, starter)


def audit_again(folder: Path, allow_private: bool, starter: Starter = Starter()) -> None:
    """Makes an audit that is done again, in its own folder, as it was asked: the done one is
    kept as the baseline and the new one lists the changes since.  409 unless it is done; 503
    or 429 as for a new one."""
    status = status_of(folder)
    if not repeatable(status):
        raise _conflict("only a finished audit can be made again",
                        N_("Only a finished audit can be made again"))  # fmt: skip
    process = _running.get(folder, (None, None))[0]
    if process is not None:
        process.join(timeout=10)  # done: its process is ending, and is not another audit
    _relaunch(folder, status, allow_private, starter)


def _conflict(message: str, key: str) -> FieldError:
    return FieldError(message, None, 409, key=key)


def _relaunch(folder: Path, status: dict[str, Any], allow_private: bool, starter: Starter) -> None:
    """The audit of ``folder`` started again as it was asked, for its own owner."""
    request = AuditRequest(**status["request"])
    request.settings(allow_private)
    _room_for(starter)
    _launch(folder, request, allow_private, status.get("owner"))


def repeatable(status: dict[str, Any]) -> bool:
    """Whether an audit's status is that of an audit that is done and can be made again."""
    return status["state"] == "done" and isinstance(status.get("request"), dict)


def resumable(status: dict[str, Any]) -> bool:
    """Whether an audit's status is that of an interrupted audit that can go on."""
    interrupted = status["state"] == "failed" and status.get("error") == _INTERRUPTED
    return interrupted and isinstance(status.get("request"), dict)


def _room_for(starter: Starter) -> None:
    """Refuses an audit while the server, or the starter, runs as many as it may."""
    owners = [owner for process, owner in _running.values() if process.is_alive()]
    if len(owners) >= starter.server_limit:
        raise FieldError(
            f"{len(owners)} audits are running on this server; wait for one to finish",
            None,
            503,
            {"Retry-After": "10"},
            key=N_("An audit is running on this server: wait for it to finish"),
        )
    if starter.own_limit is not None and owners.count(starter.owner) >= starter.own_limit:
        raise FieldError(
            f"{starter.owner} may run {starter.own_limit} audits at once; wait for one to finish",
            None,
            429,
            {"Retry-After": "10"},
            key=N_("You run as many audits as you may at once (%(limit)s): wait for one to "
                   "finish"),
            params={"limit": starter.own_limit},
        )  # fmt: skip


def _launch(folder: Path, request: AuditRequest, allow_private: bool, owner: str | None) -> None:
    """The audit's process, started on ``folder`` (a new one, or one to resume)."""
    _write(folder / STATUS, {"start": request.start, "started": time.time(), "state": "running",
                             "done": 0, "total": 0, "errors": 0,
                             "request": _asked(request), "owner": owner})  # fmt: skip
    process = multiprocessing.get_context("spawn").Process(
        target=_run,
        args=(str(folder), request, allow_private, owner),
        name=f"canon-audit-{folder.name}",
    )
    process.start()
    _running[folder] = (process, owner)


def _owner(folder: Path) -> str | None:
    try:
        owner = json.loads((folder / STATUS).read_text("utf-8")).get("owner")
    except (OSError, ValueError, AttributeError):
        return None
    return owner if isinstance(owner, str) else None


def audit_folder(audits: Path, audit_id: str, owner: str | None = None) -> Path:
    """The folder of audit ``audit_id`` of ``owner``, or a 404 (another user's audit is not
    there for them)."""
    folder = audits / audit_id
    if (
        not _ID.match(audit_id)
        or not (folder / STATUS).is_file()
        or (owner is not None and _owner(folder) != owner)
    ):
        raise FieldError(f"no audit {audit_id[:20]!r} on this server", None, 404,
                         key=N_("There is no such audit on this server"))  # fmt: skip
    return folder


def status_of(folder: Path) -> dict[str, Any]:
    """The audit's status file; an audit whose process ended without a word (killed, or the
    server stopped under it) has failed, and its file says so from then on."""
    status: dict[str, Any] = json.loads((folder / STATUS).read_text("utf-8"))
    process = _running.get(folder, (None, None))[0]
    if status["state"] == "running" and (process is None or not process.is_alive()):
        if process is not None:
            process.join(timeout=1)  # its last write is done once it has ended
        status = json.loads((folder / STATUS).read_text("utf-8"))
        if status["state"] == "running":
            status = {**status, "state": "failed", "error": _INTERRUPTED}
            _write(folder / STATUS, status)
    return status


def audits(folder: Path, owner: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The audits in ``folder`` (those of ``owner``, when given), newest first."""
    found = []
    for path in folder.glob(f"*/{STATUS}"):
        if _ID.match(path.parent.name):
            status = status_of(path.parent)
            if owner is None or status.get("owner") == owner:
                found.append((path.parent.name, status))
    return sorted(found, key=lambda item: -float(item[1].get("started", 0)))


def stop_audits() -> None:
    """Stops the audits still running (the server is stopping)."""
    for process, _ in _running.values():
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)
    _running.clear()
