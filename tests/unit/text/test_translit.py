"""Transliteration tricks: Russian words written in Latin letters are read back in Cyrillic
text; English words, brands and names stay; every repair is placed in the text."""

from __future__ import annotations

import random
import re

import iuliia
import pytest
from hypothesis import given
from hypothesis import strategies as st

import canon
from canon.profile import BUILTIN_PROFILES
from canon.text.translit import is_english, read_back

ORIGINAL = (
    "Московские синоптики пообещали жителям столицы тёплую погоду на выходных. "
    "По их словам, днём воздух прогреется до двадцати градусов, а дожди обойдут город "
    "стороной. Ветер будет слабым, и многие горожане уже собираются за город, чтобы "
    "провести время на природе. Врачи советуют не забывать о воде и головных уборах."
)
SECOND = (
    "Городская библиотека открыла новый читальный зал для студентов и школьников. "
    "Посетители смогут работать с редкими книгами, пользоваться компьютерами и получать "
    "консультации библиографов. Директор библиотеки рассказала, что ремонт продолжался "
    "полгода, а средства выделила областная администрация. Зал будет работать ежедневно, "
    "кроме понедельника, с десяти утра до восьми вечера."
)
LEMMA = BUILTIN_PROFILES["lemma"]
OFF = LEMMA.replace(transliterate=False)
_CYRILLIC_WORD = re.compile(r"[А-Яа-яЁё]+")
SCHEMES = ["wikipedia", "gost_779_alt", "gost_779", "telegram", "mosmetro", "gost_16876_alt"]


def half_in_latin(text: str, scheme: str, seed: int = 1) -> str:
    """Half the words (chosen at random) transliterated with one of iuliia's schemes."""
    schema, rng = iuliia.schemas.get(scheme), random.Random(seed)
    return _CYRILLIC_WORD.sub(
        lambda m: schema.translate(m.group()) if rng.random() < 0.5 else m.group(), text
    )


def fake_uniqueness(copy: str, original: str, profile: canon.Profile | str = LEMMA) -> float:
    return 1.0 - canon.compare(copy, original, k=3, profile=profile).containment_first


# --- reading a word back ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("latin", "russian"),
    [
        ("privet", "привет"),
        ("mal'chik", "мальчик"),  # ' for ь
        ("mal`chik", "мальчик"),  # GOST 7.79 B: ` for ь
        ("vy`pej", "выпей"),  # GOST 7.79 B: y` for ы, j for й
        ("dvigatel", "двигатель"),  # ь left out
        ("zhizn'", "жизнь"),
        ("khorosho", "хорошо"),
        ("horosho", "хорошо"),
        ("xorosho", "хорошо"),  # GOST 7.79 B: x for х
        ("tsvetok", "цветок"),
        ("cvetok", "цветок"),
        ("czvetok", "цветок"),  # GOST 7.79 B: cz for ц
        ("chelovek", "человек"),
        ("čelovek", "человек"),  # GOST 7.79 A
        ("shchuka", "щука"),
        ("schuka", "щука"),
        ("shhuka", "щука"),  # GOST 7.79 B: shh for щ
        ("yabloko", "яблоко"),
        ("jabloko", "яблоко"),
        ("yozhik", "ёжик"),
        ("jozhik", "ёжик"),
        ("ochen", "очень"),  # the common word, not the rare short adjective очен
        ("segodnya", "сегодня"),
        ("kto-to", "кто-то"),
    ],
)
def test_latin_words_read_back(latin: str, russian: str) -> None:
    assert read_back(latin) == russian


@pytest.mark.parametrize("word", ["google", "iphone", "qwerty", "seo", "x" * 60, "ya-qwerty"])
def test_words_that_spell_no_russian_word(word: str) -> None:
    assert read_back(word) is None


def test_english_words() -> None:
    assert all(map(is_english, ["online", "google", "seo", "iphone", "moment", "e-mail"]))
    assert not any(map(is_english, ["privet", "segodnya", "kto-to"]))


# --- in a text --------------------------------------------------------------------------


def _translit(text: str, profile: canon.Profile = LEMMA) -> list[tuple[str, str]]:
    return [
        (t.original, t.repaired)
        for t in canon.canonicalize(text, profile).tricks
        if t.kind == "translit"
    ]


def test_russian_words_in_latin_are_read_back() -> None:
    text = "Московские синоптики poobeshchali жителям stolitsy тёплую pogodu на vyhodnyh"
    assert _translit(text) == [
        ("poobeshchali", "пообещали"),
        ("stolitsy", "столицы"),
        ("pogodu", "погоду"),
        ("vyhodnyh", "выходных"),
    ]
    assert (
        canon.canonicalize(text, "lemma").tokens
        == canon.canonicalize(
            "Московские синоптики пообещали жителям столицы тёплую погоду на выходных", "lemma"
        ).tokens
    )


def test_brands_and_english_terms_stay() -> None:
    text = (
        "Компания Google запустила online-сервис, SEO стало дешевле, iPhone подешевел, "
        "а Toyota и Lada снизили цены; подробности на сайте znak.com/novosti/tut"
    )
    result = canon.canonicalize(text, "lemma")
    assert _translit(text) == []
    for word in ("google", "seo", "iphone", "toyota", "lada"):
        assert word in result.tokens


@pytest.mark.parametrize(
    ("text", "stays"),
    [
        ("Витамин vitamin c полезен зимой", "c"),  # an English word beside it
        ("Слоган just do it знают все", "do"),
        ("Дом № 5 стоит у реки", None),  # № is "no" once normalized: no Latin word
        ("Группа YouTube и канал SShA", None),  # capitals after the first letter
    ],
)
def test_latin_words_that_are_not_transliterations(text: str, stays: str | None) -> None:
    assert _translit(text) == []
    assert canon.canonicalize(text, "lemma").tokens == canon.canonicalize(text, OFF).tokens
    if stays:
        assert stays in canon.canonicalize(text, LEMMA.replace(stopwords=())).tokens


def test_short_english_looking_words_among_russian_ones() -> None:
    text = "Синоптики обещают теплую pogodu na vyhodnyh и dozhd v ponedelnik"
    assert ("na", "на") in _translit(text) and ("v", "в") in _translit(text)


def test_english_text_is_left_alone() -> None:
    text = "The weather in the capital will be warm, privet, and the rain will stay away."
    assert _translit(text) == []


def test_capitalized_words_need_company() -> None:
    assert _translit("Поставщик Moskva сообщил о ценах") == []  # a name, alone
    text = "Moskva: sinoptiki poobeshchali teplo na vyhodnyh"
    assert ("Moskva", "москва") in _translit(text)


def test_apostrophes_belong_to_the_word() -> None:
    text = "Этот mal'chik любит svoyu mat'."
    result = canon.canonicalize(text, "lemma")
    assert _translit(text) == [("mal'chik", "мальчик"), ("svoyu", "свою"), ("mat'", "мать")]
    assert [text[s:e] for s, e in result.spans] == ["mal'chik", "любит", "mat'"]


@pytest.mark.parametrize("keep_hyphens", [True, False])
def test_both_hyphen_settings(keep_hyphens: bool) -> None:
    profile = LEMMA.replace(keep_hyphens=keep_hyphens)
    text = "Утром kto-to прочитал segodnya газету"
    expected = "Утром кто-то прочитал сегодня газету"
    assert canon.canonicalize(text, profile).tokens == canon.canonicalize(expected, profile).tokens


# --- the tricks' fake uniqueness --------------------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("text", [ORIGINAL, SECOND])
def test_half_the_words_in_latin_buy_at_most_a_quarter(scheme: str, text: str) -> None:
    altered = half_in_latin(text, scheme)
    assert fake_uniqueness(altered, text, OFF) > 0.5  # the trick works without the repair
    assert fake_uniqueness(altered, text) <= 0.25
    assert fake_uniqueness(altered, text, "stem") <= 0.25


def test_an_indexed_original_finds_the_transliterated_copy(tmp_path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "original.txt").write_text(ORIGINAL, "utf-8")
    (tmp_path / "docs" / "second.txt").write_text(SECOND, "utf-8")
    with canon.Index(tmp_path / "i.db", create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules([LEMMA], k=3))
        (result,) = canon.check(half_in_latin(ORIGINAL, "wikipedia"), index).profiles
        assert result.uniqueness <= 0.25


def test_raw_is_unchanged() -> None:
    altered = half_in_latin(ORIGINAL, "wikipedia")
    raw = canon.canonicalize(altered, "raw")
    assert raw.tokens == tuple(re.findall(r"[^\W_]+", altered.casefold()))
    assert raw.tricks == ()


def test_the_transliteration_switch_is_in_the_fingerprint() -> None:
    assert LEMMA.transliterate and BUILTIN_PROFILES["stem"].transliterate
    assert not BUILTIN_PROFILES["raw"].transliterate
    assert OFF.fingerprint != LEMMA.fingerprint
    assert _translit("Синоптики obeshchayut teplo", OFF) == []


# --- properties -------------------------------------------------------------------------

_WORDS = _CYRILLIC_WORD.findall(ORIGINAL)


@given(
    st.lists(st.tuples(st.sampled_from(_WORDS), st.booleans()), min_size=1, max_size=12),
    st.sampled_from(SCHEMES),
)
def test_tricks_lie_in_the_text(chosen: list[tuple[str, bool]], scheme: str) -> None:
    schema = iuliia.schemas.get(scheme)
    text = " ".join(schema.translate(w) if latin else w for w, latin in chosen)
    result = canon.canonicalize(text, "lemma")
    assert len(result.spans) == len(result.tokens)
    for trick in result.tricks:
        assert text[trick.start : trick.end] == trick.original != trick.repaired
        if trick.kind == "translit":
            assert not _CYRILLIC_WORD.search(trick.original)
            assert _CYRILLIC_WORD.fullmatch(trick.repaired.replace("-", "").replace(" ", ""))


# --- volapuk: Latin letters and digits that look or sound like Cyrillic ones ---------------


@pytest.mark.parametrize(
    ("latin", "russian"),
    [("4to", "что"), ("xopowo", "хорошо"), ("6ygy", "буду"), ("3abop", "забор"),
     ("npuBet", "привет"), ("cTapblu", "старый")],
)  # fmt: skip
def test_volapuk_words_read_back(latin: str, russian: str) -> None:
    text = f"Ja {latin} i ty {latin} tozhe"
    assert (
        canon.canonicalize(text, "lemma").tokens
        == canon.canonicalize(f"Я {russian} и ты {russian} тоже", "lemma").tokens
    )


def test_visual_capitals_of_volapuk_are_read_as_the_letters_they_look_like() -> None:
    # H is н, B is в, JI is л: "На столе стоит ваза" in volapuk
    tokens = canon.canonicalize("Ha cmoJIe cmoum Ba3a", "lemma").tokens
    assert tokens == canon.canonicalize("На столе стоит ваза", "lemma").tokens


@pytest.mark.parametrize("text", ["3d-принтер и 4G", "mp3 и h2o", "Windows 10 и iPhone 6s"])
def test_numbers_with_letters_stay_as_typed(text: str) -> None:
    tokens = canon.canonicalize(text, "lemma").tokens
    assert not any(
        re.search("[а-я]", t) for t in tokens if t.isascii() is False and "принтер" not in t
    )
    assert {"4g", "mp3", "h2o", "6s"} & set(tokens)


def test_a_text_in_volapuk_reads_its_spellings_first() -> None:
    # Alone, ``u`` is у, ``n`` н, ``r`` р and ``m`` м by the transliteration schemes; in a text
    # whose words mix letters with volapuk's digits, they are и, п, г and т.
    russian = "Из года в год по утрам от дома до вокзала шёл один и тот же поезд"
    volapuk = "Uz r0ga B rog n0 ympam om g0ma g0 B0k3aJIa weJI 0guH u mom >|<e n0e3g"
    tokens = canon.canonicalize(volapuk, "lemma").tokens
    expected = canon.canonicalize(russian, "lemma").tokens
    assert sum(a == b for a, b in zip(tokens, expected, strict=False)) >= len(expected) - 1
    assert read_back("uz") == "уз" and read_back("uz", volapuk=True) == "из"
    assert read_back("n0", volapuk=True) == "по" and read_back("rog", volapuk=True) == "год"
    assert read_back("ee", volapuk=True) == "её"  # e stays е, never э first


def test_volapuk_is_told_by_digits_beside_latin_letters_spaced_or_not() -> None:
    from canon.text.latin import in_volapuk

    assert in_volapuk("M0skBe 6ygem 4to u rog")
    assert in_volapuk("M 0 s k B e   6 y g e m   4 t o")  # spaced: the digit is a piece alone
    assert in_volapuk("K a6i n e t e  r0v  4m o")
    assert not in_volapuk("mp3 h2o u rog")  # two only
    assert not in_volapuk("mp3, h2o, 4g and the rest of a long English sentence about them")


@pytest.mark.parametrize("latin", ["b", "B", "v", "s", "y", "k"])
def test_a_one_letter_latin_word_reads_as_a_russian_one_letter_word(latin: str) -> None:
    word = read_back(latin.lower())
    assert word is not None and len(word) == 1 and word in "авиксуоя"
