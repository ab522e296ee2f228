"""canon dedup: clusters of near-duplicate documents among sources or in an index."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import Outcome
from . import cli
from .options import (
    fetch_options,
    language_option,
    print_left_out,
    profile_options,
    profiles_from,
    refuse_when_nothing_to_read,
    rule_changes,
    source_options,
    spoken,
    stage_status,
    workers_option,
)
from .refusals import said_text

if TYPE_CHECKING:
    from ..dedup import Budget, DedupRun

__all__ = ["dedup_command"]


@cli.command("dedup")
@click.argument("sources", nargs=-1)
@click.option(
    "--index",
    "db",
    type=click.Path(path_type=Path),
    help="Deduplicate the documents of this index (instead of, or as well as, SOURCES).",
)
@click.option(
    "--threshold",
    type=float,
    default=0.8,
    show_default=True,
    help="Jaccard at or above which two documents are near-duplicates.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the clusters to this file (default: JSON Lines to standard output).",
)
@click.option(
    "--format",
    "output",
    metavar="jsonl|csv|xlsx",
    default="jsonl",
    show_default=True,
    help="jsonl: a JSON line per cluster.  csv, xlsx (need --out; xlsx needs the audit "
    "extra): a row per member: cluster, role (keep or remove), source, representative, "
    "jaccard (with the representative), chosen_by.",
)
@click.option(
    "-p",
    "--profile",
    "profile_name",
    default="lemma",
    show_default=True,
    help="Profile for SOURCES (an index uses its own).",
)
@click.option(
    "-k",
    "--k",
    "k",
    type=click.IntRange(min=1),
    default=4,
    show_default=True,
    help="Shingle size for SOURCES.",
)
@click.option(
    "--num-perm",
    type=click.IntRange(min=1),
    default=128,
    show_default=True,
    help="MinHash signature length.",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=1, show_default=True, help="MinHash seed."
)
@workers_option
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Run here, or as Dask tasks.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="With --engine dask: a scheduler such as tcp://host:8786 "
    "(default: a LocalCluster of worker processes here).",
)
@click.option(
    "--memory",
    metavar="SIZE",
    default="4GB",
    show_default=True,
    help="Memory the shingle sets may take (such as 4GB, 500MB; 0: all on disk); beyond it "
    "they spill to a temporary file that is deleted at the end.  Local engine.",
)
@click.option(
    "--spill-dir",
    metavar="DIR",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Where the spill file goes (default: the system's temporary directory).",
)
@click.option(
    "--partitions",
    type=click.IntRange(min=1),
    default=None,
    help="With --engine dask: partitions of the corpus (default: 2 per worker).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Count a text with fewer words than k as a failure (exit 3), not as left out.",
)
@language_option
@source_options
@profile_options
def dedup_command(
    sources: tuple[str, ...],
    db: Path | None,
    threshold: float,
    out: Path | None,
    output: str,
    profile_name: str,
    k: int,
    num_perm: int,
    seed: int,
    workers: int | None,
    engine: str,
    scheduler: str | None,
    partitions: int | None,
    memory: str,
    spill_dir: Path | None,
    strict: bool,
    **opts: Any,
) -> None:
    """Find clusters of near-duplicate documents among SOURCES or in an index, and the one
    to keep of each.

    Candidates come from MinHash signatures and LSH; every reported pair is verified by exact
    Jaccard, so no cluster holds a false positive.  Each cluster's representative (the
    document to keep; the others are to remove or redirect to it) is chosen by these rules,
    in order, the first that leaves one document deciding (its name is chosen_by):

    \b
    1. canonical: the one the others' <link rel="canonical"> name
       (pages of URLs, or JSON Lines records with url and html);
    2. least-boilerplate: the fewest shingles no other member has,
       plus those two or more members share and it lacks;
    3. earliest-argument: named by the earliest SOURCE (an index's
       documents first; those of one folder or list tie);
    4. shortest-source: the shortest URL or path;
    5. first-read: the first one read.

    A summary goes to standard error: clusters, documents in them, documents to remove, and
    what was left out (a folder's files of other types, texts with fewer words than k).
    """
    if not sources and db is None:
        raise click.UsageError(spoken()._("give SOURCES to deduplicate, or --index DB"))
    from ..dedup import Budget, MinHashSettings, Reading, dedup_corpus, parse_size  # on use
    from ..dedup.outputs import jsonl_lines, output_format, write_clusters

    output = output_format(output, out)  # before any source is read
    if sources and db is None:
        refuse_when_nothing_to_read(sources)

    settings = MinHashSettings(threshold, num_perm, seed)
    budget = Budget(parse_size(memory), spill_dir)
    options, whole_page = fetch_options(opts)
    (profile,) = profiles_from([profile_name], rule_changes(opts))
    reading = Reading(profile, k, whole_page, options)
    run = dedup_corpus(
        sources,
        index=db,
        settings=settings,
        reading=reading,
        engine=_engine(engine, workers or os.cpu_count() or 1, scheduler, partitions, budget),
        on_stage=stage_status(),
    )
    if out is None:
        for line in jsonl_lines(run.result.clusters):
            click.echo(line)
    else:
        write_clusters(run.result.clusters, out, output)
    _print_summary(run)
    if run.failures or (strict and run.left_out):
        sys.exit(Outcome.SOME_FAILED)


def _engine(
    name: str, workers: int, scheduler: str | None, partitions: int | None, budget: Budget
) -> Any:
    if name == "dask":
        from ..dedup.dask import DaskEngine

        return DaskEngine(scheduler, workers, partitions)
    from ..dedup import LocalEngine

    return LocalEngine(workers, budget)


_COUNTS = ("documents", "clusters", "documents_in_clusters", "documents_to_remove",
           "candidate_pairs", "verified_pairs")  # fmt: skip


def _print_summary(run: DedupRun) -> None:
    said = spoken()
    result = run.result
    summary = result.summary()
    seconds = summary["seconds"].items()
    stages = ", ".join(
        f"{name} " + said._("%(seconds)s s", seconds=said.number(sec, 2)) for name, sec in seconds
    )
    figures = {name: said.number(summary[name]) for name in _COUNTS}
    line = said._(
        "documents %(documents)s, clusters %(clusters)s, documents in clusters "
        "%(documents_in_clusters)s, to remove %(documents_to_remove)s",
        **figures,
    )
    click.echo(line, err=True)
    line = said._(
        "candidate pairs %(candidate_pairs)s, verified pairs %(verified_pairs)s (LSH %(bands)s "
        "bands x %(rows)s rows; %(stages)s)",
        bands=result.bands,
        rows=result.rows,
        stages=stages,
        **figures,
    )
    click.echo(line, err=True)
    for note in result.notes:
        click.echo(said._("  note: %(note)s", note=said_text(note, said)), err=True)
    print_left_out(run.left_out)
    for failure in run.failures:
        line = said._("  failed: %(reason)s", reason=said_text(failure.reason, said))
        click.echo(line, err=True)
