"""canon.text.lemmatize: pymorphy3 lemmas, Snowball stems, ё, and the per-process cache."""

from __future__ import annotations

import pymorphy3
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.snowball import SnowballStemmer

from canon.text.lemmatize import analyzer_version, base_forms, clear_caches, parts_of_speech

_RUSSIAN = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
russian_words = st.text(st.sampled_from(_RUSSIAN), min_size=1, max_size=10)


@pytest.fixture(scope="module")
def morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer(lang="ru")


@pytest.mark.parametrize(
    ("form", "lemma"),
    [
        ("кошки", "кошка"),
        ("шли", "идти"),  # a suppletive verb
        ("люди", "человек"),  # a suppletive plural
        ("лучше", "хороший"),  # a comparative
        ("детьми", "ребёнок"),  # pymorphy3 restores ё in the lemma
        ("котенок", "котёнок"),
        ("2024", "2024"),  # numbers pass unchanged
        ("seo", "seo"),  # so do Latin words
        ("из-за", "из-за"),
    ],
)
def test_known_lemmas(form: str, lemma: str) -> None:
    assert base_forms([form], "lemma") == [lemma]


def test_yo_fold_writes_restored_yo_as_e() -> None:
    assert base_forms(["котенок", "ёлки", "кошки"], "lemma", yo_fold=True) == [
        "котенок",
        "елка",
        "кошка",
    ]
    # the two settings keep separate caches: asking again without folding restores ё
    assert base_forms(["котенок", "ёлки"], "lemma") == ["котёнок", "ёлка"]


@settings(max_examples=60)
@given(st.lists(russian_words, min_size=1, max_size=20))
def test_lemmas_are_pymorphy3s_first_parse(
    morph: pymorphy3.MorphAnalyzer, tokens: list[str]
) -> None:
    expected = [morph.parse(t)[0].normal_form for t in tokens]
    assert base_forms(tokens, "lemma") == expected
    folded = [e.replace("ё", "е") for e in expected]
    assert base_forms(tokens, "lemma", yo_fold=True) == folded


@pytest.mark.parametrize(
    ("form", "stem"),
    [
        ("кошками", "кошк"),  # Russian Snowball
        ("running", "run"),  # Latin words get the English stemmer
        ("specialists", "specialist"),
        ("seo-специалисты", "seo-специалист"),  # each part of a hyphenated word by its script
        ("mp3", "mp3"),  # neither Cyrillic nor only Latin letters: unchanged
        ("2024", "2024"),
    ],
)
def test_known_stems(form: str, stem: str) -> None:
    assert base_forms([form], "stem") == [stem]


@settings(max_examples=60)
@given(
    st.lists(
        st.one_of(
            russian_words, st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), min_size=1)
        ),
        min_size=1,
        max_size=20,
    )
)
def test_stems_are_snowballs(tokens: list[str]) -> None:
    russian, english = SnowballStemmer("russian").stem, SnowballStemmer("english").stem
    expected = [english(t) if t.isascii() else russian(t) for t in tokens]
    assert base_forms(tokens, "stem") == expected


def test_order_and_repeats_are_kept() -> None:
    tokens = ["кошки", "шли", "кошки", "2024", "шли", "кошки"]
    assert base_forms(tokens, "lemma") == ["кошка", "идти", "кошка", "2024", "идти", "кошка"]
    assert base_forms([], "lemma") == []


def test_clearing_the_cache_gives_equal_results() -> None:
    tokens = ["кошки", "шли", "котенок", "running", "seo-специалисты", "в", "и"]
    before = {
        (method, fold): base_forms(tokens, method, fold)
        for method in ("lemma", "stem")
        for fold in (False, True)
    }
    pos_before = parts_of_speech(tokens)
    clear_caches()
    after = {key: base_forms(tokens, *key) for key in before}
    assert after == before
    assert parts_of_speech(tokens) == pos_before


def test_parts_of_speech() -> None:
    assert parts_of_speech(["в", "и", "кошка", "не", "seo", "2024"]) == [
        "PREP",
        "CONJ",
        "NOUN",
        "PRCL",
        "",  # Latin words and numbers have no Russian part of speech
        "",
    ]


def test_analyzer_version_names_what_made_the_forms() -> None:
    from importlib import metadata

    lemma = analyzer_version("lemma")
    assert lemma.startswith(f"pymorphy3 {metadata.version('pymorphy3')}; opencorpora ")
    assert " rev " in lemma and "; format " in lemma
    assert analyzer_version("stem") == f"nltk-snowball {metadata.version('nltk')}"
    assert analyzer_version("raw") == ""
