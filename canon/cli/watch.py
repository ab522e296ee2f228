"""canon watch: a site's published pages watched against the web — which have been copied
elsewhere, how much of each, and since when."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import OptionError, Outcome
from ..report.language import N_, Speech
from ..sources.fetch import FetchOptions
from ..watch import (
    CHANGES_CSV,
    AddReport,
    Copy,
    RunReport,
    RunSettings,
    WatchStore,
    add_pages,
    provider_for,
    run_watch,
)
from ..watch.mail import MAIL_TIMEOUT, MailSettings, mail_settings
from ..watch.outputs import CHANGES_XLSX, REPORT_HTML, run_folder
from ..watch.pages import MAX_PAGES, PER_HOST, remove_pages
from ..watch.settings import GROWTH
from ..watch.xlsx import xlsx_available
from . import cli
from .options import (
    fetch_limit_options,
    fetch_limits,
    fetch_options,
    json_option,
    lang_option,
    language_option,
    locale_of,
    progress_bar,
    source_options,
    spoken,
    stacked,
)
from .refusals import said_text

if TYPE_CHECKING:
    from ..audit.crawl import CrawlReport
    from ..audit.state import PageRow
    from ..sources.pagecache import Page

__all__ = ["watch_group"]

_SIGNS = {"new": "+", "grown": "↑", "back": "+", "gone": "-"}


@cli.group("watch")
def watch_group() -> None:
    """Watch a site's pages against the web: which have been copied, and since when."""


_folder = click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))


@watch_group.command("add")
@_folder
@click.argument("sources", nargs=-1, metavar="SOURCE...")
@click.option(
    "--allow",
    multiple=True,
    metavar="DOMAIN",
    help="A site allowed to republish the pages (a syndication partner, with its subdomains; "
    "HOST:PORT for one port): never reported as a copy. Repeatable, kept in the watch.",
)
@click.option(
    "--crawl",
    multiple=True,
    metavar="URL",
    help="Crawl the site of URL as canon audit does (robots.txt, Crawl-delay, its own pages "
    "only) and keep its pages of text: not noindex, not canonicalized to another of its pages. "
    "Repeatable.",
)
@click.option(
    "--max-pages",
    type=click.IntRange(1, MAX_PAGES),
    default=None,
    metavar="N",
    help=f"Fetch at most N pages in the crawl (default: {MAX_PAGES:,}).",
)
@click.option(
    "--max-depth",
    type=click.IntRange(min=0),
    default=None,
    metavar="D",
    help="Follow links at most D deep from a crawl's start (default: any).",
)
@json_option
@language_option
@source_options
def add_command(
    folder: Path,
    sources: tuple[str, ...],
    allow: tuple[str, ...],
    crawl: tuple[str, ...],
    max_pages: int | None,
    max_depth: int | None,
    as_json: bool,
    **opts: Any,
) -> None:
    """Keep the pages SOURCE names in the watch DIR (made when missing): page URLs, @FILE (one
    URL a line) or a sitemap's URL (.xml, .xml.gz), and the pages of text --crawl finds. Each
    page's main text, final address and canonical link are kept; a page added again is
    refreshed and keeps its history."""
    if not sources and not allow and not crawl:
        raise click.UsageError(
            "give the pages to watch (SOURCE... or --crawl URL) or --allow DOMAIN"
        )
    if not crawl and (max_pages is not None or max_depth is not None):
        limit = "max_pages" if max_pages is not None else "max_depth"
        raise OptionError(limit, "limits a crawl: give --crawl URL too")
    options, whole_page = fetch_options(opts)
    with _crawled(crawl, options, max_pages, max_depth) as found:
        report = add_pages(
            folder, sources, options, allow=allow, whole_page=whole_page, fetched=found.pages
        )
    report = replace(report, failed=report.failed + tuple(found.failed), skipped=found.skipped)
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        _print_added(folder, report)
    if report.failed:
        sys.exit(Outcome.SOME_FAILED)


def _print_added(folder: Path, report: AddReport) -> None:
    said = spoken()
    with WatchStore(folder) as store:
        total = len(store.pages())
    added = said.ngettext(
        "%(num)s page(s) added to %(folder)s (%(total)s watched).",
        "%(num)s page(s) added to %(folder)s (%(total)s watched).",
        len(report.added),
        folder=folder,
        total=said.count(total),
    )
    click.echo(added)
    if report.skipped:
        counts: dict[str, int] = {}
        for _, why in report.skipped:
            counts[why] = counts.get(why, 0) + 1
        whys = ", ".join(f"{said.count(n)} {said._(why)}" for why, n in counts.items())
        skipped = said.ngettext(
            "%(num)s page(s) of the crawl not kept: %(whys)s.",
            "%(num)s page(s) of the crawl not kept: %(whys)s.",
            len(report.skipped),
            whys=whys,
        )
        click.echo(skipped)
    for source, reason in report.failed:
        click.echo(f"canon: {source}: {said_text(reason, said)}", err=True)


# Why a page of a crawl is not watched (see _not_kept), said.
NOT_KEPT = (
    N_("blocked"), N_("failed"), N_("redirect"), N_("not-html"), N_("noindex"), N_("status"),
    N_("canonicalized"), N_("no-text"), N_("duplicate"),
)  # fmt: skip


@dataclass
class _Crawled:
    """What a crawl gave a watch: the pages to keep (read from the crawl's file as they are
    added), the pages not kept with why, and those that failed with why."""

    pages: Iterator[Page]
    skipped: tuple[tuple[str, str], ...] = ()
    failed: tuple[tuple[str, str], ...] = ()


def _not_kept(row: PageRow, on_site: Any) -> str | None:
    """Why a page of the crawl is not watched (None: it is): ``failed`` (no answer, or it
    could not be read), ``blocked`` (robots.txt), ``redirect`` (its target is a page of its
    own), ``status`` (not 200), ``not-html``, ``noindex``, ``canonicalized`` (its canonical
    link names another page of the site, which is watched when the crawl reached it),
    ``no-text`` (no main text, as a home page of links)."""
    if row.reason == "blocked":
        return "blocked"
    if row.status == 0 or row.reason == "error":
        return "failed"
    if row.reason in ("redirect", "not-html", "noindex"):
        return row.reason
    if row.status != 200:
        return "status"
    if row.canonical and row.canonical != row.url and on_site(row.canonical):
        return "canonicalized"
    return "no-text" if row.main_words == 0 or row.reason == "no-text" else None


def _sorted_out(rows: Sequence[PageRow], on_site: Any) -> tuple[list[PageRow], _Crawled]:
    """The rows of the pages to keep (one of those with the same text: ``duplicate``) and
    the others, with why."""
    kept: list[PageRow] = []
    skipped: list[tuple[str, str]] = []
    failed: list[tuple[str, str]] = []
    texts: set[str] = set()
    for row in rows:
        why = _not_kept(row, on_site)
        if why is None and row.canonical_hash is not None and row.canonical_hash in texts:
            why = "duplicate"
        if why == "failed":
            failed.append((row.url, row.error or f"status {row.status}"))
        elif why is not None:
            skipped.append((row.url, why))
        else:
            kept.append(row)
            texts.add(row.canonical_hash or row.url)
    return kept, _Crawled(iter(()), tuple(skipped), tuple(failed))


def _stored_pages(rows: Sequence[PageRow]) -> Iterator[Page]:
    """The pages the crawl fetched, as fetched: their HTML is kept compressed in its file."""
    from datetime import UTC, datetime
    from email.utils import format_datetime

    import zstandard

    from ..sources.pagecache import Page

    unpack = zstandard.ZstdDecompressor()
    date = format_datetime(datetime.now(UTC), True)
    for row in rows:
        html = row.html or b""
        body = unpack.decompress(html, max_output_size=64 * len(html) + 2**20) if html else b""
        media = row.content_type or "text/html"
        yield Page(row.url, row.final_url or row.url, row.status, media, row.charset, date, body)


def _crawl_notes(report: CrawlReport) -> list[str]:
    """What the crawl's limits did: stopped it, left URLs, shortened a Crawl-delay."""
    said = spoken()
    f = said.figures
    notes = []
    if report.out_of_time:
        notes.append(
            said._("the crawl stopped after %(seconds)s s, %(left)s URLs left",
                   seconds=f(f"{report.max_time:g}"), left=f(str(report.left)))
        )  # fmt: skip
    elif report.left:
        notes.append(
            said._(
                "%(left)s URLs found past --max-pages were not fetched", left=f(str(report.left))
            )
        )
    for host, asked in report.capped:
        notes.append(
            said._("%(host)s asks for a Crawl-delay of %(asked)s s; waited %(waited)s s",
                   host=host, asked=f(f"{asked:g}"), waited=f(f"{report.max_crawl_delay:g}"))
        )  # fmt: skip
    for host in report.given_up:
        notes.append(
            said._("%(host)s failed too often in a row: its other pages were not asked for",
                   host=host)
        )  # fmt: skip
    return notes


@contextmanager
def _crawled(
    starts: tuple[str, ...], options: FetchOptions, max_pages: int | None, max_depth: int | None
) -> Iterator[_Crawled]:
    """Crawl the sites of ``starts`` with the audit's crawler (robots.txt and its
    Crawl-delay, the audit's politeness with two requests to a site at once, the sites' own
    pages only, the page and depth limits, its time limit) into a file of its own, and the
    pages worth watching, read from that file while the file is there."""
    if not starts:
        yield _Crawled(iter(()))
        return
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    from ..audit.crawl import crawl
    from ..audit.pages import Reading
    from ..audit.settings import CrawlSettings
    from ..audit.state import State
    from ..extras import require
    from ..index.store import Index
    from ..profile import get_profile
    from ..sources.client import Politeness
    from ..sources.crawl.addresses import Scope
    from ..sources.fetch import is_url

    require("audit", "crawling a site")
    for start in starts:
        if not is_url(start):
            raise OptionError(
                "crawl", f"must be a site's address (http:// or https://), got {start!r}"
            )
    settings = CrawlSettings(
        starts, max_pages=max_pages or MAX_PAGES, max_depth=max_depth, fetch=options,
        politeness=Politeness(per_host=PER_HOST),
    )  # fmt: skip
    profile = get_profile("raw")
    reading = Reading(settings.area, (profile,), settings.k)
    with tempfile.TemporaryDirectory(prefix="canon-watch-crawl-") as folder:
        path = Path(folder) / "crawl.db"
        with Index(path, create=True) as index, State(path) as state:
            indexed = index.use_profiles([profile], settings.k, 1)
            bar = progress_bar(spoken()._("crawling"), spoken()._("pages"))
            with ThreadPoolExecutor(1) as executor, bar as update:
                report = crawl(settings, indexed, state, executor, reading, update)
            rows = list(state.pages(with_html=True))
        for note in _crawl_notes(report):
            click.echo(f"canon: {note}", err=True)
        kept, found = _sorted_out(rows, Scope.of(starts).on_site)
        yield replace(found, pages=_stored_pages(kept))


def _mail_options(func: Any) -> Any:
    """The options of the mail a run with changes sends."""
    options = [
        click.option(
            "--mail-to",
            multiple=True,
            metavar="ADDRESS",
            help="After a run with changes, mail its summary (the HTML report attached) to "
            "ADDRESS. Repeatable.",
        ),
        click.option(
            "--mail-from",
            metavar="ADDRESS",
            default=None,
            help="The mail's sender (default: CANON_SMTP_USER when it is an address, else "
            "canon@ this machine's name).",
        ),
        click.option(
            "--smtp",
            metavar="HOST[:PORT]",
            default=None,
            help="The SMTP server that sends the mail (default: localhost, port 25; 587 with "
            "--smtp-starttls, 465 with --smtp-ssl). User and password from CANON_SMTP_USER "
            "and CANON_SMTP_PASSWORD.",
        ),
        click.option("--smtp-starttls", is_flag=True, help="Secure the connection with STARTTLS."),
        click.option("--smtp-ssl", is_flag=True, help="Connect over TLS from the start (SMTPS)."),
        click.option(
            "--smtp-timeout",
            type=click.FloatRange(min=0.1),
            default=None,
            metavar="SECONDS",
            help=f"Seconds to wait for the SMTP server at each step (default: {MAIL_TIMEOUT:g}).",
        ),
    ]
    return stacked(options, func)


def _mail_of(mail: dict[str, Any]) -> MailSettings | None:
    """The mail options given → the mail's settings, checked; None when no mail is asked."""
    if not mail["mail_to"]:
        given = [name for name, value in mail.items() if value]
        if given:
            flag = "--" + given[0].replace("_", "-")
            raise click.UsageError(f"{flag} needs --mail-to ADDRESS: whom to mail")
        return None
    if mail["smtp_starttls"] and mail["smtp_ssl"]:
        raise click.UsageError("give --smtp-starttls or --smtp-ssl, not both")
    security = "ssl" if mail["smtp_ssl"] else "starttls" if mail["smtp_starttls"] else "none"
    timeout = mail["smtp_timeout"] if mail["smtp_timeout"] is not None else MAIL_TIMEOUT
    return mail_settings(mail["mail_to"], mail["mail_from"], mail["smtp"], security, timeout)


@watch_group.command("run")
@_folder
@click.option(
    "--queries",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    metavar="N",
    help="Send at most N phrase queries in this run, across its pages (the pages never "
    "checked first, then those due most: checked longest ago, sooner when copied before).",
)
@click.option(
    "--web",
    metavar="PROVIDER",
    default=None,
    help="The search provider: searxng:URL, searxng, yandex or google (keys from the "
    "environment or the config file); kept in the watch for the next runs.",
)
@click.option(
    "--allow-private-results",
    is_flag=True,
    help="Also fetch search results at loopback, private or link-local addresses.",
)
@click.option(
    "--notify-cmd",
    metavar="CMD",
    default=None,
    help="After a run with changes, run CMD (split as a shell would, run without one) with "
    "a JSON summary of the run on its standard input.",
)
@click.option(
    "--growth",
    type=click.FloatRange(0, 1, min_open=True),
    default=GROWTH,
    show_default=True,
    metavar="SHARE",
    help="A copy has grown when the share of the page it holds rose by at least this much.",
)
@_mail_options
@lang_option
@json_option
@fetch_limit_options
def run_command(
    folder: Path,
    queries: int,
    web: str | None,
    allow_private_results: bool,
    notify_cmd: str | None,
    growth: float,
    as_json: bool,
    lang: str | None,
    **opts: Any,
) -> None:
    """Check the pages due in the watch DIR against the web, within --queries, and print
    what changed since the last run; its report is written to DIR/report.html, its changes to
    DIR/changes.csv and DIR/changes.xlsx (each run's kept in DIR/runs/N/). A run stopped
    midway is taken up by the next one, without sending its queries again. A terminal's
    stderr shows the pages as they are checked."""
    notify = _command_words(notify_cmd) if notify_cmd is not None else None
    options = fetch_limits(opts)
    mailed = _mail_of(opts)  # the mail options are what is left
    provider = provider_for(folder, web)
    settings = RunSettings(
        queries=queries,
        fetch=options,
        allow_private_results=allow_private_results,
        growth=growth,
        notify=notify,
        mail=mailed,
        locale=locale_of(lang),
    )
    with progress_bar(spoken()._("checking pages"), spoken()._("pages")) as on_page:
        report = run_watch(folder, provider, settings, on_page=on_page)
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        _print_run(folder, report)
    if report.notify_failed:
        line = spoken()._("the changes were not told: %(why)s", why=report.notify_failed)
        click.echo(f"canon: {line}", err=True)
        sys.exit(Outcome.SOME_FAILED)


def _command_words(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise OptionError("notify_cmd", f"cannot be split into words ({exc})") from None
    if not words:
        raise OptionError("notify_cmd", "is empty: name a command")
    return words


# The changes a run finds and the kinds of copies (canon.watch), said.
CHANGE_WORDS = (N_("new"), N_("grown"), N_("back"), N_("gone"), N_("copied"), N_("rewritten"))


def _counted(kind: str, count: int, said: Speech) -> str:
    """``2 grown`` as the run's line says it; in Russian, with the plural of copies."""
    if said.locale == "en":
        return f"{count} {kind}"
    forms = {
        "new": ("%(num)s new copy", "%(num)s new copies"),
        "grown": ("%(num)s copy grew", "%(num)s copies grew"),
        "back": ("%(num)s copy is back", "%(num)s copies are back"),
        "gone": ("%(num)s copy gone", "%(num)s copies gone"),
    }
    if kind not in forms:
        return f"{said.count(count)} {said._(kind)}"
    return said.ngettext(*forms[kind], count)


def _print_run(folder: Path, report: RunReport) -> None:
    said = spoken()
    resumed = said._(", taken up where it stopped") if report.resumed else ""
    counts = ", ".join(
        _counted(kind, n, said) for kind, n in report.counts().items() if n
    ) or said._("no change")
    checked = said.ngettext(
        "Run %(run)s%(resumed)s: %(num)s page(s) checked, %(sent)s of %(budget)s queries sent "
        "(%(cached)s from the cache); %(counts)s.",
        "Run %(run)s%(resumed)s: %(num)s page(s) checked, %(sent)s of %(budget)s queries sent "
        "(%(cached)s from the cache); %(counts)s.",
        report.checked,
        run=report.run,
        resumed=resumed,
        sent=said.count(report.sent),
        budget=said.count(report.budget),
        cached=said.count(report.cached),
        counts=counts,
    )
    click.echo(checked)
    for c in report.changes:
        if c.change == "gone":
            detail = said._("%(share)s before", share=said.percent(c.previous or 0, 0))
        else:
            was = (
                said._(" (was %(share)s)", share=said.percent(c.previous, 0))
                if c.previous is not None
                else ""
            )
            detail = f"{said.percent(c.share, 0)} {said._(c.kind)}{was}"
        change = said._(c.change)
        click.echo(f"{_SIGNS[c.change]} {change:<5} {c.page} ← {c.url} {detail}")
    click.echo(said._("Changes written to %(path)s.", path=folder / CHANGES_CSV))
    xlsx = said._(" and %(path)s", path=folder / CHANGES_XLSX) if xlsx_available() else ""
    kept = run_folder(folder, report.run)
    click.echo(
        said._("Report written to %(path)s%(xlsx)s (this run's files in %(kept)s).",
               path=folder / REPORT_HTML, xlsx=xlsx, kept=kept)
    )  # fmt: skip


@watch_group.command("list")
@_folder
@click.option("--gone", is_flag=True, help="Also list the copies no longer found.")
@json_option
@language_option
def list_command(folder: Path, gone: bool, as_json: bool) -> None:
    """The copies of each page of the watch DIR found so far: share, kind, first and last
    seen."""
    with WatchStore(folder) as store:
        copies = store.copies(gone=gone)
        pages = [page.url for _, page in store.pages()]
    if as_json:
        click.echo(json.dumps([c.to_dict() for c in copies], ensure_ascii=False))
        return
    by_page: dict[str, list[Copy]] = {}
    for c in copies:
        by_page.setdefault(c.page, []).append(c)
    said = spoken()
    if not by_page:
        none = said.ngettext(
            "No copies found of the %(num)s page(s) watched.",
            "No copies found of the %(num)s page(s) watched.",
            len(pages),
        )
        click.echo(none)
    for page, found in by_page.items():
        click.echo(page)
        for c in found:
            ended = said._(", gone %(when)s", when=c.gone) if c.gone else ""
            seen = said._(
                "first seen %(first)s, last seen %(last)s", first=c.first_seen, last=c.last_seen
            )
            share = said.percent(c.share, 0)
            click.echo(f"  {share:>4} {said._(c.kind):<9} {c.url}  {seen}{ended}")


@watch_group.command("remove")
@_folder
@click.argument("urls", nargs=-1, required=True, metavar="URL...")
@json_option
@language_option
def remove_command(folder: Path, urls: tuple[str, ...], as_json: bool) -> None:
    """Stop watching the pages at URL (as they were added) in the watch DIR: their copies and
    changes go with them. A URL the watch does not hold is named, and the command exits 3."""
    report = remove_pages(folder, urls)
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        with WatchStore(folder) as store:
            total = len(store.pages())
        said = spoken()
        removed = said.ngettext(
            "%(num)s page(s) removed from %(folder)s (%(total)s watched).",
            "%(num)s page(s) removed from %(folder)s (%(total)s watched).",
            len(report.removed),
            folder=folder,
            total=said.count(total),
        )
        click.echo(removed)
        for url in report.missing:
            click.echo(f"canon: {said._('%(url)s: not in the watch', url=url)}", err=True)
    if report.missing:
        sys.exit(Outcome.SOME_FAILED)
