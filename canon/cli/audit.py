"""canon audit: crawl a site politely and report its duplicate and near-duplicate pages.

The audit is imported when the command runs, not when ``canon`` starts (it needs the
``audit`` extra)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import OptionError
from ..report.language import Speech
from . import cli
from .options import json_option, language_option, progress_bar, spoken

if TYPE_CHECKING:
    from ..audit import AuditResult, Changes, CrawlReport, CrawlSettings

__all__ = ["audit_command"]


def _starts(values: tuple[str, ...]) -> tuple[str, ...]:
    """The START arguments as URLs (a list file read); checked here, as they are arguments."""
    from ..sources.collection import Item, expand
    from ..sources.fetch import is_url

    said = spoken()
    if not values:
        raise click.UsageError(said._("give START: a site URL, a sitemap URL or @urls.txt"))
    starts = []
    for entry in expand(values):
        source = entry.source
        if not isinstance(entry, Item):
            raise click.BadParameter(f"{source}: {entry.reason}", param_hint="START")
        if not is_url(source):
            problem = said._(
                "%(source)s is not an http(s) URL; give a site or sitemap URL", source=repr(source)
            )
            raise click.BadParameter(problem, param_hint="START")
        starts.append(source)
    if not starts:
        raise click.BadParameter(said._("the list names no URL"), param_hint="START")
    return tuple(starts)


def _summary(result: AuditResult, said: Speech) -> list[str]:
    from ..audit.settings import URLS_PER_PAGE

    f = said.figures  # the figures written as English writes them, then as the language does
    s = {name: f(str(value)) for name, value in result.findings.summary().items()}
    lines = []
    if result.crawl is not None:
        c = result.crawl
        rate = c.fetched / max(c.seconds, 1e-9)
        crawled = said._(
            "crawled %(fetched)s pages in %(seconds)s s (%(rate)s pages/s, up to %(most)s "
            "requests in flight)",
            fetched=f(str(c.fetched)),
            seconds=f(f"{c.seconds:.1f}"),
            rate=f(f"{rate:.1f}"),
            most=c.most_in_flight,
        )
        if c.left:
            crawled += said._("; %(left)s URLs left past --max-pages", left=f(str(c.left)))
        lines.append(crawled)
        if c.unfollowed:
            lines.append(
                said._(
                    "%(unfollowed)s links not followed: an audit keeps at most %(most)s URLs "
                    "(%(per_page)s x --max-pages)",
                    unfollowed=f(str(c.unfollowed)),
                    most=f(str(c.max_urls)),
                    per_page=URLS_PER_PAGE,
                )
            )
        lines += _limits_met(c, said)
    threshold = f(f"{result.findings.summary()['threshold']:g}")
    lines += [
        said._(
            "pages: %(pages)s (%(indexable)s indexable, %(compared)s compared, %(not_indexable)s "
            "not indexable, %(no_text)s without main text, %(blocked)s blocked by robots.txt, "
            "%(errors)s failed: 4xx, 5xx or no answer)",
            **s,
        ),
        said._("exact duplicates: %(exact_duplicates)s pages", **s),
        said._(
            "near-duplicate clusters (Jaccard >= %(at)s): %(near_duplicate_clusters)s "
            "(%(pages_in_clusters)s pages)",
            at=threshold,
            **s,
        ),
        said._("mostly inside another page: %(contained)s", **s),
        said._("thin pages: %(thin)s", **s),
        said._(
            "shared titles / H1 / descriptions: %(same_titles)s / %(same_h1)s / "
            "%(same_descriptions)s",
            **s,
        ),
        said._("written: %(files)s", files=", ".join(str(p) for p in result.files)),
    ]
    return lines


def _changes_line(changes: Changes, said: Speech) -> str:
    """The changes since the last audit, in one line."""
    n = {name: said.figures(str(count)) for name, count in changes.counts().items()}
    since = said._(" (finished %(since)s)", since=changes.since) if changes.since else ""
    return said._(
        "changes since the last audit%(since)s: %(new)s new, %(gone)s gone, %(status)s status "
        "changed, %(text)s text changed, %(duplicated)s newly duplicated, %(resolved)s resolved",
        since=since,
        **n,
    )


def _limits_met(c: CrawlReport, said: Speech) -> list[str]:
    """What the crawl's time and politeness limits did: stopped it, shortened a Crawl-delay,
    gave up on a host."""
    f = said.figures
    lines = []
    if c.out_of_time:
        lines.append(
            said._(
                "stopped after --max-time %(seconds)s s with %(left)s URLs left: run the same "
                "command again to resume, or raise --max-time",
                seconds=f(f"{c.max_time:g}"),
                left=f(str(c.left)),
            )
        )
    for host, asked in c.capped:
        lines.append(
            said._(
                "%(host)s asks for a Crawl-delay of %(asked)s s; waited %(waited)s s "
                "(--max-crawl-delay)",
                host=host,
                asked=f(f"{asked:g}"),
                waited=f(f"{c.max_crawl_delay:g}"),
            )
        )
    for host in c.given_up:
        lines.append(
            said._(
                "%(host)s failed too often in a row: its other pages were not asked for", host=host
            )
        )
    return lines


def _crawl_settings(starts: tuple[str, ...], opts: dict[str, Any]) -> CrawlSettings:
    from ..audit import CrawlSettings
    from ..sources.client import Politeness
    from ..sources.crawl.page import ContentArea
    from ..sources.fetch import FetchOptions

    timeout = opts["timeout"]
    return CrawlSettings(
        starts=_starts(starts),
        include=opts["include"],
        exclude=opts["exclude"],
        max_pages=opts["max_pages"],
        max_depth=opts["max_depth"],
        fetch=FetchOptions(
            connect_timeout=min(10.0, timeout),
            read_timeout=timeout,
            deadline=opts["deadline"],
            max_bytes=opts["max_bytes"],
            max_redirects=opts["max_redirects"],
            allow_private=opts["allow_private"],
        ),
        politeness=Politeness(
            concurrency=opts["concurrency"],
            per_host=opts["per_host"],
            retries=opts["retries"],
            max_retry_after=opts["max_retry_after"],
            max_crawl_delay=opts["max_crawl_delay"],
        ),
        area=ContentArea(opts["content_keep"], opts["content_drop"]),
        workers=opts["workers"] or min(4, os.cpu_count() or 1),
        max_time=opts["max_time"] or None,
    )


@cli.command("audit")
@click.argument("starts", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="The audit folder.")
@click.option(
    "--reanalyze",
    type=click.Path(file_okay=False, path_type=Path),
    help="Analyse an audit folder again (other --threshold, --min-words...) without crawling.",
)
@click.option("--threshold", type=float, default=0.9, show_default=True,
              help="Jaccard at or above which two pages are near duplicates.")  # fmt: skip
@click.option("--containment", type=float, default=0.8, show_default=True,
              help="Share of a page's shingles in another that makes it contained.")  # fmt: skip
@click.option("--min-words", type=click.IntRange(min=0), default=200, show_default=True,
              help="Pages with fewer words of main text are thin.")  # fmt: skip
@click.option("--include-nonindexable", is_flag=True,
              help="Compare noindex and canonicalized pages too.")  # fmt: skip
@click.option("--changed-below", type=float, default=0.95, show_default=True,
              help="Jaccard to the last audit's text below which a text changed.")  # fmt: skip
@click.option("--content-keep", multiple=True, metavar="CSS",
              help="Only these elements hold the content (repeatable).")  # fmt: skip
@click.option("--content-drop", multiple=True, metavar="CSS",
              help="Leave these elements out of the content (repeatable).")  # fmt: skip
@click.option("--include", multiple=True, metavar="RE",
              help="Only crawl URLs matching this RE2 pattern (repeatable).")  # fmt: skip
@click.option("--exclude", multiple=True, metavar="RE",
              help="Do not crawl URLs matching this RE2 pattern (repeatable).")  # fmt: skip
@click.option("--max-pages", type=click.IntRange(min=1), default=10_000, show_default=True)
@click.option("--max-depth", type=click.IntRange(min=0), default=None,
              help="Links to follow from a start page (default: any).")  # fmt: skip
@click.option("--concurrency", type=click.IntRange(min=1, max=256), default=8, show_default=True,
              help="Requests in flight.")  # fmt: skip
@click.option("--per-host", type=click.IntRange(min=1), default=None,
              help="Requests in flight to one host (default: --concurrency).")  # fmt: skip
@click.option("--retries", type=click.IntRange(min=0, max=10), default=2, show_default=True,
              help="Tries again on 429, 500, 502, 503, 504 (Retry-After honoured).")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes reading pages (default: one per core, at most 4).")  # fmt: skip
@click.option("--allow-private/--no-allow-private", default=False, show_default=True,
              help="Crawl sites on loopback, private or link-local addresses.")  # fmt: skip
@click.option("--timeout", type=click.FloatRange(min=0.1), default=20.0, show_default=True,
              help="Seconds to wait for each connect or read.")  # fmt: skip
@click.option("--deadline", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              help="Seconds one fetch may take, redirects included.")  # fmt: skip
@click.option("--max-time", type=click.FloatRange(min=0), default=3600.0, show_default=True,
              help="Seconds the crawl may run (0: no limit); run again to resume.")  # fmt: skip
@click.option("--max-crawl-delay", type=click.FloatRange(0, 3599), default=10.0,
              show_default=True, help="Seconds of a Crawl-delay obeyed at most.")  # fmt: skip
@click.option("--max-retry-after", type=click.FloatRange(0, 3599), default=10.0,
              show_default=True, help="Seconds of a Retry-After waited at most.")  # fmt: skip
@click.option("--max-bytes", type=click.IntRange(min=1), default=10_000_000, show_default=True)
@click.option("--max-redirects", type=click.IntRange(min=0), default=5, show_default=True)
@json_option
@language_option
def audit_command(starts: tuple[str, ...], as_json: bool, **opts: Any) -> None:
    """Crawl the site of START (a site URL, a sitemap URL or @urls.txt) into --out DIR and
    report its duplicate, near-duplicate, contained and thin pages, and shared titles.

    Writes DIR/audit.db (a canon index: `canon check --index` and `canon dedup --index` work
    on it), pages.csv, clusters.jsonl, pages.xlsx and report.html.  Run it again on the same
    DIR to resume a stopped crawl; once an audit has finished there, running it again makes a
    new audit, keeps the last one in DIR/previous and writes changes.csv: the pages new, gone,
    answering otherwise, with another text, newly duplicated and no longer duplicated.
    --reanalyze DIR changes the analysis without crawling."""
    from ..audit import Analysis, audit_site, reanalyze
    from ..sources.crawl.page import ContentArea

    analysis = Analysis(
        threshold=opts["threshold"],
        containment=opts["containment"],
        min_words=opts["min_words"],
        include_nonindexable=opts["include_nonindexable"],
        changed_below=opts["changed_below"],
    )
    if opts["reanalyze"] is not None:
        if starts or opts["out"]:
            raise OptionError("reanalyze", "takes the audit folder alone: drop START and --out")
        area = ContentArea(opts["content_keep"], opts["content_drop"])
        workers = opts["workers"] or min(4, os.cpu_count() or 1)
        result = reanalyze(opts["reanalyze"], analysis, area, workers)
    else:
        if opts["out"] is None:
            raise OptionError("out", "is missing: give the folder to write the audit into")
        settings = _crawl_settings(starts, opts)
        with progress_bar(spoken()._("crawling"), spoken()._("pages")) as update:
            result = audit_site(settings, opts["out"], analysis, update)
    summary = result.findings.summary()
    if result.changes is not None:
        summary["changes"] = result.changes.summary()
        click.echo(_changes_line(result.changes, spoken()), err=True)
    if as_json:
        payload = {"summary": summary, "files": [str(p) for p in result.files]}
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        for line in _summary(result, spoken()):
            click.echo(line)
