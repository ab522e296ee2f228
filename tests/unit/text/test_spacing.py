"""Words cut apart by spaces or line breaks are read as the words a reader sees: letters spaced
apart by any space character, and line-end hyphenation with a hyphen or a soft hyphen."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

import canon
from canon.text.lemmatize import is_known
from canon.text.spacing import line_break_joins, spaced_letter_joins

SENTENCE = "Большая собака долго лаяла на соседского кота возле старого забора"
CLEAN = canon.canonicalize(SENTENCE, "lemma").tokens

# Every space separator of Unicode (category Zs), and the invisible separators that
# copywriters put between letters instead.
SPACES = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Zs"]
INVISIBLE = ["\u200b", "\u2060", "\u2063", "\u3164", "\u115f"]


def _spaced(text: str, gap: str, between_words: str) -> str:
    return between_words.join(gap.join(word) for word in text.split())


@pytest.mark.parametrize("gap", SPACES + INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_letters_spaced_by_any_space_read_as_the_words(gap: str) -> None:
    # Words apart by wider gaps of the same character too; not for the Hangul fillers, which
    # the invisible-character rules read first (where they outnumber spaces, as spaces or not
    # by the dictionary, run by run).
    widths = ("  ", " ") if gap in "\u3164\u115f" else ("  ", gap * 3, " ")
    for between in widths:
        text = _spaced(SENTENCE, gap, between)
        assert canon.canonicalize(text, "lemma").tokens == CLEAN, (repr(gap), repr(between))


def test_a_spaced_run_is_reported_once_with_its_words() -> None:
    text = "Эта с о б а к а  л а е т громко"
    tricks = canon.canonicalize(text, "lemma").tricks
    assert [(t.kind, text[t.start : t.end], t.repaired) for t in tricks] == [
        ("spacing", "с о б а к а  л а е т", "собака лает")
    ]


def test_the_fewest_words_when_the_gaps_are_all_alike() -> None:
    (joined,) = spaced_letter_joins("с о б а к а л а е т")
    assert joined.forms == ("собака", "лает")
    assert [("с о б а к а л а е т"[a:b]) for a, b in joined.spans] == ["с о б а к а", "л а е т"]


@pytest.mark.parametrize(
    "text",
    [
        "а и в",  # three one-letter words: too short a run
        "в с у и к",  # letters that spell no words of two letters or more on average
        "ж ж ж ж ж",
        "и т. д. и т. п.",
    ],
)
def test_runs_of_real_one_letter_words_stay(text: str) -> None:
    assert spaced_letter_joins(canon.canonicalize(text, "raw").text.casefold()) == []


@pytest.mark.parametrize("cut", ["-\n", "-\r\n", "\u00ad\n", "\u00ad \n", "- \n  "])
def test_line_end_hyphenation_is_joined(cut: str) -> None:
    text = f"Большая собака долго ла{cut}яла на соседского кота возле ста{cut}рого забора"
    folded = canon.canonicalize(text, "lemma")
    assert folded.tokens == CLEAN
    assert sum(t.kind == "hyphen" for t in folded.tricks) == 2


def test_two_words_on_two_lines_stay_two() -> None:
    assert line_break_joins("кот\nматрос") == []
    assert line_break_joins("из-\nза") == []  # no word «изза»: the hyphen rules' business
    assert canon.canonicalize("кот\nматрос", "lemma").tokens == ("кот", "матрос")


def test_a_long_run_is_bounded() -> None:
    text = " ".join("абвгд" * 200)
    assert spaced_letter_joins(text) == []  # over the run limit: left alone, at once


def test_a_preposition_bound_by_a_no_break_space_is_its_own_word() -> None:
    text = "\u2009".join("в\u00a0школе") + "   " + "\u2009".join("Харари")
    assert canon.canonicalize(text, "lemma").tokens == ("школа", "харари")  # the name whole


def test_latin_letters_spaced_alike_are_one_word() -> None:
    assert spaced_letter_joins("r e n a u l t")[0].forms == ("renault",)
    assert spaced_letter_joins("a b c") == []  # three letters: too few to say


@given(st.lists(st.tuples(st.sampled_from("авиксуоя"), st.sampled_from([" ", "  ", "\u2009"]))))
def test_one_letter_words_in_a_row_are_joined_only_into_dictionary_words(
    words: list[tuple[str, str]],
) -> None:
    text = "".join(letter + gap for letter, gap in words)
    for joined in spaced_letter_joins(text):  # «к а в а» may be «кава»; «и и и и» is nothing
        assert all(len(w) == 1 or is_known(w) for w in joined.forms), joined
        assert max(map(len, joined.forms)) >= 4, joined


@pytest.mark.parametrize(
    "text, tokens",
    [
        # a hyphen inside a word spaced apart: the compound, whole
        ("с о о б щ и л а   п р е с с-с л у ж б а", ["сообщить", "пресс-служба"]),
        ("в и р у с   C O V I D-19", ["вирус", "covid-19"]),
        # short words alone between numbers and stops, closer inside than around
        ("25   м а я.   Т о г д а   о н   н е   з н а л", ["25", "май", "не", "знать"]),
        ("60\u2009\u2009\u2009к\u2009м,   а   н е   б о л ь ш е", ["60", "км", "не", "большой"]),
    ],
)
def test_spaced_words_beside_hyphens_numbers_and_stops_are_read(
    text: str, tokens: list[str]
) -> None:
    assert list(canon.canonicalize(text, "lemma").tokens) == tokens


@pytest.mark.parametrize("text", ["и т. д.", "и я", "а   я", "в 5 и 7 часов", "1 2 3 4"])
def test_letters_spaced_as_the_words_around_them_stay(text: str) -> None:
    assert spaced_letter_joins(canon.canonicalize(text, "raw").text.casefold()) == []


_SPACE_SEPARATORS = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Zs"]


@pytest.mark.parametrize("gap", _SPACE_SEPARATORS, ids=lambda g: f"U+{ord(g):04X}")
def test_every_space_separator_between_letters_is_seen_through(gap: str) -> None:
    text = "Об этом 25 мая сообщила пресс-служба, и он не знал, что COVID-19 так опасен."
    letters = re.compile(r"[а-яА-ЯёЁa-zA-Z]+")
    spaced = (gap * 3).join(letters.sub(lambda m: gap.join(m[0]), p) for p in text.split(" "))
    assert canon.canonicalize(spaced, "lemma").tokens == canon.canonicalize(text, "lemma").tokens


def test_a_hyphen_cutting_a_spaced_word_is_read_by_the_hyphen_rules() -> None:
    spaced = "з а н я-т о с т и   в   р е г и о н е   п р о д о-л ж а е т   р а с т и"
    assert (
        canon.canonicalize(spaced, "lemma").tokens
        == canon.canonicalize("занятость в регионе продолжает расти", "lemma").tokens
    )


def test_a_line_that_starts_with_a_capital_is_not_run_into() -> None:
    """A capital after a line break starts a sentence: no word is joined across it (the
    sentence split cuts there, and every word must lie inside a sentence)."""
    canonical = canon.canonicalize("А\nЁ", "lemma")
    assert all(span != (0, 3) for span in canonical.spans)
    assert canon.canonicalize("сло-\nво", "lemma").tokens == ("слово",)


@pytest.mark.parametrize(
    "inside", [*INVISIBLE, "\u00ad", "\u034f", "\u200d"], ids=lambda c: f"U+{ord(c):04X}"
)
def test_an_invisible_character_inside_a_spaced_word_leaves_it_whole(inside: str) -> None:
    """Letters one space apart, words three, and an invisible character put inside a word
    with a space either side (a gap of two once it is gone): the word stays whole, Russian
    or a name the dictionary lacks."""
    words = ["Большая", "собака", "OnlyOneOf", "долго", "лаяла", "HANTEO"]
    typed = "   ".join(" ".join(w[:2]) + f" {inside} " + " ".join(w[2:]) for w in words)
    plain = canon.canonicalize(" ".join(words), "lemma").tokens
    assert canon.canonicalize(typed, "lemma").tokens == plain


def test_gaps_of_three_widths_part_words_where_the_dictionary_reads_best() -> None:
    """Letters one space apart, words two, and one gap of three: words at two and three."""
    (joined,) = spaced_letter_joins("с о б а к а  л а е т   г р о м к о  и  д о л г о")
    assert joined.forms == ("собака", "лает", "громко", "и", "долго")
