"""A draft and an index → the draft's sentences rewritten from indexed ones: source, spans, score.

Each draft sentence of at least ``min_lemmas`` content lemmas is compared with the sentences of the
indexed documents by the IDF-weighted Dice of their lemma sets (:mod:`canon.fingerprints.sentences`;
IDF from the index's document frequencies); it is *rewritten from* a source sentence when that score
reaches ``threshold``.  The answer equals comparing the draft sentence with every sentence of every
document (up to a cap), but only a few documents are read:

- Dice ≥ θ needs ``w(shared) ≥ α · w(draft)`` with ``α = θ / (2 − θ)``.  So a source
  sentence that reaches θ must hold one of the draft sentence's rarest lemmas, those that
  carry more than ``1 − α`` of its weight (the *prefix*, as in prefix-filtering set joins).
  The prefixes are looked up in the lemma postings, and so are the drafts' other lemmas,
  rarest first, while they add at most :data:`PROBE_POSTINGS` postings (document ids).
- A document whose looked-up lemmas, plus all the lemmas not looked up, weigh less than
  ``α · w(draft)`` cannot hold such a sentence, and is not read.  Of the others, at most
  :data:`MAX_CANDIDATES` are read, those whose bound is highest: the answer is exact while
  fewer documents qualify, and bounded in time when a large index of similar texts has more.
- The other documents' sentence sets are read, all in one query and decoded at once; the
  weight each of their sentences shares with each draft sentence whose prefix it touches is
  summed at once (a join by a table of hashes, sums by a table of pairs).  Only the pairs
  that share at least ``α · w(draft)``, and that could still reach θ were each of the source
  sentence's other lemmas to weigh the least a lemma can (1), have the source sentence's own
  weight read and their Dice computed.

A common lemma (see :mod:`canon.index.lemmas`) has no postings: a draft sentence whose
uncommon lemmas weigh too little to form a prefix cannot be looked up; it is listed in
``too_common`` and not judged.  The index is probed a fixed number of times per draft (lemma
frequencies twice, postings once, sentence sets and names in chunks of 500 documents: with
nothing excluded, only the documents matched are named), all in one read transaction, so the
counts and the weights come from one state of the file.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..canonical import Canonical, canonicalize
from ..errors import OptionError
from ..fingerprints.sentences import MIN_LEMMAS, THRESHOLD, SentenceSets, idf, sentence_sets
from ..index.rules import profile_of
from ..index.store import Index, IndexedProfile
from ..records import record_dict
from ..text.sentences import sentence_parts
from .exclusion import Exclusion

__all__ = [
    "MAX_CANDIDATES",
    "PER_SENTENCE",
    "PROBE_POSTINGS",
    "THRESHOLD",
    "Rewrite",
    "RewriteCheck",
    "find_rewrites",
]

PER_SENTENCE = 5  # sources listed per rewritten draft sentence, best first
PROBE_POSTINGS = 50_000  # lemma postings (document ids) read per draft beyond the prefixes
# Documents whose sentences are read per draft at most, those that may share most first: past
# it the answer is the best candidates' (a large index of similar texts can have thousands).
MAX_CANDIDATES = 500
_SLACK = 1e-9  # relative: bounds are loosened by this much against rounding


@dataclass(frozen=True)
class Rewrite:
    """Draft characters ``[start, end)``, a sentence rewritten from characters
    ``[source_start, source_end)`` of the indexed document ``doc_id`` (``source``)."""

    start: int
    end: int
    doc_id: int
    source: str
    title: str | None
    source_start: int
    source_end: int
    score: float

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class RewriteCheck:
    """The sentence measure of one draft under one index profile.

    ``sentences`` counts the draft's sentences holding a content lemma, ``judged`` those long
    enough to judge and not made of common lemmas; ``too_common`` spans the ones left out
    for being made of common lemmas; ``rewrites`` are in draft order, best source first.
    """

    profile: str
    fingerprint: str
    threshold: float
    min_lemmas: int
    sentences: int
    judged: int
    too_common: tuple[tuple[int, int], ...]
    rewrites: tuple[Rewrite, ...]

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class _Query:
    """One draft sentence to judge: its lemmas, their weights, and its prefix."""

    number: int  # the sentence's position in the draft's sentence sets
    lemmas: np.ndarray  # sorted uint64
    weights: np.ndarray  # aligned with lemmas
    total: float  # w(draft sentence)
    prefix: np.ndarray  # the lemmas one of which a source sentence reaching the threshold has
    prefixed: np.ndarray  # aligned with lemmas: whether each is in the prefix


class _Weights:
    """Frequencies and IDF weights of lemmas, read from the index as needed."""

    def __init__(self, index: Index, indexed: IndexedProfile) -> None:
        self.index, self.indexed = index, indexed
        self.documents = index.document_count()
        self.hashes = np.zeros(0, np.uint64)
        self.df = np.zeros(0, np.int64)
        self.common = np.zeros(0, bool)

    def learn(self, hashes: np.ndarray) -> None:
        new = np.setdiff1d(hashes, self.hashes)
        if len(new) == 0:
            return
        df, common = self.index.lemma_frequencies(self.indexed, new)
        order = np.argsort(np.concatenate([self.hashes, new]), kind="stable")
        self.hashes = np.concatenate([self.hashes, new])[order]
        self.df = np.concatenate([self.df, df])[order]
        self.common = np.concatenate([self.common, common])[order]

    def of(self, hashes: np.ndarray) -> np.ndarray:
        """The IDF weights of ``hashes``, all learnt before."""
        return idf(self.df[np.searchsorted(self.hashes, hashes)], self.documents)

    def postings(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The postings each of ``hashes`` has (0 for a common lemma), and which are
        common."""
        at = np.searchsorted(self.hashes, hashes)
        return np.where(self.common[at], 0, self.df[at]), self.common[at]


def _positions(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For each of ``values``, its position in ``keys`` (sorted, distinct uint64), or -1.

    A table of ``keys`` by their low bits answers most values in one gather (the hashes are
    uniform); the values landing where two keys share the low bits are searched."""
    bits = int(np.clip(np.ceil(np.log2(64 * max(len(keys), 1))), 10, 22))
    mask = np.uint64((1 << bits) - 1)
    slots = (keys & mask).astype(np.intp)
    table = np.full(1 << bits, -1, dtype=np.intp)
    table[slots] = np.arange(len(keys))
    table[np.bincount(slots, minlength=1 << bits) > 1] = -2
    found = table[(values & mask).astype(np.intp)]
    out = np.full(len(values), -1, dtype=np.intp)
    direct = np.flatnonzero(found >= 0)
    hit = keys[found[direct]] == values[direct]
    out[direct[hit]] = found[direct[hit]]
    searched = np.flatnonzero(found == -2)
    if len(searched):
        at = np.minimum(np.searchsorted(keys, values[searched]), len(keys) - 1)
        held = keys[at] == values[searched]
        out[searched[held]] = at[held]
    return out


def _join(keys: np.ndarray, probes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every ``(i, j)`` with ``keys[i] == probes[j]``, ``keys`` sorted: by ``j``, then ``i``."""
    distinct, first, count = np.unique(keys, return_index=True, return_counts=True)
    position = _positions(distinct, probes)
    j = np.flatnonzero(position >= 0)
    count, first = count[position[j]], first[position[j]]
    i = np.repeat(first - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
    return i, np.repeat(j, count)


_DENSE = 1 << 21  # the largest table of pairs summed at once; more are sorted by radix


def _grouped(
    first: np.ndarray, second: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct ``(first, second)`` pairs (non-negative ints) in order, their summed
    weights (each pair's summed in the order given) and how many times each occurs."""
    if not len(first):
        empty = np.zeros(0, np.int64)
        return empty, empty, np.zeros(0), empty
    number, names = _compact(second)
    width = len(names)
    keyed = first.astype(np.int64) * width + number
    size = (int(first.max()) + 1) * width
    if size <= _DENSE:
        keys, total, counts = _sums(keyed, weights, size)
    else:
        order = _radix_order(keyed)
        ordered = keyed[order]
        new = np.ones(len(ordered), dtype=bool)
        np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
        group = np.empty(len(ordered), dtype=np.intp)
        group[order] = np.cumsum(new) - 1
        keys = ordered[new]
        total = np.bincount(group, weights=weights, minlength=len(keys))
        counts = np.bincount(group, minlength=len(keys))
    return keys // width, names[keys % width], total, counts


def _radix_order(keys: np.ndarray) -> np.ndarray:
    """The stable order of ``keys`` (non-negative int64): a radix sort, 16 bits a pass."""
    order = np.arange(len(keys))
    top, shift = int(keys.max()), 0
    while True:
        digit = ((keys[order] >> shift) & 0xFFFF).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]  # a radix sort for 16 bits
        shift += 16
        if top >> shift == 0:
            return order


def _sums(
    keyed: np.ndarray, weights: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct values of ``keyed`` (all below ``size``) in order, the weights of each
    summed in the order given, and their counts: a table of ``size``, no sorting."""
    present = np.zeros(size, dtype=bool)
    present[keyed] = True
    keys = np.flatnonzero(present)
    number = np.empty(size, dtype=np.intp)  # only the entries of ``keys`` are read
    number[keys] = np.arange(len(keys))
    group = number[keyed]
    total = np.bincount(group, weights=weights, minlength=len(keys))
    return keys, total, np.bincount(group, minlength=len(keys))


def _compact(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``values`` (non-negative ints) renumbered 0, 1, … in their order, and the value of
    each number."""
    top = int(values.max()) + 1
    if top > 8 * len(values) + 4096:
        names, inverse = np.unique(values, return_inverse=True)
        return inverse.ravel(), names
    held = np.zeros(top, dtype=bool)
    held[values] = True
    names = np.flatnonzero(held)
    number = np.empty(top, dtype=np.intp)  # only the entries of ``names`` are read
    number[names] = np.arange(len(names))
    return number[values], names


def _query(number: int, lemmas: np.ndarray, weights: _Weights, alpha: float) -> _Query | None:
    """The query of a draft sentence, or None when its uncommon lemmas weigh too little."""
    values = weights.of(lemmas)
    _, common = weights.postings(lemmas)
    total = float(values.sum())
    order = np.lexsort((lemmas, -values))  # heaviest (rarest) first
    order = order[~common[order]]
    # After the first j lemmas, the rest weighs total - cumulative[j - 1].
    left = total - np.cumsum(values[order])
    needed = np.flatnonzero(left < alpha * total * (1 - _SLACK))
    if len(needed) == 0:
        return None
    prefixed = np.zeros(len(lemmas), dtype=bool)
    prefixed[order[: needed[0] + 1]] = True
    return _Query(number, lemmas, values, total, lemmas[order[: needed[0] + 1]], prefixed)


def _flatten(queries: list[_Query]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The queries' lemmas as one array sorted by hash: hashes, the query each comes from,
    weights."""
    hashes, owner, weights, _ = _flattened(queries)
    return hashes, owner, weights


def _flattened(queries: list[_Query]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_flatten`'s arrays, and whether each lemma is in its query's prefix."""
    hashes = np.concatenate([q.lemmas for q in queries])
    weights = np.concatenate([q.weights for q in queries])
    prefixed = np.concatenate([q.prefixed for q in queries])
    owner = np.repeat(np.arange(len(queries)), [len(q.lemmas) for q in queries])
    order = np.argsort(hashes, kind="stable")
    return hashes[order], owner[order], weights[order], prefixed[order]


def _probed(queries: list[_Query], weights: _Weights, budget: int) -> np.ndarray:
    """The lemmas to look up: every prefix, then the other uncommon lemmas, rarest first,
    while their postings stay within ``budget``."""
    needed = np.unique(np.concatenate([q.prefix for q in queries]))
    others = np.setdiff1d(np.concatenate([q.lemmas for q in queries]), needed)
    rows, common = weights.postings(others)
    others, rows = others[~common], rows[~common]
    order = np.argsort(rows, kind="stable")
    room = budget - int(weights.postings(needed)[0].sum())
    fits = np.cumsum(rows[order]) <= room
    return np.union1d(needed, others[order][fits])


def _candidates(
    index: Index, indexed: IndexedProfile, queries: list[_Query], weights: _Weights, alpha: float
) -> set[int]:
    """The documents that may hold a sentence reaching the threshold for some query: those
    whose looked-up lemmas, with all the lemmas not looked up, weigh enough."""
    if not queries:
        return set()
    hashes, owner, weight = _flatten(queries)
    probed = _probed(queries, weights, PROBE_POSTINGS)
    looked = np.isin(hashes, probed)
    unseen = np.bincount(owner[~looked], weights=weight[~looked], minlength=len(queries))
    found, docs = index.lemma_postings(indexed, probed)
    at, row = _join(hashes, found)
    query, doc, shared, _ = _grouped(owner[at], docs[row], weight[at])
    needed = alpha * np.array([q.total for q in queries]) * (1 - _SLACK)
    bound = (shared + unseen[query]) / needed[query]  # 1 or more: may reach the threshold
    keep = bound >= 1
    return _likeliest(doc[keep], (shared / needed[query])[keep], MAX_CANDIDATES)


def _likeliest(docs: np.ndarray, bounds: np.ndarray, most: int) -> set[int]:
    """The (at most ``most``) documents of the highest bounds, each document's best bound
    counting; ties by document id."""
    if len(docs) == 0:
        return set()
    number, names = _compact(docs)
    best = np.full(len(names), -np.inf)
    np.maximum.at(best, number, bounds)
    if len(names) > most:  # those at least as high as the most-th highest, ties and all
        held = np.flatnonzero(best >= np.partition(best, len(names) - most)[len(names) - most])
        names, best = names[held], best[held]
    return {int(d) for d in names[np.lexsort((names, -best))[:most]]}


@dataclass(frozen=True)
class _Stored:
    """The sentences of the documents read, one document's after another's."""

    docs: list[int]  # the documents in order
    first: np.ndarray  # each document's first sentence, then the number of sentences
    sets: SentenceSets  # every sentence of every document

    @classmethod
    def read(cls, index: Index, indexed: IndexedProfile, doc_ids: list[int]) -> _Stored:
        docs, counts, sets = index.sentence_tables(indexed, doc_ids)
        held = [doc for doc, count in zip(docs, counts.tolist()) if count]
        first = np.concatenate(([0], np.cumsum(counts[counts > 0]))).astype(np.int64)
        return cls(held, first, sets)

    @property
    def lemmas(self) -> np.ndarray:
        """Every sentence's lemmas."""
        return self.sets.lemmas

    def locate(self, sentence: int) -> tuple[int, int]:
        """The document (its position in ``docs``) and the place in it of a sentence."""
        position = int(np.searchsorted(self.first, sentence, side="right")) - 1
        return position, sentence - int(self.first[position])

    def span(self, position: int, place: int) -> tuple[int, int]:
        """Characters ``[start, end)`` of sentence ``place`` of document ``docs[position]``."""
        start, end = self.sets.spans[int(self.first[position]) + place]
        return int(start), int(end)

    def entries(self, sentences: np.ndarray) -> np.ndarray:
        """The positions in ``lemmas`` of the sentences' lemmas, sentence after sentence."""
        begin, end = self.sets.offsets[sentences], self.sets.offsets[sentences + 1]
        count = end - begin
        return np.repeat(begin - np.cumsum(count) + count, count) + np.arange(int(count.sum()))


@dataclass(frozen=True)
class _Match:
    query: _Query
    doc: int
    score: float
    sentence: int  # in the document's sentence sets


def _seeded(
    queries: list[_Query], query: np.ndarray, sentence: np.ndarray, prefixed: np.ndarray
) -> np.ndarray:
    """Which of the ``(query, sentence)`` pairs also occur where ``prefixed`` is true."""
    width = int(sentence.max(initial=0)) + 1
    keyed = query.astype(np.int64) * width + sentence
    if len(queries) * width > _DENSE:
        return np.isin(keyed, keyed[prefixed])
    seen = np.zeros(len(queries) * width, dtype=bool)
    seen[keyed[prefixed]] = True
    found: np.ndarray = seen[keyed]
    return found


def _sharing(
    queries: list[_Query], stored: _Stored, alpha: float, threshold: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (query, stored sentence) pairs that may reach ``threshold``, and the weight each
    pair shares.

    A pair needs ``w(shared) ≥ α · w(query)``, so it shares a lemma of the query's prefix (the
    lemmas outside it weigh less than that); and since no lemma weighs less than 1 (its ``df``
    is at most the number of documents), the sentence's lemmas outside the query add at least
    their number to its weight, which Dice ≥ threshold must allow too.  None of these tests
    needs the weights of the sentence's other lemmas."""
    hashes, owner, weight, prefixed = _flattened(queries)
    at, entry = _join(hashes, stored.lemmas)
    owners = np.repeat(np.arange(len(stored.sets)), stored.sets.sizes)
    pairs = _seeded(queries, owner[at], owners[entry], prefixed[at])
    at, entry = at[pairs], entry[pairs]
    query, sentence, shared, count = _grouped(owner[at], owners[entry], weight[at])
    totals = np.array([q.total for q in queries])[query]
    outside = stored.sets.sizes[sentence] - count
    keep = (shared >= alpha * totals * (1 - _SLACK)) & (
        2 * shared >= threshold * (totals + shared + outside) * (1 - _SLACK)
    )
    return query[keep], sentence[keep], shared[keep]


def _scored(
    queries: list[_Query], stored: _Stored, weights: _Weights, alpha: float, threshold: float
) -> list[_Match]:
    """Every (query, stored sentence) pair of Dice ≥ threshold, the best sentence of each
    document only.  Shared weights are summed for all pairs at once; the weights of a stored
    sentence's other lemmas are read only for the pairs that may reach the threshold."""
    if not queries or not len(stored.lemmas):
        return []
    query, sentence, shared = _sharing(queries, stored, alpha, threshold)
    read = np.unique(sentence)
    entries = stored.entries(read)
    lemmas = stored.lemmas[entries]
    weights.learn(np.unique(lemmas))
    owners = np.repeat(np.arange(len(read)), stored.sets.sizes[read])
    sizes = np.bincount(owners, weights=weights.of(lemmas), minlength=len(read))
    totals = np.array([q.total for q in queries])
    dice = 2 * shared / (totals[query] + sizes[np.searchsorted(read, sentence)])
    best: dict[tuple[int, int], _Match] = {}
    for q, s, score in zip(query.tolist(), sentence.tolist(), dice.tolist()):
        if score < threshold:
            continue
        position, place = stored.locate(s)
        key = (q, position)
        if key not in best or (score, -place) > (best[key].score, -best[key].sentence):
            best[key] = _Match(queries[q], position, score, place)
    return list(best.values())


def _draft(draft: str | Canonical, indexed: IndexedProfile) -> Canonical:
    profile = profile_of(indexed)
    if profile.morphology == "none":
        raise OptionError(
            "profile",
            f"{indexed.name} has no morphology; the sentence measure needs a lemma or stem "
            "profile of the index",
            value=indexed.name,
        )
    if isinstance(draft, str):
        return canonicalize(draft, profile)
    if draft.fingerprint != indexed.fingerprint:
        raise OptionError(
            "profile",
            f"the draft was canonicalized under {draft.profile.name} ({draft.fingerprint}), "
            f"not under the index's {indexed.name} ({indexed.fingerprint})",
            value=draft.profile.name,
        )
    return draft


def _check_settings(threshold: float, min_lemmas: int, per_sentence: int) -> None:
    if not 0 < threshold <= 1:
        raise OptionError("threshold", f"must be in (0, 1], got {threshold}", value=threshold)
    for option, value in (("min_lemmas", min_lemmas), ("per_sentence", per_sentence)):
        if type(value) is not int or value < 1:
            raise OptionError(option, f"must be a positive integer, got {value!r}", value=value)


def _judged(sets: SentenceSets, min_lemmas: int, unmatched: np.ndarray | None) -> list[int]:
    """The sentences long enough to judge that hold an unmatched character."""
    return [
        i
        for i in range(len(sets))
        if sets.sizes[i] >= min_lemmas
        and (unmatched is None or unmatched[sets.spans[i, 0] : sets.spans[i, 1]].any())
    ]


def _queries(
    sets: SentenceSets,
    weights: _Weights,
    alpha: float,
    min_lemmas: int,
    unmatched: np.ndarray | None,
) -> tuple[list[_Query], list[tuple[int, int]]]:
    """The queries of the sentences to judge, and the spans of those made of common
    lemmas."""
    long_enough = _judged(sets, min_lemmas, unmatched)
    if long_enough:
        weights.learn(np.unique(np.concatenate([sets.lemmas_of(i) for i in long_enough])))
    queries, too_common = [], []
    for i in long_enough:
        query = _query(i, sets.lemmas_of(i), weights, alpha)
        if query is None:
            too_common.append((int(sets.spans[i, 0]), int(sets.spans[i, 1])))
        else:
            queries.append(query)
    return queries, too_common


def _listed(
    matches: list[_Match],
    draft: SentenceSets,
    stored: _Stored,
    names: dict[int, tuple[str, str | None]],
    per_sentence: int,
) -> tuple[Rewrite, ...]:
    """The matches as records: draft order, then score, source name and place in the source;
    at most ``per_sentence`` a draft sentence."""

    def order(m: _Match) -> tuple[int, float, str, int]:
        return m.query.number, -m.score, names[stored.docs[m.doc]][0], m.sentence

    listed: list[Rewrite] = []
    taken: dict[int, int] = defaultdict(int)
    for m in sorted(matches, key=order):
        taken[m.query.number] += 1
        if taken[m.query.number] > per_sentence:
            continue
        doc = stored.docs[m.doc]
        start, end = (int(v) for v in draft.spans[m.query.number])
        source_start, source_end = stored.span(m.doc, m.sentence)
        source, title = names[doc]
        listed.append(Rewrite(start, end, doc, source, title, source_start, source_end, m.score))
    return tuple(listed)


Names = dict[int, tuple[str, str | None]]


def _matched(
    index: Index,
    indexed: IndexedProfile,
    queries: list[_Query],
    weights: _Weights,
    exclude: Callable[[str], bool],
    alpha: float,
    threshold: float,
) -> tuple[list[_Match], _Stored, Names]:
    """The matches in the candidate documents that are still indexed and not left out, the
    sentences read, and the names of the documents matched.

    Each document's matches are its own, so when ``exclude`` leaves nothing out, only the
    documents matched are named (after scoring), not every candidate."""
    candidates = sorted(_candidates(index, indexed, queries, weights, alpha))
    if isinstance(exclude, Exclusion) and not exclude:
        stored = _Stored.read(index, indexed, candidates)
        matches = _scored(queries, stored, weights, alpha, threshold)
        names = index.sources({stored.docs[m.doc] for m in matches})
        return [m for m in matches if stored.docs[m.doc] in names], stored, names
    names = index.sources(candidates)
    allowed = [d for d in candidates if d in names and not exclude(names[d][0])]
    stored = _Stored.read(index, indexed, allowed)
    return _scored(queries, stored, weights, alpha, threshold), stored, names


def find_rewrites(
    draft: str | Canonical,
    index: Index,
    indexed: IndexedProfile,
    exclude: Callable[[str], bool] = lambda source: False,
    *,
    threshold: float = THRESHOLD,
    min_lemmas: int = MIN_LEMMAS,
    per_sentence: int = PER_SENTENCE,
    unmatched: np.ndarray | None = None,
) -> RewriteCheck:
    """The sentences of ``draft`` rewritten from sentences of ``index``'s documents under its
    profile ``indexed`` (lemma or stem), leaving out the sources ``exclude`` names.

    ``draft`` is a text or its Canonical under ``indexed``'s rules.  A draft sentence lists at
    most ``per_sentence`` sources, by score, then source name.  ``unmatched`` marks the
    draft's characters not yet explained (by shingles): a sentence holding none of them is
    not judged, it has nothing to add.
    """
    _check_settings(threshold, min_lemmas, per_sentence)
    sets, part_of = _draft_sets(_draft(draft, indexed))
    alpha = threshold / (2 - threshold)
    with index.consistent():  # the frequencies and the count from one state of the file
        weights = _Weights(index, indexed)
        queries, too_common = _queries(sets, weights, alpha, min_lemmas, unmatched)
        found = _matched(index, indexed, queries, weights, exclude, alpha, threshold)
    matches, stored, names = found
    whole = [q for q in queries if part_of[q.number] < 0]
    return RewriteCheck(
        indexed.name,
        indexed.fingerprint,
        threshold,
        min_lemmas,
        int((part_of < 0).sum()),
        len(whole),
        tuple(span for span in too_common if span in _whole_spans(sets, part_of)),
        _listed(_read(matches, part_of), sets, stored, names, per_sentence),
    )


def _draft_sets(canonical: Canonical) -> tuple[SentenceSets, np.ndarray]:
    """The draft's sentences, then the parts of those a stop inside divides; for each, the
    sentence it is a part of (-1: a sentence itself)."""
    sets = sentence_sets(canonical)
    whole = [(int(a), int(b)) for a, b in sets.spans]
    parts = sentence_parts(canonical.text, whole, canonical.joined)
    wholes = np.full(len(sets), -1, dtype=np.int64)
    if not parts:
        return sets, wholes
    extra = sentence_sets(canonical, parts)
    owner = np.searchsorted(sets.spans[:, 0], extra.spans[:, 0], side="right") - 1
    joined = SentenceSets(
        np.concatenate([sets.spans, extra.spans]),
        np.concatenate([sets.offsets, extra.offsets[1:] + sets.offsets[-1]]),
        np.concatenate([sets.lemmas, extra.lemmas]),
    )
    return joined, np.concatenate([wholes, owner])


def _whole_spans(sets: SentenceSets, part_of: np.ndarray) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for (a, b), whole in zip(sets.spans, part_of) if whole < 0}


def _read(matches: list[_Match], part_of: np.ndarray) -> list[_Match]:
    """The matches of each divided sentence read whole, or of its parts, whichever has the
    best score (the whole on a tie): a sentence merged from two, or one whose shuffled words
    put a small letter after its stop, is judged part by part."""
    best: dict[int, float] = defaultdict(float)
    for m in matches:
        best[m.query.number] = max(best[m.query.number], m.score)
    parts: dict[int, float] = defaultdict(float)
    for number, score in best.items():
        if part_of[number] >= 0:
            whole = int(part_of[number])
            parts[whole] = max(parts[whole], score)

    def kept(m: _Match) -> bool:
        whole = int(part_of[m.query.number])
        if whole < 0:
            return parts.get(m.query.number, 0.0) <= best[m.query.number]
        return parts[whole] > best.get(whole, 0.0)

    return [m for m in matches if kept(m)]
