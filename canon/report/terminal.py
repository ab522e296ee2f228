"""Results → the terminal (rich), drawn from :mod:`canon.report.model`.

JSON comes straight from each result's ``to_dict``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text

from ..canonical import Canonical
from ..comparison import Table
from ..errors import OptionError
from ..profile import Profile
from ..sources.documents import Document
from ..text.tokenize import Fold
from ..textstats import TextStats
from ..uniqueness.against_index import CheckResult
from .model import (
    EXACT,
    METRICS,
    REWRITE,
    CheckView,
    NearRow,
    PhraseRow,
    Run,
    SourceView,
    Statistics,
    TargetRow,
    TrickRow,
    UniquenessRow,
    VerdictRow,
    check_runs,
    check_view,
    describe,
    method_label,
    metric_rows,
    profile_rows,
    stats_view,
)

__all__ = [
    "describe",
    "marked_runs",
    "marked_text",
    "print_check",
    "print_profiles",
    "print_stats",
    "print_table",
    "print_tokens",
]


PIPED_WIDTH = 10_000  # columns a table may take when the output is no terminal


class _Console(Console):
    """Rich's console, but a table printed to no terminal (piped or redirected) is as wide as
    its content, so that no URL or path in it is cut; prose keeps the usual width."""

    def print(self, *objects: Any, **options: Any) -> None:
        if self.is_terminal or not any(isinstance(o, RichTable) for o in objects):
            super().print(*objects, **options)
            return
        usual = self.width
        self.width = PIPED_WIDTH  # print's own width may only narrow the console
        try:
            super().print(*objects, **options)
        finally:
            self.width = usual


def _console() -> Console:
    return _Console(highlight=False, soft_wrap=False)


def _grid() -> RichTable:
    return RichTable(show_edge=False, pad_edge=False, header_style="bold")


def _document_lines(label: str, doc: Document) -> str:
    title = f"  «{escape(doc.title)}»" if doc.title else ""
    moved = f" → {escape(doc.final_url)}" if doc.final_url and doc.final_url != doc.source else ""
    facts = [method_label(doc.method), doc.encoding, f"{doc.chars:,} chars"]
    if doc.fetched:
        facts.append(f"{'from cache, ' if doc.cached else ''}fetched {doc.fetched}")
    details = " · ".join(escape(f) for f in facts if f)
    return f"[bold]{label}[/]  {escape(doc.source)}{moved}{title}\n   [dim]{details}[/]"


def _folds_line(label: str, folds: Sequence[Fold]) -> str:
    shown = ", ".join(f"{escape(f.original)}@{f.start}" for f in folds[:8])
    more = f" and {len(folds) - 8} more" if len(folds) > 8 else ""
    word = "word" if len(folds) == 1 else "words"
    return (
        f"[yellow]{label}: {len(folds)} {word} with look-alike letters "
        f"folded to Cyrillic: {shown}{more}[/]"
    )


# --------------------------------------------------------------------------- compare


def _metrics_grid(table: Table) -> RichTable:
    grid = _grid()
    grid.add_column("k", justify="right")
    grid.add_column("profile")
    for title in (*METRICS, "shared"):
        grid.add_column(title, justify="right")
    grid.add_column("shingles A/B", justify="right", style="dim")
    width = len(METRICS) + 2
    for row in metric_rows(table):
        for i, cell in enumerate(row.cells):
            values = [*cell.values, cell.shared, cell.shingles] if cell.values else ["too short"]
            values += [""] * (width - len(values))
            last = i == len(row.cells) - 1
            grid.add_row(str(row.k) if i == 0 else "", cell.profile, *values, end_section=last)
    return grid


def print_table(table: Table, docs: Sequence[Document]) -> None:
    console = _console()
    for label, doc in zip("AB", docs):
        console.print(_document_lines(label, doc))
    console.print()
    console.print(_metrics_grid(table))
    console.print()
    for row in profile_rows(table):
        console.print(
            f"[bold]{row.name}[/] {row.fingerprint}  words A {row.words[0]}, B {row.words[1]}  "
            f"[dim]{escape(row.description)}[/]"
        )
    folded = {  # one line per text, whichever profiles folded its letters
        label: folds
        for profile in table.profiles
        for label, folds in zip("AB", table.folds[profile.name])
        if folds
    }
    for label, folds in folded.items():
        console.print(_folds_line(label, folds))
    console.print(
        "[dim]Jaccard = shared/(A∪B); Dice = 2·shared/(A+B); A in B = shared/A (share of A "
        "found in B). Counts are distinct shingles.[/]"
    )


def print_tokens(canonical: Canonical, doc: Document, *, with_spans: bool) -> None:
    if with_spans:  # tab-separated, for other programs
        for token, (start, end) in zip(canonical.tokens, canonical.spans):
            print(f"{start}\t{end}\t{doc.text[start:end]}\t{token}", flush=True)
    else:
        print(" ".join(canonical.tokens), flush=True)
    err = Console(stderr=True, highlight=False)
    err.print(
        f"[dim]{canonical.profile.name} {canonical.fingerprint}: {len(canonical):,} words, "
        f"{canonical.dropped:,} dropped as stop words[/]"
    )
    if canonical.folds:
        err.print(_folds_line(doc.source, canonical.folds))


def print_profiles(profiles: Sequence[Profile]) -> None:
    console = _console()
    for profile in profiles:
        console.print(f"[bold]{profile.name}[/] {profile.fingerprint}  {escape(describe(profile))}")


# --------------------------------------------------------------------------- check

_MARKS = {EXACT: ("[[", "]]"), REWRITE: ("{{", "}}")}
_PHRASES_SHOWN = 10
_STYLES = {EXACT: "bold white on red", REWRITE: "black on yellow"}


def marked_text(result: CheckResult) -> str:
    """The draft with ``[[copied]]`` and ``{{rewritten}}`` fragments marked, for plain output."""
    return marked_runs(check_runs(result))


def marked_runs(runs: Sequence[Run]) -> str:
    """Runs with ``[[copied]]`` and ``{{rewritten}}`` marks, for plain output."""
    out = []
    for run in runs:
        opening, closing = _MARKS.get(run.level, ("", ""))
        out.append(f"{opening}{run.text}{closing}")
    return "".join(out)


def _uniqueness_grid(rows: Sequence[UniquenessRow]) -> RichTable:
    grid = _grid()
    for title in ("profile", "uniqueness", "borrowed/shingles", "k", "fingerprint"):
        grid.add_column(title, justify="left" if title in ("profile", "fingerprint") else "right")
    for p in rows:
        grid.add_row(p.profile, p.uniqueness, p.borrowed, str(p.k), p.fingerprint)
    return grid


def _titled(source: str, title: str) -> str:
    return escape(source + (f"  «{title}»" if title else ""))


def _sources_grid(row: UniquenessRow) -> RichTable:
    grid = _grid()
    for title in ("source", "share of draft", "Jaccard", "shared"):
        grid.add_column(title, justify="left" if title == "source" else "right")
    for m in row.sources:
        grid.add_row(_titled(m.source, m.title), m.share, m.jaccard, m.shared)
    return grid


def _near_grid(near: Sequence[NearRow]) -> RichTable:
    grid = _grid()
    for title in ("source", "estimated Jaccard", "exact Jaccard"):
        grid.add_column(title, justify="left" if title == "source" else "right")
    for d in near:
        grid.add_row(_titled(d.source, d.title), d.estimated, d.jaccard)
    return grid


def _print_runs(console: Console, title: str, runs: Sequence[Run]) -> None:
    """A text with its marks: colours on a terminal, ``[[…]]`` and ``{{…}}`` otherwise."""
    if not console.is_terminal:
        print(f"\n{title} ([[copied word for word]], {{{{rewritten}}}}):", flush=True)
        print(marked_runs(runs), flush=True)
        return
    text = Text()
    for run in runs:
        text.append(run.text, style=_STYLES.get(run.level, ""))
    console.print(
        f"\n[bold]{escape(title)}[/] ([white on red]copied word for word[/], "
        "[black on yellow]rewritten[/])"
    )
    console.print(text)


def _phrases_shown(phrases: Sequence[str]) -> str:
    shown = ", ".join(f"«{escape(p)}»" for p in phrases[:_PHRASES_SHOWN])
    more = len(phrases) - _PHRASES_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _verdict_lines(row: VerdictRow) -> str:
    return (
        f"[bold]uniqueness {row.uniqueness}[/]   copied {row.copied} · rewritten "
        f"{row.rewritten}   ({row.chars} letters and digits)"
    )


def _tricks_grid(tricks: Sequence[TrickRow]) -> RichTable:
    grid = _grid()
    for title in ("trick", "at", "written", "read as"):
        grid.add_column(title, justify="right" if title == "at" else "left")
    for t in tricks:
        grid.add_row(t.kind, t.at, escape(t.original), escape(t.repaired))
    return grid


def _merged_sources_grid(sources: Sequence[SourceView]) -> RichTable:
    grid = _grid()
    for title in ("#", "source", "share of draft", "found by"):
        grid.add_column(title, justify="left" if title == "source" else "right")
    for s in sources:
        grid.add_row(str(s.number), _titled(s.source, s.title), s.share, s.shared)
    return grid


def _print_details(console: Console, view: CheckView) -> None:
    console.print("\n[bold]Shingles per profile[/]")
    console.print(_uniqueness_grid(view.profiles))
    for row in view.profiles:
        if row.sources:
            console.print(f"\n[bold]Sources ({row.profile})[/]")
            console.print(_sources_grid(row))


def _print_source(console: Console, view: CheckView, number: int) -> None:
    if not 1 <= number <= len(view.sources):
        raise OptionError(
            "source",
            f"must be the number of a listed source (1 to {len(view.sources)}), got {number}",
            value=number,
        )
    source = view.sources[number - 1]
    _print_runs(console, f"Draft, fragments shared with source {number}", source.draft)
    if source.passages is None:
        console.print(f"\n[dim]The index does not store the text of {escape(source.source)}.[/]")
    else:
        _print_runs(console, f"Source {number}: {source.source}", source.passages)


def print_check(
    result: CheckResult, doc: Document, *, details: bool = False, source: int | None = None
) -> None:
    """A check: the verdict first, the tricks, the sources, then the marked draft (or, with
    ``source``, the draft beside that source); ``details`` adds the per-profile figures."""
    console = _console()
    view = check_view(result, doc)
    console.print(_document_lines("Draft", doc))
    if view.verdict is not None:
        console.print()
        console.print(_verdict_lines(view.verdict))
    if view.tricks:
        console.print(f"\n[bold]Tricks seen through ({len(view.tricks)})[/]")
        console.print(_tricks_grid(view.tricks))
    if view.sources:
        console.print("\n[bold]Sources[/]")
        console.print(_merged_sources_grid(view.sources))
    if view.set_phrases:
        shown = _phrases_shown(view.set_phrases)
        console.print(f"\n[bold]Set phrases[/] (in too many documents to tie to a source): {shown}")
    if view.uncounted:
        shown = _phrases_shown(view.uncounted)
        console.print(
            "\n[bold]Found but not counted[/] (too short, or a sentence a text on the same "
            f"subject may well say): {shown}"
        )
    if details:
        _print_details(console, view)
    for row in view.profiles:
        if row.similar is None:
            continue
        console.print(f"\n[bold]Near-duplicates of the whole draft ({row.profile})[/]")
        console.print(_near_grid(row.similar) if row.similar else "[dim]none at this threshold[/]")
    if source is None:
        _print_runs(console, "Draft", view.text)
    else:
        _print_source(console, view, source)
    if view.verdict is not None:
        console.print(f"[dim]{escape(view.verdict.formula)}.[/]")


# --------------------------------------------------------------------------- stats


_VERDICT_STYLES = {"norm": "green", "low": "yellow", "high": "red", "steep": "red", "flat": "red"}


def _verdict_text(verdict: str) -> str:
    return f"[{_VERDICT_STYLES.get(verdict, 'bold')}]{escape(verdict)}[/]" if verdict else ""


def _figures_grid(view: Statistics) -> RichTable:
    grid = _grid()
    grid.add_column("figure", style="bold")
    grid.add_column("value", justify="right")
    grid.add_column("verdict")
    grid.add_column("usual at this length", style="dim")
    for name, value in view.rows[:-1]:  # keywords get a table of their own
        judged = view.verdict_of(name)
        verdict, usual = (judged.verdict, judged.usual) if judged else ("", "")
        grid.add_row(name, escape(value), _verdict_text(verdict), escape(usual))
    return grid


def _keywords_grid(stats: TextStats) -> RichTable:
    table = _grid()
    for title in ("keyword (lemma)", "count", "density"):
        table.add_column(title, justify="left" if title.startswith("keyword") else "right")
    for keyword in stats.keywords:
        table.add_row(escape(keyword.lemma), f"{keyword.count:,}", f"{keyword.density:.1f}%")
    return table


def _phrases_grid(rows: Sequence[PhraseRow], size: int) -> RichTable:
    table = _grid()
    table.add_column(f"phrase of {size} lemmas")
    table.add_column("lemmas", style="dim")
    table.add_column("count", justify="right")
    table.add_column("density", justify="right")
    for row in rows:
        table.add_row(escape(row.form), escape(row.phrase), row.count, row.density)
    return table


def _targets_grid(rows: Sequence[TargetRow]) -> RichTable:
    table = _grid()
    table.add_column("target keyword")
    for title in ("count", "exact", "density"):
        table.add_column(title, justify="right")
    table.add_column("forms", style="dim")
    for row in rows:
        table.add_row(escape(row.keyword), row.count, row.exact, row.density, escape(row.forms))
    return table


def print_stats(stats: TextStats, doc: Document) -> None:
    """Text statistics: the figures with their verdicts, stuffing warnings, then the
    keywords, the phrases and the target keywords."""
    console = _console()
    view = stats_view(stats)
    console.print(_document_lines("Text", doc))
    console.print()
    console.print(_figures_grid(view))
    if view.warnings:
        console.print()
    for line in view.warnings:
        console.print(f"[bold red]warning:[/] {escape(line)}")
    if stats.keywords:
        console.print()
        console.print(_keywords_grid(stats))
    for size in sorted({row.size for row in view.phrases}):
        console.print()
        console.print(_phrases_grid([row for row in view.phrases if row.size == size], size))
    if view.targets:
        console.print()
        console.print(_targets_grid(view.targets))
