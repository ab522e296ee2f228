"""canon check: how much of each draft already exists in an index or on the web.

With ``--web``, the check's stages (queries built, searching, fetching, checking) are shown on
one line of stderr, rewritten in place and erased when the check is done, when stderr is a
terminal; never when it is a file or a pipe.  stdout holds only the results, so it (``--json``
or not) is the same either way.  The web check (its search providers, fetching, asyncio) is
imported only with ``--web``, so a check against an index starts without it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import Outcome
from ..index.store import Index
from ..report.language import Speech
from ..report.said import translated
from ..sources.documents import Document, read_source
from ..uniqueness.against_index import CheckResult, check
from ..uniqueness.rewrites import THRESHOLD
from ..uniqueness.settings import CheckSettings, SearchSettings
from . import cli
from .options import fetch_options, lang_option, locale_of, source_options, spoken
from .refusals import said_text

if TYPE_CHECKING:
    from ..sources.search import Provider
    from ..uniqueness.web import WebCheck
    from ..uniqueness.web.run import WebProgress

__all__ = ["check_command", "stage_text"]


@cli.command("check")
@click.argument("drafts", nargs=-1, required=True, metavar="DRAFT...")
@click.option(
    "--index",
    "db",
    type=click.Path(path_type=Path),
    default=None,
    help="The index to check against (with --web, as well as the web).",
)
@click.option(
    "--web",
    "web",
    metavar="PROVIDER",
    default=None,
    help="Also check against the web: searxng:URL, searxng, yandex or google (keys from "
    "the environment or the config file, never from the command line).",
)
@click.option(
    "--queries",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="With --web, send at most N phrase queries (default: one per 300 characters, at most 20).",
)
@click.option(
    "--allow-private-results",
    is_flag=True,
    help="With --web, also fetch search results at loopback, private or link-local addresses "
    "(--allow-private covers the drafts; the provider's own address may be private anyway).",
)
@click.option(
    "-p",
    "--profile",
    "profile_names",
    multiple=True,
    help="Check under these of the index's profiles (default: all).",
)
@click.option(
    "--exclude",
    multiple=True,
    metavar="SOURCE|DOMAIN|re:PATTERN",
    help="Ignore indexed sources (e.g. the copywriter's own site): a source's exact name, a "
    "domain with its subdomains (never a substring), or re:PATTERN, an RE2 regular expression "
    "searched in the name. Repeatable, at most 1,000.",
)
@click.option("--skip-quotes", is_flag=True, help="Leave text in quotation marks out of the count.")
@click.option(
    "--min-uniqueness",
    type=click.FloatRange(0, 100),
    default=None,
    help="Exit 1 when a draft's uniqueness (%, the verdict's figure) falls below this.",
)
@click.option(
    "--min-shared",
    type=int,
    default=3,
    show_default=True,
    metavar="N",
    help="List a source only when it holds at least N of the draft's shingles.",
)
@click.option(
    "--common",
    type=int,
    default=1000,
    show_default=True,
    metavar="DOCS",
    help="A shingle found in more than DOCS indexed documents is a set phrase: it credits "
    "no source and makes no fragment.",
)
@click.option(
    "--sentence-threshold",
    type=float,
    default=THRESHOLD,
    show_default=True,
    metavar="SCORE",
    help="A draft sentence is rewritten from a source sentence when their content lemmas "
    "match with at least this IDF-weighted Dice, in any word order.",
)
@click.option(
    "--no-sentences",
    is_flag=True,
    help="Leave the sentence measure out: rewrites are found by shingles only.",
)
@click.option(
    "--details", is_flag=True, help="Also print the shingle figures and sources per profile."
)
@click.option(
    "--source",
    "source_number",
    type=int,
    default=None,
    metavar="N",
    help="Show the draft beside source N of the list, with their shared fragments.",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many sources to list.",
)
@click.option(
    "--similar",
    type=float,
    default=None,
    metavar="JACCARD",
    help="Also list indexed documents near the whole draft (Jaccard at least this).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a self-contained HTML report here (NAME-2.html... for more drafts).",
)
@lang_option
@source_options
def check_command(
    drafts: tuple[str, ...],
    db: Path | None,
    web: str | None,
    queries: int | None,
    allow_private_results: bool,
    profile_names: tuple[str, ...],
    exclude: tuple[str, ...],
    skip_quotes: bool,
    min_uniqueness: float | None,
    min_shared: int,
    common: int,
    sentence_threshold: float,
    no_sentences: bool,
    details: bool,
    source_number: int | None,
    top: int,
    similar: float | None,
    as_json: bool,
    html_path: Path | None,
    lang: str | None,
    **opts: Any,
) -> None:
    """How much of each DRAFT already exists in the index or on the web: uniqueness,
    sources, fragments.  With --web, a terminal's stderr shows the stages as they go."""
    if db is None and web is None:
        raise click.UsageError(spoken()._("give --index INDEX, --web PROVIDER or both"))
    provider = _provider(web) if web is not None else None
    options, whole_page = fetch_options(opts)
    settings = CheckSettings(
        profiles=profile_names or None,
        exclude=exclude,
        skip_quotes=skip_quotes,
        top=top,
        min_shared=min_shared,
        common=common,
        similar=similar,
        sentence_threshold=None if no_sentences else sentence_threshold,
        search=SearchSettings(
            queries=queries, fetch=options, allow_private_results=allow_private_results
        ),
    )
    docs = [read_source(d, whole_page=whole_page, fetch_options=options) for d in drafts]
    below = False
    shown = sys.stderr.isatty()  # the stages of a web check, on a terminal only
    with Index(db, readonly=True) if db is not None else nullcontext() as index:
        for number, doc in enumerate(docs, 1):
            found = None
            if provider is not None:
                label = f"{doc.source}: " if len(docs) > 1 else ""
                found = _on_web(doc, provider, settings, index, _stage_line(shown, label))
                result = found.result
            else:
                assert index is not None  # an index, when there is no provider
                result = check(doc.text, index, settings, name=doc.source)
                result = result.with_unseen(doc.unseen)
            _print(result, doc, as_json, details, source_number, found)
            if html_path:
                _write_html(result, doc, html_path, number, min_uniqueness, locale_of(lang))
            assert result.verdict is not None
            figure = result.verdict.uniqueness * 100
            if min_uniqueness is not None and figure < min_uniqueness:
                below = True
                click.echo(f"canon: {_below(doc.source, figure, min_uniqueness)}", err=True)
    if below:
        sys.exit(Outcome.BELOW_BAR)


def _below(source: str, figure: float, mark: float) -> str:
    """The line that says a draft fell below ``--min-uniqueness``, and by how much."""
    said = spoken()
    return said._(
        "%(source)s: uniqueness %(figure)s is below --min-uniqueness %(mark)s by %(points)s points",
        source=source,
        figure=said.figures(f"{figure:.1f}%"),
        mark=said.figures(f"{mark:g}%"),
        points=said.number(mark - figure, 1),
    )


def _provider(web: str) -> Provider:
    from ..uniqueness.web import provider_of

    return provider_of(web)


def _on_web(
    doc: Document,
    provider: Provider,
    settings: CheckSettings,
    index: Index | None,
    stages: AbstractContextManager[Callable[[WebProgress], None] | None],
) -> WebCheck:
    """The web check of one draft, its stages shown by ``stages``."""
    from ..uniqueness.web import web_check

    with stages as on_progress:
        found = web_check(
            doc.text, provider, settings, index=index, name=doc.source, on_progress=on_progress
        )
    return found.with_unseen(doc.unseen)


def stage_text(progress: WebProgress) -> str:
    """How the stage line says where a web check is: ``queries 12``, ``searching 3/12``,
    ``fetching 7/40``, ``checking``."""
    if progress.stage == "queries":
        return f"queries {progress.total}"
    if progress.stage in ("searching", "fetching"):
        return f"{progress.stage} {progress.done}/{progress.total}"
    return progress.stage


@contextmanager
def _stage_line(shown: bool, label: str) -> Iterator[Callable[[WebProgress], None] | None]:
    """A web check's ``on_progress``: each stage on one line of stderr, rewritten in place and
    erased at the end (rich's live display); None when not ``shown``."""
    if not shown:
        yield None
        return
    from rich.console import Console
    from rich.live import Live
    from rich.text import Text

    console = Console(stderr=True, force_terminal=True, highlight=False)
    with Live(Text(label), console=console, auto_refresh=False, transient=True,
              redirect_stdout=False, redirect_stderr=False) as live:  # fmt: skip
        yield lambda progress: live.update(Text(label + stage_text(progress)), refresh=True)


def _print(
    result: CheckResult,
    doc: Document,
    as_json: bool,
    details: bool,
    source: int | None,
    found: WebCheck | None = None,
) -> None:
    if as_json:
        data = found.to_dict() if found is not None else result.to_dict()
        click.echo(json.dumps({"draft": doc.to_dict(), **data}, ensure_ascii=False))
        return
    from .. import report

    said = spoken()
    report.print_check(result, doc, details=details, source=source, said=said)
    if found is not None:
        click.echo(said._("Web: %(summary)s.", summary=_web_summary(found, said)))
        for url, query in _found_by(result):
            click.echo(f"  {url} ← {query}")
        for page in found.failed:
            reason = _with_hint(page.reason, said)
            click.echo(said._("  not compared: %(url)s: %(reason)s", url=page.url, reason=reason))


def _web_summary(found: WebCheck, said: Speech) -> str:
    """What a web check cost: queries sent and cached, pages compared, failed, excluded."""
    if said.locale == "en":
        return found.summary()
    cached = len(found.queries) - found.sent
    excluded = sum(1 for p in found.pages if p.status == "excluded")
    parts = [
        found.provider
        + ": "
        + said.ngettext("%(num)s query sent", "%(num)s queries sent", found.sent),
        said._("%(num)s from the cache", num=said.count(cached)) if cached else "",
        said.ngettext("%(num)s page compared", "%(num)s pages compared", found.compared),
        said._("%(num)s failed", num=said.count(len(found.failed))) if found.failed else "",
        said._("%(num)s excluded", num=said.count(excluded)) if excluded else "",
    ]
    return ", ".join(p for p in parts if p)


def _with_hint(reason: str | None, said: Speech) -> str:
    """A page's reason, with the flag that fetches it when it is a private search result."""
    from ..uniqueness.web.candidates import PRIVATE_RESULT

    shown = reason or ""
    if said.locale != "en":
        shown = translated(shown, said.translations) or said_text(shown, said)
    if reason is not None and reason.endswith(PRIVATE_RESULT):
        return f"{shown} (--allow-private-results)"
    return shown


def _write_html(
    result: CheckResult, doc: Document, path: Path, number: int, mark: float | None, locale: str
) -> None:
    from ..report.html import check_html, write_html

    target = path if number == 1 else path.with_stem(f"{path.stem}-{number}")
    write_html(target, check_html(result, doc, mark, locale))


def _found_by(result: CheckResult) -> list[tuple[str, str]]:
    """Each web source listed, once, with the query that found it."""
    from ..uniqueness.web import WebSource

    found = {
        m.source: m.query
        for p in result.profiles
        for m in p.sources
        if isinstance(m, WebSource) and m.query is not None
    }
    return list(found.items())
