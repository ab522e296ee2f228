"""A result → what a person is shown: highlighted runs and formatted rows, for every renderer.

Pure data, no rich, click or Jinja: the terminal (:mod:`canon.report.terminal`), the HTML
reports (:mod:`canon.report.html`) and the web pages all draw these records, so each number,
label and highlight is worked out once.

- ``highlights``: levels (``EXACT``, ``REWRITE``) and :class:`Run` s of a text, twin ids of a
  comparison's marks, the fragment k and the per-profile shared fragments of a table;
- ``rows``: metric rows of a table, uniqueness rows of a check, documents, profiles and their
  description;
- ``stats``: text statistics: figures, verdicts, keywords, phrases, targets, warnings;
- ``views``: :class:`CompareView` and :class:`CheckView`, all of one result at once.
"""

from .highlights import (
    EXACT,
    REWRITE,
    Groups,
    Level,
    Run,
    Window,
    check_runs,
    compare_runs,
    fragment_groups,
    fragment_k,
    level_runs,
    runs_of,
    shared_windows,
    twin_ids,
)
from .rows import (
    METRICS,
    DocumentRow,
    MetricCell,
    MetricRow,
    NearRow,
    ProfileRow,
    SourceRow,
    TrickRow,
    UniquenessRow,
    VerdictRow,
    describe,
    document_row,
    method_label,
    metric_rows,
    percent,
    profile_rows,
    trick_rows,
    uniqueness_rows,
    verdict_row,
)
from .stats import (
    JudgedRow,
    PhraseRow,
    Statistics,
    TargetRow,
    judged_rows,
    phrase_rows,
    statistics,
    stats_rows,
    stats_view,
    stuffing_lines,
    target_rows,
)
from .views import CheckView, CompareView, SourceView, check_view, compare_view

__all__ = [
    "EXACT",
    "METRICS",
    "REWRITE",
    "CheckView",
    "CompareView",
    "DocumentRow",
    "Groups",
    "JudgedRow",
    "Level",
    "MetricCell",
    "MetricRow",
    "NearRow",
    "PhraseRow",
    "ProfileRow",
    "Run",
    "SourceRow",
    "SourceView",
    "Statistics",
    "TargetRow",
    "TrickRow",
    "UniquenessRow",
    "VerdictRow",
    "Window",
    "check_runs",
    "check_view",
    "compare_runs",
    "compare_view",
    "describe",
    "document_row",
    "fragment_groups",
    "fragment_k",
    "judged_rows",
    "level_runs",
    "method_label",
    "metric_rows",
    "percent",
    "phrase_rows",
    "profile_rows",
    "runs_of",
    "shared_windows",
    "statistics",
    "stats_rows",
    "stats_view",
    "stuffing_lines",
    "target_rows",
    "trick_rows",
    "twin_ids",
    "uniqueness_rows",
    "verdict_row",
]
