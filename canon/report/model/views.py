"""A comparison or a check → one view: everything a page or a report shows of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...comparison import Table
from ...sources.documents import Document
from ...uniqueness import CheckResult
from .highlights import Run, check_runs, compare_runs, fragment_k
from .rows import (
    DocumentRow,
    MetricRow,
    ProfileRow,
    Statistics,
    UniquenessRow,
    document_row,
    metric_rows,
    profile_rows,
    statistics,
    uniqueness_rows,
)

__all__ = ["CheckView", "CompareView", "check_view", "compare_view"]


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
class CheckView:
    """Everything a page or report shows of a check of one draft."""

    document: DocumentRow
    profiles: tuple[UniquenessRow, ...]
    text: tuple[Run, ...]
    statistics: Statistics


def check_view(result: CheckResult, doc: Document) -> CheckView:
    return CheckView(
        document_row("draft", doc),
        uniqueness_rows(result),
        check_runs(result),
        statistics(result.text),
    )
