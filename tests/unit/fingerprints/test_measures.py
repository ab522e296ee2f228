"""canon.fingerprints.measures: Jaccard, Dice and containment against Python's set arithmetic."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from canon.fingerprints.measures import compare_sets, exact_jaccard

sets = st.sets(st.integers(0, 60), min_size=1, max_size=40)
hash_sets = st.sets(st.integers(0, 2**64 - 1), min_size=1, max_size=80)


def _reference(a: set[int], b: set[int]) -> tuple[int, Fraction, Fraction, Fraction, Fraction]:
    common = len(a & b)
    return (
        common,
        Fraction(common, len(a | b)),
        Fraction(2 * common, len(a) + len(b)),
        Fraction(common, len(a)),
        Fraction(common, len(b)),
    )


@given(sets, sets)
def test_compare_sets_is_set_arithmetic(a: set[int], b: set[int]) -> None:
    common, jaccard, dice, first, second = compare_sets(a, b)
    expected = _reference(a, b)
    assert common == expected[0]
    for got, want in zip((jaccard, dice, first, second), expected[1:], strict=True):
        assert got == pytest.approx(float(want), rel=1e-15, abs=0)


@given(sets, sets)
def test_symmetry_and_relations(a: set[int], b: set[int]) -> None:
    common, jaccard, dice, first, second = compare_sets(a, b)
    swapped = compare_sets(b, a)
    assert swapped == (common, jaccard, dice, second, first)
    assert dice == pytest.approx(2 * jaccard / (1 + jaccard))
    assert jaccard <= min(first, second) <= max(first, second) <= 1
    assert (jaccard == 1) == (a == b)
    assert (common == 0) == (jaccard == 0)
    assert (first == 1) == (a <= b)


def test_known_values() -> None:
    assert compare_sets({1, 2, 3, 4}, {3, 4, 5}) == (2, 2 / 5, 4 / 7, 2 / 4, 2 / 3)
    assert compare_sets({"а"}, {"а"}) == (1, 1.0, 1.0, 1.0, 1.0)
    assert compare_sets({1}, {2}) == (0, 0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize(("a", "b"), [(set(), {1}), ({1}, set()), (set(), set())])
def test_empty_sets_are_refused(a: set[int], b: set[int]) -> None:
    with pytest.raises(ValueError, match="non-empty"):
        compare_sets(a, b)


@given(hash_sets, hash_sets)
def test_exact_jaccard_of_hash_arrays_is_set_jaccard(a: set[int], b: set[int]) -> None:
    first = np.array(sorted(a), dtype=np.uint64)
    second = np.array(sorted(b), dtype=np.uint64)
    assert exact_jaccard(first, second) == pytest.approx(len(a & b) / len(a | b), rel=1e-15)
    assert exact_jaccard(first, second) == compare_sets(a, b)[1]


@given(hash_sets)
def test_exact_jaccard_of_a_set_with_itself_and_its_part(a: set[int]) -> None:
    array = np.array(sorted(a), dtype=np.uint64)
    assert exact_jaccard(array, array.copy()) == 1.0
    half = array[: max(1, len(array) // 2)]
    assert exact_jaccard(array, half) == len(half) / len(array)
