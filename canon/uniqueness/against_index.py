"""A draft and an index → one uniqueness verdict, its sources with their fragments, details.

For each profile of the index, the draft is canonicalized under the same rules and cut into the
same k-word windows, and its shingles are looked up.  The per-profile figures are exact:
``uniqueness`` is the share of the draft's distinct shingles found in no indexed (and not
excluded) document; per source, ``containment`` is the share of the draft's shingles found
there and ``jaccard`` the usual set measure.  Sources that explain too little of the draft and
set phrases make no fragments (:mod:`canon.uniqueness.attribution`); the fragments of word-for-word
profiles are *copied* text, those of the other profiles *rewritten* text, and the verdict
(:mod:`canon.uniqueness.verdict`) weighs them over the draft's characters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..canonical import Canonical, Fragment, canonicalize
from ..errors import IndexFileError, InputError, TextTooShort
from ..fingerprints.measures import exact_jaccard
from ..fingerprints.minhash import estimate_jaccard, signature
from ..fingerprints.shingles import window_hashes
from ..index.rules import profile_of
from ..index.store import Index, IndexedProfile
from ..records import record_dict
from ..text.quotes import quoted_ranges
from ..text.sentences import Spans
from ..text.tricks import Trick
from .attribution import Attribution, attribute, fragment_owners, passages, windows_of
from .evidence import MIN_RUN_WORDS, backing, short_runs, supported, words_in
from .exclusion import Exclusion
from .rewrites import Rewrite, find_rewrites
from .settings import CheckSettings
from .verdict import Verdict, counted, nothing_left, outside, ranges_mask, verdict_of

__all__ = [
    "CheckResult",
    "Fragment",
    "ProfileCheck",
    "SimilarDocument",
    "SourceMatch",
    "check",
    "verdict_over",
]


class _Deferred:
    """A value worked out the first time it is asked for (see :class:`_OnAccess`)."""

    def __init__(self, make: Callable[[], tuple[Fragment, ...] | None]) -> None:
        self.make = make


class _OnAccess:
    """A dataclass field whose value may be given as a :class:`_Deferred`: read, it is the
    value worked out then (once), so an instance equals, prints and serializes as if it had
    been given the value itself."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}"

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return None  # the field's default
        value = instance.__dict__[self.slot]
        if isinstance(value, _Deferred):
            value = value.make()
            instance.__dict__[self.slot] = value
        return value

    def __set__(self, instance: object, value: object) -> None:
        instance.__dict__[self.slot] = value


@dataclass(frozen=True)
class SourceMatch:
    """An indexed source that explains part of the draft.

    ``shared``, ``containment`` and ``jaccard`` are the exact shingle measures; ``fragments``
    are the draft's character ranges this source holds, and ``passages`` the ranges of the
    source's own text they come from (``None`` when the index does not store its text).
    A check works the passages out when they are first read: canonicalizing a source's text
    again is most of the cost of a listed source.
    """

    source: str
    title: str | None
    shared: int
    containment: float
    jaccard: float
    source_shingles: int
    fragments: tuple[Fragment, ...] = ()
    passages: tuple[Fragment, ...] | None = _OnAccess()  # type: ignore[assignment]  # read: the value
    text: str | None = field(default=None, repr=False)  # the source's stored text

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_passages": self.passages}

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain data; passages also as the source's words (``excerpts``)."""
        text = self.text if self.passages is not None else None
        excerpts = (
            [text[f.start : f.end] for f in self.passages or ()] if text is not None else None
        )
        return record_dict(
            self,
            exclude=("fragments", "passages", "text"),
            fragments=_ranges(self.fragments),
            passages=_ranges(self.passages) if self.passages is not None else None,
            excerpts=excerpts,
        )


def _ranges(fragments: Sequence[Fragment]) -> list[list[int]]:
    return [[f.start, f.end] for f in fragments]


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
    """The draft under one profile of the index.

    ``uniqueness`` and ``borrowed`` are the exact shingle measures (a set phrase counts as
    borrowed).  ``fragments`` are the ranges explained by listed-worthy sources,
    ``fragment_sources`` the indices into ``sources`` of the sources of each fragment,
    ``set_phrases`` the ranges found only as set phrases, ``left_out`` the ranges found only
    in excluded sources.
    """

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
    fragment_sources: tuple[tuple[int, ...], ...] = ()
    set_phrases: tuple[Fragment, ...] = ()
    left_out: tuple[Fragment, ...] = ()
    tricks: tuple[Trick, ...] = ()

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
            "fragments": _ranges(self.fragments),
            "fragment_sources": [list(owners) for owners in self.fragment_sources],
            "set_phrases": _ranges(self.set_phrases),
            "similar": None if self.similar is None else [d.to_dict() for d in self.similar],
        }


@dataclass(frozen=True)
class CheckResult:
    """A draft's check: the verdict, the tricks repaired, and the details per profile."""

    text: str
    profiles: tuple[ProfileCheck, ...] = field(default=())
    verdict: Verdict | None = None
    tricks: tuple[Trick, ...] = ()
    rewrites: tuple[Rewrite, ...] = ()  # draft sentences rewritten from indexed ones
    texts: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    """The stored texts of the sources named, by source (for passages beside the draft)."""

    def with_unseen(self, unseen: Sequence[str]) -> CheckResult:
        """The check with the words that no reader of the draft sees (hidden elements of an
        HTML draft, hidden runs of a .docx: :attr:`Document.unseen`, left out of ``text``)
        first among its tricks, as ``hidden`` at 0: they have no place in the text read."""
        hidden = tuple(Trick("hidden", 0, 0, words, "") for words in unseen)
        return replace(self, tricks=hidden + self.tricks) if hidden else self

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": None if self.verdict is None else self.verdict.to_dict(),
            "tricks": [t.to_dict() for t in self.tricks],
            "rewrites": [r.to_dict() for r in self.rewrites],
            "profiles": [p.to_dict() for p in self.profiles],
        }


def _windows_in_quotes(
    spans: Sequence[tuple[int, int]], k: int, step: int, count: int, quotes: list[tuple[int, int]]
) -> np.ndarray:
    """Which of the ``count`` windows lie wholly inside quotations: O((n + q) log q).  A
    window reaching out of a quotation is kept, so that a short quoted name inside a copied
    sentence leaves the sentence's run whole (the quotation's own characters are left out of
    the count by the verdict)."""
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
    wholly: np.ndarray = (covered[first + k] - covered[first]) == k
    return wholly


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


def _draft(text: str, indexed: IndexedProfile, skip_quotes: bool, name: str) -> _Draft:
    canonical = canonicalize(text, profile_of(indexed))
    k, step = indexed.k, indexed.step
    hashes = window_hashes(canonical.tokens, k, step)
    if len(hashes) == 0:
        raise TextTooShort(len(canonical), k, name)
    keep = indexed.kept(hashes)
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
            f"{name} cannot be checked under {indexed.name}: {reason}",
            source=name,
            reason="sampling" if sampled else "all-quoted",
        )
    return _Draft(canonical, hashes, keep, distinct, quoted)


Names = dict[int, tuple[str, str | None]]
Rows = list[tuple[int, int]]

_PASSAGE_SOURCES = 50  # sources whose own passages are worked out, at most


@dataclass(frozen=True)
class _Found:
    """What the index holds of the draft's shingles under one profile."""

    rows: Rows  # (hash, doc) of the sources not excluded
    excluded: Rows  # (hash, doc) of the excluded sources
    frequent: set[int]  # set phrases: hashes in more than ``common`` documents
    names: Names  # the documents named so far


def _postings(
    index: Index,
    indexed: IndexedProfile,
    distinct: np.ndarray,
    exclude: Exclusion,
    common: int | None,
) -> _Found:
    rows, frequent = index.postings(indexed, distinct, common)
    names: Names = {}
    excluded: Rows = []
    if exclude:
        names = index.sources({doc for _, doc in rows})
        allowed = {doc for doc, (source, _) in names.items() if not exclude(source)}
        excluded = [(h, doc) for h, doc in rows if doc not in allowed]
        rows = [(h, doc) for h, doc in rows if doc in allowed]
    return _Found(rows, excluded, frequent, names)


def _top_sources(
    index: Index, indexed: IndexedProfile, explained: Attribution, names: Names, n: int, top: int
) -> list[tuple[int, SourceMatch]]:
    """The ``top`` explaining sources by shared shingles, with their measures; details are
    fetched only for those that can make the list."""
    shared = {doc: len(hashes) for doc, hashes in explained.shared.items()}
    counts = sorted(shared.values(), reverse=True)
    cutoff = counts[top - 1] if len(counts) >= top else 1
    detailed = [doc for doc, count in shared.items() if count >= cutoff]
    names.update(index.sources(doc for doc in detailed if doc not in names))
    sizes = index.shingle_counts(indexed, detailed)
    matches = sorted(
        (
            (doc, SourceMatch(
                names[doc][0], names[doc][1], count, count / n,
                count / (n + sizes[doc] - count), sizes[doc],
            ))
            for doc, count in shared.items()
            if doc in sizes
        ),
        key=lambda item: (-item[1].shared, -item[1].jaccard, item[1].source),
    )  # fmt: skip
    return matches[:top]


class _Texts:
    """The stored texts of one check's sources, each read from the index once, whichever
    profile or the sentence measure asks for it."""

    def __init__(self, index: Index) -> None:
        self._index = index
        self._read: dict[int, str | None] = {}

    def get(self, docs: Iterable[int]) -> dict[int, str]:
        wanted = list(dict.fromkeys(docs))
        missing = [doc for doc in wanted if doc not in self._read]
        if missing:
            stored = self._index.texts(missing)
            self._read.update({doc: stored.get(doc) for doc in missing})
        return {doc: text for doc in wanted if (text := self._read[doc]) is not None}


def _with_fragments(
    texts: _Texts,
    indexed: IndexedProfile,
    draft: _Draft,
    explained: Attribution,
    listed: list[tuple[int, SourceMatch]],
) -> tuple[SourceMatch, ...]:
    """The listed sources with their fragments in the draft and passages in their text."""
    stored = texts.get(doc for doc, _ in listed[:_PASSAGE_SOURCES])
    result = []
    for doc, match in listed:
        hashes = explained.shared[doc]
        own = _ranges_of(draft, indexed, hashes)
        text = stored.get(doc)
        theirs = _passages_of(text, indexed, hashes) if text is not None else None
        # passages may be a _Deferred, worked out when first read (see _OnAccess)
        result.append(replace(match, fragments=own, passages=theirs, text=text))  # type: ignore[arg-type]
    return tuple(result)


def _passages_of(text: str, indexed: IndexedProfile, hashes: np.ndarray) -> _Deferred:
    return _Deferred(lambda: passages(text, indexed, hashes))


def _ranges_of(draft: _Draft, indexed: IndexedProfile, found: np.ndarray) -> tuple[Fragment, ...]:
    starts = windows_of(draft.hashes, draft.keep, found) * indexed.step
    return draft.canonical.fragments(starts, indexed.k)


def _elsewhere(draft: _Draft, found: _Found, explained: Attribution, run: _Run) -> np.ndarray:
    """The draft's hashes found only in excluded sources (that explain enough of it); a
    draft made of nothing else is refused."""
    frequent = np.fromiter(found.frequent, dtype=np.int64, count=len(found.frequent))
    known = np.union1d(explained.credited, frequent.view(np.uint64))
    elsewhere = np.setdiff1d(attribute(found.excluded, run.settings.min_shared).credited, known)
    if len(elsewhere) and np.isin(draft.distinct, elsewhere).all():
        raise nothing_left(run.name)
    return elsewhere


def _check_profile(
    text: str,
    index: Index,
    indexed: IndexedProfile,
    run: _Run,
) -> tuple[ProfileCheck, Canonical]:
    settings = run.settings
    draft = _draft(text, indexed, settings.skip_quotes, run.name)
    found = _postings(index, indexed, draft.distinct, run.exclusion, settings.common)
    borrowed = {h for h, _ in found.rows} | found.frequent
    n = len(draft.distinct)
    explained = attribute(found.rows, settings.min_shared)
    elsewhere = _elsewhere(draft, found, explained, run)
    listed = _top_sources(index, indexed, explained, found.names, n, settings.top)
    sources = _with_fragments(run.texts, indexed, draft, explained, listed)
    fragments = _ranges_of(draft, indexed, explained.credited)
    # Set phrases never reach the rows, so no source is credited with one.
    phrases = np.fromiter(found.frequent, dtype=np.int64, count=len(found.frequent))
    near = None
    if settings.similar is not None:
        near = _similar(index, indexed, draft.distinct, settings.similar, run.exclusion)
    return ProfileCheck(
        indexed.name,
        indexed.fingerprint,
        indexed.k,
        len(draft.canonical),
        n,
        len(borrowed),
        sources,
        fragments,
        draft.quoted,
        near,
        draft.canonical.profile.word_for_word,
        fragment_owners(fragments, [s.fragments for s in sources]),
        _ranges_of(draft, indexed, phrases.view(np.uint64)),
        _ranges_of(draft, indexed, elsewhere),
        draft.canonical.tricks,
    ), draft.canonical


@dataclass(frozen=True)
class _Run:
    """One check under way: its settings, the draft's name, the exclusion built from the
    settings, and the sources' stored texts, read once per check."""

    settings: CheckSettings
    name: str
    exclusion: Exclusion
    texts: _Texts


def _chosen(index: Index, profiles: Sequence[str] | None) -> list[IndexedProfile]:
    """The index's profiles, or the ones named; an empty index or an unknown name refused."""
    available = index.profiles()
    if not available:
        raise IndexFileError(
            f"{index.path}: the index is empty; add documents first",
            path=index.path,
            reason="empty",
        )
    if not profiles:
        return available
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
    return [by_name[name] for name in profiles]


def _formula(
    profiles: Sequence[ProfileCheck], settings: CheckSettings, sentence_profile: str | None
) -> str:
    def named(checks: list[ProfileCheck]) -> str:
        return ", ".join(f"{p.profile} ({p.fingerprint}, k={p.k})" for p in checks) or "none"

    exact = [p for p in profiles if p.word_for_word]
    inexact = [p for p in profiles if not p.word_for_word]
    common = "" if settings.common is None else f"; a shingle in more than {settings.common} "
    common += "indexed documents is a set phrase and counts for none" if common else ""
    sentences = ""
    if sentence_profile is not None:
        sentences = (
            " or anywhere in a sentence rewritten from a source's (IDF-weighted Dice of their "
            f"content lemmas, read as synonym classes, under {sentence_profile} at least "
            f"{settings.sentence_threshold:g})"
        )
    return (
        "uniqueness = 1 − copied − rewritten, as shares of the draft's letters and digits; "
        f"copied: inside shingles matched word for word under {named(exact)}"
        f"{', outside rewritten sentences' if sentences else ''}; "
        f"rewritten: inside shingles matched only under {named(inexact)}{sentences}; "
        f"a source counts when it holds at least {settings.min_shared} of the draft's shingles"
        f"{' or a sentence' if sentences else ''}{common}"
    )


def _by_source(checks: Sequence[ProfileCheck]) -> dict[str, list[Fragment]]:
    """Each listed source's shingle fragments, over the profiles, by name."""
    found: dict[str, list[Fragment]] = {}
    for match in (m for p in checks for m in p.sources):
        found.setdefault(match.source, []).extend(match.fragments)
    return found


def verdict_over(
    text: str,
    checks: Sequence[ProfileCheck],
    rewrites: Sequence[Rewrite],
    weak: Sequence[Rewrite] = (),
    *,
    skip_quotes: bool,
    name: str,
    formula: str,
    joined: Spans = (),
) -> Verdict:
    """The verdict on ``text`` from the fragments of its profile checks and the sentences
    found rewritten (``weak``: found, but too weakly to count); with ``skip_quotes``
    quotations are left out, matched or not.  ``joined``: the words its canonical form read
    whole (:attr:`~canon.canonical.Canonical.joined`), for its sentences as read."""
    quotes = quoted_ranges(text) if skip_quotes else []
    left_out: list[Fragment | tuple[int, int]] = [f for p in checks for f in p.left_out]
    left_out += quotes  # and no match reaches into them: a skipped quotation never counts
    size = len(text)
    copied = outside((f for p in checks if p.word_for_word for f in p.fragments), quotes, size)
    rewritten = outside((f for p in checks if not p.word_for_word for f in p.fragments), quotes,
                        size)  # fmt: skip
    sentences = outside((Fragment(r.start, r.end) for r in rewrites), quotes, size)
    backed = backing(text, rewrites, _by_source(checks))
    return verdict_of(
        text,
        name=name,
        copied=copied,
        rewritten=rewritten,
        sentences=sentences,
        uncounted=[
            *short_runs(text, copied + rewritten, sentences, backed, joined),
            *(Fragment(r.start, r.end) for r in weak),
        ],
        left_out=left_out,
        formula=formula,
    )


def check(
    text: str, index: Index, settings: CheckSettings = CheckSettings(), *, name: str = "draft"
) -> CheckResult:
    """Check ``text`` against ``index`` under each of its profiles (or those ``settings``
    names): one verdict over the draft's characters, the tricks repaired, and the details per
    profile.

    A source counts when it holds at least ``settings.min_shared`` of the draft's shingles;
    a shingle held by more than ``settings.common`` indexed documents is a set phrase, which
    keeps a check fast however large the index; a draft sentence is rewritten from a source
    sentence when their content lemmas match with IDF-weighted Dice at least
    ``settings.sentence_threshold``, whatever the word order (:mod:`canon.uniqueness.rewrites`);
    with ``settings.similar``, the indexed documents near the whole draft are listed too (LSH
    candidates, verified exactly).  See :class:`~canon.uniqueness.settings.CheckSettings`.
    ``name`` is how messages name the draft (its file or URL).
    """
    chosen = _chosen(index, settings.profiles)
    run = _Run(settings, name, Exclusion(settings.exclude), _Texts(index))
    done = [_check_profile(text, index, p, run) for p in chosen]
    checks = tuple(c for c, _ in done)
    # The sentence measure runs under the first profile with morphology, when it is on.
    measured = [(p, c) for p, (_, c) in zip(chosen, done) if c.profile.morphology != "none"]
    if settings.sentence_threshold is None:
        measured = []
    found = _rewrites(text, index, *measured[0], run, checks) if measured else ()
    long = {
        name: [f for f in fragments if words_in(text, f) >= MIN_RUN_WORDS]
        for name, fragments in _by_source(checks).items()
    }
    joined = next((c.joined for _, c in done if c.joined), ())
    rewrites, weak = supported(text, found, long, joined)
    tricks = tuple(sorted({t for p in checks for t in p.tricks}, key=_trick_order))
    formula = _formula(checks, settings, measured[0][0].name if measured else None)
    verdict = verdict_over(
        text,
        checks,
        rewrites,
        weak,
        skip_quotes=settings.skip_quotes,
        name=name,
        formula=formula,
        joined=joined,
    )
    texts = _texts(run.texts, checks, rewrites)
    return CheckResult(text, checks, verdict, tricks, rewrites, texts)


def _rewrites(
    text: str,
    index: Index,
    indexed: IndexedProfile,
    canonical: Canonical,
    run: _Run,
    checks: Sequence[ProfileCheck],
) -> tuple[Rewrite, ...]:
    """The draft's sentences rewritten from indexed ones, among those the shingles left
    unexplained; with ``skip_quotes``, a sentence mostly inside quotations is left out."""
    threshold = run.settings.sentence_threshold
    assert threshold is not None
    counts = counted(text)
    matched = ranges_mask(len(text), (f for p in checks for f in p.fragments))
    found = find_rewrites(
        canonical,
        index,
        indexed,
        run.exclusion,
        threshold=threshold,
        unmatched=counts & ~matched,
    ).rewrites
    if not run.settings.skip_quotes or not found:
        return found
    quoted = counts & ranges_mask(len(text), quoted_ranges(text))
    return tuple(
        r for r in found if 2 * quoted[r.start : r.end].sum() < counts[r.start : r.end].sum()
    )


def _texts(
    texts: _Texts, checks: Sequence[ProfileCheck], rewrites: Sequence[Rewrite]
) -> dict[str, str]:
    """The stored texts of every source the result names, by source name."""
    named = {m.source: m.text for p in checks for m in p.sources if m.text is not None}
    missing = {r.doc_id: r.source for r in rewrites if r.source not in named}
    stored = texts.get(list(missing)[:_PASSAGE_SOURCES])
    return named | {missing[doc]: text for doc, text in stored.items()}


def _trick_order(trick: Trick) -> tuple[int, int, str]:
    return trick.start, trick.end, trick.kind
