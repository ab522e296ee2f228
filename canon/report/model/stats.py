"""Text statistics → formatted rows: figures, verdicts, keywords, phrases, targets, warnings.

Every number is formatted here once, for the terminal and the pages alike: counts with
thousands separators (``1,234``), percentages with one decimal (``28.7%``), classic nausea
and the Zipf slope with two.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import CanonError
from ...textstats import ZIPF_SLOPE_RANGE, Stuffing, TextStats, Verdict, text_stats
from ...textstats.stuffing import STUFFING_MIN_COUNT
from ...textstats.targets import Form
from .figures import Figures, Number, count, figures, number, percentage

__all__ = [
    "JudgedRow",
    "PhraseRow",
    "Statistics",
    "TargetRow",
    "judged_rows",
    "phrase_rows",
    "statistics",
    "stats_rows",
    "stats_view",
    "stuffing_lines",
    "target_rows",
]


def _percent(value: float) -> Figures:
    return figures(percentage(value))


def _count(value: int) -> Figures:
    return figures(count(value))


def _zipf_value(stats: TextStats) -> str:
    zipf = stats.zipf
    if zipf.slope is None or zipf.r_squared is None:
        return str(zipf.note)
    outside = "" if zipf.natural else " (outside the usual range)"
    return figures(number(zipf.slope, 2), ", ", number(zipf.r_squared, 2), outside)


def _keywords(stats: TextStats) -> Figures:
    parts: list[str | Number] = []
    for k in stats.keywords:
        parts += [", " if parts else "", f"{k.lemma} ", count(k.count), " (",
                  percentage(k.density), ")"]  # fmt: skip
    return figures(*parts)


def stats_rows(stats: TextStats) -> list[tuple[str, str]]:
    """The text statistics as ``(name, value)`` pairs; keywords last."""
    nausea = figures(number(stats.classic_nausea, 2), f" ({stats.classic_nausea_lemma or '-'})")
    return [
        ("characters", _count(stats.characters)),
        ("characters without spaces", _count(stats.characters_no_spaces)),
        ("words", _count(stats.words)),
        ("unique lemmas", _count(stats.unique_lemmas)),
        ("water", _percent(stats.water_percent)),
        ("classic nausea", nausea),
        ("academic nausea", _percent(stats.academic_nausea)),
        ("Zipf slope, R²", _zipf_value(stats)),
        ("keywords", _keywords(stats)),
    ]


@dataclass(frozen=True)
class JudgedRow:
    """A figure with a verdict: its row name (as in :func:`stats_rows`), the ``verdict``
    (``norm``, ``high``, ``low``, ``steep``, ``flat``; empty when none) and the ``usual``
    range it was judged against (empty when none)."""

    name: str
    verdict: str
    usual: str


def _judged(name: str, verdict: Verdict, digits: int, unit: str) -> JudgedRow:
    if verdict.verdict is None or verdict.high is None:
        return JudgedRow(name, "", "")
    high = Number(verdict.high, digits, percent=unit == "%")
    if verdict.low is None:
        return JudgedRow(name, verdict.verdict, figures("≤ ", high))
    low = number(verdict.low, digits)
    return JudgedRow(name, verdict.verdict, figures(low, "–", high))


def judged_rows(stats: TextStats) -> tuple[JudgedRow, ...]:
    """The verdicts on water, classic and academic nausea and the Zipf slope."""
    low, high = ZIPF_SLOPE_RANGE
    zipf = stats.zipf
    usual = figures(number(low, 2), " to ", number(high, 2)) if zipf.verdict else ""
    rows = [JudgedRow("Zipf slope, R²", zipf.verdict or "", usual)]
    if stats.verdicts is not None:
        v = stats.verdicts
        rows = [
            _judged("water", v.water, 1, "%"),
            _judged("classic nausea", v.classic_nausea, 2, ""),
            _judged("academic nausea", v.academic_nausea, 1, "%"),
            *rows,
        ]
    return tuple(rows)


@dataclass(frozen=True)
class PhraseRow:
    """A phrase as most often written, its lemmas, count and density."""

    form: str
    phrase: str
    size: int
    count: str
    density: str


def phrase_rows(stats: TextStats) -> tuple[PhraseRow, ...]:
    return tuple(
        PhraseRow(p.form, p.phrase, p.size, _count(p.count), _percent(p.density))
        for p in stats.phrases
    )


@dataclass(frozen=True)
class TargetRow:
    """A target keyword: its use in every form, directly as written, and in which forms."""

    keyword: str
    count: str
    exact: str
    density: str
    forms: str


def target_rows(stats: TextStats) -> tuple[TargetRow, ...]:
    return tuple(
        TargetRow(
            t.keyword,
            _count(t.count),
            _count(t.exact),
            _percent(t.density),
            _forms(t.forms),
        )
        for t in stats.targets
    )


def _forms(forms: Sequence[Form]) -> Figures:
    parts: list[str | Number] = []
    for f in forms:
        parts += [", " if parts else "", f"{f.form} ", count(f.count)]
    return figures(*parts)


def _stuffing_line(found: Stuffing) -> str:
    usual = max(math.floor(found.limit), STUFFING_MIN_COUNT - 1)
    what = "word" if found.kind == "lemma" else "phrase"
    lemmas = f" ({found.text})" if found.text != found.form else ""
    return figures(
        f"stuffed {what} «{found.form}»{lemmas}: ", count(found.count), " times, ",
        percentage(found.density), " of the words; real articles of this length repeat a "
        f"{what} at most ", count(usual), " times",
    )  # fmt: skip


def stuffing_lines(stats: TextStats) -> tuple[str, ...]:
    """One sentence per stuffed lemma or phrase."""
    return tuple(_stuffing_line(found) for found in stats.stuffing)


@dataclass(frozen=True)
class Statistics:
    """The statistics of a text, formatted, or ``note``: why it has none.

    ``rows`` holds every figure as ``(name, value)``, keywords last; ``judged`` the verdicts
    of some of them (by row name); then the phrases, the target keywords and the stuffing
    warnings.
    """

    rows: tuple[tuple[str, str], ...]
    note: str = ""
    judged: tuple[JudgedRow, ...] = ()
    phrases: tuple[PhraseRow, ...] = ()
    targets: tuple[TargetRow, ...] = ()
    warnings: tuple[str, ...] = ()

    def verdict_of(self, name: str) -> JudgedRow | None:
        """The verdict on row ``name``, if it has one."""
        return next((row for row in self.judged if row.name == name), None)


def stats_view(stats: TextStats) -> Statistics:
    return Statistics(
        tuple(stats_rows(stats)),
        judged=judged_rows(stats),
        phrases=phrase_rows(stats),
        targets=target_rows(stats),
        warnings=stuffing_lines(stats),
    )


def statistics(text: str, keywords: Sequence[str] = ()) -> Statistics:
    """The statistics of ``text`` (and its use of ``keywords``), or why there are none."""
    try:
        return stats_view(text_stats(text, keywords=keywords))
    except CanonError as exc:
        return Statistics((), str(exc))
