"""canon index add, remove, list, stats, optimize, verify and upgrade: building and inspecting an
index."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import Outcome
from ..index.ingest import AddReport, add_sources
from ..index.schema import SCHEMA_VERSION
from ..index.settings import AddSettings, IndexRules
from ..index.store import Index
from ..index.upgrade import upgrade
from ..index.verify import verify
from ..report.language import N_
from ..report.model.numbers import index_rows
from . import cli
from .options import (
    fetch_options,
    language_option,
    print_left_out,
    profile_options,
    profiles_from,
    progress_bar,
    refuse_when_nothing_to_read,
    rule_changes,
    source_options,
    spoken,
    workers_option,
)
from .refusals import said_text

__all__ = ["index_group"]

# A folder is refused by the index itself, in one line like any other file that is no index.
_DB = click.argument("db", type=click.Path(path_type=Path))


@cli.group("index")
def index_group() -> None:
    """Build and inspect a corpus index (a SQLite file and its segment folder beside it)."""


@index_group.command("add")
@_DB
@language_option
@click.argument("sources", nargs=-1, required=True)
@click.option(
    "-p",
    "--profile",
    "profile_names",
    multiple=True,
    help="Profiles to index (default: raw and lemma, or an existing index's own).",
)
@click.option(
    "-k",
    "--k",
    "k",
    type=click.IntRange(min=1),
    default=None,
    help="Shingle size (default 4; an existing index: its own).",
)
@click.option("--step", type=click.IntRange(min=1), default=None, help="Shingle step (default 1).")
@workers_option
@click.option(
    "--batch",
    type=click.IntRange(min=1),
    default=500,
    show_default=True,
    help="Documents per transaction.",
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    metavar="M",
    help="Keep only shingles whose hash is 0 modulo M: an M times smaller index, "
    "approximate numbers (default 1: keep all).",
)
@click.option(
    "--winnow",
    type=int,
    default=None,
    metavar="W",
    help="Keep only the smallest shingle hash of every W consecutive ones (winnowing): "
    "about 2/(W+1) of the postings, and any shared run of W+k-1 words still found "
    "(default 1: keep all; not with --sample).",
)
@click.option(
    "--store-text/--no-store-text",
    default=True,
    show_default=True,
    help="Keep each document's main text (compressed), so check can show the source's "
    "passages beside the draft's.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Count a text with fewer words than k as a failure (exit 3), not as left out.",
)
@source_options
@profile_options
def index_add(
    db: Path,
    sources: tuple[str, ...],
    profile_names: tuple[str, ...],
    k: int | None,
    step: int | None,
    workers: int | None,
    batch: int,
    sample: int | None,
    winnow: int | None,
    store_text: bool,
    strict: bool,
    **opts: Any,
) -> None:
    """Add SOURCES to the index DB (created on first use).

    A SOURCE is a URL, a file, a folder (searched for .txt, .md, .html, .htm and .docx, and
    those packed as .gz), @list.txt (one URL or path a line) or a .jsonl file of {"id", "text"}
    or {"url", "html"}.  Unchanged sources are skipped; changed ones are replaced.  A folder's
    other files, and texts with fewer words than k (headlines), are left out and listed.
    """
    options, whole_page = fetch_options(opts)
    changes = rule_changes(opts)
    profiles = None
    if profile_names or changes:
        profiles = profiles_from(profile_names or ("raw", "lemma"), changes)
    rules = IndexRules(profiles, k, step, sample, winnow)
    settings = AddSettings(
        whole_page=whole_page,
        fetch_options=options,
        workers=workers or os.cpu_count() or 1,
        batch=batch,
        store_text=store_text,
        strict=strict,
    )
    refuse_when_nothing_to_read(sources)  # before an empty index is made
    with Index(db, create=True) as index, progress_bar("indexing", "docs") as progress:
        report = add_sources(index, sources, rules, settings, on_progress=progress)
    _print_add_report(report)
    if report.failures:
        sys.exit(Outcome.SOME_FAILED)


def _print_add_report(report: AddReport) -> None:
    said = spoken()
    parts = [
        said._("added %(num)s", num=said.count(report.added)),
        said._("replaced %(num)s", num=said.count(report.replaced)),
        said._("unchanged %(num)s", num=said.count(report.skipped)),
        said._("left out %(num)s", num=said.count(len(report.left_out))) if report.left_out else "",
        said._("failed %(num)s", num=said.count(len(report.failures))),
    ]
    seconds = said._("%(seconds)s s", seconds=said.number(report.seconds, 1))
    click.echo(f"{', '.join(p for p in parts if p)} ({seconds})", err=True)
    print_left_out(report.left_out)
    for failure in report.failures:
        reason = failure.reason
        if not reason.startswith(failure.source):
            reason = f"{failure.source}: {reason}"
        click.echo(said._("  failed: %(reason)s", reason=said_text(reason, said)), err=True)


@index_group.command("remove")
@_DB
@language_option
@click.argument("sources", nargs=-1, required=True)
def index_remove(db: Path, sources: tuple[str, ...]) -> None:
    """Remove documents (by their source, as listed) from the index DB; the sources it holds
    no document of are named."""
    with Index(db) as index:
        known = index.known(sources)
        missing = [source for source in dict.fromkeys(sources) if source not in known]
        removed = index.remove(sources)
    said = spoken()
    click.echo(
        said._("removed %(removed)s of %(total)s", removed=said.count(removed),
               total=said.count(len(sources))),
        err=True,
    )  # fmt: skip
    for source in missing:
        line = said._("  not in the index: %(source)s (see 'canon index list')", source=source)
        click.echo(line, err=True)


_LIST_HEADER = (N_("source"), N_("title"), N_("chars"), N_("added"))


@index_group.command("list")
@_DB
@language_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
def index_list(db: Path, as_json: bool) -> None:
    """List the documents of the index DB: source, title, characters, when added (UTC),
    tab-separated under a header line."""
    with Index(db, readonly=True) as index:
        if not as_json:
            said = spoken()
            click.echo("\t".join(said._(h) for h in _LIST_HEADER))
        for doc in index.documents():
            if as_json:
                click.echo(json.dumps(doc, ensure_ascii=False))
            else:
                click.echo(f"{doc['source']}\t{doc['title'] or ''}\t{doc['chars']}\t{doc['added']}")


@index_group.command("stats")
@_DB
@language_option
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def index_stats(db: Path, as_json: bool) -> None:
    """Documents, shingles, file size and profiles of the index DB."""
    with Index(db, readonly=True) as index:
        stats = index.stats()
    if as_json:
        click.echo(json.dumps(stats.to_dict(), ensure_ascii=False, indent=2))
        return
    said = spoken()
    figures = index_rows(stats, said.locale)  # the same figures as the /index page
    lines = [
        (said._("documents"), figures.documents),
        (said._("file size"), said._("%(num)s bytes", num=figures.file_size)),
        (said._("per document"), said._("%(num)s bytes", num=figures.per_document)),
        (
            said._("stored texts"),
            said._("%(num)s (%(bytes)s bytes compressed)", num=figures.texts,
                   bytes=figures.text_bytes),
        ),
        (
            said._("segments"),
            said._("%(num)s (%(bytes)s bytes, %(removed)s removed documents to drop at the next "
                   "merge)", num=figures.segments, bytes=figures.segment_bytes,
                   removed=figures.tombstones),
        ),
    ]  # fmt: skip
    for p in figures.profiles:
        shingles = said._("%(num)s shingles", num=p.shingles)
        lines.append(
            (said._("profile"), f"{p.name} {p.fingerprint} k={p.k} step={p.step}: {shingles}")
        )
    width = max(16, max(len(label) for label, _ in lines) + 2)
    for label, value in lines:
        click.echo(f"{label.ljust(width)}{value}")


@index_group.command("optimize")
@_DB
@language_option
def index_optimize(db: Path) -> None:
    """Merge the postings of DB into one segment per profile, dropping removed documents'.

    An add merges as it goes; this makes lookups as fast as they get, and deletes segment
    files left by crashes once no reader holds them.
    """
    with Index(db) as index:
        report = index.optimize()
    said = spoken()
    line = said._(
        "segments %(before)s → %(after)s, tombstones applied %(applied)s, files deleted "
        "%(deleted)s",
        before=said.count(report.segments_before),
        after=said.count(report.segments_after),
        applied=said.count(report.tombstones_applied),
        deleted=said.count(report.files_deleted),
    )
    click.echo(line, err=True)


@index_group.command("verify")
@_DB
@language_option
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def index_verify(db: Path, as_json: bool) -> None:
    """Check the whole index DB and list every problem, one a line (exit 2 if there is one).

    It checks the SQLite file, every segment file against the checksum its manifest keeps,
    each segment's document ids, the manifest against the files present, and that each
    document's postings are all there.
    """
    found = verify(db)
    if as_json:
        click.echo(json.dumps(found.to_dict(), ensure_ascii=False, indent=2))
    else:
        for problem in found.problems:
            click.echo(str(problem))
    said = spoken()
    count = len(found.problems)
    verdict = (
        said._("sound")
        if found.sound
        else said.ngettext("%(num)s problem", "%(num)s problems", count)
    )
    documents = said.ngettext("%(num)s document", "%(num)s documents", found.documents)
    segments = said.ngettext("%(num)s segment", "%(num)s segments", found.segments)
    line = said._("%(db)s: %(documents)s, %(segments)s checked: %(verdict)s", db=db,
                  documents=documents, segments=segments, verdict=verdict)  # fmt: skip
    click.echo(line, err=True)
    if not found.sound:
        sys.exit(Outcome.BAD_INPUT)


@index_group.command("upgrade")
@_DB
@language_option
def index_upgrade(db: Path) -> None:
    """Migrate an index made by an older canon (schema version 3 to 5) in place.

    Its postings move from the SQLite file into segment files beside it; an interrupted
    upgrade leaves the old index, and running the command again finishes it.
    """
    report = upgrade(db)
    said = spoken()
    if not report.upgraded:
        line = said._("%(db)s: already schema version %(version)s; nothing to do", db=db,
                      version=SCHEMA_VERSION)  # fmt: skip
        click.echo(line, err=True)
        return
    line = said._(
        "upgraded %(db)s from schema version %(old)s to %(new)s: %(documents)s documents, "
        "postings in %(segments)s segments",
        db=db,
        old=report.version,
        new=SCHEMA_VERSION,
        documents=said.count(report.documents),
        segments=said.count(report.segments),
    )
    click.echo(line, err=True)
