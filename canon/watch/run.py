"""One run of a watch: the pages due checked against the web within the run's query budget,
each finding kept with its dates; the run's report (``report.html``), its changes
(``changes.csv``, ``changes.xlsx``) written (:mod:`.outputs`), and, when it found changes, a
command and people by mail told of them.

A run holds the watch's lock (:mod:`.lock`) from start to end.  Its plan (which pages, how
many queries each: :mod:`.plan`) is stored before the first query, and each page's check is
written with its plan entry marked done; the queries' answers and the pages found are cached
in ``cache/run-N/`` of the folder.  A run stopped midway (killed, a provider failing) is taken
up by the next run, which follows the stored plan: the pages done are not checked again and
the queries already answered are read from the cache, never sent twice.  The cache is removed
when the run ends, so the next run asks the web afresh.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from ..errors import OptionError
from ..uniqueness.settings import MAX_PAGES, CheckSettings, SearchSettings
from ..uniqueness.web import Provider, provider_of, web_check
from .findings import found_in, unreached
from .history import Seen, updated
from .lock import locked
from .mail import send_mail
from .outputs import notify, write_outputs
from .own import Ownership
from .plan import plan_run
from .records import RunReport, WatchedPage
from .report import RunView, mail_text, report_html, run_view
from .settings import RunSettings
from .store import PlanEntry, WatchStore

__all__ = ["CACHE_FOLDER", "WatchProgress", "provider_for", "run_watch"]

CACHE_FOLDER = "cache"
PROVIDER_KEY = "provider"


@dataclass(frozen=True)
class WatchProgress:
    """How far a run is: ``done`` of ``total`` pages planned, at ``rate`` pages a second;
    ``note`` is the page just checked."""

    done: int
    total: int
    rate: float
    note: str


OnPage = Callable[[WatchProgress], None]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def provider_for(folder: Path, spec: str | None = None) -> Provider:
    """The search provider ``spec`` names (kept as the watch's provider from now on), or the
    one the watch keeps."""
    with WatchStore(folder) as store:
        spec = spec or store.setting(PROVIDER_KEY)
        if not spec:
            raise OptionError(
                "web",
                "is not set for this watch: name its search provider once "
                "(searxng:URL, searxng, yandex or google)",
            )
        provider = provider_of(spec)
        store.set_setting(PROVIDER_KEY, spec)
    return provider


def _ownership(store: WatchStore) -> Ownership:
    pages = [page for _, page in store.pages()]
    urls = [u for p in pages for u in (p.url, p.final_url)]
    return Ownership.of(urls, [p.canonical for p in pages], store.allowed())


def _check_page(
    store: WatchStore,
    run: int,
    entry: PlanEntry,
    context: tuple[Provider, RunSettings, Ownership, Path],
) -> WatchedPage:
    provider, settings, own, cache = context
    page = store.page(entry.page_id)
    search = SearchSettings(
        queries=entry.queries,
        fetch=replace(settings.fetch, cache_dir=cache),
        allow_private_results=settings.allow_private_results,
    )
    check = CheckSettings(exclude=own.exclusions(), top=MAX_PAGES, search=search)
    found = web_check(page.text, provider, check, name=page.url)
    seen = Seen(run, page.url, _now())
    before = store.copies(entry.page_id)
    copies, changes = updated(
        before, found_in(found, len(page.text), own), unreached(found), seen, settings.growth
    )
    cached = len(found.queries) - found.sent
    store.page_checked(run, entry, seen.date, copies, changes, (found.sent, cached))
    return page


def run_watch(
    folder: Path,
    provider: Provider,
    settings: RunSettings | None = None,
    *,
    on_page: OnPage | None = None,
) -> RunReport:
    """Run the watch in ``folder`` against the web through ``provider`` (or take up the run
    stopped midway, on its own plan) as ``settings`` say (default: :class:`RunSettings`);
    ``on_page`` is told of each page as it is checked."""
    settings = settings or RunSettings()
    with WatchStore(folder) as store, locked(folder):
        unfinished = store.unfinished_run()
        if unfinished is None:
            plan = plan_run(store.pages(), settings.queries)
            run = store.start_run(_now(), settings.queries, plan)
        else:
            run = unfinished.id
        cache = folder / CACHE_FOLDER / f"run-{run}"
        context = (provider, settings, _ownership(store), cache)
        entries = store.plan(run)
        began, checked = time.monotonic(), 0
        for number, entry in enumerate(entries, 1):
            if not entry.done:
                page = _check_page(store, run, entry, context)
                checked += 1
                if on_page is not None:
                    rate = checked / max(1e-9, time.monotonic() - began)
                    on_page(WatchProgress(number, len(entries), rate, page.url))
        store.finish_run(run, _now())
        row = store.run_row(run)
        report = RunReport(
            run, unfinished is not None, len(entries), len(entries), row.budget, row.sent,
            row.cached, tuple(store.changes(run)), row.started, row.finished or "",
        )  # fmt: skip
        view = run_view(store, report)
    write_outputs(folder, view, settings.locale)
    shutil.rmtree(cache, ignore_errors=True)
    if report.changes:
        failed = _tell(folder, view, settings)
        if failed:
            report = replace(report, notify_failed="; ".join(failed))
    return report


def _tell(folder: Path, view: RunView, settings: RunSettings) -> list[str]:
    """The command and the mail of ``settings`` told of the run's changes; why each that
    failed did."""
    failed = []
    if settings.notify:
        failed.append(notify(settings.notify, view.report, folder))
    if settings.mail is not None:
        subject, text = mail_text(view, settings.locale)
        html = report_html(view, settings.locale, folder)
        failed.append(send_mail(settings.mail, subject, text, html))
    return [reason for reason in failed if reason]
