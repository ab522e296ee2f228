"""canon watch: a site's published pages watched against the web — which have been copied
elsewhere, how much of each, and since when."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import OptionError, Outcome
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
from ..watch.settings import GROWTH
from . import cli
from .options import fetch_options, json_option, progress_bar, source_options

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
@json_option
@source_options
def add_command(
    folder: Path, sources: tuple[str, ...], allow: tuple[str, ...], as_json: bool, **opts: Any
) -> None:
    """Keep the pages SOURCE names in the watch DIR (made when missing): page URLs, @FILE (one
    URL a line) or a sitemap's URL (.xml, .xml.gz). Each page's main text, final address and
    canonical link are kept; a page added again is refreshed and keeps its history."""
    if not sources and not allow:
        raise click.UsageError("give the pages to watch (SOURCE...) or --allow DOMAIN")
    options, whole_page = fetch_options(opts)
    report = add_pages(folder, sources, options, allow=allow, whole_page=whole_page)
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        _print_added(folder, report)
    if report.failed:
        sys.exit(Outcome.SOME_FAILED)


def _print_added(folder: Path, report: AddReport) -> None:
    with WatchStore(folder) as store:
        total = len(store.pages())
    click.echo(f"{len(report.added)} page(s) added to {folder} ({total} watched).")
    for source, reason in report.failed:
        click.echo(f"canon: {source}: {reason}", err=True)


@watch_group.command("run")
@_folder
@click.option(
    "--queries",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    metavar="N",
    help="Send at most N phrase queries in this run, across its pages (the pages never "
    "checked first, then those checked longest ago).",
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
@json_option
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="Seconds to wait for each connect or read.",
)
@click.option(
    "--deadline",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds a page found, or a query to the search provider, may take in all.",
)
@click.option(
    "--max-bytes",
    type=click.IntRange(min=1),
    default=10_000_000,
    show_default=True,
    help="Refuse pages larger than this many bytes (after decompression).",
)
def run_command(
    folder: Path,
    queries: int,
    web: str | None,
    allow_private_results: bool,
    notify_cmd: str | None,
    growth: float,
    as_json: bool,
    timeout: float,
    deadline: float,
    max_bytes: int,
) -> None:
    """Check the pages due in the watch DIR against the web, within --queries, and print
    what changed since the last run (also written to DIR/changes.csv). A run stopped midway
    is taken up by the next one, without sending its queries again. A terminal's stderr shows
    the pages as they are checked."""
    notify = _command_words(notify_cmd) if notify_cmd is not None else None
    options = FetchOptions(
        connect_timeout=min(10.0, timeout),
        read_timeout=timeout,
        deadline=deadline,
        max_bytes=max_bytes,
    )
    provider = provider_for(folder, web)
    settings = RunSettings(
        queries=queries,
        fetch=options,
        allow_private_results=allow_private_results,
        growth=growth,
        notify=notify,
    )
    with progress_bar("checking pages", "pages") as on_page:
        report = run_watch(folder, provider, settings, on_page=on_page)
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        _print_run(folder, report)
    if report.notify_failed:
        click.echo(f"canon: the changes were not told: {report.notify_failed}", err=True)
        sys.exit(Outcome.SOME_FAILED)


def _command_words(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise OptionError("notify_cmd", f"cannot be split into words ({exc})") from None
    if not words:
        raise OptionError("notify_cmd", "is empty: name a command")
    return words


def _print_run(folder: Path, report: RunReport) -> None:
    resumed = ", taken up where it stopped" if report.resumed else ""
    counts = ", ".join(f"{n} {kind}" for kind, n in report.counts().items() if n) or "no change"
    click.echo(
        f"Run {report.run}{resumed}: {report.checked} page(s) checked, {report.sent} of "
        f"{report.budget} queries sent ({report.cached} from the cache); {counts}."
    )
    for c in report.changes:
        if c.change == "gone":
            detail = f"{c.previous or 0:.0%} before"
        else:
            was = f" (was {c.previous:.0%})" if c.previous is not None else ""
            detail = f"{c.share:.0%} {c.kind}{was}"
        click.echo(f"{_SIGNS[c.change]} {c.change:<5} {c.page} ← {c.url} {detail}")
    click.echo(f"Changes written to {folder / CHANGES_CSV}.")


@watch_group.command("list")
@_folder
@click.option("--gone", is_flag=True, help="Also list the copies no longer found.")
@json_option
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
    if not by_page:
        click.echo(f"No copies found of the {len(pages)} page(s) watched.")
    for page, found in by_page.items():
        click.echo(page)
        for c in found:
            ended = f", gone {c.gone}" if c.gone else ""
            click.echo(
                f"  {c.share:>4.0%} {c.kind:<9} {c.url}  first seen {c.first_seen}, "
                f"last seen {c.last_seen}{ended}"
            )
