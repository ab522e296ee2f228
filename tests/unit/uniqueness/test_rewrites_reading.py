"""The sentence measure's reading and grouping paths against the computations they replaced:
the same pairs, the same sums to the last bit, the same rows, the same matches."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import FIXTURES, ROOT

import canon
from canon import Fragment, Index, canonicalize
from canon.fingerprints.sentences import MIN_LEMMAS, THRESHOLD, SentenceSets, sentence_sets
from canon.index import lemmas as lemma_tables
from canon.uniqueness import rewrites
from canon.uniqueness.rewrites import (
    _flatten,
    _grouped,
    _join,
    _positions,
    _queries,
    _Stored,
    _Weights,
    find_rewrites,
)
from canon.uniqueness.verdict import ranges_mask

ARTICLES = FIXTURES / "site"


# ---------------------------------------------------------------- the computations replaced


def join_by_search(keys: np.ndarray, probes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The join as it was: two binary searches of every probe."""
    first = np.searchsorted(keys, probes, side="left")
    count = np.searchsorted(keys, probes, side="right") - first
    j = np.repeat(np.arange(len(probes)), count)
    i = np.repeat(first - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
    return i, j


def grouped_by_sorting(
    first: np.ndarray, second: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The grouping as it was: sort the pair keys, sum each group in the order given."""
    width = int(second.max(initial=0)) + 1
    keys, inverse = np.unique(first.astype(np.int64) * width + second, return_inverse=True)
    total = np.bincount(inverse.ravel(), weights=weights, minlength=len(keys))
    return keys // width, keys % width, total


# ---------------------------------------------------------------- joins and groups

hashes = st.integers(0, 2**64 - 1)
# Hashes that share their low bits, so that the table of positions has collisions to search.
crowded = st.builds(
    lambda high, low: (high << 22) | low, st.integers(0, 2**42 - 1), st.integers(0, 7)
)


@given(st.lists(st.one_of(hashes, crowded), max_size=60), st.lists(st.one_of(hashes, crowded),
       max_size=200), st.randoms())  # fmt: skip
@settings(max_examples=200, deadline=None)
def test_the_join_equals_the_binary_searches(keys: list, probes: list, rng) -> None:
    keys_array = np.sort(np.array(keys, dtype=np.uint64))
    probes += rng.choices(keys, k=len(keys)) if keys else []
    probe_array = np.array(probes, dtype=np.uint64)
    found, expected = _join(keys_array, probe_array), join_by_search(keys_array, probe_array)
    assert all(np.array_equal(a, b) for a, b in zip(found, expected))
    distinct = np.unique(keys_array)
    position = _positions(distinct, probe_array)
    at = np.minimum(np.searchsorted(distinct, probe_array), max(len(distinct) - 1, 0))
    held = (distinct[at] == probe_array) if len(distinct) else np.zeros(len(probes), bool)
    assert np.array_equal(position, np.where(held, at, -1))


@given(
    st.lists(st.tuples(st.integers(0, 40), st.one_of(st.integers(0, 300), st.integers(0, 10**7)),
                       st.floats(0.5, 20.0)), min_size=1, max_size=300),
    st.sampled_from([rewrites._DENSE, 1024, 64]),
)  # fmt: skip
@settings(max_examples=200, deadline=None)
def test_the_groups_equal_the_sorted_ones_to_the_last_bit(pairs: list, dense: int) -> None:
    first = np.array([p[0] for p in pairs], dtype=np.int64)
    second = np.array([p[1] for p in pairs], dtype=np.int64)
    weights = np.array([p[2] for p in pairs])
    default, rewrites._DENSE = rewrites._DENSE, dense  # a table of counts, or sorting
    try:
        query, other, total, count = _grouped(first, second, weights)
    finally:
        rewrites._DENSE = default
    expected = grouped_by_sorting(first, second, weights)
    assert np.array_equal(query, expected[0]) and np.array_equal(other, expected[1])
    assert total.tolist() == expected[2].tolist()  # the same sums, not nearly
    keyed = list(zip(first.tolist(), second.tolist()))
    assert count.tolist() == [keyed.count(k) for k in zip(query.tolist(), other.tolist())]


def likeliest_by_sorting(docs: np.ndarray, bounds: np.ndarray, most: int) -> set[int]:
    """The choice of candidates as it was: every pair sorted by bound, then document."""
    if len(docs) == 0:
        return set()
    order = np.lexsort((docs, -bounds))
    first = np.unique(docs[order], return_index=True)[1]
    return {int(d) for d in docs[order][np.sort(first)[:most]]}


@given(
    st.lists(st.tuples(st.integers(1, 60), st.sampled_from([0.5, 1.0, 1.25, 2.0, 3.0])
                       | st.floats(0.0, 5.0)), max_size=200),
    st.integers(1, 70),
)  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_the_likeliest_documents_equal_the_sorted_choice(pairs: list, most: int) -> None:
    docs = np.array([d for d, _ in pairs], dtype=np.int64)
    bounds = np.array([b for _, b in pairs], dtype=np.float64)
    assert rewrites._likeliest(docs, bounds, most) == likeliest_by_sorting(docs, bounds, most)


# ---------------------------------------------------------------- stored sentences


@given(st.lists(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6),
                                   st.lists(hashes, max_size=8, unique=True)),
                         max_size=6), max_size=8))  # fmt: skip
@settings(max_examples=100, deadline=None)
def test_joined_blobs_equal_the_blobs_one_by_one(texts: list) -> None:
    blobs = []
    for rows in texts:
        lemmas = [sorted(hs) for _, _, hs in rows]
        sets = SentenceSets(
            np.array([(a, b) for a, b, _ in rows], dtype=np.int64).reshape(-1, 2),
            np.concatenate(([0], np.cumsum([len(h) for h in lemmas]))).astype(np.int64),
            np.array([h for hs in lemmas for h in hs], dtype=np.uint64),
        )
        blobs.append(sets.to_bytes())
    counts, joined = SentenceSets.joined(blobs)
    one_by_one = [SentenceSets.from_bytes(b) for b in blobs]
    assert counts.tolist() == [len(s) for s in one_by_one]
    assert list(joined) == [sentence for s in one_by_one for sentence in s]


def test_a_damaged_blob_among_others_is_refused_alike() -> None:
    good = SentenceSets(
        np.array([[0, 5]]), np.array([0, 2]), np.array([3, 9], dtype=np.uint64)
    ).to_bytes()
    for damaged in (good[:-8], good[:-3], good[:6]):
        with pytest.raises(ValueError) as alone:
            SentenceSets.from_bytes(damaged)
        with pytest.raises(ValueError) as among:
            SentenceSets.joined([good, damaged, good])
        assert str(among.value) == str(alone.value)


# ---------------------------------------------------------------- an index's tables


def paragraphs() -> dict[str, str]:
    docs = {}
    for name in ("garden", "tea"):
        text = (ARTICLES / f"article-{name}.txt").read_text("utf-8")
        for i, part in enumerate(p for p in text.split("\n\n") if p.strip()):
            docs[f"{name}-{i:02d}"] = part
    return docs


DOCS = paragraphs()
DRAFT = (ROOT / "examples" / "rewrite.txt").read_text("utf-8")


@pytest.fixture(scope="module")
def articles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reading")
    lines = [json.dumps({"id": k, "text": v}, ensure_ascii=False) for k, v in DOCS.items()]
    (folder / "docs.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    with Index(folder / "articles.db", create=True) as index:
        canon.add_sources(index, [str(folder / "docs.jsonl")])
    return folder / "articles.db"


def lemma(index: Index) -> canon.IndexedProfile:
    return next(p for p in index.profiles() if p.name == "lemma")


def probe(index: Index) -> np.ndarray:
    """The draft's lemmas, lemmas no document holds, and one hash twice."""
    draft = np.unique(sentence_sets(canonicalize(DRAFT, "lemma")).lemmas)
    unknown = np.array([1, 2**63, 2**64 - 1], dtype=np.uint64)
    return np.concatenate([draft, unknown, draft[:1]])


def holders(index: Index, profile: canon.IndexedProfile) -> dict[int, list[int]]:
    """Each content lemma's documents, recounted from the stored sentence sets."""
    found: dict[int, list[int]] = {}
    for doc, sets in index.sentence_sets(profile):
        for h in sets.distinct().tolist():
            found.setdefault(h, []).append(doc)
    return found


def test_frequencies_equal_a_recount_of_the_sentence_sets(articles: Path, monkeypatch) -> None:
    monkeypatch.setattr(lemma_tables, "COMMON_LEMMA", 3)
    with Index(articles, readonly=True) as index:
        profile, hashes = lemma(index), probe(index)
        df, common = index.lemma_frequencies(profile, hashes)
        held = holders(index, profile)
    counts = [len(held.get(h, [])) for h in hashes.tolist()]
    assert df.tolist() == counts
    assert common.tolist() == [n > 3 for n in counts]
    assert (df > 0).sum() > 100 and (df == 0).sum() >= 3 and common.any()


def test_postings_equal_a_recount_of_the_sentence_sets_row_for_row(
    articles: Path, monkeypatch
) -> None:
    monkeypatch.setattr(lemma_tables, "COMMON_LEMMA", 3)
    with Index(articles, readonly=True) as index:
        profile, hashes = lemma(index), probe(index)
        found, docs = index.lemma_postings(profile, hashes)
        held = holders(index, profile)
    rows = [
        (h, d) for h in sorted(set(hashes.tolist())) if len(held.get(h, [])) <= 3
        for d in sorted(held.get(h, []))
    ]  # fmt: skip
    assert sorted(zip(found.tolist(), docs.tolist(), strict=True)) == rows and len(rows) > 100


def test_sentence_tables_equal_the_sets_one_by_one(articles: Path) -> None:
    with Index(articles, readonly=True) as index:
        profile = lemma(index)
        wanted = [7, 3, 10**6, 3, 1, 12]  # out of order, twice, and one not indexed
        docs, counts, sets = index.sentence_tables(profile, wanted)
        one_by_one = dict(index.sentence_sets(profile, wanted))
    assert docs == sorted(one_by_one) and counts.tolist() == [len(one_by_one[d]) for d in docs]
    assert list(sets) == [s for d in docs for s in one_by_one[d]]


# ---------------------------------------------------------------- the matches


def scored_reading_every_weight(
    queries: list, stored: _Stored, weights: _Weights, alpha: float, threshold: float
) -> dict[tuple[int, int, int], float]:
    """Every (query, document, sentence) of Dice ≥ threshold, the weights of every stored
    sentence that shares enough read first: the scoring as it was, without the bound."""
    hashes, owner, weight = _flatten(queries)
    owners = np.repeat(np.arange(len(stored.sets)), stored.sets.sizes)
    at, entry = join_by_search(hashes, stored.lemmas)
    query, sentence, shared = grouped_by_sorting(owner[at], owners[entry], weight[at])
    totals = np.array([q.total for q in queries])
    keep = shared >= alpha * totals[query] * (1 - rewrites._SLACK)
    query, sentence, shared = query[keep], sentence[keep], shared[keep]
    entries = np.isin(owners, sentence)
    weights.learn(np.unique(stored.lemmas[entries]))
    sizes = np.bincount(
        owners[entries], weights=weights.of(stored.lemmas[entries]), minlength=len(stored.sets)
    )
    dice = 2 * shared / (totals[query] + sizes[sentence])
    found = {}
    for q, s, score in zip(query.tolist(), sentence.tolist(), dice.tolist()):
        if score >= threshold:
            position, place = stored.locate(s)
            found[(q, position, place)] = score
    return found


@pytest.mark.parametrize("threshold", [0.2, 0.35, THRESHOLD, 0.8, 1.0])
def test_the_bound_leaves_out_no_match(articles: Path, threshold: float) -> None:
    """Pairs whose other lemmas, at weight 1 each, keep them below the threshold are not
    weighed; the matches are those of weighing every sentence that shares enough."""
    alpha = threshold / (2 - threshold)
    with Index(articles, readonly=True) as index:
        profile = lemma(index)
        sets = sentence_sets(canonicalize(DRAFT + " " + " ".join(DOCS.values()), "lemma"))
        weights = _Weights(index, profile)
        queries, _ = _queries(sets, weights, alpha, MIN_LEMMAS, None)
        stored = _Stored.read(index, profile, sorted(index.sources(range(1, 100))))
        matches = rewrites._scored(queries, stored, weights, alpha, threshold)
        expected = scored_reading_every_weight(queries, stored, weights, alpha, threshold)
    best: dict[tuple[int, int], tuple[float, int]] = {}
    for (q, doc, place), score in expected.items():
        if (q, doc) not in best or (score, -place) > (best[(q, doc)][0], -best[(q, doc)][1]):
            best[(q, doc)] = (score, place)
    number = {id(q): i for i, q in enumerate(queries)}
    found = {(number[id(m.query)], m.doc): (m.score, m.sentence) for m in matches}
    assert found == best and len(found) > 20


def test_reads_inside_consistent_see_one_state_of_the_file(articles: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    with Index(articles, readonly=True) as source, Index(copy, create=True) as writer:
        canon.add_sources(writer, [str(articles.parent / "docs.jsonl")])
        before = source.document_count()
    extra = tmp_path / "more.jsonl"
    extra.write_text(json.dumps({"id": "new-00", "text": DOCS["tea-02"] + " Ещё"}) + "\n", "utf-8")
    with Index(copy, readonly=True) as reader:
        with reader.consistent():
            counted = reader.document_count()
            with Index(copy) as writer:
                canon.add_sources(writer, [str(extra)])
            assert reader.document_count() == counted == before
            with reader.consistent():  # inside one already: that one
                assert reader.document_count() == before
        assert reader.document_count() == before + 1
        assert not reader._db.in_transaction


# ---------------------------------------------------------------- passages on access


def test_passages_are_worked_out_when_read_and_equal_the_eager_ones(
    articles: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from canon.uniqueness import against_index as uniqueness
    from canon.uniqueness import attribution

    draft = DOCS["tea-02"] + " " + DOCS["garden-03"] + " Совсем новое предложение здесь."
    with Index(articles, readonly=True) as index:
        with monkeypatch.context() as patch:  # as a check was: every passage worked out first
            patch.setattr(uniqueness, "_passages_of", attribution.passages)
            eager = canon.check(draft, index)
        calls: list[str] = []

        def counted(text: str, indexed: canon.IndexedProfile, shared: np.ndarray) -> tuple:
            calls.append(text)
            return attribution.passages(text, indexed, shared)

        monkeypatch.setattr(uniqueness, "passages", counted)
        lazy = canon.check(draft, index)
        unread = pickle.loads(pickle.dumps(lazy))  # pickling works them out
        assert len(calls) == sum(len(p.sources) for p in lazy.profiles) >= 4
        calls.clear()
        lazy = canon.check(draft, index)
    assert calls == []
    sources = [m for p in lazy.profiles for m in p.sources]
    assert [m.passages for m in sources] == [m.passages for p in eager.profiles for m in p.sources]
    assert len(calls) == len(sources)  # each worked out once, when first read
    assert lazy == eager == unread and lazy.to_dict() == eager.to_dict()
    assert all(m.passages for m in sources) and len(calls) == len(sources)


# ---------------------------------------------------------------- masks of character ranges


@given(st.integers(0, 60).flatmap(lambda size: st.tuples(st.just(size), st.lists(
    st.tuples(st.integers(0, size), st.integers(0, size)).map(sorted), max_size=12))))  # fmt: skip
def test_a_mask_of_ranges_equals_marking_them_one_by_one(case: tuple) -> None:
    size, ranges = case
    given_as = [Fragment(a, b) if (a + b) % 2 else (a, b) for a, b in ranges]
    expected = np.zeros(size, dtype=bool)
    for a, b in ranges:
        expected[a:b] = True
    assert np.array_equal(ranges_mask(size, given_as), expected)


def test_a_range_outside_the_text_is_indexed_as_before() -> None:
    assert ranges_mask(5, [(-2, 5)]).tolist() == [False, False, False, False, True]
    with pytest.raises(IndexError):
        ranges_mask(5, [(1, 9)])


# ---------------------------------------------------------------- naming the sources


@pytest.mark.parametrize("threshold", [0.3, THRESHOLD])
def test_naming_only_the_matched_documents_changes_nothing(
    articles: Path, monkeypatch: pytest.MonkeyPatch, threshold: float
) -> None:
    """With nothing excluded, the documents are named after scoring, the matched ones only;
    any other ``exclude`` names every candidate first, as the lookup always did."""
    from canon.uniqueness.exclusion import Exclusion

    draft = DRAFT + " " + DOCS["garden-03"]
    named: list[int] = []
    with Index(articles, readonly=True) as index:
        profile = lemma(index)
        sources = index.sources

        def counting(doc_ids):
            ids = list(doc_ids)
            named.append(len(ids))
            return sources(ids)

        monkeypatch.setattr(index, "sources", counting)
        fast = find_rewrites(draft, index, profile, Exclusion([]), threshold=threshold)
        matched = named.pop()
        every = find_rewrites(draft, index, profile, lambda source: False, threshold=threshold)
        candidates = named.pop()
        monkeypatch.setattr(rewrites, "MAX_CANDIDATES", 3)  # the cap binding, both ways
        capped = find_rewrites(draft, index, profile, Exclusion([]), threshold=threshold)
        capped_every = find_rewrites(draft, index, profile, lambda s: False, threshold=threshold)
    assert fast == every and fast.rewrites and capped == capped_every and capped.rewrites
    assert len({r.doc_id for r in fast.rewrites}) <= matched <= candidates
