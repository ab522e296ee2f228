"""Two audits of one site → what changed between them, URL by URL.

An audit is compared with the last one that finished in its folder (kept in ``previous/``,
:mod:`.baseline`), both analysed with the same settings.  A URL is listed once for each change
it shows, of these kinds (:data:`KINDS`, in that order):

- ``new``: a URL the last audit did not hold; ``gone``: one it held that this audit does not;
- ``status``: it answers otherwise (200 then, 404 or a redirect now...);
- ``text``: it answered 200 both times and its main text changed: its canonical words differ,
  and the Jaccard of its shingles then and now is below ``Analysis.changed_below`` (a text that
  appeared or went, or one too short for shingles, has no Jaccard and counts as changed);
- ``duplicated``: in a near-duplicate cluster or an exact-duplicate group now, not then (a new
  page included); ``resolved``: in one then, not now (a gone page included).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..index.store import Index
from .analysis import Findings, analyse, compared_profile
from .baseline import finished_at
from .settings import Analysis
from .state import PageRow, State

__all__ = [
    "CHANGE_COLUMNS",
    "KINDS",
    "Change",
    "Changes",
    "Side",
    "changes_between",
    "changes_since",
    "duplicates_of",
]

KINDS = ("new", "gone", "status", "text", "duplicated", "resolved")
# The columns of ``changes.csv``: a change's fields, its kind as ``change``.
CHANGE_COLUMNS = (
    "url",
    "change",
    "status_before",
    "status_now",
    "words_before",
    "words_now",
    "similarity",
    "duplicate_of",
)


@dataclass(frozen=True)
class Change:
    """One change of one URL; the ``_before`` and ``_now`` values are None where the URL is
    not in that audit."""

    url: str
    kind: str  # one of KINDS
    status_before: int | None
    status_now: int | None
    words_before: int | None
    words_now: int | None
    similarity: float | None = None  # text: the Jaccard of its shingles then and now
    duplicate_of: str | None = None  # duplicated: a page it duplicates now; resolved: then

    def values(self) -> list[Any]:
        """The cells of its row, in the order of :data:`CHANGE_COLUMNS`."""
        return [
            self.url, self.kind, self.status_before, self.status_now, self.words_before,
            self.words_now, self.similarity, self.duplicate_of,
        ]  # fmt: skip


@dataclass(frozen=True)
class Changes:
    """The changes since the last audit, which finished at ``since``."""

    since: str | None
    changes: tuple[Change, ...]

    def counts(self) -> dict[str, int]:
        counted = dict.fromkeys(KINDS, 0)
        for change in self.changes:
            counted[change.kind] += 1
        return counted

    def summary(self) -> dict[str, Any]:
        return {"since": self.since, **self.counts()}


@dataclass(frozen=True)
class Side:
    """One audit as it is compared: its rows in crawl order, a page each duplicated page
    duplicates (:func:`duplicates_of`), and the shingle sets of the pages whose texts are
    compared, under ``profile`` (two sets under other profiles have no Jaccard)."""

    rows: Sequence[PageRow]
    duplicates: Mapping[str, str]
    shingles: Mapping[str, np.ndarray] = field(default_factory=dict)
    profile: str | None = None


def duplicates_of(findings: Findings) -> dict[str, str]:
    """Each page in an exact-duplicate group or a near-duplicate cluster → a page it
    duplicates: the first of its group, or its cluster's representative (for those two, the
    next page of the group, or the representative's closest page in its cluster)."""
    twins: dict[str, str] = {}
    for group in findings.exact_groups:
        for url in group:
            twins[url] = group[0] if url != group[0] else group[1]
    closest = {p.url: p.closest_url for p in findings.pages}
    for cluster in findings.clusters:
        others = [m for m in cluster.members if m != cluster.representative]
        for url in cluster.members:
            if url == cluster.representative:
                near = closest.get(url)
                twins.setdefault(url, near if near in others else others[0])
            else:
                twins.setdefault(url, cluster.representative)
    return twins


def _edited(before: PageRow, now: PageRow) -> bool:
    """Whether a page that answered 200 both times has other canonical words now."""
    answered = before.status == now.status == 200
    return answered and before.canonical_hash != now.canonical_hash


def _jaccard(first: np.ndarray | None, second: np.ndarray | None) -> float | None:
    if first is None or second is None or not (len(first) and len(second)):
        return None
    shared = np.intersect1d(first, second, assume_unique=True).size
    return shared / (len(first) + len(second) - shared)


def _kinds(
    url: str, before: Side, now: Side, old: PageRow | None, new: PageRow | None, below: float
) -> Iterator[tuple[str, float | None, str | None]]:
    """``(kind, similarity, duplicate_of)`` of each change of ``url``."""
    if old is None:
        yield "new", None, None
    elif new is None:
        yield "gone", None, None
    elif old.status != new.status:
        yield "status", None, None
    elif _edited(old, new):
        similar = None
        if before.profile is not None and before.profile == now.profile:
            similar = _jaccard(before.shingles.get(url), now.shingles.get(url))
        if similar is None or similar < below:
            yield "text", similar, None
    if url in now.duplicates and url not in before.duplicates:
        yield "duplicated", None, now.duplicates[url]
    if url in before.duplicates and url not in now.duplicates:
        yield "resolved", None, before.duplicates[url]


def changes_between(
    before: Side, now: Side, changed_below: float = 0.95, since: str | None = None
) -> Changes:
    """What changed from the audit ``before`` to the audit ``now``: by kind, then in the order
    the URLs were found (now, then the gone ones as they were found then)."""
    old = {row.url: row for row in before.rows}
    new = {row.url: row for row in now.rows}
    order = [*new, *(url for url in old if url not in new)]
    found = []
    for position, url in enumerate(order):
        was, got = old.get(url), new.get(url)
        for kind, similarity, twin in _kinds(url, before, now, was, got, changed_below):
            change = Change(
                url, kind,
                was.status if was else None, got.status if got else None,
                was.main_words if was else None, got.main_words if got else None,
                similarity, twin,
            )  # fmt: skip
            found.append((KINDS.index(kind), position, change))
    found.sort(key=lambda item: item[:2])
    return Changes(since, tuple(change for _, _, change in found))


def _compared(
    index: Index, name: str, wanted: set[str]
) -> tuple[str | None, dict[str, np.ndarray]]:
    """The identity of the profile texts are compared under, and the shingle sets of
    ``wanted`` under it."""
    chosen = compared_profile(index, name)
    if chosen is None:
        return None, {}
    sets = {s: h for s, _, h in index.shingle_sets(chosen) if s in wanted} if wanted else {}
    return f"{chosen.fingerprint}/k={chosen.k}/step={chosen.step}", sets


def changes_since(
    previous: Path, index: Index, rows: Sequence[PageRow], findings: Findings, settings: Analysis
) -> Changes:
    """The changes since the audit in the file ``previous`` of the audit whose ``rows`` and
    ``findings`` are made, its texts in ``index``: the last audit is analysed here with the same
    ``settings``."""
    with Index(previous, readonly=True) as old_index, State(previous, readonly=True) as state:
        old_rows = list(state.pages())
        since = finished_at(state)
        old_findings = analyse(old_rows, old_index, settings)
        now_by_url = {row.url: row for row in rows}
        wanted = {
            row.url
            for row in old_rows
            if row.url in now_by_url and _edited(row, now_by_url[row.url])
        }
        old_profile, old_sets = _compared(old_index, settings.profile, wanted)
    new_profile, new_sets = _compared(index, settings.profile, wanted)
    before = Side(old_rows, duplicates_of(old_findings), old_sets, old_profile)
    now = Side(rows, duplicates_of(findings), new_sets, new_profile)
    return changes_between(before, now, settings.changed_below, since)
