"""Results → the terminal (rich), drawn from :mod:`canon.report.model`, in the command line's
language (a :class:`~canon.report.language.Speech`: English as it always was, or Russian with
the figures the model formats re-typeset by the locale's rules).

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
from .language import N_, Speech, speech
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
from .said import said_parts, translated

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


ENGLISH = speech("en")
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


def _document_lines(label: str, doc: Document, said: Speech = ENGLISH) -> str:
    title = f"  «{escape(doc.title)}»" if doc.title else ""
    moved = f" → {escape(doc.final_url)}" if doc.final_url and doc.final_url != doc.source else ""
    chars = said._("%(chars)s chars", chars=said.number(doc.chars))
    facts = [said._(method_label(doc.method)), doc.encoding, chars]
    if doc.fetched:
        fetched = "from cache, fetched %(when)s" if doc.cached else "fetched %(when)s"
        facts.append(said._(fetched, when=doc.fetched))
    details = " · ".join(escape(f) for f in facts if f)
    return f"[bold]{label}[/]  {escape(doc.source)}{moved}{title}\n   [dim]{details}[/]"


def _folds_line(label: str, folds: Sequence[Fold], said: Speech = ENGLISH) -> str:
    shown = ", ".join(f"{escape(f.original)}@{f.start}" for f in folds[:8])
    more = said._(" and %(more)s more", more=said.count(len(folds) - 8)) if len(folds) > 8 else ""
    words = said.ngettext(
        "%(num)s word with look-alike letters folded to Cyrillic",
        "%(num)s words with look-alike letters folded to Cyrillic",
        len(folds),
    )
    return f"[yellow]{label}: {words}: {shown}{more}[/]"


# --------------------------------------------------------------------------- compare


def _metrics_grid(table: Table, said: Speech = ENGLISH) -> RichTable:
    grid = _grid()
    grid.add_column("k", justify="right")
    grid.add_column(said._("profile"))
    for title in (*METRICS, "shared"):
        grid.add_column(said._(title), justify="right")
    grid.add_column(said._("shingles A/B"), justify="right", style="dim")
    width = len(METRICS) + 2
    for row in metric_rows(table):
        for i, cell in enumerate(row.cells):
            values = [*cell.values, cell.shared, cell.shingles] if cell.values else ["too short"]
            values = [said.figures(said._(v)) if v == "too short" else said.figures(v)
                      for v in values]  # fmt: skip
            values += [""] * (width - len(values))
            last = i == len(row.cells) - 1
            grid.add_row(str(row.k) if i == 0 else "", cell.profile, *values, end_section=last)
    return grid


def print_table(table: Table, docs: Sequence[Document], said: Speech = ENGLISH) -> None:
    console = _console()
    for label, doc in zip("AB", docs):
        console.print(_document_lines(label, doc, said))
    console.print()
    console.print(_metrics_grid(table, said))
    console.print()
    for row in profile_rows(table):
        words = said._(
            "words A %(first)s, B %(second)s",
            first=said.figures(row.words[0]),
            second=said.figures(row.words[1]),
        )
        console.print(
            f"[bold]{row.name}[/] {row.fingerprint}  {words}  [dim]{escape(row.description)}[/]"
        )
    folded = {  # one line per text, whichever profiles folded its letters
        label: folds
        for profile in table.profiles
        for label, folds in zip("AB", table.folds[profile.name])
        if folds
    }
    for label, folds in folded.items():
        console.print(_folds_line(label, folds, said))
    legend = said._(
        "Jaccard = shared/(A∪B); Dice = 2·shared/(A+B); A in B = shared/A (share of A found in "
        "B). Counts are distinct shingles."
    )
    console.print(f"[dim]{escape(legend)}[/]")


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

# The words of the presentation model the terminal says in its language: the metrics, how a
# text was read, the tricks, the figures of the statistics and their verdicts.
MODEL_WORDS = (
    N_("Jaccard"), N_("Dice"), N_("A in B"), N_("B in A"), N_("shared"), N_("too short"),
    N_("text"), N_("Word document"), N_("main text by trafilatura"), N_("whole page"),
    N_("look-alike letters"), N_("combining marks"), N_("invisible characters"), N_("hyphen"),
    N_("transliteration"), N_("spaced letters"), N_("hidden text"),
    N_("characters"), N_("characters without spaces"), N_("words"), N_("unique lemmas"),
    N_("water"), N_("classic nausea"), N_("academic nausea"), N_("Zipf slope, R²"),
    N_("norm"), N_("low"), N_("high"), N_("steep"), N_("flat"),
)  # fmt: skip

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


def _uniqueness_grid(rows: Sequence[UniquenessRow], said: Speech) -> RichTable:
    grid = _grid()
    for title in (
        N_("profile"),
        N_("uniqueness"),
        N_("borrowed/shingles"),
        N_("k"),
        N_("fingerprint"),
    ):
        left = title in ("profile", "fingerprint")
        grid.add_column(said._(title), justify="left" if left else "right")
    for p in rows:
        grid.add_row(p.profile, said.figures(p.uniqueness), said.figures(p.borrowed), str(p.k),
                     p.fingerprint)  # fmt: skip
    return grid


def _titled(source: str, title: str) -> str:
    return escape(source + (f"  «{title}»" if title else ""))


def _sources_grid(row: UniquenessRow, said: Speech) -> RichTable:
    grid = _grid()
    for title in (N_("source"), N_("share of draft"), N_("Jaccard"), N_("shared")):
        grid.add_column(said._(title), justify="left" if title == "source" else "right")
    for m in row.sources:
        grid.add_row(_titled(m.source, m.title), said.figures(m.share), said.figures(m.jaccard),
                     said.figures(m.shared))  # fmt: skip
    return grid


def _near_grid(near: Sequence[NearRow], said: Speech) -> RichTable:
    grid = _grid()
    for title in (N_("source"), N_("estimated Jaccard"), N_("exact Jaccard")):
        grid.add_column(said._(title), justify="left" if title == "source" else "right")
    for d in near:
        grid.add_row(_titled(d.source, d.title), said.figures(d.estimated), said.figures(d.jaccard))
    return grid


def _print_runs(console: Console, title: str, runs: Sequence[Run], said: Speech) -> None:
    """A text with its marks: colours on a terminal, ``[[…]]`` and ``{{…}}`` otherwise."""
    copied, rewritten = said._("copied word for word"), said._("rewritten")
    if not console.is_terminal:
        print(f"\n{title} ([[{copied}]], {{{{{rewritten}}}}}):", flush=True)
        print(marked_runs(runs), flush=True)
        return
    text = Text()
    for run in runs:
        text.append(run.text, style=_STYLES.get(run.level, ""))
    console.print(
        f"\n[bold]{escape(title)}[/] ([white on red]{copied}[/], [black on yellow]{rewritten}[/])"
    )
    console.print(text)


def _phrases_shown(phrases: Sequence[str], said: Speech) -> str:
    shown = ", ".join(f"«{escape(p)}»" for p in phrases[:_PHRASES_SHOWN])
    more = len(phrases) - _PHRASES_SHOWN
    return shown + (said._(" and %(more)s more", more=said.count(more)) if more > 0 else "")


def _verdict_lines(row: VerdictRow, said: Speech) -> str:
    uniqueness = said._("uniqueness %(share)s", share=said.figures(row.uniqueness))
    parts = said._(
        "copied %(copied)s · rewritten %(rewritten)s",
        copied=said.figures(row.copied),
        rewritten=said.figures(row.rewritten),
    )
    chars = said._("%(chars)s letters and digits", chars=said.figures(row.chars))
    return f"[bold]{uniqueness}[/]   {parts}   ({chars})"


def _tricks_grid(tricks: Sequence[TrickRow], said: Speech) -> RichTable:
    grid = _grid()
    for title in (N_("trick"), N_("at"), N_("written"), N_("read as")):
        grid.add_column(said._(title), justify="right" if title == "at" else "left")
    for t in tricks:
        grid.add_row(said._(t.kind), t.at, escape(t.original), escape(t.repaired))
    return grid


def _merged_sources_grid(sources: Sequence[SourceView], said: Speech) -> RichTable:
    grid = _grid()
    for title in ("#", N_("source"), N_("share of draft"), N_("found by")):
        grid.add_column(said._(title), justify="left" if title == "source" else "right")
    for s in sources:
        found_by = said_parts(s.shared, said.translations) if said.locale != "en" else s.shared
        grid.add_row(str(s.number), _titled(s.source, s.title), said.figures(s.share),
                     said.figures(found_by))  # fmt: skip
    return grid


def _print_details(console: Console, view: CheckView, said: Speech) -> None:
    console.print(f"\n[bold]{said._('Shingles per profile')}[/]")
    console.print(_uniqueness_grid(view.profiles, said))
    for row in view.profiles:
        if row.sources:
            console.print(f"\n[bold]{said._('Sources (%(profile)s)', profile=row.profile)}[/]")
            console.print(_sources_grid(row, said))


def _print_source(console: Console, view: CheckView, number: int, said: Speech) -> None:
    if not 1 <= number <= len(view.sources):
        raise OptionError(
            "source",
            f"must be the number of a listed source (1 to {len(view.sources)}), got {number}",
            value=number,
        )
    source = view.sources[number - 1]
    title = said._("Draft, fragments shared with source %(number)s", number=number)
    _print_runs(console, title, source.draft, said)
    if source.passages is None:
        missing = said._("The index does not store the text of %(source)s.", source=source.source)
        console.print(f"\n[dim]{escape(missing)}[/]")
    else:
        title = said._("Source %(number)s: %(source)s", number=number, source=source.source)
        _print_runs(console, title, source.passages, said)


def _print_phrases(console: Console, view: CheckView, said: Speech) -> None:
    if view.set_phrases:
        shown = _phrases_shown(view.set_phrases, said)
        title = said._("Set phrases")
        why = said._("in too many documents to tie to a source")
        console.print(f"\n[bold]{title}[/] ({why}): {shown}")
    if view.uncounted:
        shown = _phrases_shown(view.uncounted, said)
        title = said._("Found but not counted")
        why = said._("too short, or a sentence a text on the same subject may well say")
        console.print(f"\n[bold]{title}[/] ({why}): {shown}")


def _print_near(console: Console, view: CheckView, said: Speech) -> None:
    for row in view.profiles:
        if row.similar is None:
            continue
        title = said._("Near-duplicates of the whole draft (%(profile)s)", profile=row.profile)
        console.print(f"\n[bold]{title}[/]")
        if row.similar:
            console.print(_near_grid(row.similar, said))
        else:
            console.print(f"[dim]{said._('none at this threshold')}[/]")


def _formula(formula: str, said: Speech) -> str:
    """The verdict's formula in the command line's language, clause by clause."""
    if said.locale == "en":
        return formula
    return said.figures(translated(formula, said.translations) or formula)


def print_check(
    result: CheckResult,
    doc: Document,
    *,
    details: bool = False,
    source: int | None = None,
    said: Speech = ENGLISH,
) -> None:
    """A check: the verdict first, the tricks, the sources, then the marked draft (or, with
    ``source``, the draft beside that source); ``details`` adds the per-profile figures."""
    console = _console()
    view = check_view(result, doc)
    console.print(_document_lines(said._("Draft"), doc, said))
    if view.verdict is not None:
        console.print()
        console.print(_verdict_lines(view.verdict, said))
    if view.tricks:
        console.print(f"\n[bold]{said._('Tricks seen through')} ({len(view.tricks)})[/]")
        console.print(_tricks_grid(view.tricks, said))
    if view.sources:
        console.print(f"\n[bold]{said._('Sources')}[/]")
        console.print(_merged_sources_grid(view.sources, said))
    _print_phrases(console, view, said)
    if details:
        _print_details(console, view, said)
    _print_near(console, view, said)
    if source is None:
        _print_runs(console, said._("Draft"), view.text, said)
    else:
        _print_source(console, view, source, said)
    if view.verdict is not None:
        console.print(f"[dim]{escape(_formula(view.verdict.formula, said))}.[/]")


# --------------------------------------------------------------------------- stats


_VERDICT_STYLES = {"norm": "green", "low": "yellow", "high": "red", "steep": "red", "flat": "red"}


def _verdict_text(verdict: str, said: Speech) -> str:
    style = _VERDICT_STYLES.get(verdict, "bold")
    return f"[{style}]{escape(said._(verdict))}[/]" if verdict else ""


def _said(text: str, said: Speech) -> str:
    """A sentence of the model (its figures English) in the command line's language."""
    if said.locale == "en":
        return text
    return said.figures(translated(text, said.translations) or text)


def _figures_grid(view: Statistics, said: Speech) -> RichTable:
    grid = _grid()
    grid.add_column(said._("figure"), style="bold")
    grid.add_column(said._("value"), justify="right")
    grid.add_column(said._("verdict"))
    grid.add_column(said._("usual at this length"), style="dim")
    for name, value in view.rows[:-1]:  # keywords get a table of their own
        judged = view.verdict_of(name)
        verdict, usual = (judged.verdict, judged.usual) if judged else ("", "")
        grid.add_row(said._(name), escape(_said(value, said)), _verdict_text(verdict, said),
                     escape(_said(usual, said)))  # fmt: skip
    return grid


def _keywords_grid(stats: TextStats, said: Speech) -> RichTable:
    table = _grid()
    for title in (N_("keyword (lemma)"), N_("count"), N_("density")):
        left = title.startswith("keyword")
        table.add_column(said._(title), justify="left" if left else "right")
    for keyword in stats.keywords:
        density = said.figures(f"{keyword.density:.1f}%")
        table.add_row(escape(keyword.lemma), said.number(keyword.count), density)
    return table


def _phrases_grid(rows: Sequence[PhraseRow], size: int, said: Speech) -> RichTable:
    table = _grid()
    table.add_column(said._("phrase of %(size)s lemmas", size=size))
    table.add_column(said._("lemmas"), style="dim")
    table.add_column(said._("count"), justify="right")
    table.add_column(said._("density"), justify="right")
    for row in rows:
        table.add_row(escape(row.form), escape(row.phrase), said.figures(row.count),
                      said.figures(row.density))  # fmt: skip
    return table


def _targets_grid(rows: Sequence[TargetRow], said: Speech) -> RichTable:
    table = _grid()
    table.add_column(said._("target keyword"))
    for title in (N_("count"), N_("exact"), N_("density")):
        table.add_column(said._(title), justify="right")
    table.add_column(said._("forms"), style="dim")
    for row in rows:
        table.add_row(escape(row.keyword), said.figures(row.count), said.figures(row.exact),
                      said.figures(row.density), escape(row.forms))  # fmt: skip
    return table


def print_stats(stats: TextStats, doc: Document, said: Speech = ENGLISH) -> None:
    """Text statistics: the figures with their verdicts, stuffing warnings, then the
    keywords, the phrases and the target keywords."""
    console = _console()
    view = stats_view(stats)
    console.print(_document_lines(said._("Text"), doc, said))
    console.print()
    console.print(_figures_grid(view, said))
    if view.warnings:
        console.print()
    for line in view.warnings:
        console.print(f"[bold red]{said._('warning:')}[/] {escape(_said(line, said))}")
    if stats.keywords:
        console.print()
        console.print(_keywords_grid(stats, said))
    for size in sorted({row.size for row in view.phrases}):
        phrases = [row for row in view.phrases if row.size == size]
        console.print()
        console.print(_phrases_grid(phrases, size, said))
    if view.targets:
        console.print()
        console.print(_targets_grid(view.targets, said))
