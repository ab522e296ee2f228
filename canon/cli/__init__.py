"""The ``canon`` command: thin commands over the library; a user's mistake is one line, exit 2."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from ..canonical import canonicalize
from ..comparison import Comparison, compare_table
from ..errors import CanonError
from ..index.store import Index, IndexedProfile
from ..profile import BUILTIN_PROFILES, Profile, get_profile
from ..sources.documents import Document, read_source
from ..sources.fetch import FetchOptions

__all__ = ["main"]

EXIT_BAD_INPUT = 2


class _Group(click.Group):
    """CanonError → a one-line message and exit code 2 (``--debug`` shows the traceback)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CanonError as exc:
            if ctx.params.get("debug"):
                raise
            click.echo(f"canon: error: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except BrokenPipeError:  # output piped into head and the like
            sys.stderr.close()
            sys.exit(0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show a traceback on errors.")
@click.version_option(package_name="canon")
def cli(debug: bool) -> None:
    """How much do Russian texts share? Word shingles over one canonical form."""


def _stack(options: list[Callable[..., Any]], func: Callable[..., Any]) -> Callable[..., Any]:
    """Apply click options so that they appear in ``--help`` in the order given."""
    for option in reversed(options):
        func = option(func)
    return func


def _profile_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Options that change the rules of the non-raw profiles (raw stays the reference)."""
    options = [
        click.option(
            "--stopwords",
            metavar="LISTS",
            help="Comma-separated stop lists: built-in names (ru, en, ru-negation), "
            "nltk:russian, or file paths; 'none' for no list.",
        ),
        click.option(
            "--keep-negation/--drop-negation",
            default=None,
            help="Keep не, ни, нет... even when a list names them (default: keep).",
        ),
        click.option("--yo-fold/--no-yo-fold", default=None, help="Write ё as е (default: on)."),
        click.option(
            "--split-hyphens/--keep-hyphens",
            default=None,
            help="Split hyphenated words such as из-за (default: keep them whole).",
        ),
        click.option(
            "--fold-confusables/--no-fold-confusables",
            default=None,
            help="Fold Latin look-alike letters inside Russian words to Cyrillic (default: on).",
        ),
        click.option(
            "--drop-pos",
            metavar="TAGS",
            help="Also drop these pymorphy3 parts of speech, e.g. PREP,CONJ,PRCL,INTJ.",
        ),
        click.option(
            "--synonyms",
            metavar="FILE",
            help="Map synonyms to one word: a file of groups, or 'synonyms-ru' (built in).",
        ),
    ]
    return _stack(options, func)


def _source_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Options for reading sources: web pages, extraction, the page cache."""
    options = [
        click.option(
            "--whole-page",
            is_flag=True,
            help="Take all visible text of HTML pages, not just their main text.",
        ),
        click.option(
            "--cache",
            "cache_dir",
            type=click.Path(file_okay=False, path_type=Path),
            help="Keep fetched pages in this folder and reuse them.",
        ),
        click.option(
            "--allow-private/--no-allow-private",
            default=True,
            show_default=True,
            help="Fetch URLs that resolve to loopback, private or link-local addresses.",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0.1),
            default=20.0,
            show_default=True,
            help="Seconds to wait for a server to answer.",
        ),
        click.option(
            "--max-bytes",
            type=click.IntRange(min=1),
            default=10_000_000,
            show_default=True,
            help="Refuse pages larger than this.",
        ),
        click.option(
            "--max-redirects",
            type=click.IntRange(min=0),
            default=5,
            show_default=True,
            help="Follow at most this many redirects.",
        ),
    ]
    return _stack(options, func)


def _stage_status() -> Callable[[str], None]:
    """Shows the running stage on a terminal (stderr); does nothing when stderr is piped."""
    if not sys.stderr.isatty():
        return lambda stage: None
    from rich.console import Console

    console = Console(stderr=True)
    started = [0.0]

    def show(stage: str) -> None:
        import time

        if started[0]:
            console.print(f"[dim]  done in {time.perf_counter() - started[0]:.1f} s[/]")
        started[0] = time.perf_counter() if stage else 0.0
        if stage:
            console.print(f"[bold]{stage}[/] …")

    return show


def _fetch_options(opts: dict[str, Any]) -> tuple[FetchOptions, bool]:
    """The source options (removed from ``opts``): how to fetch, and whether whole pages."""
    timeout = opts.pop("timeout")
    fetch_options = FetchOptions(
        connect_timeout=min(10.0, timeout),
        read_timeout=timeout,
        max_bytes=opts.pop("max_bytes"),
        max_redirects=opts.pop("max_redirects"),
        allow_private=opts.pop("allow_private"),
        cache_dir=opts.pop("cache_dir"),
    )
    return fetch_options, opts.pop("whole_page")


def _read(sources: Sequence[str], opts: dict[str, Any]) -> list[Document]:
    """Read each source with the source options (removed from ``opts``)."""
    fetch_options, whole_page = _fetch_options(opts)
    return [read_source(s, whole_page=whole_page, fetch_options=fetch_options) for s in sources]


def _split(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def _overrides(opts: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if opts["stopwords"] is not None:
        lists = _split(opts["stopwords"])
        changes["stopwords"] = () if lists == ("none",) else lists
    for flag, field in (
        ("keep_negation", "keep_negation"),
        ("yo_fold", "yo_fold"),
        ("fold_confusables", "fold_confusables"),
    ):
        if opts[flag] is not None:
            changes[field] = opts[flag]
    if opts["split_hyphens"] is not None:
        changes["keep_hyphens"] = not opts["split_hyphens"]
    if opts["drop_pos"] is not None:
        changes["drop_pos"] = tuple(t.upper() for t in _split(opts["drop_pos"]))
    if opts["synonyms"] is not None:
        changes["synonyms"] = opts["synonyms"]
    return changes


def _profiles(names: Sequence[str], opts: dict[str, Any]) -> list[Profile]:
    changes = _overrides(opts)
    chosen = []
    for name in names:
        profile = get_profile(name)
        if changes and profile.name != "raw":
            profile = profile.replace(name=f"{profile.name}-custom", **changes)
        chosen.append(profile)
    return chosen


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
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
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
@_source_options
@_profile_options
def compare(
    first: str,
    second: str,
    ks: tuple[int, ...],
    profile_names: tuple[str, ...],
    step: int,
    as_json: bool,
    html_path: Path | None,
    plot_path: Path | None,
    **opts: Any,
) -> None:
    """Compare texts A and B: shared shingles under each profile, side by side.

    A and B are http(s) URLs, HTML files (their main text), .docx files, text files (.txt,
    .md; UTF-8 or a legacy Cyrillic encoding) or - for standard input.
    """
    docs = _read([first, second], opts)
    profiles = _profiles(profile_names or ("raw", "lemma"), opts)
    table = compare_table(
        docs[0].text,
        docs[1].text,
        ks or (3, 4, 5),
        profiles,
        step=step,
        labels=(docs[0].source, docs[1].source),
    )
    cells = list(table.cells.values())
    if not any(isinstance(c, Comparison) for c in cells):
        raise CanonError(cells[0].message)  # type: ignore[union-attr]
    if html_path or plot_path:
        _write_reports(docs, profiles, table, html_path, plot_path)
    if as_json:
        data = {"first": docs[0].to_dict(), "second": docs[1].to_dict(), **table.to_dict()}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        from .. import report  # rich is loaded only to print

        report.print_table(table, docs)


def _write_reports(
    docs: Sequence[Document],
    profiles: Sequence[Profile],
    table: Any,
    html_path: Path | None,
    plot_path: Path | None,
) -> None:
    from ..report.html import compare_html, write_html
    from ..report.plot import plot_png, similarity_curves

    png = plot_png(similarity_curves(docs[0].text, docs[1].text, profiles), plot_path)
    if html_path:
        write_html(html_path, compare_html(table, docs, png))


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
@_source_options
@_profile_options
def tokens(source: str, profile_name: str, spans: bool, as_json: bool, **opts: Any) -> None:
    """Print the canonical form of FILE (or URL): exactly what a comparison sees."""
    (doc,) = _read([source], opts)
    (profile,) = _profiles([profile_name], opts)
    canonical = canonicalize(doc.text, profile)
    if as_json:
        click.echo(json.dumps({"source": doc.to_dict(), **canonical.to_dict()}, ensure_ascii=False))
    else:
        from .. import report

        report.print_tokens(canonical, doc, with_spans=spans)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the profiles as JSON.")
def profiles(as_json: bool) -> None:
    """List the built-in profiles, their rules and fingerprints."""
    if as_json:
        data = [
            {"profile": p.name, "fingerprint": p.fingerprint, "settings": p.settings()}
            for p in BUILTIN_PROFILES.values()
        ]
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
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
    help="How many keywords to list.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@_source_options
def stats_command(source: str, top: int, as_json: bool, **opts: Any) -> None:
    """Text statistics of FILE (or URL): length, water, nausea, keywords, Zipf check."""
    from ..textstats import text_stats

    (doc,) = _read([source], opts)
    result = text_stats(doc.text, top=top)
    if as_json:
        click.echo(
            json.dumps({"source": doc.to_dict(), **result.to_dict()}, ensure_ascii=False, indent=2)
        )
        return
    from .. import report

    report.print_stats(result, doc)


# --------------------------------------------------------------------------- index and check

EXIT_BELOW_BAR = 1


@cli.group("index")
def index_group() -> None:
    """Build and inspect a corpus index (one SQLite file)."""


@index_group.command("add")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
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
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per core).",
)
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
@_source_options
@_profile_options
def index_add(
    db: Path,
    sources: tuple[str, ...],
    profile_names: tuple[str, ...],
    k: int | None,
    step: int | None,
    workers: int | None,
    batch: int,
    sample: int | None,
    **opts: Any,
) -> None:
    """Add SOURCES to the index DB (created on first use).

    A SOURCE is a URL, a file, a folder (searched for .txt, .md, .html, .htm and .docx),
    @list.txt (one URL or path a line) or a .jsonl file of {"id", "text"} or {"url", "html"}.
    Unchanged sources are skipped; changed ones are replaced.
    """
    from ..index.ingest import add_sources

    fetch_options, whole_page = _fetch_options(opts)
    with Index(db, create=True) as index:
        built = index.profiles()
        if built and not profile_names and not _overrides(opts):
            profiles = [_stored_profile(p) for p in built]
            k, step = k or built[0].k, step or built[0].step
            sample = sample or built[0].sample
        else:
            profiles = _profiles(profile_names or ("raw", "lemma"), opts)
        report = add_sources(
            index,
            sources,
            profiles,
            k=k or 4,
            step=step or 1,
            whole_page=whole_page,
            fetch_options=fetch_options,
            workers=workers or os.cpu_count() or 1,
            batch=batch,
            sample=sample or 1,
        )
    _print_add_report(report)
    if report.failures:
        sys.exit(EXIT_BELOW_BAR)


def _stored_profile(indexed: IndexedProfile) -> Profile:
    from ..uniqueness import profile_of

    return profile_of(indexed)


def _print_add_report(report: Any) -> None:
    click.echo(
        f"added {report.added}, replaced {report.replaced}, unchanged {report.skipped}, "
        f"failed {len(report.failures)} ({report.seconds:.1f} s)",
        err=True,
    )
    for failure in report.failures:
        reason = failure.reason
        if not reason.startswith(failure.source):
            reason = f"{failure.source}: {reason}"
        click.echo(f"  failed: {reason}", err=True)


@index_group.command("remove")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("sources", nargs=-1, required=True)
def index_remove(db: Path, sources: tuple[str, ...]) -> None:
    """Remove documents (by their source, as listed) from the index DB."""
    with Index(db) as index:
        removed = index.remove(sources)
    click.echo(f"removed {removed} of {len(sources)}", err=True)


@index_group.command("list")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
def index_list(db: Path, as_json: bool) -> None:
    """List the documents of the index DB."""
    with Index(db, readonly=True) as index:
        for doc in index.documents():
            if as_json:
                click.echo(json.dumps(doc, ensure_ascii=False))
            else:
                click.echo(f"{doc['source']}\t{doc['title'] or ''}\t{doc['chars']}\t{doc['added']}")


@index_group.command("stats")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def index_stats(db: Path, as_json: bool) -> None:
    """Documents, shingles, file size and profiles of the index DB."""
    with Index(db, readonly=True) as index:
        stats = index.stats()
    if as_json:
        click.echo(json.dumps(stats.to_dict(), ensure_ascii=False, indent=2))
        return
    click.echo(f"documents       {stats.documents:,}")
    click.echo(f"file size       {stats.file_size:,} bytes")
    click.echo(f"per document    {stats.bytes_per_document:,.0f} bytes")
    for profile, rows in stats.profiles:
        click.echo(
            f"profile         {profile.name} {profile.fingerprint} k={profile.k} "
            f"step={profile.step}: {rows:,} shingles"
        )


@cli.command("check")
@click.argument("drafts", nargs=-1, required=True, metavar="DRAFT...")
@click.option(
    "--index",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
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
    metavar="SOURCE|DOMAIN|REGEX",
    help="Ignore matching indexed sources (e.g. the copywriter's own site).",
)
@click.option("--skip-quotes", is_flag=True, help="Leave text in quotation marks out of the count.")
@click.option(
    "--min-uniqueness",
    type=click.FloatRange(0, 100),
    default=None,
    help="Exit 1 when a draft's uniqueness (%) falls below this under any profile.",
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
@_source_options
def check_command(
    drafts: tuple[str, ...],
    db: Path,
    profile_names: tuple[str, ...],
    exclude: tuple[str, ...],
    skip_quotes: bool,
    min_uniqueness: float | None,
    top: int,
    similar: float | None,
    as_json: bool,
    html_path: Path | None,
    **opts: Any,
) -> None:
    """How much of each DRAFT already exists in the index: uniqueness, sources, fragments."""
    from ..uniqueness import check

    docs = _read(drafts, opts)
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
            )
            if as_json:
                click.echo(
                    json.dumps({"draft": doc.to_dict(), **result.to_dict()}, ensure_ascii=False)
                )
            else:
                from .. import report

                report.print_check(result, doc)
            if html_path:
                from ..report.html import check_html, write_html

                target = (
                    html_path if number == 1 else html_path.with_stem(f"{html_path.stem}-{number}")
                )
                write_html(target, check_html(result, doc))
            lowest = min(p.uniqueness for p in result.profiles) * 100
            below = below or (min_uniqueness is not None and lowest < min_uniqueness)
    if below:
        sys.exit(EXIT_BELOW_BAR)


# --------------------------------------------------------------------------- dedup


@cli.command("dedup")
@click.argument("sources", nargs=-1)
@click.option(
    "--index",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
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
    help="Write the clusters here as JSON Lines (default: standard output).",
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
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per core).",
)
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
    "--partitions",
    type=click.IntRange(min=1),
    default=None,
    help="With --engine dask: partitions of the corpus (default: 2 per worker).",
)
@_source_options
@_profile_options
def dedup_command(
    sources: tuple[str, ...],
    db: Path | None,
    threshold: float,
    out: Path | None,
    profile_name: str,
    k: int,
    num_perm: int,
    seed: int,
    workers: int | None,
    engine: str,
    scheduler: str | None,
    partitions: int | None,
    **opts: Any,
) -> None:
    """Find clusters of near-duplicate documents among SOURCES or in an index.

    Candidates come from MinHash signatures and LSH; every reported pair is verified by exact
    Jaccard, so no cluster holds a false positive.  One JSON line per cluster.
    """
    from ..dedup.local import Entry, dedup
    from ..index.ingest import Failure, Item, expand

    if not 0 < threshold <= 1:
        raise CanonError(f"--threshold must be in (0, 1], got {threshold}")
    if not sources and db is None:
        raise CanonError("give SOURCES to deduplicate, or --index DB")
    fetch_options, whole_page = _fetch_options(opts)
    (profile,) = _profiles([profile_name], opts)
    inputs: list[Item | Entry] = []
    if db is not None:
        with Index(db, readonly=True) as index:
            built = index.profiles()
            if not built:
                raise CanonError(f"{db}: the index is empty; add documents first")
            chosen = next((p for p in built if p.name == profile_name), built[-1])
            inputs += [Entry(s, h, c) for s, c, h in index.shingle_sets(chosen)]
    expanded = list(expand(sources))
    inputs += [e for e in expanded if isinstance(e, Item)]
    failures: list[Failure] = [e for e in expanded if isinstance(e, Failure)]
    settings = {
        "profile": profile,
        "k": k,
        "whole_page": whole_page,
        "fetch_options": fetch_options,
    }
    processes = workers or os.cpu_count() or 1
    status = _stage_status()
    if engine == "dask":
        from ..dedup.dask import connect, dedup_dask

        with connect(scheduler, processes) as client:
            result, failed = dedup_dask(
                inputs,
                threshold,
                client=client,
                num_perm=num_perm,
                seed=seed,
                partitions=partitions,
                **settings,
            )
    else:
        from ..index.ingest import read_entries

        status("reading and shingling")
        ready = read_entries(inputs, workers=processes, **settings)
        failed = [x for x in ready if isinstance(x, Failure)]
        entries = [x for x in ready if isinstance(x, Entry)]
        result = dedup(entries, threshold, num_perm=num_perm, seed=seed, on_stage=status)
    status("")
    failures += failed
    lines = [json.dumps(c.to_dict(), ensure_ascii=False) for c in result.clusters]
    if out is None:
        for line in lines:
            click.echo(line)
    else:
        out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    summary = result.summary()
    stages = ", ".join(f"{name} {sec:.2f} s" for name, sec in summary["seconds"].items())
    click.echo(
        f"documents {summary['documents']:,}, clusters {summary['clusters']:,}, "
        f"documents in clusters {summary['documents_in_clusters']:,}, candidate pairs "
        f"{summary['candidate_pairs']:,}, verified pairs {summary['verified_pairs']:,} "
        f"(LSH {result.bands} bands x {result.rows} rows; {stages})",
        err=True,
    )
    for failure in failures:
        click.echo(f"  failed: {failure.reason}", err=True)
    if failures:
        sys.exit(EXIT_BELOW_BAR)


# --------------------------------------------------------------------------- web


@cli.command("serve")
@click.option(
    "--index",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Offer uniqueness checks against this index (opened read-only).",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--allow-private",
    is_flag=True,
    help="Let URL fetches reach loopback, private and link-local addresses.",
)
@click.option("--allow-index-writes", is_flag=True, help="Open the index for writing.")
@click.option(
    "--max-body",
    type=click.IntRange(min=1),
    default=2_000_000,
    show_default=True,
    help="Largest request body in bytes (413 above).",
)
@click.option(
    "--max-text",
    type=click.IntRange(min=1),
    default=200_000,
    show_default=True,
    help="Longest text in characters (413 above).",
)
def serve(
    db: Path | None,
    host: str,
    port: int,
    allow_private: bool,
    allow_index_writes: bool,
    max_body: int,
    max_text: int,
) -> None:
    """Serve the compare and check pages and the JSON API (FastAPI under uvicorn)."""
    import uvicorn

    from ..web import create_app

    app = create_app(
        db,
        allow_private=allow_private,
        allow_index_writes=allow_index_writes,
        max_body=max_body,
        max_text=max_text,
    )
    uvicorn.run(app, host=host, port=port, log_level="info")


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``canon`` command."""
    cli.main(args=list(argv) if argv is not None else None, prog_name="canon")
