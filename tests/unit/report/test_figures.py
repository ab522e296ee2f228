"""Figures of the view: English as the command line writes them, any locale at render time."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from canon.report.model.figures import Figures, count, figures, number, percentage, share, shown

NBSP = "\u00a0"


def test_known_answers_in_english_and_russian() -> None:
    cases = [
        (figures(count(2320)), "2,320", f"2{NBSP}320"),
        (figures(share(0.053)), "5.3%", f"5,3{NBSP}%"),
        (figures(percentage(28.7)), "28.7%", f"28,7{NBSP}%"),
        (figures(number(-0.41, 2), ", ", number(0.81, 2)), "-0.41, 0.81", "-0,41, 0,81"),
        (figures(count(395), "/", count(12428)), "395/12,428", f"395/12{NBSP}428"),
        (figures("a {b} ", count(1000)), "a {b} 1,000", f"a {{b}} 1{NBSP}000"),
    ]
    for made, english, russian in cases:
        assert made == english and str(made) == english and made.said("en") == english
        assert made.said("ru") == russian
        assert shown(made, "ru") == russian


def test_plain_values_are_shown_as_they_are() -> None:
    assert shown("2,320", "ru") == "2,320" and shown(7, "ru") == 7


@given(st.floats(min_value=0, max_value=1), st.integers(min_value=0, max_value=10**9))
def test_english_is_what_python_writes_and_pickling_keeps_the_numbers(
    value: float, whole: int
) -> None:
    made = figures(share(value), " of ", count(whole))
    assert made == f"{value:.1%} of {whole:,}"
    again = pickle.loads(pickle.dumps(made))
    assert isinstance(again, Figures) and again == made
    assert again.said("ru") == made.said("ru")
    # the same digits in both languages, only the marks differ
    said = made.said("ru").replace(NBSP, "").replace(",", ".").replace(" ", "")
    assert said == str(made).replace(",", "").replace(" ", "")
