"""An audit from start to files: crawl (or resume) into ``DIR/audit.db``, analyse, write.

``DIR`` holds ``audit.db`` (a canon index with the audit's tables, :mod:`.state`) and the
outputs: ``pages.csv``, ``clusters.jsonl``, ``pages.xlsx`` and ``report.html``.  Running an
audit again on a ``DIR`` whose crawl was stopped goes on where it stopped; on a ``DIR`` whose
audit finished, it starts a new audit there, the finished one kept in ``DIR/previous/`` as the
baseline (:mod:`.baseline`), and ``changes.csv`` says what changed since (:mod:`.changes`).
:func:`reanalyze` only reads the audit files and writes the outputs again.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import IndexFileError, OutputError
from ..extras import require
from ..index.store import Index
from ..profile import get_profile
from ..sources.crawl.page import ContentArea
from ..sources.extract import load_extractor
from ..workers import die_with_parent
from .analysis import Findings, analyse
from .baseline import PREVIOUS, keep_as_previous, mark_finished, moving
from .changes import Changes, changes_since
from .crawl import CrawlProgress, CrawlReport, crawl
from .outputs import write_changes, write_clusters, write_csv, write_xlsx
from .pages import Reading
from .reread import area_of, reread
from .settings import Analysis, CrawlSettings
from .state import State

__all__ = ["AUDIT_FILE", "CHANGES_FILE", "OUTPUTS", "AuditResult", "audit_site", "reanalyze"]

AUDIT_FILE = "audit.db"
CHANGES_FILE = "changes.csv"
OUTPUTS = ("pages.csv", "clusters.jsonl", "pages.xlsx", "report.html", CHANGES_FILE)


@dataclass(frozen=True)
class AuditResult:
    folder: Path
    findings: Findings
    crawl: CrawlReport | None  # None: analysed again without crawling
    changes: Changes | None = None  # None: no audit of the folder finished before this one

    @property
    def files(self) -> list[Path]:
        names = [AUDIT_FILE, *OUTPUTS]
        if self.changes is None:
            names.remove(CHANGES_FILE)
        return [self.folder / name for name in names]


def _folder(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(path, f"cannot create the audit folder ({exc.strerror or exc})") from exc
    return path


def _warm() -> None:
    """Load the dictionaries and the extractor in a worker before the first page comes."""
    from ..canonical import canonicalize

    canonicalize("проверка связи", "lemma")
    load_extractor()


def _executor(workers: int) -> ProcessPoolExecutor:
    # Forked before the event loop and its threads exist: every worker starts at the first
    # submit, so one warm-up task starts them all here.
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    pool.submit(_warm).result()
    return pool


def audit_site(
    settings: CrawlSettings,
    folder: Path,
    analysis: Analysis | None = None,
    on_progress: Callable[[CrawlProgress], None] | None = None,
) -> AuditResult:
    """Crawl the site of ``settings.starts`` into ``folder``, analyse it and write the outputs:
    a stopped crawl there is resumed; a finished audit there is moved into ``previous/`` and
    a new one made, compared with it.  It needs the ``audit`` extra."""
    require("audit", "the site audit")
    folder = _folder(Path(folder))
    if moving(folder, AUDIT_FILE):
        keep_as_previous(folder, (*OUTPUTS, AUDIT_FILE))
    path = folder / AUDIT_FILE
    profiles = [get_profile(name) for name in settings.profiles]
    reading = Reading(settings.area, tuple(profiles), settings.k)
    with Index(path, create=True) as index, State(path) as state:
        indexed = index.use_profiles(profiles, settings.k, 1)
        if state.get("settings") is None:
            state.put("settings", {"starts": list(settings.starts), "started": _now()})
            state.put("area", _area(settings.area))
        with _executor(settings.workers) as executor:
            report = crawl(settings, indexed, state, executor, reading, on_progress)
            if area_of(state.get("area")) != settings.area:  # resumed with another area
                reread(index, state, settings.area, executor)
        state.put("crawled", _now())
    result = _write(folder, analysis or Analysis(), report)
    if not report.out_of_time:
        with State(path) as state:
            mark_finished(state)
    return result


def _area(area: ContentArea) -> dict[str, list[str]]:
    return {"keep": list(area.keep), "drop": list(area.drop)}


def reanalyze(
    folder: Path,
    analysis: Analysis | None = None,
    area: ContentArea | None = None,
    workers: int = 1,
) -> AuditResult:
    """Analyse the pages an audit in ``folder`` crawled again, and write the outputs again
    (``changes.csv`` too, against the audit in ``folder/previous/`` when there is one).

    With an ``area`` other than the audit's, the stored pages are first read again under it
    (in ``workers`` processes); without one, the audit's own area stays.  It needs the
    ``audit`` extra."""
    require("audit", "the site audit")
    folder = Path(folder)
    path = folder / AUDIT_FILE
    if not path.is_file():
        raise IndexFileError(
            f"{folder}: no {AUDIT_FILE} here; run an audit into this folder first",
            path=path,
            reason="missing",
        )
    if area is not None:
        with Index(path) as index, State(path) as state:
            if area_of(state.get("area")) != area:
                with _executor(workers) as executor:
                    reread(index, state, area, executor)
    return _write(folder, analysis or Analysis(), None)


def _drop(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise OutputError(path, f"cannot remove it ({exc.strerror or exc})") from exc


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _write(folder: Path, analysis: Analysis, report: CrawlReport | None) -> AuditResult:
    from ..report.html import write_html
    from .html import audit_html

    path, previous = folder / AUDIT_FILE, folder / PREVIOUS / AUDIT_FILE
    changes = None
    with Index(path) as index, State(path) as state:
        rows = list(state.pages())
        findings = analyse(rows, index, analysis)
        if previous.is_file():
            changes = changes_since(previous, index, rows, findings, analysis)
        shown = {u for c in findings.clusters for u in c.members}
        ids = {d["source"]: d["id"] for d in index.documents() if d["source"] in shown}
        texts_by_id = index.texts(ids.values())
        texts = {source: texts_by_id.get(i, "") for source, i in ids.items()}
        context = {"starts": (state.get("settings") or {}).get("starts", []), "when": _now()}
    write_csv(folder / "pages.csv", findings)
    write_clusters(folder / "clusters.jsonl", findings)
    write_xlsx(folder / "pages.xlsx", findings, changes)
    write_html(folder / "report.html", audit_html(findings, texts, context, changes))
    if changes is not None:
        write_changes(folder / CHANGES_FILE, changes)
    else:
        _drop(folder / CHANGES_FILE)  # its baseline is no longer there
    return AuditResult(folder, findings, report, changes)
