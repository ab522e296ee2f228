"""canon.text.normalize: the whole text's NFKC + casefold, marks stripped, offsets mapped back."""

from __future__ import annotations

import time
import unicodedata

import numpy as np
import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from canon.text.normalize import Normalized, normalize

# Characters that change under NFKC or casefold, combine with a neighbour, or are invisible:
# every path of the module (plain runs, unit-by-unit, coarse units, one whole unit).
_TRICKY = [
    "…",  # one character becomes three
    "№",  # becomes "no"
    "ﬁ",  # a ligature becomes two letters
    "ẞ",  # casefolds to "ss"
    "½",  # becomes "1⁄2"
    "\u00a0",  # no-break space
    "\u2011",  # non-breaking hyphen, NFKC → U+2010
    "\u0301",  # combining acute (stress)
    "\u0300",  # combining grave
    "\u0306",  # combining breve: и + ◌̆ → й
    "\u0308",  # combining diaeresis: е + ◌̈ → ё
    "\u00ad",  # soft hyphen
    "\u200b",  # zero-width space
    "\ufeff",  # BOM inside a text
    "\u1100",  # Hangul leading consonant
    "\u1161",  # Hangul vowel: composes with the consonant before it
    "Ａ",  # fullwidth A
    "ǅ",  # titlecase digraph
]
_PLAIN = list("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁЙЯabcXYZ019 .,-")
texts = st.text(st.sampled_from(_PLAIN + _TRICKY), max_size=40)


def _reference(text: str, form: str = "NFKC", casefold: bool = True) -> str:
    out = unicodedata.normalize(form, text)
    return out.casefold() if casefold else out


def _char_spans(norm: Normalized) -> list[tuple[int, int]]:
    return [norm.span(i, i + 1) for i in range(len(norm.text))]


@pytest.mark.parametrize(
    ("text", "expected", "spans"),
    [
        ("Ёлка…", "ёлка...", [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (4, 5), (4, 5)]),
        ("№5", "no5", [(0, 1), (0, 1), (1, 2)]),
        ("и\u0306", "й", [(0, 2)]),  # a letter and its mark become one letter
        ("ﬁ", "fi", [(0, 1), (0, 1)]),
        ("ẞ", "ss", [(0, 1), (0, 1)]),
        ("\u1100\u1161", "가", [(0, 2)]),  # jamo compose: one unit
        ("Привет, МИР", "привет, мир", [(i, i + 1) for i in range(11)]),
    ],
)
def test_known_normalizations_and_spans(
    text: str, expected: str, spans: list[tuple[int, int]]
) -> None:
    norm = normalize(text)
    assert norm.original == text
    assert norm.text == expected
    assert _char_spans(norm) == spans


@given(texts)
def test_text_is_the_whole_text_nfkc_casefold(text: str) -> None:
    assert normalize(text).text == _reference(text)


@given(texts, st.sampled_from(["NFKC", "NFC"]), st.booleans())
def test_every_form_and_case_setting_is_the_whole_text_normalization(
    text: str, form: str, casefold: bool
) -> None:
    assert normalize(text, form=form, casefold=casefold).text == _reference(text, form, casefold)


def test_nfc_keeps_compatibility_characters_and_casefold_off_keeps_case() -> None:
    assert normalize("ﬁ…№", form="NFC", casefold=False).text == "ﬁ…№"
    assert normalize("½…", form="NFC").text == "½…"
    assert normalize("и\u0306", form="NFC").text == "й"
    assert normalize("Ёлка", casefold=False).text == "Ёлка"


@given(texts)
def test_spans_of_characters_are_ordered_and_inside_the_original(text: str) -> None:
    norm = normalize(text)
    spans = _char_spans(norm)
    for start, end in spans:
        assert 0 <= start < end <= len(text)
    assert [s for s, _ in spans] == sorted(s for s, _ in spans)
    assert [e for _, e in spans] == sorted(e for _, e in spans)


@given(texts)
def test_each_character_comes_from_its_span(text: str) -> None:
    norm = normalize(text)
    for i, (start, end) in enumerate(_char_spans(norm)):
        assert norm.text[i] in _reference(text[start:end])


@given(texts, st.data())
def test_a_range_maps_to_its_first_start_and_last_end(text: str, data: st.DataObject) -> None:
    norm = normalize(text)
    if not norm.text:
        return
    start = data.draw(st.integers(0, len(norm.text) - 1))
    end = data.draw(st.integers(start + 1, len(norm.text)))
    spans = _char_spans(norm)
    assert norm.span(start, end) == (spans[start][0], spans[end - 1][1])


@given(texts, st.data())
def test_span_array_maps_every_range_as_span_does(text: str, data: st.DataObject) -> None:
    norm = normalize(text)
    if not norm.text:
        return
    size = len(norm.text)
    starts = data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=20))
    ranges = [(s, data.draw(st.integers(s + 1, size))) for s in starts]
    assert norm.span_array(np.array(ranges)).tolist() == [list(norm.span(*r)) for r in ranges]


@given(st.text(st.sampled_from(_PLAIN), max_size=40))
def test_plain_text_maps_one_to_one(text: str) -> None:
    norm = normalize(text)
    assert norm.text == text.casefold()
    assert _char_spans(norm) == [(i, i + 1) for i in range(len(text))]


def test_strip_marks_removes_stress_and_invisible_characters_only() -> None:
    text = "Моло\u0301ко и\u00adб\u200bв\ufeff й ё"
    norm = normalize(text, strip_marks=True)
    assert norm.text == "молоко ибв й ё"
    # the stressed vowel keeps its whole unit; the letters after a removed mark keep theirs
    assert norm.span(0, 6) == (0, 7)
    assert text[slice(*norm.span(7, 10))] == "и\u00adб\u200bв"
    assert normalize("о\u0300", strip_marks=True).text == "о"
    # without the option the marks stay, recomposed where NFKC composes
    assert normalize("о\u0301").text == unicodedata.normalize("NFKC", "о\u0301")


@given(texts)
def test_strip_marks_equals_the_reference_with_marks_removed(text: str) -> None:
    norm = normalize(text, strip_marks=True)
    decomposed = unicodedata.normalize("NFD", _reference(text))
    # what the removed characters kept apart composes (е, zero-width space, breve → ӗ)
    kept = (c for c in decomposed if c not in "\u0300\u0301" and unicodedata.category(c) != "Cf")
    assert norm.text == unicodedata.normalize("NFC", "".join(kept))
    for start, end in _char_spans(norm):
        assert 0 <= start < end <= len(text)


def test_yo_fold() -> None:
    assert normalize("Ёж и ёлка").text == "ёж и ёлка"
    assert normalize("Ёж и ёлка", yo_fold=True).text == "еж и елка"
    assert normalize("Ёж и ёлка", casefold=False, yo_fold=True).text == "Еж и елка"
    # е + combining diaeresis composes to ё first, then folds
    assert normalize("е\u0308ж", yo_fold=True).text == "еж"


def test_yo_fold_of_a_capital_yo_alone() -> None:
    assert normalize("Ёж", casefold=False, yo_fold=True).text == "Еж"


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="expected text"):
        normalize(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="NFKC or NFC"):
        normalize("текст", form="NFD")


def test_strip_marks_removes_a_grave_stress_on_e_and_i() -> None:
    assert normalize("ме\u0300л и\u0300х", strip_marks=True).text == "мел их"


def test_strip_marks_removes_a_stress_typed_as_one_letter() -> None:
    assert normalize("мѐл ѝх", strip_marks=True).text == "мел их"
    assert normalize("Мѐл", casefold=False, strip_marks=True).text == "Мел"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ме\u0300л", "мел"),  # grave: NFKC composes it into ѐ first
        ("мѐл", "мел"),  # the composed letter typed directly
        ("соба\u0323ка", "собака"),  # dot below
        ("соба\u0331ка", "собака"),  # macron below
        ("соба\u0307ка", "собака"),  # dot above
        ("со\u0301ба\u0323\u0331ка", "собака"),  # several marks
        ("ї ў ӑ", "і у а"),  # composed letters of other Cyrillic alphabets
        ("и\u0306 е\u0308 й ё", "й ё й ё"),  # the two marks that make letters stay
        ("и\u0323\u0306", "й"),  # a breve on и survives a mark before it
        ("и\u0306\u0306", "й"),  # but only once
        ("а\u0306 о\u0308", "а о"),  # the same marks on other letters go
    ],
)
def test_all_marks_removes_every_mark_but_those_of_yi_and_yo(text: str, expected: str) -> None:
    assert normalize(text, strip_marks=True, all_marks=True).text == expected


def test_all_marks_keeps_capital_yi_and_yo() -> None:
    norm = normalize("И\u0306ОЖ Ё\u0323Ж", casefold=False, strip_marks=True, all_marks=True)
    assert norm.text == "ЙОЖ ЁЖ"


@given(
    st.text(st.sampled_from(_PLAIN + _TRICKY + ["\u0323", "\u0331", "\u0307", "ѐ"]), max_size=40)
)
def test_all_marks_leaves_no_mark_but_breve_and_diaeresis_on_i_and_e(text: str) -> None:
    norm = normalize(text, strip_marks=True, all_marks=True)
    decomposed = unicodedata.normalize("NFD", norm.text)
    for i, char in enumerate(decomposed):
        if unicodedata.category(char) in ("Mn", "Me"):
            assert (char, decomposed[i - 1]) in {("\u0306", "и"), ("\u0308", "е")}
    for start, end in _char_spans(norm):
        assert 0 <= start < end <= len(text)


@given(st.text(st.sampled_from(_PLAIN), max_size=30), st.data())
def test_inserting_marks_into_words_never_changes_the_text(text: str, data: st.DataObject) -> None:
    marks = st.sampled_from(["\u0300", "\u0301", "\u0323", "\u0331", "\u0307", "\u0304"])
    altered = list(text)
    for _ in range(data.draw(st.integers(0, 5))):
        if not altered:
            break
        at = data.draw(st.integers(0, len(altered) - 1))
        if altered[at].isalpha():
            altered[at] += data.draw(marks)
    expected = normalize(text, strip_marks=True, all_marks=True).text
    assert normalize("".join(altered), strip_marks=True, all_marks=True).text == expected


def test_long_text_with_many_units_is_linear() -> None:
    text = ("Съешь… ещё и\u0306 этих мя\u0301гких № булок. " * 5000)[:200_000]
    started = time.perf_counter()
    norm = normalize(text, strip_marks=True)
    assert time.perf_counter() - started < 5  # quadratic work would take minutes
    assert norm.span(0, len(norm.text)) == (0, len(text))


_IGNORABLES = [
    "\u034f",  # combining grapheme joiner
    "\ufe0f",  # variation selector 16
    "\ufe00",  # variation selector 1
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\u3164",  # Hangul filler
    "\uffa0",  # halfwidth Hangul filler
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\u2060",  # word joiner
    "\u00ad",  # soft hyphen
    "\U000e0100",  # variation selector 17
]


@pytest.mark.parametrize("char", _IGNORABLES)
def test_ignorables_inside_a_word_are_removed(char: str) -> None:
    text = f"со{char}ба{char}{char}ка и кот"
    norm = normalize(text, ignorables=True)
    assert norm.text == "собака и кот"
    assert norm.span(0, 6) == (0, 9)


@pytest.mark.parametrize("char", _IGNORABLES)
def test_ignorables_between_words_act_as_a_space(char: str) -> None:
    assert normalize(f"собака {char}кот{char}{char}.", ignorables=True).text.split() == [
        "собака",
        "кот",
        ".",
    ]
    assert normalize(f"{char}кот", ignorables=True).text == " кот"


@pytest.mark.parametrize("char", _IGNORABLES)
def test_ignorables_beside_a_space_are_removed(char: str) -> None:
    # the gaps stay as typed: letters spaced apart are spaced alike still
    assert normalize(f"с{char} о б {char}а к а", ignorables=True).text == "с о б а к а"
    # at a line's end it may mark a word running on (a soft hyphen): a space, as between words
    assert normalize(f"ла{char} \nяла", ignorables=True).text == "ла  \nяла"


def test_without_the_option_ignorables_stay() -> None:
    assert "\u1160" in normalize("со\u3164бака").text


@given(
    st.text(st.sampled_from(_PLAIN + _TRICKY + _IGNORABLES), max_size=40),
    st.booleans(),
)
def test_ignorables_leave_none_and_spans_stay_in_the_text(text: str, marks: bool) -> None:
    norm = normalize(text, strip_marks=marks, all_marks=marks, ignorables=True)
    assert regex.search(r"\p{Default_Ignorable_Code_Point}", norm.text) is None
    for start, end in _char_spans(norm):
        assert 0 <= start < end <= len(text)
