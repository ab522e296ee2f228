"""Results → the terminal (rich).  JSON comes straight from each result's ``to_dict``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from ..canonical import Canonical
from ..comparison import Comparison, Table
from ..profile import Profile
from ..sources.documents import Document
from ..text.tokenize import Fold
from ..uniqueness import CheckResult

__all__ = [
    "describe",
    "marked_text",
    "print_check",
    "print_profiles",
    "print_table",
    "print_tokens",
]

_METRICS = (
    ("jaccard", "Jaccard"),
    ("dice", "Dice"),
    ("containment_first", "A in B"),
    ("containment_second", "B in A"),
)


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def describe(profile: Profile) -> str:
    """The rules of a profile in a few words."""
    s = profile.settings()
    parts = [str(s["unicode_form"])]
    if s["casefold"]:
        parts.append("casefold")
    if s["morphology"] != "none":
        parts.append({"lemma": "pymorphy3 lemmas", "stem": "Snowball stems"}[str(s["morphology"])])
    parts.append("hyphenated words whole" if s["keep_hyphens"] else "hyphens split words")
    for key, label in (
        ("yo_fold", "ё→е"),
        ("strip_marks", "stress marks and invisible characters removed"),
        ("fold_confusables", "Latin look-alikes folded"),
    ):
        if s[key]:
            parts.append(label)
    if profile.stopwords:
        names = [k if "/" not in k else k.rsplit("/", 1)[-1] for k in profile.stopwords]
        negation = "negation kept" if profile.keep_negation else "negation dropped"
        parts.append(f"stop lists {'+'.join(names)} ({negation})")
    if profile.drop_pos:
        parts.append(f"drops {','.join(profile.drop_pos)}")
    if profile.synonyms:
        parts.append("synonyms merged")
    return ", ".join(parts)


_METHODS = {
    "text": "text",
    "docx": "Word document",
    "trafilatura": "main text by trafilatura",
    "whole-page": "whole page",
}


def _document_lines(label: str, doc: Document) -> str:
    title = f"  «{escape(doc.title)}»" if doc.title else ""
    moved = f" → {escape(doc.final_url)}" if doc.final_url and doc.final_url != doc.source else ""
    facts = [_METHODS.get(doc.method, doc.method), doc.encoding, f"{doc.chars:,} chars"]
    if doc.fetched:
        facts.append(f"{'from cache, ' if doc.cached else ''}fetched {doc.fetched}")
    details = " · ".join(escape(f) for f in facts if f)
    return f"[bold]{label}[/]  {escape(doc.source)}{moved}{title}\n   [dim]{details}[/]"


def _folds_line(label: str, folds: Sequence[Fold]) -> str:
    shown = ", ".join(f"{escape(f.original)}@{f.start}" for f in folds[:8])
    more = f" and {len(folds) - 8} more" if len(folds) > 8 else ""
    word = "word" if len(folds) == 1 else "words"
    return (
        f"[yellow]{label}: {len(folds)} {word} with Latin look-alike letters "
        f"folded to Cyrillic: {shown}{more}[/]"
    )


def print_table(table: Table, docs: Sequence[Document]) -> None:
    console = _console()
    for label, doc in zip("AB", docs):
        console.print(_document_lines(label, doc))
    grid = RichTable(show_edge=False, pad_edge=False, header_style="bold")
    grid.add_column("k", justify="right")
    grid.add_column("profile")
    for _, title in _METRICS:
        grid.add_column(title, justify="right")
    grid.add_column("shared", justify="right")
    grid.add_column("shingles A/B", justify="right", style="dim")
    for k in table.ks:
        for i, profile in enumerate(table.profiles):
            cell = table.cell(profile.name, k)
            row = [str(k) if i == 0 else "", profile.name]
            if isinstance(cell, Comparison):
                row += [f"{getattr(cell, key):.1%}" for key, _ in _METRICS]
                row += [f"{cell.common:,}", f"{cell.first_shingles:,}/{cell.second_shingles:,}"]
            else:
                row += ["too short", "", "", "", "", ""]
            grid.add_row(*row, end_section=i == len(table.profiles) - 1)
    console.print()
    console.print(grid)
    console.print()
    for profile in table.profiles:
        a, b = table.words[profile.name]
        console.print(
            f"[bold]{profile.name}[/] {profile.fingerprint}  words A {a:,}, B {b:,}  "
            f"[dim]{escape(describe(profile))}[/]"
        )
    folded = {
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
            click.echo(f"{start}\t{end}\t{doc.text[start:end]}\t{token}")
    else:
        click.echo(" ".join(canonical.tokens))
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

_EXACT, _REWRITE = 2, 1
_MARKS = {_EXACT: ("[[", "]]"), _REWRITE: ("{{", "}}")}
_STYLES = {_EXACT: "bold white on red", _REWRITE: "black on yellow"}


def _levels(result: CheckResult) -> list[int]:
    """Per character of the draft: 2 copied word for word, 1 found only after normalization."""
    levels = [0] * len(result.text)
    for profile in result.profiles:
        level = _EXACT if profile.word_for_word else _REWRITE
        for fragment in profile.fragments:
            for i in range(fragment.start, fragment.end):
                levels[i] = max(levels[i], level)
    return levels


def _runs(levels: list[int]) -> list[tuple[int, int, int]]:
    runs: list[tuple[int, int, int]] = []
    for i, level in enumerate(levels):
        if runs and runs[-1][2] == level:
            runs[-1] = (runs[-1][0], i + 1, level)
        else:
            runs.append((i, i + 1, level))
    return runs


def marked_text(result: CheckResult) -> str:
    """The draft with ``[[copied]]`` and ``{{rewritten}}`` fragments marked, for plain output."""
    out = []
    for start, end, level in _runs(_levels(result)):
        opening, closing = _MARKS.get(level, ("", ""))
        out.append(f"{opening}{result.text[start:end]}{closing}")
    return "".join(out)


def print_check(result: CheckResult, doc: Document) -> None:
    from rich.text import Text

    console = _console()
    console.print(_document_lines("Draft", doc))
    grid = RichTable(show_edge=False, pad_edge=False, header_style="bold")
    for title in ("profile", "uniqueness", "borrowed/shingles", "k", "fingerprint"):
        grid.add_column(title, justify="left" if title in ("profile", "fingerprint") else "right")
    for p in result.profiles:
        grid.add_row(
            p.profile,
            f"{p.uniqueness:.1%}",
            f"{p.borrowed:,}/{p.draft_shingles:,}",
            str(p.k),
            p.fingerprint,
        )
    console.print()
    console.print(grid)
    for p in result.profiles:
        if not p.sources:
            continue
        console.print(f"\n[bold]Sources ({p.profile})[/]")
        sources = RichTable(show_edge=False, pad_edge=False, header_style="bold")
        for title in ("source", "share of draft", "Jaccard", "shared"):
            sources.add_column(title, justify="left" if title == "source" else "right")
        for match in p.sources:
            title = f"  «{match.title}»" if match.title else ""
            sources.add_row(
                escape(match.source + title),
                f"{match.containment:.1%}",
                f"{match.jaccard:.1%}",
                f"{match.shared:,}",
            )
        console.print(sources)
    for p in result.profiles:
        if p.similar is None:
            continue
        console.print(f"\n[bold]Near-duplicates of the whole draft ({p.profile})[/]")
        if not p.similar:
            console.print("[dim]none at this threshold[/]")
            continue
        near = RichTable(show_edge=False, pad_edge=False, header_style="bold")
        for title in ("source", "estimated Jaccard", "exact Jaccard"):
            near.add_column(title, justify="left" if title == "source" else "right")
        for doc in p.similar:
            title = f"  «{doc.title}»" if doc.title else ""
            near.add_row(escape(doc.source + title), f"{doc.estimated:.1%}", f"{doc.jaccard:.1%}")
        console.print(near)
    if console.is_terminal:
        text = Text()
        for start, end, level in _runs(_levels(result)):
            text.append(result.text[start:end], style=_STYLES.get(level, ""))
        console.print(
            "\n[bold]Draft[/] ([white on red]copied word for word[/], "
            "[black on yellow]found after lemmatization[/])"
        )
        console.print(text)
    else:
        click.echo("\nDraft ([[copied word for word]], {{found after lemmatization}}):")
        click.echo(marked_text(result))
    console.print(
        "[dim]uniqueness = share of the draft's distinct shingles found in no indexed "
        "source; share of draft = shared / draft shingles.[/]"
    )


def stats_rows(stats: Any) -> list[tuple[str, str]]:
    """The text statistics as (name, value) pairs, for the terminal and the HTML report."""
    zipf = stats.zipf
    if zipf.slope is None:
        zipf_text = str(zipf.note)
    else:
        zipf_text = f"{zipf.slope:.2f}, {zipf.r_squared:.2f}" + (
            "" if zipf.natural else " (outside the usual range)"
        )
    return [
        ("characters", f"{stats.characters:,}"),
        ("characters without spaces", f"{stats.characters_no_spaces:,}"),
        ("words", f"{stats.words:,}"),
        ("unique lemmas", f"{stats.unique_lemmas:,}"),
        ("water", f"{stats.water_percent:.1f}%"),
        ("classic nausea", f"{stats.classic_nausea:.2f} ({stats.classic_nausea_lemma or '-'})"),
        ("academic nausea", f"{stats.academic_nausea:.1f}%"),
        ("Zipf slope, R²", zipf_text),
        ("keywords", ", ".join(f"{k.lemma} {k.count} ({k.density:.1f}%)" for k in stats.keywords)),
    ]


def print_stats(stats: Any, doc: Document) -> None:
    """Text statistics: a two-column table, then the keywords."""
    console = _console()
    console.print(_document_lines("Text", doc))
    grid = RichTable(show_header=False, show_edge=False, pad_edge=False)
    grid.add_column(style="bold")
    grid.add_column(justify="right")
    for name, value in stats_rows(stats)[:-1]:  # keywords get a table of their own
        grid.add_row(name, escape(value))
    console.print()
    console.print(grid)
    if stats.keywords:
        table = RichTable(show_edge=False, pad_edge=False, header_style="bold")
        for title in ("keyword (lemma)", "count", "density"):
            table.add_column(title, justify="left" if title.startswith("keyword") else "right")
        for keyword in stats.keywords:
            table.add_row(escape(keyword.lemma), str(keyword.count), f"{keyword.density:.1f}%")
        console.print()
        console.print(table)
