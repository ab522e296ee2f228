"""Hyphen tricks: words joined by a hyphen are split, a word broken by one is joined again, and
real compounds stay; every repair is placed in the text, and the fake uniqueness it bought is
gone."""

from __future__ import annotations

import random
import re
import time

import iuliia
import pytest
from hypothesis import given
from hypothesis import strategies as st

import canon
from canon.canonical import clear_caches
from canon.profile import BUILTIN_PROFILES
from canon.text.hyphens import hyphen_sites, looks_compound, repair_hyphenated

# Our own texts: ordinary words, a few compounds the dictionary has.
ORIGINAL = (
    "Московские синоптики пообещали жителям столицы тёплую погоду на выходных. "
    "По их словам, днём воздух прогреется до двадцати градусов, а дожди обойдут город "
    "стороной. Из-за антициклона ветер будет слабым, кто-то уже собирается за город, "
    "а северо-запад области ждёт небольшой туман. Выбор зимних шин в магазинах начинается "
    "раньше обычного, и покупатели приходят заранее, чтобы найти подходящие модели."
)
SECOND = (
    "Городская библиотека открыла новый читальный зал для студентов и школьников. "
    "Посетители смогут работать с редкими книгами, пользоваться компьютерами и получать "
    "консультации библиографов. Директор библиотеки рассказала, что ремонт продолжался "
    "полгода, а средства выделила областная администрация. Зал будет работать ежедневно, "
    "кроме понедельника, с десяти утра до восьми вечера."
)
LEMMA = BUILTIN_PROFILES["lemma"]
OFF = LEMMA.replace(repair_hyphens=False)
_CYRILLIC_WORD = re.compile(r"[А-Яа-яЁё]+")


def fake_uniqueness(copy: str, original: str, profile: canon.Profile | str = LEMMA) -> float:
    """1 − the containment of the copy's lemma 3-shingles in the original's."""
    return 1.0 - canon.compare(copy, original, k=3, profile=profile).containment_first


def break_words(text: str) -> str:
    """A hyphen in the middle of every Cyrillic word of six letters or more."""

    def cut(match: re.Match[str]) -> str:
        word = match.group()
        return word if len(word) < 6 else f"{word[: len(word) // 2]}-{word[len(word) // 2 :]}"

    return _CYRILLIC_WORD.sub(cut, text)


def join_pairs(text: str) -> str:
    """Every two neighbouring Cyrillic words joined by a hyphen."""
    return re.sub(r"([А-Яа-яЁё]+) ([А-Яа-яЁё]+)", r"\1-\2", text)


# --- the decisions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "word",
    [
        "из-за",
        "кто-то",
        "йошкар-ола",
        "северо-запад",
        "seo-специалист",
        "что-нибудь",
        "санкт-петербург",
        "covid-19",
        "ту-154",
        "по-русски",
        "во-первых",
    ],
)
def test_compounds_and_unknown_parts_stay(word: str) -> None:
    assert repair_hyphenated(word) is None


@pytest.mark.parametrize(
    ("word", "forms", "reported"),
    [
        ("выбор-зимних", ("выбор", "зимних"), True),
        ("выбор-зимних-шин", ("выбор", "зимних", "шин"), True),
        ("в-году", ("в", "году"), True),
        ("во-время", ("во", "время"), True),  # two words, not вовремя
        ("всу-сообщили", ("всу", "сообщили"), True),  # a verb is never part of a compound
        ("начин-ается", ("начинается",), True),
        ("кот-орый", ("который",), True),  # both pieces are words, the joined one too
        ("гао-као", ("гаокао",), True),  # neither piece is a word: a word broken in two
        ("31-лет-ний", ("31-летний",), True),
        ("детей-сирот", ("детей", "сирот"), False),  # looks like a compound: split, no trick
        ("онлайн-школа", ("онлайн", "школа"), False),
        ("оперативно-тактической", ("оперативно", "тактической"), False),
        ("два-три", ("два", "три"), False),
        ("сказал-то", ("сказал", "то"), False),
    ],
)
def test_hyphenated_words_read_as_their_words(
    word: str, forms: tuple[str, ...], reported: bool
) -> None:
    decision = repair_hyphenated(word)
    assert decision is not None
    assert tuple(p.form for p in decision.pieces) == forms
    assert decision.reported is reported


def test_a_broken_word_and_a_guess_are_marked() -> None:
    assert repair_hyphenated("гао-као").guessed  # type: ignore[union-attr]
    assert not repair_hyphenated("начин-ается").guessed  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("детей", "сирот"),
        ("бизнес", "тренер"),  # бизнес- starts dictionary compounds
        ("гей", "браков"),
        ("месяц", "другой"),
        ("буша", "старшего"),
        ("аль", "багдади"),
        ("сказал", "то"),
    ],
)
def test_looks_compound(left: str, right: str) -> None:
    assert looks_compound(left, right)


@pytest.mark.parametrize(("left", "right"), [("выбор", "зимних"), ("в", "году"), ("шин", "для")])
def test_does_not_look_compound(left: str, right: str) -> None:
    assert not looks_compound(left, right)


@pytest.mark.parametrize("word", ["с-300", "ан-24", "а-380", "ка-52", "х-й"])
def test_models_and_letters_stay(word: str) -> None:
    assert repair_hyphenated(word) is None


def test_hyphen_sites_are_the_hyphenated_words() -> None:
    text = "из-за выбор-зимних-шин - тире, а-б и -минус, 2-х"
    assert [text[s:e] for s, e in hyphen_sites(text)] == [
        "из-за",
        "выбор-зимних-шин",
        "а-б",
        "2-х",
    ]


def test_very_long_chains_are_left_alone() -> None:
    assert repair_hyphenated("-".join(["выбор"] * 9)) is None


# --- canonical forms --------------------------------------------------------------------


COMPOUNDS = (
    "Из-за дождя кто-то уехал в Йошкар-Олу на северо-запад купить что-нибудь у SEO-специалиста"
)


@pytest.mark.parametrize("profile", ["lemma", "stem"])
def test_compounds_stay_whole_in_the_tokens(profile: str) -> None:
    chosen = BUILTIN_PROFILES[profile].replace(stopwords=())
    result = canon.canonicalize(COMPOUNDS, chosen)
    assert (
        result.tokens == canon.canonicalize(COMPOUNDS, chosen.replace(repair_hyphens=False)).tokens
    )
    assert result.tricks == ()
    if profile == "lemma":
        hyphenated = [t for t in result.tokens if "-" in t]
        assert hyphenated == [
            "из-за",
            "кто-то",
            "йошкар-ола",
            "северо-запад",
            "что-нибудь",
            "seo-специалист",
        ]


@pytest.mark.parametrize("profile", ["lemma", "stem"])
def test_words_joined_by_hyphens_are_split(profile: str) -> None:
    assert (
        canon.canonicalize("выбор-зимних шин", profile).tokens
        == canon.canonicalize("выбор зимних шин", profile).tokens
    )


@pytest.mark.parametrize("profile", ["lemma", "stem"])
@pytest.mark.parametrize("keep_hyphens", [True, False])
def test_a_word_broken_by_a_hyphen_is_joined(profile: str, keep_hyphens: bool) -> None:
    chosen = BUILTIN_PROFILES[profile].replace(keep_hyphens=keep_hyphens)
    altered = canon.canonicalize("сезон начин-ается рано", chosen)
    assert altered.tokens == canon.canonicalize("сезон начинается рано", chosen).tokens
    (trick,) = altered.tricks
    assert (trick.kind, trick.start, trick.end, trick.repaired) == ("hyphen", 6, 17, "начинается")


def test_with_hyphens_split_only_joins_apply() -> None:
    split = LEMMA.replace(keep_hyphens=False)
    result = canon.canonicalize("выбор-зимних шин из-за начин-ается", split)
    assert result.tokens == ("выбор", "зимний", "шина", "начинаться")
    assert [t.original for t in result.tricks] == ["начин-ается"]  # splitting is no repair here
    assert [result.text[s:e] for s, e in result.spans] == [
        "выбор",
        "зимних",
        "шин",
        "начин-ается",
    ]


def test_spans_of_split_and_joined_words() -> None:
    text = "Выбор-зимних шин начин-ается, а детей-сирот ждут"
    result = canon.canonicalize(text, "lemma")
    assert result.tokens == ("выбор", "зимний", "шина", "начинаться", "ребенок", "сирота", "ждать")
    assert [text[s:e] for s, e in result.spans] == [
        "Выбор",
        "зимних",
        "шин",
        "начин-ается",
        "детей",
        "сирот",
        "ждут",
    ]
    got = [(t.kind, t.start, t.end, t.original, t.repaired) for t in result.tricks]
    assert got == [
        ("hyphen", 0, 12, "Выбор-зимних", "выбор зимних"),
        ("hyphen", 17, 28, "начин-ается", "начинается"),
    ]  # детей-сирот looks like a compound: read as two words, but no trick


def test_names_are_read_as_words_without_a_trick() -> None:
    result = canon.canonicalize("Матч СКА-Нева и Касым-Жомарт", "lemma")
    assert "нева" in result.tokens and result.tricks == ()
    assert "касым-жомарт" in result.tokens  # pieces that are no words are not joined in names
    # a joined pair that starts a sentence looks like a name: read as words, no trick
    capitalized = canon.canonicalize("В-Москве тепло", "lemma")
    assert capitalized.tokens == canon.canonicalize("В Москве тепло", "lemma").tokens
    assert capitalized.tricks == ()
    assert canon.canonicalize("Николаевск-на-Амуре и Ле-Бурже", "lemma").tricks == ()


def test_a_guessed_join_keeps_capitals_apart() -> None:
    assert canon.canonicalize("тест ПЦР-тстов", "lemma").tricks == ()
    assert canon.canonicalize("мы ели гао-као", "lemma").tokens[-1] == "гаокао"


def test_non_breaking_hyphens_are_hyphens() -> None:
    text = "выбор\u2011зимних шин"
    result = canon.canonicalize(text, "lemma")
    assert result.tokens == canon.canonicalize("выбор зимних шин", "lemma").tokens
    assert result.tricks[0].original == "выбор\u2011зимних"


# --- the tricks' fake uniqueness --------------------------------------------------------


@pytest.mark.parametrize("text", [ORIGINAL, SECOND])
@pytest.mark.parametrize("trick", [break_words, join_pairs])
@pytest.mark.parametrize("profile", ["lemma", "stem"])
def test_hyphen_tricks_buy_at_most_five_percent(text: str, trick, profile: str) -> None:
    altered = trick(text)
    assert altered != text
    off = BUILTIN_PROFILES[profile].replace(repair_hyphens=False)
    assert fake_uniqueness(altered, text, off) > 0.5  # the trick works without the repair
    assert fake_uniqueness(altered, text, profile) <= 0.05


def test_an_indexed_original_finds_the_altered_copy(tmp_path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "original.txt").write_text(ORIGINAL, "utf-8")
    (tmp_path / "docs" / "second.txt").write_text(SECOND, "utf-8")
    with canon.Index(tmp_path / "i.db", create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules([LEMMA], k=3))
        for altered in (break_words(ORIGINAL), join_pairs(ORIGINAL)):
            (result,) = canon.check(altered, index).profiles
            assert result.uniqueness <= 0.05


def test_raw_is_unchanged() -> None:
    for trick in (break_words, join_pairs):
        altered = trick(ORIGINAL)
        raw = canon.canonicalize(altered, "raw")
        assert raw.tokens == tuple(re.findall(r"[^\W_]+", altered.casefold()))
        assert raw.tricks == ()


def test_the_hyphen_switch_is_in_the_fingerprint() -> None:
    assert LEMMA.repair_hyphens and BUILTIN_PROFILES["stem"].repair_hyphens
    assert not BUILTIN_PROFILES["raw"].repair_hyphens
    assert OFF.fingerprint != LEMMA.fingerprint
    assert canon.canonicalize("выбор-зимних", OFF).tokens == ("выбор-зимний",)


# --- properties -------------------------------------------------------------------------

_WORDS = re.findall(r"[А-Яа-яЁё]+", ORIGINAL)


@given(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=10),
    st.lists(st.integers(0, 1000), max_size=6),
    st.booleans(),
)
def test_tricks_and_spans_lie_in_the_text(
    chosen: list[str], cuts: list[int], keep_hyphens: bool
) -> None:
    words = list(chosen)
    for cut in cuts:  # a hyphen inside a word, or in place of a space
        i = cut % len(words)
        if cut % 2 and i + 1 < len(words):
            words[i : i + 2] = [f"{words[i]}-{words[i + 1]}"]
        elif len(words[i]) > 1:
            at = 1 + cut % (len(words[i]) - 1)
            words[i] = f"{words[i][:at]}-{words[i][at:]}"
    text = " ".join(words)
    result = canon.canonicalize(text, LEMMA.replace(keep_hyphens=keep_hyphens))
    assert len(result.spans) == len(result.tokens)
    for start, end in result.spans:
        assert text[start:end].strip() == text[start:end] != ""
    for trick in result.tricks:
        assert trick.kind == "hyphen"
        assert text[trick.start : trick.end] == trick.original != trick.repaired
        assert "-" in trick.original


@pytest.mark.slow
def test_many_hyphenated_and_latin_words_take_bounded_time() -> None:
    """Adversarial input: 100k characters of joined words, hyphen chains and transliterated
    joined words, every one new to the caches (a generous bound against blow-ups)."""
    rng = random.Random(3)
    words = [w.lower() for w in _CYRILLIC_WORD.findall(ORIGINAL + " " + SECOND)]
    schema = iuliia.schemas.get("wikipedia")
    pieces = []
    while sum(map(len, pieces)) < 100_000:
        chain = [rng.choice(words) for _ in range(rng.randint(2, 12))]
        kind = rng.random()
        if kind < 0.3:
            pieces.append(schema.translate("".join(chain[:2])))
        elif kind < 0.6:
            pieces.append("-".join(chain[:2]))
        else:
            pieces.append("-".join(chain))
    text = " ".join(pieces)
    clear_caches()
    started = time.perf_counter()
    result = canon.canonicalize(text, "lemma")
    assert len(result.spans) == len(result.tokens) and result.tricks
    assert time.perf_counter() - started < 30.0
