"""canon.fingerprints.lsh: the banding chosen from a threshold, the S-curve, and band keys.

tests/test_dedup.py checks that the chosen banding favours recall and refuses bad settings;
this file checks the choice against the exact integrals, the S-curve against sampling, and
what a band key depends on.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canon.fingerprints.lsh import band_keys, candidate_probability, optimal_bands


def _exact_areas(threshold: Fraction, bands: int, rows: int) -> tuple[Fraction, Fraction]:
    """The false-positive area below the threshold and the false-negative area above it,
    integrated exactly: 1 - (1 - s^r)^b = sum over i of (-1)^(i+1) C(b, i) s^(r·i)."""
    below = whole = Fraction(0)
    for i in range(1, bands + 1):
        term = Fraction((-1) ** (i + 1) * comb(bands, i), rows * i + 1)
        below += term * threshold ** (rows * i + 1)
        whole += term
    return below, (1 - threshold) - (whole - below)


def _exact_costs(
    threshold: float, num_perm: int, fp_weight: float, fn_weight: float
) -> dict[tuple[int, int], Fraction]:
    t = Fraction(threshold)
    costs = {}
    for bands in range(1, num_perm + 1):
        for rows in range(1, num_perm // bands + 1):
            fp, fn = _exact_areas(t, bands, rows)
            costs[bands, rows] = Fraction(fp_weight) * fp + Fraction(fn_weight) * fn
    return costs


@pytest.mark.parametrize(
    ("threshold", "num_perm", "expected"),
    [
        (0.5, 128, (26, 3)),
        (0.8, 128, (16, 8)),
        (0.9, 128, (9, 14)),
        (0.8, 64, (10, 6)),
        (0.3, 32, (12, 1)),
        (1.0, 16, (1, 16)),  # only identical sets: every value in one band
        (0.5, 1, (1, 1)),
    ],
)
def test_optimal_bands_known_values(
    threshold: float, num_perm: int, expected: tuple[int, int]
) -> None:
    assert optimal_bands(threshold, num_perm) == expected
    costs = _exact_costs(threshold, num_perm, 0.05, 0.95)
    assert min(costs, key=costs.__getitem__) == expected


@settings(max_examples=25, deadline=None)
@given(
    st.floats(0.05, 1.0),
    st.integers(1, 40),
    st.sampled_from([(0.05, 0.95), (0.5, 0.5), (0.9, 0.1)]),
)
def test_optimal_bands_minimizes_the_exact_cost(
    threshold: float, num_perm: int, weights: tuple[float, float]
) -> None:
    bands, rows = optimal_bands(threshold, num_perm, *weights)
    assert bands >= 1 and rows >= 1 and bands * rows <= num_perm
    costs = _exact_costs(threshold, num_perm, *weights)
    best = min(costs.values())
    # The areas are integrated on a grid of 2,001 points that need not hold the threshold: a
    # piece of the curve up to one grid step (1/2000) wide may land on the wrong side, so the
    # choice's exact cost is within twice that area of the best one's.
    assert float(costs[bands, rows] - best) <= 2 / 2000


@given(st.floats(0, 1), st.integers(1, 64), st.integers(1, 64))
def test_candidate_probability_is_the_s_curve(similarity: float, bands: int, rows: int) -> None:
    p = candidate_probability(similarity, bands, rows)
    assert p == pytest.approx(1 - (1 - similarity**rows) ** bands, abs=1e-12)
    assert 0 <= p <= 1
    assert candidate_probability(similarity, 1, rows) == pytest.approx(similarity**rows)
    assert candidate_probability(similarity, bands, 1) == pytest.approx(
        1 - (1 - similarity) ** bands
    )


def test_candidate_probability_ends_and_monotony() -> None:
    assert candidate_probability(0.0, 16, 8) == 0.0
    assert candidate_probability(1.0, 16, 8) == 1.0
    curve = [candidate_probability(s, 16, 8) for s in np.linspace(0, 1, 101)]
    assert curve == sorted(curve)
    # more bands: more candidates; more rows: fewer
    assert candidate_probability(0.6, 17, 8) > candidate_probability(0.6, 16, 8)
    assert candidate_probability(0.6, 16, 9) < candidate_probability(0.6, 16, 8)


@pytest.mark.parametrize(
    ("similarity", "bands", "rows"), [(0.8, 16, 8), (0.5, 26, 3), (0.9, 9, 14)]
)
def test_band_keys_share_a_band_as_often_as_the_s_curve_says(
    similarity: float, bands: int, rows: int
) -> None:
    """Pairs whose positions agree independently with probability ``similarity``."""
    rng = np.random.default_rng(bands * rows)
    pairs, width = 4000, bands * rows
    first = rng.integers(0, 2**63, (pairs, width), dtype=np.uint64)
    agree = rng.random((pairs, width)) < similarity
    second = np.where(agree, first, rng.integers(0, 2**63, (pairs, width), dtype=np.uint64))
    shared = (band_keys(first, bands, rows) == band_keys(second, bands, rows)).any(axis=1)
    p = candidate_probability(similarity, bands, rows)
    assert abs(shared.mean() - p) < 4 * np.sqrt(p * (1 - p) / pairs) + 1e-3


@settings(max_examples=50)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(1, 6), st.integers(0, 10), st.data())
def test_band_keys_shape_and_what_a_key_depends_on(
    bands: int, rows: int, documents: int, extra: int, data: st.DataObject
) -> None:
    width = bands * rows + extra  # values past bands·rows belong to no band
    seed = data.draw(st.integers(0, 2**32))
    values = np.random.default_rng(seed).integers(0, 2**63, (documents, width), dtype=np.uint64)
    keys = band_keys(values, bands, rows)
    assert keys.shape == (documents, bands) and keys.dtype == np.uint64
    assert np.array_equal(band_keys(values.copy(), bands, rows), keys)  # equal signatures
    for row in range(documents):  # each document's keys are its own, batch or not
        assert np.array_equal(band_keys(values[row], bands, rows)[0], keys[row])
    changed = values.copy()
    position = data.draw(st.integers(0, width - 1))
    changed[0, position] ^= np.uint64(1 + data.draw(st.integers(0, 2**32)))
    after = band_keys(changed, bands, rows)
    touched = position // rows if position < bands * rows else None
    for band in range(bands):
        assert (after[0, band] == keys[0, band]) == (band != touched)
    assert np.array_equal(after[1:], keys[1:])


def test_equal_bands_in_other_positions_give_other_keys() -> None:
    same = np.zeros((1, 32), dtype=np.uint64)
    keys = band_keys(same, 8, 4)
    assert len(set(keys[0].tolist())) == 8  # the band's index is part of its key
    assert band_keys(np.arange(16, dtype=np.uint64), 4, 4).shape == (1, 4)  # one signature
