"""MinHash signatures, LSH banding and near-duplicate clustering (local engine)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from command import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

import canon
from canon.dedup import Entry, dedup
from canon.fingerprints.lsh import band_keys, candidate_probability, optimal_bands
from canon.fingerprints.measures import exact_jaccard
from canon.fingerprints.minhash import Signature, estimate_jaccard, signature, signatures


def _pair(rng: np.random.Generator, n: int, similarity: float) -> tuple[np.ndarray, np.ndarray]:
    """Two hash sets of size ``n`` with Jaccard close to ``similarity``."""
    keep = round(n * 2 * similarity / (1 + similarity))
    first = rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
    fresh = rng.integers(0, 2**64 - 1, n - keep, dtype=np.uint64)
    second = np.concatenate([first[:keep], fresh])
    return np.unique(first), np.unique(second)


@pytest.mark.parametrize("num_perm", [64, 85, 128, 256])
def test_estimate_error_within_theory(num_perm: int) -> None:
    rng = np.random.default_rng(num_perm)
    errors = []
    for _ in range(200):
        a, b = _pair(rng, int(rng.integers(20, 1500)), float(rng.uniform(0, 1)))
        estimate = estimate_jaccard(*signatures([a, b], num_perm))
        errors.append(abs(estimate - exact_jaccard(a, b)))
    # The estimator's standard deviation is sqrt(J(1-J)/num_perm) <= 0.5/sqrt(num_perm);
    # the mean absolute error of a normal variable is 0.8 of that.
    assert np.mean(errors) < 0.8 * 0.5 / np.sqrt(num_perm) * 1.25
    assert max(errors) < 5 * 0.5 / np.sqrt(num_perm)


def test_identical_and_disjoint_sets() -> None:
    rng = np.random.default_rng(1)
    a = np.unique(rng.integers(0, 2**64 - 1, 500, dtype=np.uint64))
    b = np.unique(rng.integers(0, 2**64 - 1, 500, dtype=np.uint64))
    assert estimate_jaccard(signature(a), signature(a.copy())) == 1.0
    assert estimate_jaccard(signature(a), signature(b)) < 0.05


def test_short_documents_are_densified_consistently() -> None:
    short = np.array([1, 2, 3], dtype=np.uint64)
    sig = signature(short, 128)
    assert set(sig.values.tolist()) <= set(signature(short, 128).values.tolist())
    assert len(set(sig.values.tolist())) == 3  # every bin filled from the three shingles
    assert estimate_jaccard(sig, signature(short.copy(), 128)) == 1.0


def test_signatures_serialize_to_fixed_bytes() -> None:
    sig = signature(np.arange(1, 400, dtype=np.uint64), 85, seed=7)
    data = sig.to_bytes()
    assert len(data) == 20 + 8 * 85
    assert Signature.from_bytes(data) == sig
    with pytest.raises(ValueError, match="other settings"):
        estimate_jaccard(sig, signature(np.arange(1, 400, dtype=np.uint64), 85, seed=8))
    with pytest.raises(ValueError, match="not a canon signature"):
        Signature.from_bytes(b"XXXX" + data[4:])


def test_batch_equals_one_at_a_time() -> None:
    rng = np.random.default_rng(5)
    docs = [np.unique(rng.integers(0, 2**64 - 1, int(n), dtype=np.uint64)) for n in (1, 7, 300)]
    assert signatures(docs, 64) == [signature(d, 64) for d in docs]


def test_banding_favours_recall() -> None:
    for threshold in (0.5, 0.8, 0.9):
        bands, rows = optimal_bands(threshold, 128)
        assert bands * rows <= 128
        assert candidate_probability(threshold, bands, rows) > 0.9
        assert candidate_probability(threshold + 0.05, bands, rows) > 0.98
    # datasketch's default for 0.9 at 128 (5 bands of 25 rows) finds such a pair 31% of the time
    assert candidate_probability(0.9, 5, 25) == pytest.approx(0.31, abs=0.01)
    keys = band_keys(np.arange(128, dtype=np.uint64), *optimal_bands(0.8, 128))
    assert keys.shape == (1, optimal_bands(0.8, 128)[0])


@pytest.mark.parametrize(("threshold", "num_perm"), [(0, 128), (1.5, 128), (0.8, 0)])
def test_bad_settings(threshold: float, num_perm: int) -> None:
    with pytest.raises(canon.OptionError) as info:
        optimal_bands(threshold, num_perm)
    assert info.value.option == ("threshold" if num_perm else "num_perm")


def test_planted_near_duplicates_recall_and_precision() -> None:
    rng = np.random.default_rng(11)
    entries = []
    planted = {}
    for i in range(600):
        original, copy = _pair(rng, 400, float(rng.uniform(0.6, 1.0)))
        entries.append(Entry(f"doc{i}", original, 400))
        if i < 150:  # the first 150 documents get a near-copy each
            entries.append(Entry(f"copy{i}", copy, 399))
            planted[(f"doc{i}", f"copy{i}")] = exact_jaccard(original, copy)
    result = dedup(entries, 0.8)
    found = {(a, b): j for c in result.clusters for a, b, j in c.pairs}
    expected = {pair for pair, j in planted.items() if j >= 0.8}
    assert len(expected) > 30
    assert len(expected & found.keys()) / len(expected) >= 0.95  # recall
    assert all(j >= 0.8 for j in found.values())  # precision 1.0: every pair verified
    for (a, b), j in found.items():
        assert planted.get((a, b), planted.get((b, a))) == pytest.approx(j)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sets(st.integers(0, 40), min_size=1, max_size=12), min_size=2, max_size=12))
def test_clusters_are_components_of_verified_pairs(sets: list[set[int]]) -> None:
    entries = [
        Entry(f"d{i}", np.array(sorted(s), dtype=np.uint64), len(s)) for i, s in enumerate(sets)
    ]
    result = dedup(entries, 0.5, num_perm=256)
    for cluster in result.clusters:
        assert len(cluster.members) >= 2
        assert cluster.representative in cluster.members
        assert all(similarity >= 0.5 for _, _, similarity in cluster.pairs)
    # every reported pair is a true pair; no document is in two clusters
    members = [m for c in result.clusters for m in c.members]
    assert len(members) == len(set(members))
    truth = {
        (f"d{i}", f"d{j}")
        for i, j in itertools.combinations(range(len(sets)), 2)
        if len(sets[i] & sets[j]) / len(sets[i] | sets[j]) >= 0.5
    }
    reported = {(a, b) for c in result.clusters for a, b, _ in c.pairs}
    assert reported <= truth


def test_the_representative_is_not_the_longest_text() -> None:
    """Three copies of one set: the length of the texts decides nothing (the rules of
    canon.dedup.keep do), so the first read is kept."""
    same = np.arange(1, 50, dtype=np.uint64)
    entries = [Entry("a", same, 10), Entry("b", same, 30), Entry("c", same, 30)]
    (cluster,) = dedup(entries, 0.9).clusters
    assert cluster.members == ("a", "b", "c") and cluster.representative == "a"
    assert cluster.chosen_by == "first-read"


def test_dedup_command(tmp_path: Path, examples: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = (examples / "original.txt").read_text("utf-8")
    (corpus / "a.txt").write_text(text, "utf-8")
    (corpus / "b.txt").write_text(text.replace("Чай", "Напиток", 1), "utf-8")
    (corpus / "c.txt").write_text((examples / "rewrite.txt").read_text("utf-8"), "utf-8")
    out = tmp_path / "clusters.jsonl"
    result = run_cli("dedup", corpus, "--threshold", "0.8", "--out", out)
    assert result.returncode == 0, result.stderr
    (cluster,) = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert cluster["members"] == [str(corpus / "a.txt"), str(corpus / "b.txt")]
    assert cluster["pairs"][0][2] > 0.9
    assert "documents 3, clusters 1" in result.stderr

    db = tmp_path / "c.db"
    added = run_cli("index", "add", db, corpus)
    assert added.returncode == 0, added.stderr
    from_index = run_cli("dedup", "--index", db, "--threshold", "0.8")
    (again,) = [json.loads(line) for line in from_index.stdout.splitlines()]
    assert again["members"] == cluster["members"]

    bad = run_cli("dedup", corpus, "--threshold", "2")
    assert bad.returncode == 2 and "--threshold must be in (0, 1]" in bad.stderr
