"""Clusters → what a corpus engineer or an SEO specialist acts on: JSON Lines, CSV or XLSX.

``jsonl`` is one cluster a line (:meth:`~canon.dedup.stages.Cluster.to_dict`).  ``csv`` and
``xlsx`` are one row per member (:data:`COLUMNS`): the cluster's number (from 1), the member's
``role`` (``keep`` for the representative, ``remove`` for the others), its ``source``, the
``representative``, its ``jaccard`` with the representative and the rule that chose the
representative (``chosen_by``); each cluster's ``keep`` row comes first.  The ``remove`` rows
are thus the list of what to remove, or redirect to the ``keep`` of the same row.

A CSV cell a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@``, a tab or a
carriage return first) gets a leading ``'``; an XLSX cell holds text as text.  A file is
written to a temporary name and renamed, so a reader never sees half of one.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import OptionError
from ..extras import require
from ..files import replacing
from .stages import Cluster

__all__ = ["COLUMNS", "FORMATS", "Row", "jsonl_lines", "output_format", "rows", "write_clusters"]

FORMATS = ("jsonl", "csv", "xlsx")
COLUMNS = ("cluster", "role", "source", "representative", "jaccard", "chosen_by")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Row:
    """One member of a cluster, as a row of the keep/remove list."""

    cluster: int
    role: str
    source: str
    representative: str
    jaccard: float
    chosen_by: str


def output_format(name: str, out: Path | None) -> str:
    """``name`` checked before a run (in any case): a known format; a file to write for
    ``csv`` and ``xlsx`` (they never go to standard output); XlsxWriter installed for
    ``xlsx``."""
    if name.lower() not in FORMATS:
        raise OptionError(
            "format", f"must be one of {', '.join(FORMATS)}, got {name!r}", value=name
        )
    name = name.lower()
    if name != "jsonl" and out is None:
        raise OptionError("out", f"is needed for the {name} format: name the file to write")
    if name == "xlsx":
        require("audit", "an XLSX list of clusters")
    return name


def rows(clusters: Sequence[Cluster]) -> Iterator[Row]:
    """One row per member, cluster by cluster, each cluster's representative first."""
    for number, cluster in enumerate(clusters, 1):
        kept = cluster.members.index(cluster.representative)
        order = [kept, *(i for i in range(len(cluster.members)) if i != kept)]
        for i in order:
            role = "keep" if i == kept else "remove"
            yield Row(
                number,
                role,
                cluster.members[i],
                cluster.representative,
                round(cluster.jaccard[i], 6),
                cluster.chosen_by,
            )


def jsonl_lines(clusters: Sequence[Cluster]) -> Iterator[str]:
    """One JSON line per cluster (no line break)."""
    for cluster in clusters:
        yield json.dumps(cluster.to_dict(), ensure_ascii=False)


def _inert(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def _write_csv(out: IO[str], clusters: Sequence[Cluster]) -> None:
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for row in rows(clusters):
        writer.writerow([_inert(value) for value in astuple(row)])


def _write_xlsx(out: IO[bytes], clusters: Sequence[Cluster]) -> None:
    import xlsxwriter

    options = {"strings_to_urls": False, "strings_to_formulas": False, "strings_to_numbers": False}
    book = xlsxwriter.Workbook(out, options)
    sheet = book.add_worksheet("Clusters")
    sheet.write_row(0, 0, COLUMNS, book.add_format({"bold": True}))
    count = 0
    for count, row in enumerate(rows(clusters), 1):
        for column, value in enumerate(astuple(row)):
            if isinstance(value, str):
                sheet.write_string(count, column, value)
            else:
                sheet.write_number(count, column, value)
    sheet.autofilter(0, 0, max(count, 1), len(COLUMNS) - 1)
    sheet.freeze_panes(1, 0)
    sheet.set_column(2, 3, 60)  # source and representative
    sheet.set_column(5, 5, 18)
    book.close()


def write_clusters(clusters: Sequence[Cluster], path: Path, output: str = "jsonl") -> None:
    """Write ``clusters`` to ``path`` in the format ``output`` (one of :data:`FORMATS`)."""
    output = output_format(output, path)
    if output == "xlsx":
        with replacing(path, "wb") as binary:
            _write_xlsx(binary, clusters)
        return
    with replacing(path) as out:
        if output == "csv":
            _write_csv(out, clusters)
        else:
            out.writelines(line + "\n" for line in jsonl_lines(clusters))
