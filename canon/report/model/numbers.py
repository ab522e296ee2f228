"""Numbers → the text a person reads: one formatting for the terminal and the pages.

``grouped`` writes a count or an amount with thousands separators and a fixed number of
decimals: Python's own ``{:,.Nf}`` for English (the command line and the English pages, so the
same number reads the same in both), Babel's rules of the locale otherwise (``3 376`` in
Russian).  ``index_rows`` are the figures of an index as ``canon index stats`` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_decimal

from ...index.lookups import IndexStats

__all__ = ["IndexFigures", "IndexProfileRow", "grouped", "index_rows"]


def grouped(value: float, digits: int = 0, locale: str | None = None) -> str:
    """``value`` rounded to ``digits`` decimals with thousands separators: ``11,416``."""
    english = f"{value:,.{digits}f}"
    if locale is None or locale.split("_")[0] == "en":
        return english
    rounded = float(english.replace(",", ""))  # the English rounding, whatever the locale
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(rounded, format=pattern, locale=locale)


@dataclass(frozen=True)
class IndexProfileRow:
    """One profile of an index: its name, fingerprint, k, step and shingle rows."""

    name: str
    fingerprint: str
    k: int
    step: int
    shingles: str


@dataclass(frozen=True)
class IndexFigures:
    """The figures of an index, formatted."""

    documents: str
    file_size: str  # bytes
    per_document: str  # bytes
    texts: str
    text_bytes: str
    profiles: tuple[IndexProfileRow, ...]
    segments: str
    segment_bytes: str
    tombstones: str  # removed documents whose postings the next merge drops


def index_rows(stats: IndexStats, locale: str | None = None) -> IndexFigures:
    """``stats`` formatted in ``locale`` (``None``: as the command line prints them)."""
    return IndexFigures(
        grouped(stats.documents, locale=locale),
        grouped(stats.file_size, locale=locale),
        grouped(stats.bytes_per_document, locale=locale),
        grouped(stats.texts, locale=locale),
        grouped(stats.text_bytes, locale=locale),
        tuple(
            IndexProfileRow(p.name, p.fingerprint, p.k, p.step, grouped(rows, locale=locale))
            for p, rows in stats.profiles
        ),
        grouped(stats.segments, locale=locale),
        grouped(stats.segment_bytes, locale=locale),
        grouped(stats.tombstones, locale=locale),
    )
