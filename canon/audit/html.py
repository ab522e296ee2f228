"""An audit's findings (and its changes since the last audit) → one self-contained HTML report,
from the web's Jinja templates.

The page (``audit.html``) is rendered standalone, as every canon report
(:mod:`canon.report.html`): CSS
inlined, every value autoescaped, nothing loaded from anywhere; a few lines of inline script
sort a table when its header is clicked.  Each near-duplicate cluster shows its pages beside
its representative with the differences marked: the runs of each text that the other does not
share, drawn through the spans of canon's canonical forms (:func:`~canon.comparison.
shared_fragments`, :func:`~canon.report.model.runs_of`), so they fall on the texts as found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..canonical import canonicalize
from ..comparison import shared_fragments
from ..profile import get_profile
from ..report.html import language, render
from ..report.language import command_line_locale
from ..report.model import Run, runs_of
from .analysis import COLUMNS, AuditCluster, Findings
from .changes import Changes

__all__ = ["ClusterView", "Difference", "audit_html", "difference_runs"]

SHOWN_CLUSTERS = 100  # clusters drawn with their texts; all of them are in the tables
SHOWN_MEMBERS = 10  # pages of one cluster drawn beside its representative


@dataclass(frozen=True)
class Difference:
    """One page of a cluster beside the representative: each text cut into runs, those the
    other text does not share marked."""

    url: str
    similarity: float | None
    runs: tuple[Run, ...]
    representative_runs: tuple[Run, ...]


@dataclass(frozen=True)
class ClusterView:
    cluster: AuditCluster
    differences: tuple[Difference, ...]
    hidden: int


def difference_runs(
    first: str, second: str, profile: str = "raw", k: int = 4
) -> tuple[tuple[Run, ...], tuple[Run, ...]]:
    """Both texts cut into runs; the runs shared with the other text are marked ``exact``,
    the rest (the differences) are plain.  Word for word (``raw``) by default: a reader
    looks for the words that differ, and no stop word is left out of the marks."""
    chosen = get_profile(profile)
    one, two = canonicalize(first, chosen), canonicalize(second, chosen)
    frags = shared_fragments(one, two, k) if len(one) >= k and len(two) >= k else ((), ())
    return runs_of(first, [(True, frags[0])]), runs_of(second, [(True, frags[1])])


def _similarity(cluster: AuditCluster, url: str) -> float | None:
    for a, b, j in cluster.pairs:
        if {a, b} == {url, cluster.representative}:
            return j
    return None


def _cluster_view(cluster: AuditCluster, texts: Mapping[str, str]) -> ClusterView:
    base = texts.get(cluster.representative, "")
    others = [m for m in cluster.members if m != cluster.representative]
    differences = []
    for url in others[:SHOWN_MEMBERS]:
        mine, theirs = difference_runs(texts.get(url, ""), base)
        differences.append(Difference(url, _similarity(cluster, url), mine, theirs))
    return ClusterView(cluster, tuple(differences), max(0, len(others) - SHOWN_MEMBERS))


def _origin(starts: Sequence[str]) -> str:
    """The scheme and host of the audited site (``https://example.ru``), or ``""``."""
    parts = urlsplit(starts[0]) if starts else None
    return f"{parts.scheme}://{parts.netloc}" if parts and parts.netloc else ""


def audit_html(
    findings: Findings,
    texts: Mapping[str, str],
    context: Mapping[str, Any],
    changes: Changes | None = None,
    locale: str | None = None,
) -> str:
    """The report: summary, the changes since the last audit (when there was one), the pages
    table (sortable), each finding, each cluster's differences.  ``texts`` are the main texts
    by URL; ``context`` names the audit (its starts, when it ran).  In ``locale``'s language
    (``None``: the environment's, as the command line speaks it); a URL of the audited site is
    shown by its path, the whole URL in its tooltip."""
    clusters = [_cluster_view(c, texts) for c in findings.clusters[:SHOWN_CLUSTERS]]
    return render(
        "audit.html",
        findings=findings,
        summary=findings.summary(),
        columns=COLUMNS,
        clusters=clusters,
        hidden_clusters=max(0, len(findings.clusters) - SHOWN_CLUSTERS),
        audit=dict(context),
        changes=changes,
        origin=_origin(list(context.get("starts", ()))),
        **language(locale or command_line_locale()),
    )
