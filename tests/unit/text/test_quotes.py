"""Quotations: known answers, a brute-force reading, and linear time on hostile input."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canon
from canon.text.quotes import quoted_ranges
from canon.uniqueness.against_index import _windows_in_quotes


def _brute_ranges(text: str) -> list[tuple[int, int]]:
    """The definition, spelled out quadratically: «» by depth, then the other pairs outside them."""
    import re

    ranges, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "«":
            start = i if depth == 0 else start
            depth += 1
        elif ch == "»" and depth:
            depth -= 1
            if depth == 0:
                ranges.append((start, i + 1))
    pattern = re.compile(r"„[^„“”]*[“”]|“[^“”]*”|\"[^\"\n]*\"")
    for quote in pattern.finditer(text):
        if not any(s <= quote.start() < e for s, e in ranges):
            ranges.append(quote.span())
    return sorted(ranges)


def test_known_quotations() -> None:
    assert quoted_ranges('a «b» „c“ "d"') == [(2, 5), (6, 9), (10, 13)]
    assert quoted_ranges("«а «б» в» и «г»") == [(0, 9), (12, 15)]  # nested quotes are one
    assert quoted_ranges("«a „b“ c»") == [(0, 9)]  # a quotation inside «…» is part of it
    assert quoted_ranges("no quotes here") == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='«»„“”" a\n', max_size=60))
def test_quoted_ranges_equal_the_brute_force_reading(text: str) -> None:
    assert quoted_ranges(text) == _brute_ranges(text)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=1, max_size=40).map(sorted),
    st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), max_size=8),
    st.integers(1, 5),
    st.integers(1, 3),
)
def test_windows_in_quotes_equal_brute_force(starts, quotes, k, step) -> None:
    spans = [(s, s + 2) for s in starts]
    quotes = [(a, a + length) for a, length in quotes]
    count = 0 if len(spans) < k else (len(spans) - k) // step + 1
    inside = [any(qs <= s and e <= qe for qs, qe in quotes) for s, e in spans]
    expected = [all(inside[i * step : i * step + k]) for i in range(count)]  # wholly inside
    assert _windows_in_quotes(spans, k, step, count, quotes).tolist() == expected


@pytest.mark.slow
def test_thirty_nine_thousand_quotations_are_checked_in_linear_time(tmp_path) -> None:
    # 39,000 short quotations (195 KB) took two minutes when each was compared with each.
    draft = " ".join(f"«слово{i % 97} и ещё {i % 89}» про чай" for i in range(39_000))
    db = tmp_path / "i.db"
    with canon.Index(db, create=True) as index:
        canon.add_sources(index, [], canon.IndexRules([canon.get_profile("raw")], k=3))
    source = tmp_path / "doc.txt"
    source.write_text("совсем другой текст про чай и сад " * 20, encoding="utf-8")
    with canon.Index(db) as index:
        canon.add_sources(index, [str(source)])
    started = time.perf_counter()
    with canon.Index(db, readonly=True) as index:
        result = canon.check(draft, index, canon.CheckSettings(skip_quotes=True))
    assert time.perf_counter() - started < 20  # quadratic code takes minutes here
    assert result.profiles[0].quoted_shingles > 0
    ranges = quoted_ranges(draft)
    assert len(ranges) == 39_000 and np.all(np.diff([s for s, _ in ranges]) > 0)
