"""The raw profile reproduces the reference rules of seed 000 exactly, on any input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import ref_compare, ref_shingles, ref_words, texts

import canon


@given(texts)
def test_raw_tokens_equal_reference(text: str) -> None:
    assert list(canon.canonicalize(text, "raw").tokens) == ref_words(text)


@given(texts, texts, st.integers(min_value=1, max_value=4))
def test_raw_comparison_equals_reference(first: str, second: str, k: int) -> None:
    try:
        expected = ref_compare(first, second, k)
    except ValueError:
        with pytest.raises(canon.TextTooShort):
            canon.compare(first, second, k=k, profile="raw")
        return
    result = canon.compare(first, second, k=k, profile="raw").to_dict()
    assert {key: result[key] for key in expected} == expected
    ref_a = ref_shingles(ref_words(first), k)
    assert canon.shingles(canon.canonicalize(first, "raw").tokens, k) == ref_a


def test_seed_known_answer() -> None:
    result = canon.compare("a b c d", "a b c e", k=2, profile="raw")
    assert result.common == 2
    assert result.first_shingles == result.second_shingles == 3
    assert result.dice == pytest.approx(2 / 3)
    assert result.jaccard == pytest.approx(1 / 2)
    assert result.containment_first == result.containment_second == pytest.approx(2 / 3)


def test_seed_module_example() -> None:
    result = canon.compare(
        "раз два три четыре пять", "раз два три четыре шесть", k=2, profile="raw"
    )
    assert (result.common, result.first_shingles) == (3, 4)
    assert result.jaccard == pytest.approx(3 / 5)
    assert result.dice == pytest.approx(3 / 4)


def test_windows_count_is_n_minus_k_plus_one() -> None:
    assert canon.shingles(["a", "b", "c", "d"], 2) == {("a", "b"), ("b", "c"), ("c", "d")}
    assert canon.shingles(["a"], 2) == set()


def test_repeats_add_no_weight() -> None:
    once = canon.compare("a b c x y z", "a b c q w e", k=3, profile="raw")
    twice = canon.compare("a b c a b c x y z", "a b c q w e", k=3, profile="raw")
    assert once.common == twice.common == 1
