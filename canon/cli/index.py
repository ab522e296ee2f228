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
from ..report.model.numbers import index_rows
from . import cli
from .options import (
    fetch_options,
    print_left_out,
    profile_options,
    profiles_from,
    progress_bar,
    refuse_when_nothing_to_read,
    rule_changes,
    source_options,
    workers_option,
)

__all__ = ["index_group"]

# A folder is refused by the index itself, in one line like any other file that is no index.
_DB = click.argument("db", type=click.Path(path_type=Path))


@cli.group("index")
def index_group() -> None:
    """Build and inspect a corpus index (a SQLite file and its segment folder beside it)."""


@index_group.command("add")
@_DB
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
    left_out = f"left out {len(report.left_out)}, " if report.left_out else ""
    click.echo(
        f"added {report.added}, replaced {report.replaced}, unchanged {report.skipped}, "
        f"{left_out}failed {len(report.failures)} ({report.seconds:.1f} s)",
        err=True,
    )
    print_left_out(report.left_out)
    for failure in report.failures:
        reason = failure.reason
        if not reason.startswith(failure.source):
            reason = f"{failure.source}: {reason}"
        click.echo(f"  failed: {reason}", err=True)


@index_group.command("remove")
@_DB
@click.argument("sources", nargs=-1, required=True)
def index_remove(db: Path, sources: tuple[str, ...]) -> None:
    """Remove documents (by their source, as listed) from the index DB; the sources it holds
    no document of are named."""
    with Index(db) as index:
        known = index.known(sources)
        missing = [source for source in dict.fromkeys(sources) if source not in known]
        removed = index.remove(sources)
    click.echo(f"removed {removed} of {len(sources)}", err=True)
    for source in missing:
        click.echo(f"  not in the index: {source} (see 'canon index list')", err=True)


@index_group.command("list")
@_DB
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
def index_list(db: Path, as_json: bool) -> None:
    """List the documents of the index DB: source, title, characters, when added (UTC),
    tab-separated under a header line."""
    with Index(db, readonly=True) as index:
        if not as_json:
            click.echo("source\ttitle\tchars\tadded")
        for doc in index.documents():
            if as_json:
                click.echo(json.dumps(doc, ensure_ascii=False))
            else:
                click.echo(f"{doc['source']}\t{doc['title'] or ''}\t{doc['chars']}\t{doc['added']}")


@index_group.command("stats")
@_DB
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def index_stats(db: Path, as_json: bool) -> None:
    """Documents, shingles, file size and profiles of the index DB."""
    with Index(db, readonly=True) as index:
        stats = index.stats()
    if as_json:
        click.echo(json.dumps(stats.to_dict(), ensure_ascii=False, indent=2))
        return
    figures = index_rows(stats)  # the same figures as the /index page
    click.echo(f"documents       {figures.documents}")
    click.echo(f"file size       {figures.file_size} bytes")
    click.echo(f"per document    {figures.per_document} bytes")
    click.echo(f"stored texts    {figures.texts} ({figures.text_bytes} bytes compressed)")
    click.echo(
        f"segments        {figures.segments} ({figures.segment_bytes} bytes, "
        f"{figures.tombstones} removed documents to drop at the next merge)"
    )
    for p in figures.profiles:
        click.echo(
            f"profile         {p.name} {p.fingerprint} k={p.k} step={p.step}: {p.shingles} shingles"
        )


@index_group.command("optimize")
@_DB
def index_optimize(db: Path) -> None:
    """Merge the postings of DB into one segment per profile, dropping removed documents'.

    An add merges as it goes; this makes lookups as fast as they get, and deletes segment
    files left by crashes once no reader holds them.
    """
    with Index(db) as index:
        report = index.optimize()
    click.echo(
        f"segments {report.segments_before} → {report.segments_after}, tombstones applied "
        f"{report.tombstones_applied}, files deleted {report.files_deleted}",
        err=True,
    )


@index_group.command("verify")
@_DB
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
    count = len(found.problems)
    said = "sound" if found.sound else f"{count} problem{'s' if count > 1 else ''}"
    documents = f"{found.documents} document{'s' if found.documents != 1 else ''}"
    segments = f"{found.segments} segment{'s' if found.segments != 1 else ''}"
    click.echo(f"{db}: {documents}, {segments} checked: {said}", err=True)
    if not found.sound:
        sys.exit(Outcome.BAD_INPUT)


@index_group.command("upgrade")
@_DB
def index_upgrade(db: Path) -> None:
    """Migrate an index made by an older canon (schema version 3 to 5) in place.

    Its postings move from the SQLite file into segment files beside it; an interrupted
    upgrade leaves the old index, and running the command again finishes it.
    """
    report = upgrade(db)
    if not report.upgraded:
        click.echo(f"{db}: already schema version {SCHEMA_VERSION}; nothing to do", err=True)
        return
    click.echo(
        f"upgraded {db} from schema version {report.version} to {SCHEMA_VERSION}: "
        f"{report.documents} documents, postings in {report.segments} segments",
        err=True,
    )
