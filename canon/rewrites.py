"""A draft and an index → the draft's sentences rewritten from indexed ones: source, spans, score.

Each draft sentence of at least ``min_lemmas`` content lemmas is compared with the sentences
of the indexed documents by the IDF-weighted Dice of their lemma sets
(:mod:`canon.sentences`; IDF from the index's document frequencies); it is *rewritten from* a
source sentence when that score reaches ``threshold``.  The answer equals comparing the draft
sentence with every sentence of every document, but only a few documents are read:

- Dice ≥ θ needs ``w(shared) ≥ α · w(draft)`` with ``α = θ / (2 − θ)``.  So a source
  sentence that reaches θ must hold one of the draft sentence's rarest lemmas, those that
  carry more than ``1 − α`` of its weight (the *prefix*, as in prefix-filtering set joins):
  only the prefix lemmas are looked up in the lemma postings.
- A document whose prefix lemmas, plus all the lemmas not looked up, weigh less than
  ``α · w(draft)`` cannot hold such a sentence, and is not read.
- The other documents' sentence sets are read and scored exactly.

A common lemma (see :mod:`canon.index.lemmas`) has no postings: a draft sentence whose
uncommon lemmas weigh too little to form a prefix cannot be looked up; it is listed in
``too_common`` and not judged.  The index is probed a fixed number of times per draft (lemma
frequencies twice, postings once, names and sentence sets in chunks of 500 documents).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .canonical import Canonical, canonicalize
from .errors import OptionError
from .index.rules import profile_of
from .index.store import Index, IndexedProfile
from .records import record_dict
from .sentences import MIN_LEMMAS, THRESHOLD, SentenceSets, idf, sentence_sets

__all__ = ["PER_SENTENCE", "Rewrite", "RewriteCheck", "find_rewrites"]

PER_SENTENCE = 5  # sources listed per rewritten draft sentence, best first
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
    """One draft sentence to judge: its lemmas and their weights, and the prefix to look up."""

    number: int  # the sentence's position in the draft's sentence sets
    lemmas: np.ndarray  # sorted uint64
    total: float  # w(draft sentence)
    probe: np.ndarray  # the prefix lemmas
    probe_weights: np.ndarray
    rest: float  # the weight of the lemmas not looked up


class _Weights:
    """IDF weights of lemmas, their frequencies read from the index as needed."""

    def __init__(self, index: Index, indexed: IndexedProfile) -> None:
        self.index, self.indexed = index, indexed
        self.documents = index.document_count()
        self.hashes = np.zeros(0, np.uint64)
        self.values = np.zeros(0, np.float64)
        self.common = np.zeros(0, bool)

    def learn(self, hashes: np.ndarray) -> None:
        new = np.setdiff1d(hashes, self.hashes)
        if len(new) == 0:
            return
        df, common = self.index.lemma_frequencies(self.indexed, new)
        order = np.argsort(np.concatenate([self.hashes, new]), kind="stable")
        self.hashes = np.concatenate([self.hashes, new])[order]
        self.values = np.concatenate([self.values, idf(df, self.documents)])[order]
        self.common = np.concatenate([self.common, common])[order]

    def of(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Weights and common marks of ``hashes``, all learnt before."""
        at = np.searchsorted(self.hashes, hashes)
        return self.values[at], self.common[at]


def _query(number: int, lemmas: np.ndarray, weights: _Weights, alpha: float) -> _Query | None:
    """The query of a draft sentence, or None when its uncommon lemmas weigh too little."""
    values, common = weights.of(lemmas)
    total = float(values.sum())
    order = np.lexsort((lemmas, -values))  # heaviest (rarest) first
    order = order[~common[order]]
    # After the first j lemmas, the rest weighs total - cumulative[j - 1].
    left = total - np.cumsum(values[order])
    needed = np.flatnonzero(left < alpha * total * (1 - _SLACK))
    if len(needed) == 0:
        return None
    chosen = order[: needed[0] + 1]
    return _Query(number, lemmas, total, lemmas[chosen], values[chosen], float(left[needed[0]]))


def _candidates(
    index: Index, indexed: IndexedProfile, queries: list[_Query], alpha: float
) -> list[tuple[_Query, np.ndarray]]:
    """Each query with the documents that may hold a sentence reaching the threshold."""
    if not queries:
        return []
    probe = np.concatenate([q.probe for q in queries])
    owner = np.repeat(np.arange(len(queries)), [len(q.probe) for q in queries])
    weight = np.concatenate([q.probe_weights for q in queries])
    hashes, docs = index.lemma_postings(indexed, np.unique(probe))
    order = np.argsort(probe, kind="stable")
    probe, owner, weight = probe[order], owner[order], weight[order]
    first = np.searchsorted(probe, hashes, side="left")
    count = np.searchsorted(probe, hashes, side="right") - first
    # Every (query, document) pair sharing a prefix lemma, with that lemma's weight.
    at = np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())
    pair_doc = np.repeat(docs, count)
    key = owner[at] * (int(docs.max(initial=0)) + 1) + pair_doc
    keys, inverse = np.unique(key, return_inverse=True)
    shared = np.bincount(inverse, weights=weight[at], minlength=len(keys))
    key_query, key_doc = np.divmod(keys, int(docs.max(initial=0)) + 1)
    found = []
    for number, query in enumerate(queries):
        mine = key_query == number
        keep = shared[mine] + query.rest >= alpha * query.total * (1 - _SLACK)
        found.append((query, key_doc[mine][keep]))
    return found


def _best(query: _Query, sets: SentenceSets, weights: _Weights) -> tuple[float, int]:
    """The best Dice of the query against one document's sentences, and which sentence."""
    values, _ = weights.of(sets.lemmas)
    owners = sets.owners
    sizes = np.bincount(owners, weights=values, minlength=len(sets))
    member = np.isin(sets.lemmas, query.lemmas, assume_unique=False)
    shared = np.bincount(owners, weights=values * member, minlength=len(sets))
    dice = 2 * shared / (query.total + sizes)
    best = int(np.argmax(dice))
    return float(dice[best]), best


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
    if type(min_lemmas) is not int or min_lemmas < 1:
        raise OptionError(
            "min_lemmas", f"must be a positive integer, got {min_lemmas!r}", value=min_lemmas
        )
    if type(per_sentence) is not int or per_sentence < 1:
        raise OptionError(
            "per_sentence",
            f"must be a positive integer, got {per_sentence!r}",
            value=per_sentence,
        )


@dataclass(frozen=True)
class _Match:
    query: _Query
    doc: int
    score: float
    sentence: int  # in the document's sentence sets


def _matches(
    index: Index,
    indexed: IndexedProfile,
    found: list[tuple[_Query, np.ndarray]],
    weights: _Weights,
    exclude: Callable[[str], bool],
    threshold: float,
) -> tuple[list[_Match], dict[int, tuple[str, str | None]], dict[int, SentenceSets]]:
    """The candidates that reach ``threshold`` and are not excluded; the names and sentence
    sets of the documents read."""
    docs = {int(d) for _, candidates in found for d in candidates}
    names = index.sources(docs)
    allowed = sorted(d for d in docs if d in names and not exclude(names[d][0]))
    sets = {doc: s for doc, s in index.sentence_sets(indexed, allowed) if len(s)}
    if sets:
        weights.learn(np.unique(np.concatenate([s.lemmas for s in sets.values()])))
    matches = []
    for query, candidates in found:
        for doc in (int(d) for d in candidates if int(d) in sets):
            score, sentence = _best(query, sets[doc], weights)
            if score >= threshold:
                matches.append(_Match(query, doc, score, sentence))
    return matches, names, sets


def _queries(
    sets: SentenceSets, weights: _Weights, alpha: float, min_lemmas: int
) -> tuple[list[_Query], list[tuple[int, int]]]:
    """The queries of the sentences long enough to judge, and the spans of those made of
    common lemmas."""
    long_enough = [i for i in range(len(sets)) if sets.sizes[i] >= min_lemmas]
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
    names: dict[int, tuple[str, str | None]],
    sources: dict[int, SentenceSets],
    per_sentence: int,
) -> tuple[Rewrite, ...]:
    """The matches as records: draft order, then score, source name and place in the source;
    at most ``per_sentence`` a draft sentence."""
    ordered = sorted(matches, key=lambda m: (m.query.number, -m.score, names[m.doc][0], m.sentence))
    listed: list[Rewrite] = []
    taken: dict[int, int] = {}
    for m in ordered:
        taken[m.query.number] = taken.get(m.query.number, 0) + 1
        if taken[m.query.number] > per_sentence:
            continue
        start, end = (int(v) for v in draft.spans[m.query.number])
        source_start, source_end = (int(v) for v in sources[m.doc].spans[m.sentence])
        source, title = names[m.doc]
        listed.append(Rewrite(start, end, m.doc, source, title, source_start, source_end, m.score))
    return tuple(listed)


def find_rewrites(
    draft: str | Canonical,
    index: Index,
    indexed: IndexedProfile,
    exclude: Callable[[str], bool] = lambda source: False,
    *,
    threshold: float = THRESHOLD,
    min_lemmas: int = MIN_LEMMAS,
    per_sentence: int = PER_SENTENCE,
) -> RewriteCheck:
    """The sentences of ``draft`` rewritten from sentences of ``index``'s documents under its
    profile ``indexed`` (lemma or stem), leaving out the sources ``exclude`` names.

    ``draft`` is a text or its Canonical under ``indexed``'s rules.  A draft sentence lists at
    most ``per_sentence`` sources, by score, then source name.
    """
    _check_settings(threshold, min_lemmas, per_sentence)
    sets = sentence_sets(_draft(draft, indexed))
    alpha = threshold / (2 - threshold)
    weights = _Weights(index, indexed)
    queries, too_common = _queries(sets, weights, alpha, min_lemmas)
    found = _candidates(index, indexed, queries, alpha)
    matches, names, sources = _matches(index, indexed, found, weights, exclude, threshold)
    return RewriteCheck(
        indexed.name,
        indexed.fingerprint,
        threshold,
        min_lemmas,
        len(sets),
        len(queries),
        tuple(too_common),
        _listed(matches, sets, names, sources, per_sentence),
    )
