"""How unique is a draft against an index: uniqueness, the sources it shares with, fragments.

For each profile of the index, the draft is canonicalized under the same rules and cut into the
same k-word windows.  A window is *borrowed* when its hash is in some indexed (and not
excluded) document; uniqueness is the share of the draft's distinct shingles that are not.
Per source: ``containment`` is the share of the draft's shingles found there, ``jaccard`` the
usual set measure.  Borrowed windows are mapped back to characters of the draft through the
token spans and merged into fragments.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .canonical import Canonical, Fragment, canonicalize
from .errors import IndexFileError, InputError, OptionError, TextTooShort
from .exclusion import Exclusion
from .index.rules import profile_of
from .index.store import Index, IndexedProfile
from .measures import exact_jaccard
from .records import record_dict
from .shingle import window_hashes
from .sketch import estimate_jaccard, signature
from .text.quotes import quoted_ranges

__all__ = [
    "CheckResult",
    "Fragment",
    "ProfileCheck",
    "SimilarDocument",
    "SourceMatch",
    "check",
]


@dataclass(frozen=True)
class SourceMatch:
    source: str
    title: str | None
    shared: int
    containment: float
    jaccard: float
    source_shingles: int

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class SimilarDocument:
    """An indexed document near the whole draft: estimated (MinHash) and exact Jaccard."""

    source: str
    title: str | None
    estimated: float
    jaccard: float

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class ProfileCheck:
    profile: str
    fingerprint: str
    k: int
    draft_words: int
    draft_shingles: int
    borrowed: int
    sources: tuple[SourceMatch, ...]
    fragments: tuple[Fragment, ...]
    quoted_shingles: int = 0
    similar: tuple[SimilarDocument, ...] | None = None
    word_for_word: bool = False  # the profile's matches are copies, not rewrites

    @property
    def uniqueness(self) -> float:
        return 1 - self.borrowed / self.draft_shingles

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "fingerprint": self.fingerprint,
            "k": self.k,
            "uniqueness": self.uniqueness,
            "draft_words": self.draft_words,
            "draft_shingles": self.draft_shingles,
            "borrowed_shingles": self.borrowed,
            "quoted_shingles": self.quoted_shingles,
            "sources": [s.to_dict() for s in self.sources],
            "fragments": [[f.start, f.end] for f in self.fragments],
            "similar": None if self.similar is None else [d.to_dict() for d in self.similar],
        }


@dataclass(frozen=True)
class CheckResult:
    text: str
    profiles: tuple[ProfileCheck, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {"profiles": [p.to_dict() for p in self.profiles]}


def _windows_in_quotes(
    spans: Sequence[tuple[int, int]], k: int, step: int, count: int, quotes: list[tuple[int, int]]
) -> np.ndarray:
    """Which of the ``count`` windows hold a token inside a quotation: O((n + q) log q)."""
    if not quotes or not spans:
        return np.zeros(count, dtype=bool)
    ordered = sorted(quotes)
    starts = np.array([q[0] for q in ordered])
    reach = np.maximum.accumulate(np.array([q[1] for q in ordered]))
    token = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    # A token is inside some quotation when, of the quotations starting at or before it, the
    # one reaching furthest ends at or after it.
    owner = np.searchsorted(starts, token[:, 0], side="right") - 1
    inside = (owner >= 0) & (token[:, 1] <= reach[np.maximum(owner, 0)])
    covered = np.concatenate(([0], np.cumsum(inside)))
    first = np.arange(count) * step
    return (covered[first + k] - covered[first]) > 0


def _similar(
    index: Index,
    indexed: IndexedProfile,
    hashes: np.ndarray,
    threshold: float,
    exclude: Exclusion,
) -> tuple[SimilarDocument, ...]:
    """Near-duplicates of the whole draft: LSH candidates, verified by exact Jaccard."""
    mine = signature(hashes, indexed.num_perm, indexed.seed)
    candidates = index.similar(indexed, mine)
    names = index.sources(doc for doc, _, _ in candidates)
    found = []
    for doc, theirs, their_hashes in candidates:
        source, title = names[doc]
        exact = exact_jaccard(hashes, their_hashes)
        if exact >= threshold and not exclude(source):
            found.append(SimilarDocument(source, title, estimate_jaccard(mine, theirs), exact))
    return tuple(sorted(found, key=lambda d: (-d.jaccard, d.source)))


@dataclass(frozen=True)
class _Draft:
    """The draft's windows under one index profile: hashes, which count, which were quoted."""

    canonical: Canonical
    hashes: np.ndarray  # every window in order
    keep: np.ndarray  # kept by sampling and not inside quotations
    distinct: np.ndarray  # the kept hashes, sorted, each once
    quoted: int  # distinct shingles found only inside quotations


def _draft(text: str, indexed: IndexedProfile, skip_quotes: bool) -> _Draft:
    canonical = canonicalize(text, profile_of(indexed))
    k, step = indexed.k, indexed.step
    hashes = window_hashes(canonical.tokens, k, step)
    if len(hashes) == 0:
        raise TextTooShort(len(canonical), k, "draft")
    keep = hashes % np.uint64(indexed.sample) == 0
    quoted = 0
    if skip_quotes:
        inside = _windows_in_quotes(canonical.spans, k, step, len(hashes), quoted_ranges(text))
        quoted = len(np.setdiff1d(hashes[inside & keep], hashes[~inside & keep]))
        keep &= ~inside
    distinct = np.unique(hashes[keep])
    if len(distinct) == 0:
        sampled = indexed.sample > 1
        reason = (
            f"none of its {len(hashes)} shingles is kept by the index's 1/{indexed.sample} sampling"
            if sampled
            else "all its shingles are inside quotations"
        )
        raise InputError(
            f"the draft cannot be checked under {indexed.name}: {reason}",
            source="draft",
            reason="sampling" if sampled else "all-quoted",
        )
    return _Draft(canonical, hashes, keep, distinct, quoted)


Names = dict[int, tuple[str, str | None]]


def _postings(
    index: Index,
    indexed: IndexedProfile,
    distinct: np.ndarray,
    exclude: Exclusion,
    max_postings: int | None,
) -> tuple[list[tuple[int, int]], set[int], Names]:
    """``(hash, doc)`` rows of the sources not excluded, the hashes too common to credit, and
    the names of the documents looked up so far."""
    rows, frequent = index.postings(indexed, distinct, max_postings)
    names: Names = {}
    if exclude:
        names = index.sources({doc for _, doc in rows})
        allowed = {doc for doc, (source, _) in names.items() if not exclude(source)}
        rows = [(h, doc) for h, doc in rows if doc in allowed]
    return rows, frequent, names


def _top_sources(
    index: Index, indexed: IndexedProfile, shared: Counter[int], names: Names, n: int, top: int
) -> tuple[SourceMatch, ...]:
    """The ``top`` sources by shared shingles; details are fetched only for those that can
    make the list."""
    counts = sorted(shared.values(), reverse=True)
    cutoff = counts[top - 1] if len(counts) >= top else 1
    detailed = [doc for doc, count in shared.items() if count >= cutoff]
    names.update(index.sources(doc for doc in detailed if doc not in names))
    sizes = index.shingle_counts(indexed, detailed)
    matches = sorted(
        (
            SourceMatch(
                names[doc][0], names[doc][1], count, count / n,
                count / (n + sizes[doc] - count), sizes[doc],
            )
            for doc, count in shared.items()
            if doc in sizes
        ),
        key=lambda m: (-m.shared, -m.jaccard, m.source),
    )  # fmt: skip
    return tuple(matches[:top])


def _check_profile(
    text: str,
    index: Index,
    indexed: IndexedProfile,
    exclude: Exclusion,
    skip_quotes: bool,
    top: int,
    similar: float | None,
    max_postings: int | None,
) -> ProfileCheck:
    draft = _draft(text, indexed, skip_quotes)
    rows, frequent, names = _postings(index, indexed, draft.distinct, exclude, max_postings)
    borrowed = {h for h, _ in rows} | frequent
    n = len(draft.distinct)
    matches = _top_sources(index, indexed, Counter(doc for _, doc in rows), names, n, top)
    found = np.fromiter(borrowed, dtype=np.int64, count=len(borrowed))
    hit = draft.keep & np.isin(draft.hashes.view(np.int64), found)
    fragments = draft.canonical.fragments(np.flatnonzero(hit) * indexed.step, indexed.k)
    near = None if similar is None else _similar(index, indexed, draft.distinct, similar, exclude)
    return ProfileCheck(
        indexed.name,
        indexed.fingerprint,
        indexed.k,
        len(draft.canonical),
        n,
        len(borrowed),
        matches,
        fragments,
        draft.quoted,
        near,
        draft.canonical.profile.word_for_word,
    )


def check(
    text: str,
    index: Index,
    *,
    profiles: Sequence[str] | None = None,
    exclude: Sequence[str] = (),
    skip_quotes: bool = False,
    top: int = 10,
    similar: float | None = None,
    max_postings: int | None = 1000,
) -> CheckResult:
    """Check ``text`` against ``index`` under each of its profiles (or the ones named).

    With ``similar``, also list the indexed documents whose whole shingle set has Jaccard at
    least ``similar`` with the draft's: LSH candidates, verified exactly.

    A shingle held by more than ``max_postings`` indexed documents is a set phrase: it counts
    as borrowed, but is credited to no source (it identifies none), which keeps a check fast
    however large the index.  ``max_postings=None`` credits every shingle.
    """
    available = index.profiles()
    if not available:
        raise IndexFileError(
            f"{index.path}: the index is empty; add documents first",
            path=index.path,
            reason="empty",
        )
    chosen = available
    if profiles:
        by_name = {p.name: p for p in available}
        unknown = [name for name in profiles if name not in by_name]
        if unknown:
            built = ", ".join(f"{p.name} ({p.fingerprint}, k={p.k})" for p in available)
            raise IndexFileError(
                f"{index.path}: was built with {built}, not with {unknown[0]}: "
                "check with the index's profiles or build another index",
                path=index.path,
                reason="rules",
            )
        chosen = [by_name[name] for name in profiles]
    excluder = Exclusion(exclude)
    if similar is not None and not 0 < similar <= 1:
        raise OptionError("similar", f"must be a Jaccard in (0, 1], got {similar}", value=similar)
    results = tuple(
        _check_profile(text, index, p, excluder, skip_quotes, top, similar, max_postings)
        for p in chosen
    )
    return CheckResult(text, results)
