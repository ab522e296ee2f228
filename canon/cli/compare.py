"""canon compare, tokens, profiles and stats: one text or two, no index."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ..canonical import canonicalize
from ..comparison import Table, compare_table
from ..errors import MissingExtra
from ..profile import BUILTIN_PROFILES
from ..sources.documents import Document
from . import cli
from .options import (
    json_option,
    lang_option,
    language_option,
    locale_of,
    profile_options,
    profiles_from,
    read_all,
    rule_changes,
    source_options,
    spoken,
)

__all__ = ["compare", "profiles", "stats", "tokens"]


def _echo_json(data: Any, indent: int | None = 2) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=indent))


@cli.command()
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@click.option(
    "-k",
    "--k",
    "ks",
    type=click.IntRange(min=1),
    multiple=True,
    help="Shingle size in words; repeat for several (default: 3, 4 and 5).",
)
@click.option(
    "-p",
    "--profile",
    "profile_names",
    multiple=True,
    help=f"Profile to compare under; repeat for several ({', '.join(BUILTIN_PROFILES)}; "
    "default: raw and lemma).",
)
@click.option(
    "--step",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Words between the starts of two shingles.",
)
@json_option
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a self-contained HTML report here.",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also draw Jaccard and containment against k = 1..10 into this PNG.",
)
@lang_option
@source_options
@profile_options
def compare(
    first: str,
    second: str,
    ks: tuple[int, ...],
    profile_names: tuple[str, ...],
    step: int,
    as_json: bool,
    html_path: Path | None,
    plot_path: Path | None,
    lang: str | None,
    **opts: Any,
) -> None:
    """Compare texts A and B: shared shingles under each profile, side by side.

    A and B are http(s) URLs, HTML files (their main text), .docx files, text files (.txt,
    .md; UTF-8 or a legacy Cyrillic encoding) or - for standard input.
    """
    docs = read_all([first, second], opts)
    profiles = profiles_from(profile_names or ("raw", "lemma"), rule_changes(opts))
    labels = (docs[0].source, docs[1].source)
    table = compare_table(docs[0].text, docs[1].text, ks or (3, 4, 5), profiles, step=step,
                          labels=labels).require_measurable()  # fmt: skip
    if html_path or plot_path:
        _write_reports(docs, table, html_path, plot_path, locale_of(lang))
    if as_json:
        _echo_json({"first": docs[0].to_dict(), "second": docs[1].to_dict(), **table.to_dict()})
    else:
        from .. import report  # rich is loaded only to print

        report.print_table(table, docs, spoken())


def _write_reports(
    docs: Sequence[Document],
    table: Table,
    html_path: Path | None,
    plot_path: Path | None,
    locale: str = "en",
) -> None:
    from ..report.html import compare_html, write_html
    from ..report.plot import plot_png, similarity_curves

    try:
        png: bytes | None = plot_png(similarity_curves(table), plot_path)
    except MissingExtra as exc:
        if plot_path:
            raise
        png = None  # the report without its plot, and a word on how to have it
        said = spoken()._("the report has no plot: %(install)s draws it", install=exc.install)
        click.echo(f"canon: {said}", err=True)
    if html_path:
        write_html(html_path, compare_html(table, docs, png, locale))


@cli.command()
@click.argument("source", metavar="FILE")
@click.option(
    "-p",
    "--profile",
    "profile_name",
    default="lemma",
    show_default=True,
    help=f"Profile ({', '.join(BUILTIN_PROFILES)}).",
)
@click.option("--spans", is_flag=True, help="One token a line with the original text and span.")
@click.option("--json", "as_json", is_flag=True, help="Print tokens, spans and folds as JSON.")
@source_options
@profile_options
def tokens(source: str, profile_name: str, spans: bool, as_json: bool, **opts: Any) -> None:
    """Print the canonical form of FILE (or URL): exactly what a comparison sees."""
    (doc,) = read_all([source], opts)
    (profile,) = profiles_from([profile_name], rule_changes(opts))
    canonical = canonicalize(doc.text, profile)
    if as_json:
        _echo_json({"source": doc.to_dict(), **canonical.to_dict()}, indent=None)
    else:
        from .. import report

        report.print_tokens(canonical, doc, with_spans=spans)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the profiles as JSON.")
def profiles(as_json: bool) -> None:
    """List the built-in profiles, their rules and fingerprints."""
    if as_json:
        _echo_json([p.to_dict() for p in BUILTIN_PROFILES.values()])
    else:
        from .. import report

        report.print_profiles(list(BUILTIN_PROFILES.values()))


@cli.command("stats")
@click.argument("source", metavar="FILE")
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="How many keywords, and phrases of each length, to list.",
)
@click.option(
    "--keywords",
    multiple=True,
    metavar="LIST",
    help="Target keywords, comma-separated (the option may be repeated): each is counted "
    "by lemma in every form, with its density and the forms found.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@language_option
@source_options
def stats(source: str, top: int, keywords: Sequence[str], as_json: bool, **opts: Any) -> None:
    """Text statistics of FILE (or URL): length, water and nausea with verdicts against real
    articles of the same length, keywords and 2-3-lemma phrases, stuffing warnings, target
    keywords, Zipf check."""
    from ..textstats import split_keywords, text_stats

    (doc,) = read_all([source], opts)
    result = text_stats(doc.text, top=top, keywords=split_keywords(keywords))
    if as_json:
        _echo_json({"source": doc.to_dict(), **result.to_dict()})
        return
    from .. import report

    report.print_stats(result, doc, spoken())
