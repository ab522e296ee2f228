"""The ``canon`` command: thin commands over the library; a user's mistake is one line, exit 2."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from .canonical import canonicalize
from .compare import Comparison, compare_table
from .errors import CanonError
from .fetch import FetchOptions
from .profile import BUILTIN_PROFILES, Profile, get_profile
from .sources import Document, read_source

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
    for option in reversed(options):
        func = option(func)
    return func


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
    for option in reversed(options):
        func = option(func)
    return func


def _read(sources: Sequence[str], opts: dict[str, Any]) -> list[Document]:
    """Read each source with the source options (removed from ``opts``)."""
    timeout = opts.pop("timeout")
    fetch_options = FetchOptions(
        connect_timeout=min(10.0, timeout),
        read_timeout=timeout,
        max_bytes=opts.pop("max_bytes"),
        max_redirects=opts.pop("max_redirects"),
        allow_private=opts.pop("allow_private"),
        cache_dir=opts.pop("cache_dir"),
    )
    whole_page = opts.pop("whole_page")
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
    "-k", "--k", "ks", type=click.IntRange(min=1), multiple=True,
    help="Shingle size in words; repeat for several (default: 3, 4 and 5).",
)  # fmt: skip
@click.option(
    "-p", "--profile", "profile_names", multiple=True,
    help=f"Profile to compare under; repeat for several ({', '.join(BUILTIN_PROFILES)}; "
    "default: raw and lemma).",
)  # fmt: skip
@click.option("--step", type=click.IntRange(min=1), default=1, show_default=True,
              help="Words between the starts of two shingles.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_source_options
@_profile_options
def compare(
    first: str,
    second: str,
    ks: tuple[int, ...],
    profile_names: tuple[str, ...],
    step: int,
    as_json: bool,
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
    if as_json:
        data = {"first": docs[0].to_dict(), "second": docs[1].to_dict(), **table.to_dict()}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        from . import report  # rich is loaded only to print

        report.print_table(table, docs)


@cli.command()
@click.argument("source", metavar="FILE")
@click.option("-p", "--profile", "profile_name", default="lemma", show_default=True,
              help=f"Profile ({', '.join(BUILTIN_PROFILES)}).")  # fmt: skip
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
        from . import report

        report.print_tokens(canonical, doc, with_spans=spans)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the profiles as JSON.")
def profiles(as_json: bool) -> None:
    """List the built-in profiles, their rules and fingerprints."""
    if as_json:
        data = [{"profile": p.name, "fingerprint": p.fingerprint, "settings": p.settings()}
                for p in BUILTIN_PROFILES.values()]  # fmt: skip
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        from . import report

        report.print_profiles(list(BUILTIN_PROFILES.values()))


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``canon`` command."""
    cli.main(args=list(argv) if argv is not None else None, prog_name="canon")
