"""Characters posing as Russian letters, of every script the Unicode confusables data knows,
put back before normalization: every twin, digits and signs where the dictionary says so, and
real words of other scripts, numbers and abbreviations left as typed."""

from __future__ import annotations

import sys
import unicodedata

import pytest

import canon
from canon.text.lookalikes import RUSSIAN, fold_lookalikes, twins

SENTENCE = "Большая собака долго лаяла на соседского кота возле старого забора"


def _tokens(text: str) -> tuple[str, ...]:
    return canon.canonicalize(text, "lemma").tokens


CLEAN = _tokens(SENTENCE)


def _posing(char: str, letter: str) -> str:
    """SENTENCE with ``char`` for every ``letter`` (upper case letters: the words capitalized)."""
    if letter.isupper():
        words = [w.capitalize() for w in SENTENCE.split()]
        return " ".join(w.replace(letter, char) for w in words)
    return SENTENCE.replace(letter, char)


def test_the_twins_come_from_the_confusables_data_and_keep_case() -> None:
    table = twins()
    assert table["o"] == "о" and table["O"] == "О" and table["0"] == "О"
    assert table["B"] == "В" and table["b"] == "Ь"  # as they look: B is В, b is Ь
    assert table["ϲ"] == "с" and table["ο"] == "о" and table["օ"] == "о"  # Greek, Armenian
    assert table["ᴋ"] == "к" and table["𝐨"] == "о" and table["ｐ"] == "р"
    assert not set(table) & set(RUSSIAN)
    assert len(table) > 500


def test_every_twin_of_a_letter_in_the_sentence_is_read_as_that_letter() -> None:
    present = set(SENTENCE) | {w[0].upper() for w in SENTENCE.split()}
    broken = []
    for char, letter in sorted(twins().items()):
        if letter not in present:
            continue
        text = _posing(char, letter)
        if _tokens(text) != CLEAN:
            broken.append(f"U+{ord(char):04X} {unicodedata.name(char, '?')} for {letter}")
    assert not broken, broken


def test_a_lunate_sigma_is_folded_before_normalization_makes_it_a_sigma() -> None:
    assert unicodedata.normalize("NFKC", "ϲ").casefold() == "σ"
    folded = canon.canonicalize("ϲобака лает", "lemma")
    assert folded.tokens == ("собака", "лаять")
    assert [(t.kind, t.original, t.repaired) for t in folded.tricks] == [
        ("lookalike", "ϲобака", "собака")
    ]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("с0бака", "собака"),  # a digit with a twin
        ("3абор", "забор"),
        ("ли6ерал", "либерал"),
        ("с০бака", "собака"),  # a Bengali digit zero
        ("с@бака", "собака"),  # a sign with no twin, between letters: the dictionary decides
        ("с4ёт", "счёт"),
        ("к#т", "кот"),
        ("сос$дка", "соседка"),
    ],
)
def test_digits_and_signs_for_letters_make_the_dictionary_word(typed: str, read: str) -> None:
    text, folds = fold_lookalikes(f"Вот {typed} здесь")
    assert [(f.start, f.end, f.original, f.folded) for f in folds] == [
        (4, 4 + len(typed), typed, read)
    ]
    assert len(text) == len(f"Вот {typed} здесь")  # one character for one: offsets hold
    assert _tokens(f"Вот {typed} здесь") == _tokens(f"Вот {read} здесь")


@pytest.mark.parametrize(
    "text",
    [
        "5го мая",  # the 5th: a digit at the edge without a twin is a number
        "30км пути",
        "3d-принтер и seo-специалист",
        "COVID-19 и Wi-Fi",
        "т.е. и т.д.",
        "1С:Бухгалтерия",
        "її та є",  # Ukrainian letters are letters, not look-alikes
        "кошка+собака",  # no word of the dictionary: the sign stays
        "ООО «Ромашка»",
        "email: ivan@mail.ru",
    ],
)
def test_numbers_abbreviations_and_real_words_stay_as_typed(text: str) -> None:
    assert fold_lookalikes(text) == (text, ())


def test_a_segment_with_a_letter_that_has_no_twin_is_a_real_word() -> None:
    assert fold_lookalikes("Ⓐбв и ѯабор")[1] == ()


def test_each_fold_is_reported_where_it_was_typed() -> None:
    text = "Дом, где живёт сoбака, и 3абор."
    tricks = canon.canonicalize(text, "lemma").tricks
    assert [(t.original, t.repaired, text[t.start : t.end]) for t in tricks] == [
        ("сoбака", "собака", "сoбака"),
        ("3абор", "забор", "3абор"),
    ]


def test_the_raw_profile_folds_nothing() -> None:
    assert canon.canonicalize("с0бака ϲобака", "raw").tokens == ("с0бака", "σобака")  # NFKC


def test_letters_without_a_unicode_name_never_crash_the_lemmas() -> None:
    # pymorphy3 asks each letter's name; Python's Unicode data names no Tangut ideograph.
    nameless = [
        chr(c)
        for c in range(sys.maxunicode + 1)
        if chr(c).isalpha() and not unicodedata.name(chr(c), "")
    ]
    assert len(nameless) > 1000
    text = " ".join(f"до{char}ма" for char in nameless[::7])
    tokens = canon.canonicalize(text, "lemma").tokens
    assert len(tokens) == len(nameless[::7])


@pytest.mark.parametrize("char", ["\u06c1", "\u0647", "\ufeeb", "\u05e1"], ids=ascii)
def test_right_to_left_twins_are_read_as_their_letter(char: str) -> None:
    assert _tokens(SENTENCE.replace("о", char)) == CLEAN  # Arabic heh, Hebrew samekh for о


def test_every_hidden_control_and_the_iota_subscript_inside_words_is_removed() -> None:
    hidden = [chr(c) for c in [*range(0x00, 0x09), *range(0x0E, 0x1C), *range(0x7F, 0x85)]]
    hidden += [chr(c) for c in range(0x86, 0xA0)] + ["\u0345"]
    for char in hidden:
        text = " ".join(w[:2] + char + w[2:] for w in SENTENCE.split())
        result = canon.canonicalize(text, "lemma")
        assert result.tokens == CLEAN, ascii(char)
        assert result.tricks, ascii(char)


# --- signs, private use and modifier letters inside words; sequences for one letter --------

_SIGNS = sorted(
    chr(c)
    for c in range(sys.maxunicode + 1)
    if unicodedata.category(chr(c)) in {"Pd", "Ps", "Pe", "Pi", "Pf"}
    and chr(c) not in "-‐‑’"  # hyphens and the apostrophe have rules of their own
) + list('/\\|".,;:!?…')


@pytest.mark.parametrize("mode", ["for a letter", "inside"])
def test_every_bracket_quote_dash_and_punctuation_mark_inside_a_word_is_read(mode: str) -> None:
    # "соб?ка" and "собак?а": the dictionary reads each sign as the letter or as nothing
    word = "соб{}ка" if mode == "for a letter" else "собак{}а"
    broken = [
        f"U+{ord(sign):04X}"
        for sign in _SIGNS
        if _tokens(f"Большая {word.format(sign)} лает") != _tokens("Большая собака лает")
    ]
    assert not broken, broken


@pytest.mark.parametrize(
    "char", ["\ue000", "\uf8ff", "\U000f0000", "\U0010fffd", "ʰ", "ʲ", "ː", "ˈ", "ʷ"], ids=ascii
)
def test_private_use_and_modifier_letters_in_words_are_read_as_nothing(char: str) -> None:
    altered = " ".join(w[:2] + char + w[2:] for w in SENTENCE.split())
    assert _tokens(altered) == CLEAN
    assert _tokens(SENTENCE.replace(" ", char + " ")) == CLEAN  # at the end of every word


@pytest.mark.parametrize(
    ("typed", "read"),
    [("мbl", "мы"), ("бbIстро", "быстро"), ("насьIпал", "насыпал"), ("Вb|ход", "выход")],
)
def test_two_characters_posing_as_one_letter_are_folded(typed: str, read: str) -> None:
    assert _tokens(f"Вот {typed} здесь") == _tokens(f"Вот {read} здесь")
    (trick,) = canon.canonicalize(f"Вот {typed} здесь", "lemma").tricks
    assert (trick.original, trick.repaired) == (typed, read.lower())


@pytest.mark.parametrize(
    "text",
    [
        "т.е. т.к. т.д. и.о. б/у",  # abbreviations: too short to be read as a word
        "ул.Мира и г.Москва",  # a capital after the point: a sentence or a name
        "конец.Начало",
        "Москва–Петербург и Ростов—Дон",  # dashes between names
        "кошка/собака и чай(кофе)",  # two words, likelier than one
        "напитк|ом",  # no sequence of the confusables data unless it makes a word
    ],
)
def test_signs_between_words_and_in_abbreviations_stay(text: str) -> None:
    folded = fold_lookalikes(text)[1]
    assert [f.original for f in folded] in ([], ["напитк|ом"])
    if folded:  # read as the word it is, the pipe as nothing
        assert folded[0].folded == "напитком"


def test_an_invisible_character_beside_a_hyphen_keeps_the_word_whole() -> None:
    assert _tokens("по\u200b-настоящему хорошо") == _tokens("по-настоящему хорошо")
    assert _tokens("поˀ-настоящему хорошо") == _tokens("по-настоящему хорошо")


def test_private_use_characters_go_even_from_a_word_left_as_typed() -> None:
    text, folds = fold_lookalikes("Яндεκ\ue000с")  # ε has no Russian twin: the word stays
    assert text == "Яндεκ\u2060с" and folds[0].original == "Яндεκ\ue000с"
