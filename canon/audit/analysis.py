"""The crawled pages → findings: duplicates, near duplicates, containment, thin pages, shared
titles; re-run on the stored pages with other settings, never crawling again.

Compared are the indexable pages with a main text (status 200, HTML, not noindex, not
canonicalized to another URL: :mod:`.indexability`; all pages with a main text with
``include_nonindexable``), by their main texts' shingles under the lemma profile, as stored in
the audit's index:

- *exact duplicates*: the same canonical word sequence (the first page found stands for them);
- *near-duplicate clusters*: MinHash + LSH candidates at the threshold, each pair verified by
  exact Jaccard (:func:`canon.dedup.dedup`), clusters their connected components;
- *closest match* of each page and its *containment* (the largest share of its shingles in
  one other page), exact over every pair that shares a shingle (:mod:`.overlap`);
- *thin* pages (fewer than ``min_words`` words of main text), the *template's share* of each
  page (1 − main text words / all visible words), and titles, H1s and descriptions that more
  than one page carries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..dedup import Entry, MinHashSettings, dedup
from ..index.rules import IndexedProfile
from ..index.store import Index
from .indexability import indexability
from .overlap import Overlap, overlaps
from .settings import Analysis
from .state import PageRow

__all__ = ["COLUMNS", "AuditCluster", "Findings", "PageFinding", "analyse", "compared_profile"]


@dataclass(frozen=True)
class PageFinding:
    """One URL of the audit and what was found about it (the columns of ``pages.csv`` first)."""

    url: str
    status: int
    indexable: bool  # what search engines are told: not noindex, not elsewhere, a 200
    not_indexable_reason: str  # why not (:data:`~.indexability.REASONS`), else ""
    canonical: str | None
    title: str | None
    text: str  # the page's main text (:data:`~.indexability.TEXTS`), "" unless a 200
    words: int
    closest_url: str | None
    closest_similarity: float | None
    near_duplicates: int
    exact_duplicate_of: str | None
    cluster: int | None
    containment_max: float | None
    contained_in: str | None  # the page holding most of this one, among the not near duplicates
    contained_share: float | None
    h1: str | None
    description: str | None
    page_words: int
    template_share: float | None
    thin: bool
    compared: bool
    final_url: str | None
    redirects: tuple[tuple[str, int], ...]
    error: str | None

    @property
    def failed(self) -> bool:
        """No answer, an error status (4xx, 5xx), or a page that could not be read."""
        unanswered = self.not_indexable_reason == "error"
        return unanswered or self.status >= 400 or self.text == "unreadable"


COLUMNS = (
    "url",
    "status",
    "indexable",
    "not_indexable_reason",
    "canonical",
    "title",
    "text",
    "words",
    "closest_url",
    "closest_similarity",
    "near_duplicates",
    "exact_duplicate_of",
    "cluster",
    "containment_max",
)


@dataclass(frozen=True)
class AuditCluster:
    """Near-duplicate pages joined by verified pairs ``(a, b, jaccard)``; ``representative`` is
    the page to keep, chosen by the rules of :mod:`canon.dedup.keep` (the least boilerplate,
    then the shortest URL)."""

    number: int
    members: tuple[str, ...]
    representative: str
    pairs: tuple[tuple[str, str, float], ...]

    @property
    def exact(self) -> bool:
        return all(j == 1.0 for _, _, j in self.pairs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cluster": self.number,
            "size": len(self.members),
            "representative": self.representative,
            "members": list(self.members),
            "exact": self.exact,
            "pairs": [[a, b, round(j, 6)] for a, b, j in self.pairs],
        }


@dataclass(frozen=True)
class Findings:
    pages: tuple[PageFinding, ...]
    clusters: tuple[AuditCluster, ...]
    exact_groups: tuple[tuple[str, ...], ...]
    same_titles: dict[str, tuple[str, ...]]
    same_h1: dict[str, tuple[str, ...]]
    same_descriptions: dict[str, tuple[str, ...]]
    settings: Analysis

    def by_url(self) -> dict[str, PageFinding]:
        return {p.url: p for p in self.pages}

    @property
    def thin(self) -> tuple[PageFinding, ...]:
        return tuple(p for p in self.pages if p.thin)

    @property
    def contained(self) -> tuple[PageFinding, ...]:
        """Pages mostly inside another one that is not their near duplicate: a short page
        repeated within a longer one."""
        limit = self.settings.containment
        return tuple(p for p in self.pages if (p.contained_share or 0) >= limit)

    def summary(self) -> dict[str, Any]:
        pages = self.pages
        return {
            "pages": len(pages),
            "fetched": sum(1 for p in pages if p.status),
            "indexable": sum(1 for p in pages if p.indexable),
            "compared": sum(1 for p in pages if p.compared),
            "exact_duplicates": sum(1 for p in pages if p.exact_duplicate_of),
            "near_duplicate_clusters": len(self.clusters),
            "pages_in_clusters": sum(len(c.members) for c in self.clusters),
            "contained": len(self.contained),
            "thin": len(self.thin),
            "same_titles": len(self.same_titles),
            "same_h1": len(self.same_h1),
            "same_descriptions": len(self.same_descriptions),
            "not_indexable": sum(1 for p in pages if p.status and not p.indexable),
            "no_text": sum(1 for p in pages if p.text == "no-text"),
            "errors": sum(1 for p in pages if p.failed),
            "blocked": sum(1 for p in pages if p.not_indexable_reason == "blocked"),
            "threshold": self.settings.threshold,
        }


def _counted(row: PageRow, settings: Analysis) -> bool:
    """Whether the page is compared: a main text, on an indexable page unless all are."""
    if row.status != 200 or indexability(row).text != "main":
        return False
    return settings.include_nonindexable or indexability(row).indexable


def _same(rows: Sequence[PageRow], field: str) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    for row in rows:
        value = getattr(row, field)
        if value:
            groups.setdefault(" ".join(value.split()).casefold(), []).append(row.url)
    return {key: tuple(urls) for key, urls in groups.items() if len(urls) > 1}


def _exact(rows: Sequence[PageRow]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for row in rows:
        if row.canonical_hash and row.main_words:
            groups.setdefault(row.canonical_hash, []).append(row.url)
    return {key: urls for key, urls in groups.items() if len(urls) > 1}


def compared_profile(index: Index, name: str) -> IndexedProfile | None:
    """The profile of ``index`` the pages are compared under: the one named ``name``, else the
    last one built (None: the index has none)."""
    built = index.profiles()
    return next((p for p in built if p.name == name), built[-1]) if built else None


def _shingles(index: Index, profile: str, wanted: set[str]) -> list[Entry]:
    chosen = compared_profile(index, profile)
    if chosen is None:
        return []
    return [Entry(s, h, c) for s, c, h in index.shingle_sets(chosen) if s in wanted]


def _clusters(
    entries: Sequence[Entry], exact: dict[tuple[int, int], float], settings: Analysis
) -> tuple[AuditCluster, ...]:
    """LSH clusters (:func:`canon.dedup.dedup`), each with every pair of its members whose
    exact Jaccard reaches the threshold (not only the pairs LSH happened to propose)."""
    found = dedup(entries, MinHashSettings(settings.threshold, settings.num_perm))
    position = {e.source: i for i, e in enumerate(entries)}
    clusters = []
    for n, cluster in enumerate(found.clusters, 1):
        ranks = sorted(position[m] for m in cluster.members)
        pairs = tuple(
            (entries[a].source, entries[b].source, exact[a, b])
            for a, b in combinations(ranks, 2)
            if (a, b) in exact
        )
        clusters.append(AuditCluster(n, cluster.members, cluster.representative, pairs))
    return tuple(clusters)


@dataclass(frozen=True)
class _Found:
    """What the comparisons found, looked up per page while the findings are put together."""

    entries: list[Entry]
    overlap: Overlap
    clusters: tuple[AuditCluster, ...]
    first_of: dict[str, str]  # an exact duplicate → the first page of its text
    counted: frozenset[str]

    def cluster_of(self) -> dict[str, int]:
        return {url: c.number for c in self.clusters for url in c.members}

    def near(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for cluster in self.clusters:
            for a, b, _ in cluster.pairs:
                counts[a] = counts.get(a, 0) + 1
                counts[b] = counts.get(b, 0) + 1
        return counts


def _page(row: PageRow, found: _Found, position: int | None, **looked_up: Any) -> PageFinding:
    closest, similarity, container, containment, share = _measures(
        found.entries, found.overlap, position
    )
    judged = indexability(row)
    return PageFinding(
        url=row.url,
        status=row.status,
        indexable=judged.indexable,
        not_indexable_reason=judged.reason,
        canonical=row.canonical,
        title=row.title,
        text=judged.text,
        words=row.main_words,
        closest_url=closest,
        closest_similarity=similarity,
        exact_duplicate_of=found.first_of.get(row.url),
        containment_max=containment,
        contained_in=container,
        contained_share=share,
        h1=row.h1,
        description=row.description,
        page_words=row.page_words,
        template_share=_template(row),
        compared=position is not None,
        final_url=row.final_url,
        redirects=tuple(row.chain),
        error=row.error,
        **looked_up,
    )


def analyse(rows: Sequence[PageRow], index: Index, settings: Analysis | None = None) -> Findings:
    """Findings over the pages ``rows`` whose texts ``index`` holds."""
    settings = settings or Analysis()
    counted = [r for r in rows if _counted(r, settings)]
    entries = _shingles(index, settings.profile, {r.url for r in counted})
    overlap = overlaps([e.hashes for e in entries], below=settings.threshold)
    clusters = _clusters(entries, overlap.similar(settings.threshold), settings)
    exact = _exact(counted)
    first_of = {url: urls[0] for urls in exact.values() for url in urls[1:]}
    found = _Found(entries, overlap, clusters, first_of, frozenset(r.url for r in counted))
    position = {e.source: i for i, e in enumerate(entries)}
    cluster_of, near = found.cluster_of(), found.near()
    pages = tuple(
        _page(
            row,
            found,
            position.get(row.url),
            near_duplicates=near.get(row.url, 0),
            cluster=cluster_of.get(row.url),
            thin=row.url in found.counted and row.main_words < settings.min_words,
        )
        for row in rows
    )
    return Findings(
        pages,
        clusters,
        tuple(tuple(urls) for urls in exact.values()),
        _same(counted, "title"),
        _same(counted, "h1"),
        _same(counted, "description"),
        settings,
    )


def _template(row: PageRow) -> float | None:
    if not row.page_words or row.status != 200:
        return None
    return round(max(0.0, 1 - row.main_words / row.page_words), 4)


def _measures(entries: Sequence[Entry], overlap: Overlap, i: int | None) -> tuple[Any, ...]:
    """``(closest url, its Jaccard, container url, containment, contained share)`` of entry
    ``i`` (Nones: the page was not compared)."""
    if i is None:
        return None, None, None, None, None
    closest, container = int(overlap.closest[i]), int(overlap.container[i])
    return (
        entries[closest].source if closest >= 0 else None,
        float(overlap.similarity[i]),
        entries[container].source if container >= 0 else None,
        float(overlap.containment[i]),
        float(overlap.contained[i]),
    )
