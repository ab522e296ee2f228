"""Metric laws, known answers, too-short texts and the side-by-side table."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import canon

sets = st.sets(st.integers(0, 30), min_size=1, max_size=20)


@given(sets, sets)
def test_metric_laws(a: set[int], b: set[int]) -> None:
    common, jaccard, dice, cont_a, cont_b = canon.compare_sets(a, b)
    assert common == len(a & b)
    assert canon.compare_sets(b, a) == (common, jaccard, dice, cont_b, cont_a)  # symmetry
    for value in (jaccard, dice, cont_a, cont_b):
        assert 0.0 <= value <= 1.0
    assert jaccard <= dice  # Dice = 2J / (1 + J) >= J
    assert dice == pytest.approx(2 * jaccard / (1 + jaccard))
    assert jaccard <= min(cont_a, cont_b)
    assert (jaccard == 1.0) == (a == b)
    assert (cont_a == 1.0) == (a <= b)


@given(sets, sets, sets)
def test_jaccard_distance_triangle_inequality(a: set[int], b: set[int], c: set[int]) -> None:
    d = {}
    for x, y in itertools.combinations("abc", 2):
        d[x + y] = (
            1 - canon.compare_sets({"a": a, "b": b, "c": c}[x], {"a": a, "b": b, "c": c}[y])[1]
        )
    assert d["ac"] <= d["ab"] + d["bc"] + 1e-12


def test_empty_sets_are_refused() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        canon.compare_sets(set(), {1})


def test_identical_texts() -> None:
    text = "Мама мыла раму, а папа читал газету"
    for profile in ("raw", "lemma", "stem"):
        result = canon.compare(text, text, profile=profile)
        assert result.jaccard == result.dice == 1.0


def test_lemma_sees_through_changed_endings() -> None:
    first = "Кошка ловила мышей в старом амбаре"
    second = "Кошки ловят мышь в старых амбарах"
    raw = canon.compare(first, second, k=2, profile="raw")
    lemma = canon.compare(first, second, k=2, profile="lemma")
    assert raw.common == 0
    assert lemma.jaccard == 1.0


def test_too_short_names_words_and_k() -> None:
    with pytest.raises(
        canon.TextTooShort, match="second text has 2 canonical words, fewer than k=3"
    ):
        canon.compare("раз два три четыре", "раз два", k=3, profile="raw")
    with pytest.raises(ValueError):  # TextTooShort is a ValueError
        canon.compare("", "", k=1, profile="raw")


def test_stop_words_can_make_a_text_too_short() -> None:
    with pytest.raises(canon.TextTooShort, match="first text has 0 canonical words"):
        canon.compare("и в на", "кот сидит на окне", k=1)


def test_canonical_inputs_must_share_the_profile() -> None:
    raw = canon.canonicalize("раз два три", "raw")
    assert canon.compare(raw, "раз два три", k=2, profile="raw").jaccard == 1.0
    with pytest.raises(canon.ProfileError, match="cannot be compared"):
        canon.compare(raw, "раз два три", k=2, profile="lemma")


def test_table_side_by_side() -> None:
    table = canon.compare_table(
        "Кошка ловила мышей в старом амбаре у реки",
        "Кошки ловят мышь в старых амбарах у рек",
        ks=(2, 3, 9),
        profiles=("raw", "lemma"),
    )
    assert table.ks == (2, 3, 9)
    assert [p.name for p in table.profiles] == ["raw", "lemma"]
    raw2, lemma2 = table.cell("raw", 2), table.cell("lemma", 2)
    assert isinstance(raw2, canon.Comparison) and isinstance(lemma2, canon.Comparison)
    assert lemma2.jaccard > raw2.jaccard
    assert isinstance(table.cell("raw", 9), canon.TooShort)
    assert table.words == {"raw": (8, 8), "lemma": (6, 6)}
    data = table.to_dict()
    assert [row["k"] for row in data["rows"]] == [2, 3, 9]
    assert data["rows"][2]["raw"]["too_short"] is True
    assert data["rows"][0]["lemma"]["jaccard"] == lemma2.jaccard
    assert {p["profile"] for p in data["profiles"]} == {"raw", "lemma"}


def test_table_equals_single_comparisons() -> None:
    first, second = "один два три четыре пять шесть", "один два три четыре семь восемь"
    table = canon.compare_table(first, second, ks=(1, 2, 3), profiles=("raw", "stem"))
    for profile, k in itertools.product(("raw", "stem"), (1, 2, 3)):
        assert table.cell(profile, k) == canon.compare(first, second, k=k, profile=profile)


def test_comparison_reports_folds() -> None:
    result = canon.compare("Эта собака лает громко", "Эта сoбака лает громко", k=2)
    assert result.jaccard == 1.0
    assert [f.original for f in result.second_folds] == ["сoбака"]
    assert result.to_dict()["second_folds"][0]["folded"] == "собака"
