"""canon check: how much of each draft already exists in an index."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import Outcome
from ..index.store import Index
from ..rewrites import THRESHOLD
from ..sources.documents import Document
from ..uniqueness import CheckResult, check
from . import cli
from .options import read_all, source_options

__all__ = ["check_command"]


@cli.command("check")
@click.argument("drafts", nargs=-1, required=True, metavar="DRAFT...")
@click.option(
    "--index",
    "db",
    type=click.Path(path_type=Path),
    required=True,
    help="The index to check against.",
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
@source_options
def check_command(
    drafts: tuple[str, ...],
    db: Path,
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
    **opts: Any,
) -> None:
    """How much of each DRAFT already exists in the index: uniqueness, sources, fragments."""
    docs = read_all(drafts, opts)
    below = False
    with Index(db, readonly=True) as index:
        for number, doc in enumerate(docs, 1):
            result = check(
                doc.text,
                index,
                profiles=profile_names or None,
                exclude=exclude,
                skip_quotes=skip_quotes,
                top=top,
                similar=similar,
                common=common,
                min_shared=min_shared,
                sentence_threshold=None if no_sentences else sentence_threshold,
                name=doc.source,
            )
            _print(result, doc, as_json, details, source_number)
            if html_path:
                _write_html(result, doc, html_path, number)
            assert result.verdict is not None
            figure = result.verdict.uniqueness * 100
            below = below or (min_uniqueness is not None and figure < min_uniqueness)
    if below:
        sys.exit(Outcome.BELOW_BAR)


def _print(
    result: CheckResult, doc: Document, as_json: bool, details: bool, source: int | None
) -> None:
    if as_json:
        click.echo(json.dumps({"draft": doc.to_dict(), **result.to_dict()}, ensure_ascii=False))
    else:
        from .. import report

        report.print_check(result, doc, details=details, source=source)


def _write_html(result: CheckResult, doc: Document, path: Path, number: int) -> None:
    from ..report.html import check_html, write_html

    target = path if number == 1 else path.with_stem(f"{path.stem}-{number}")
    write_html(target, check_html(result, doc))
