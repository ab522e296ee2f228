"""A comparison or a check → one view: everything a page or a report shows of it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...canonical import Fragment
from ...comparison import Table
from ...sources.documents import Document
from ...sources.fetch import is_url
from ...uniqueness.against_index import CheckResult
from ...uniqueness.rewrites import Rewrite
from ...uniqueness.verdict import counted
from .figures import Figures, count, figures
from .highlights import Run, check_runs, compare_runs, fragment_k, runs_of
from .rows import (
    DocumentRow,
    MetricRow,
    ProfileRow,
    TrickRow,
    UniquenessRow,
    VerdictRow,
    document_row,
    metric_rows,
    percent,
    profile_rows,
    trick_rows,
    uniqueness_rows,
    verdict_row,
)
from .stats import Statistics, statistics

__all__ = ["CheckView", "CompareView", "SourceView", "check_view", "compare_view"]


@dataclass(frozen=True)
class CompareView:
    """Everything a page or report shows of a comparison of two documents."""

    documents: tuple[DocumentRow, ...]
    profiles: tuple[ProfileRow, ...]
    metrics: tuple[MetricRow, ...]
    k: int  # the shingle size of the highlights
    texts: tuple[tuple[Run, ...], tuple[Run, ...]]
    statistics: tuple[Statistics, Statistics]


def compare_view(table: Table, docs: Sequence[Document], *, twins: bool = False) -> CompareView:
    k = fragment_k(table)
    return CompareView(
        tuple(document_row(label, doc) for label, doc in zip("AB", docs)),
        profile_rows(table),
        metric_rows(table),
        k,
        compare_runs(table, [d.text for d in docs], k, twins=twins),
        (statistics(docs[0].text), statistics(docs[1].text)),
    )


@dataclass(frozen=True)
class SourceView:
    """One source of a check, merged over the profiles: the share of the draft's counted
    characters it explains, the draft with its fragments marked, and its own text with the
    passages marked (``None`` when the index does not store the text)."""

    number: int  # from 1, as ``canon check --source N`` names it
    source: str
    title: str
    link: bool
    share: str
    shared: Figures  # what found it: e.g. "raw 55 · lemma 147 · 3 sentences"
    draft: tuple[Run, ...]
    passages: tuple[Run, ...] | None


@dataclass(frozen=True)
class CheckView:
    """Everything a page or report shows of a check of one draft."""

    document: DocumentRow
    profiles: tuple[UniquenessRow, ...]
    text: tuple[Run, ...]
    statistics: Statistics
    verdict: VerdictRow | None = None
    tricks: tuple[TrickRow, ...] = ()
    sources: tuple[SourceView, ...] = ()
    set_phrases: tuple[str, ...] = ()  # each phrase once, in draft order
    # found in sources but too short or formulaic to count, each once, in draft order
    uncounted: tuple[str, ...] = ()


@dataclass
class _Merged:
    """One source's marks gathered over the profiles and the sentence measure."""

    title: str
    draft: list[tuple[bool, Sequence[Fragment]]]
    own: list[tuple[bool, Sequence[Fragment]]]
    shared: list[Figures]


def _merged(result: CheckResult) -> dict[str, _Merged]:
    merged: dict[str, _Merged] = {}
    for p in result.profiles:
        for m in p.sources:
            entry = merged.setdefault(m.source, _Merged(m.title or "", [], [], []))
            entry.draft.append((p.word_for_word, m.fragments))
            if m.passages is not None:
                entry.own.append((p.word_for_word, m.passages))
            entry.shared.append(figures(f"{p.profile} ", count(m.shared)))
    by_source: dict[str, list[Rewrite]] = {}
    for r in result.rewrites:
        by_source.setdefault(r.source, []).append(r)
    for source, found in by_source.items():
        entry = merged.setdefault(source, _Merged(found[0].title or "", [], [], []))
        entry.draft.append((False, [Fragment(r.start, r.end) for r in found]))
        entry.own.append((False, [Fragment(r.source_start, r.source_end) for r in found]))
        entry.shared.append(
            figures(count(len(found)), " sentences") if len(found) > 1 else figures("1 sentence")
        )
    return merged


def _joined(parts: Sequence[Figures], separator: str) -> Figures:
    """``parts`` joined by ``separator``, their numbers kept."""
    pattern = separator.replace("{", "{{").replace("}", "}}").join(p.pattern for p in parts)
    return Figures(pattern, *(n for p in parts for n in p.numbers))


def _source_views(result: CheckResult) -> tuple[SourceView, ...]:
    chars = result.verdict.chars if result.verdict else 0
    counts = counted(result.text)
    views = []
    for number, (name, entry) in enumerate(_merged(result).items(), 1):
        draft = runs_of(result.text, entry.draft)
        text = result.texts.get(name)
        inside = sum(int(counts[r.start : r.end].sum()) for r in draft if r.level)
        views.append(
            SourceView(
                number,
                name,
                entry.title,
                is_url(name),
                percent(inside / chars) if chars else "",
                _joined(entry.shared, " · "),
                draft,
                runs_of(text, entry.own) if text is not None and entry.own else None,
            )
        )
    return tuple(views)


def _owned_runs(result: CheckResult, sources: Sequence[SourceView]) -> tuple[Run, ...]:
    """The verdict's runs of the draft, each mark carrying the numbers of the sources whose
    fragments overlap it (in ``Run.twins``), so a page can pick out one source's fragments."""
    windows = [(r.start, r.end, str(s.number)) for s in sources for r in s.draft if r.level]
    return check_runs(result, windows)


def check_view(result: CheckResult, doc: Document) -> CheckView:
    sources = _source_views(result)
    return CheckView(
        document_row("draft", doc),
        uniqueness_rows(result),
        _owned_runs(result, sources),
        statistics(result.text),
        verdict_row(result.verdict) if result.verdict else None,
        trick_rows(result.tricks),
        sources,
        _phrases(result.text, (f for p in result.profiles for f in p.set_phrases)),
        _phrases(result.text, result.verdict.uncounted if result.verdict else ()),
    )


def _phrases(text: str, fragments: Iterable[Fragment]) -> tuple[str, ...]:
    """The ``fragments`` of ``text`` as text, each once, in the order they first appear."""
    ranges = sorted((f.start, f.end) for f in fragments)
    phrases = (" ".join(text[start:end].split()) for start, end in ranges)
    return tuple(p for p in dict.fromkeys(phrases) if p)
