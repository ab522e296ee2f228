"""Options shared by several commands, and turning them into library settings.

The language the command line speaks: ``--lang ru|en`` on a command is remembered in the
click context's ``meta`` (shared by a group and its commands), so that what the command
prints, and the one line of an error the group prints for it, speak the language asked
(:func:`spoken`); without it, the environment's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``:
Russian for a Russian locale, English otherwise).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from ..profile import Profile, get_profile, repair_switches
from ..report.language import N_, Speech, command_line_locale, speech
from ..sources.collection import LeftOut
from ..sources.documents import Document, read_source
from ..sources.fetch import FetchOptions

__all__ = [
    "fetch_limit_options",
    "fetch_limits",
    "fetch_options",
    "json_option",
    "lang_option",
    "language_option",
    "locale_of",
    "print_left_out",
    "profile_options",
    "profiles_from",
    "progress_bar",
    "read_all",
    "refuse_when_nothing_to_read",
    "rule_changes",
    "source_options",
    "spoken",
    "stacked",
    "stage_status",
    "workers_option",
]

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def stacked(options: Sequence[Decorator], func: Callable[..., Any]) -> Callable[..., Any]:
    """Apply click options so that they appear in ``--help`` in the order given."""
    for option in reversed(options):
        func = option(func)
    return func


json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")

_ASKED = "canon.lang"  # the key of --lang in the context's meta
_HELP = (
    "Language of the output and of the HTML report (default: the environment's, LC_ALL, "
    "LC_MESSAGES or LANG: Russian for a Russian locale, else English); JSON is the same in both."
)


def _remember(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        ctx.meta[_ASKED] = value
    return value


def _option(expose: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        "--lang",
        type=click.Choice(["ru", "en"]),
        default=None,
        callback=_remember,
        expose_value=expose,
        is_eager=True,  # before the other options, whose refusals speak it
        help=_HELP,
    )


lang_option = _option(expose=True)  # the command reads ``lang`` (for its reports)
language_option = _option(expose=False)  # the command speaks it through :func:`spoken`


def locale_of(lang: str | None) -> str:
    """The language the command speaks: ``--lang``, else the environment's."""
    return command_line_locale(lang)


def spoken() -> Speech:
    """How the running command speaks: the ``--lang`` it was given, else the environment's."""
    ctx = click.get_current_context(silent=True)
    asked = ctx.meta.get(_ASKED) if ctx is not None else None
    return speech(command_line_locale(asked))


workers_option = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per core).",
)


def profile_options(func: Callable[..., Any]) -> Callable[..., Any]:
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
            "--repairs",
            metavar="KINDS",
            help="The repairs against tricks to make, comma-separated: lookalike, mark, "
            "invisible, hyphen, translit, spacing; or all, none (default: all).",
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
    return stacked(options, func)


# How long a fetch may take and how large a page may be: every command that fetches.
_LIMITS: list[Decorator] = [
    click.option(
        "--timeout",
        type=click.FloatRange(min=0.1),
        default=20.0,
        show_default=True,
        help="Seconds to wait for each connect or read.",
    ),
    click.option(
        "--deadline",
        type=click.FloatRange(min=0.1),
        default=30.0,
        show_default=True,
        metavar="SECONDS",
        help="Seconds a whole fetch, or a query to a search provider, may take: connecting, "
        "reading, every redirect.",
    ),
    click.option(
        "--max-bytes",
        type=click.IntRange(min=1),
        default=10_000_000,
        show_default=True,
        help="Refuse pages larger than this many bytes (after decompression).",
    ),
]


def source_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Options for reading sources: web pages, extraction, the page cache."""
    options: list[Decorator] = [
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
        *_LIMITS,
        click.option(
            "--max-redirects",
            type=click.IntRange(min=0),
            default=5,
            show_default=True,
            help="Follow at most this many redirects.",
        ),
    ]
    return stacked(options, func)


def fetch_limit_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--timeout``, ``--deadline`` and ``--max-bytes`` (read by :func:`fetch_limits`)."""
    return stacked(_LIMITS, func)


def fetch_limits(opts: dict[str, Any]) -> FetchOptions:
    """The fetch limit options (removed from ``opts``) as fetch options."""
    timeout = opts.pop("timeout")
    return FetchOptions(
        connect_timeout=min(10.0, timeout),
        read_timeout=timeout,
        deadline=opts.pop("deadline"),
        max_bytes=opts.pop("max_bytes"),
    )


def fetch_options(opts: dict[str, Any]) -> tuple[FetchOptions, bool]:
    """The source options (removed from ``opts``): how to fetch, and whether whole pages."""
    options = replace(
        fetch_limits(opts),
        max_redirects=opts.pop("max_redirects"),
        allow_private=opts.pop("allow_private"),
        cache_dir=opts.pop("cache_dir"),
    )
    return options, opts.pop("whole_page")


def read_all(sources: Sequence[str], opts: dict[str, Any]) -> list[Document]:
    """Read each source with the source options (removed from ``opts``)."""
    options, whole_page = fetch_options(opts)
    return [read_source(s, whole_page=whole_page, fetch_options=options) for s in sources]


def _split(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def rule_changes(opts: dict[str, Any]) -> dict[str, Any]:
    """The Profile fields the profile options change (removed from ``opts``)."""
    changes: dict[str, Any] = {}
    stopwords = opts.pop("stopwords")
    if stopwords is not None:
        lists = _split(stopwords)
        changes["stopwords"] = () if lists == ("none",) else lists
    repairs = opts.pop("repairs")
    if repairs is not None:
        changes.update(repair_switches(repairs.split(",")))
    for flag in ("keep_negation", "yo_fold", "fold_confusables"):
        value = opts.pop(flag)
        if value is not None:
            changes[flag] = value
    split_hyphens = opts.pop("split_hyphens")
    if split_hyphens is not None:
        changes["keep_hyphens"] = not split_hyphens
    drop_pos = opts.pop("drop_pos")
    if drop_pos is not None:
        changes["drop_pos"] = tuple(t.upper() for t in _split(drop_pos))
    synonyms = opts.pop("synonyms")
    if synonyms is not None:
        changes["synonyms"] = synonyms
    return changes


def profiles_from(names: Sequence[str], changes: dict[str, Any]) -> list[Profile]:
    """The named profiles with the rule changes applied (raw stays the reference)."""
    chosen = []
    for name in names:
        profile = get_profile(name)
        if changes and profile.name != "raw":
            profile = profile.replace(name=f"{profile.name}-custom", **changes)
        chosen.append(profile)
    return chosen


def stage_status() -> Callable[[str], None]:
    """Shows the running stage on a terminal (stderr); does nothing when stderr is piped."""
    if not sys.stderr.isatty():
        return lambda stage: None
    from rich.console import Console

    console = Console(stderr=True)
    started = [0.0]

    def show(stage: str) -> None:
        if started[0]:
            console.print(f"[dim]  done in {time.perf_counter() - started[0]:.1f} s[/]")
        started[0] = time.perf_counter() if stage else 0.0
        if stage:
            console.print(f"[bold]{stage}[/] …")

    return show


@contextmanager
def progress_bar(label: str, unit: str) -> Iterator[Callable[[Any], None] | None]:
    """A progress bar on a terminal (items/s, what the progress's ``note`` says, ETA) fed by a
    library progress callback; None when stderr is piped."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(f"{{task.fields[rate]:.0f}} {unit}/s"),
        TextColumn("{task.fields[note]}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None, rate=0.0, note="")

    def update(progress: Any) -> None:
        note = getattr(progress, "note", "")  # what else a stage reports (a crawl: queue, errors)
        bar.update(
            task, completed=progress.done, total=progress.total, rate=progress.rate, note=note
        )

    with bar:
        yield update


LEFT_OUT_SHOWN = 20  # files left out listed one by one; the rest are counted


# Why a document was left out (canon.sources.collection's LEFT_OUT_REASONS), said.
LEFT_OUT_SAID = (N_("not a text, HTML or .docx file"), N_("fewer words than k"))


def print_left_out(left_out: Sequence[LeftOut]) -> None:
    """The documents left out, by reason: each reason's count, then the first files."""
    if not left_out:
        return
    said = spoken()
    by_reason = Counter(said._(entry.said) for entry in left_out)
    counts = "; ".join(f"{said.count(count)} {reason}" for reason, count in by_reason.most_common())
    click.echo(said._("  left out: %(what)s", what=counts), err=True)
    for entry in left_out[:LEFT_OUT_SHOWN]:
        what = f"{entry.source} ({said._(entry.said)})"
        click.echo(said._("  left out: %(what)s", what=what), err=True)
    if len(left_out) > LEFT_OUT_SHOWN:
        more = said._("… and %(more)s more", more=said.count(len(left_out) - LEFT_OUT_SHOWN))
        click.echo(said._("  left out: %(what)s", what=more), err=True)


def refuse_when_nothing_to_read(sources: Sequence[str]) -> None:
    """Refuses (one line, exit 2) SOURCES that name no document canon reads and no source
    that fails: folders holding only files of other types, or nothing."""
    from ..errors import InputError
    from ..sources.collection import Failure, Item, expand

    left_out: list[LeftOut] = []
    for entry in expand(sources):
        if isinstance(entry, Item | Failure):
            return
        left_out.append(entry)
    kinds = sorted({Path(e.source).suffix.lower() or Path(e.source).name for e in left_out})
    held = f"only {len(left_out)} files of other types ({', '.join(kinds[:8])})"
    if not left_out:
        held = "no file"
    raise InputError(
        f"{', '.join(sources)[:200]}: holds {held}; canon reads .txt, .md, .html, .htm and "
        ".docx files, and those packed as .gz",
        source=sources[0] if sources else None,
        reason="nothing-to-read",
    )
