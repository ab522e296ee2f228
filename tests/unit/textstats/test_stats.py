"""canon.stats: text statistics checked against answers counted by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from command import run_cli
from hypothesis import given
from hypothesis import strategies as st

from canon import canonicalize, get_profile
from canon.errors import CanonError, EmptyText, OptionError, TextTooShort
from canon.textstats import (
    ZIPF_MIN_LEMMAS,
    Keyword,
    TextStats,
    ZipfFit,
    text_stats,
    water_lemmas,
    zipf_fit,
)

# 12 words, the same under both rules.  Water: на, очень, а (3).  "не" is negation: content.
# Content lemmas: диван 2, кошка 2, любить 2, не 1, собака 1, спать 1.
# 51 letters + 3 punctuation marks + 11 spaces = 65 characters.
CATS = "Кошка спит на диване. Кошка очень любит диван, а собака не любит."

# Raw: 15 words (по | настоящему, 3 | 5).  Lemma words: 13 (по-настоящему, 3-5 whole).
# Water: конечно, просто (water-ru), это (ru) = 3.  "без" is negation: content.  3-5 is a number.
# Content lemmas: чай 3, and без, заваривать, минута, по-настоящему, сахар, хороший once each.
# 76 non-space characters + 13 spaces = 89.
TEA = "Конечно, по-настоящему хороший чай заваривают 3-5 минут. Чай без сахара — это просто чай!"

# 8 words.  Water: и, the, and, the = 4.  Content: cat, dog, ежик, елка (ё written е), once each;
# Latin sorts before Cyrillic.  26 non-space characters + 7 spaces = 33.
MIXED = "Ёжик и ёлка. The cat and the dog."

# Raw: 5 words (вообще | то); lemma words: 4, every one water.
FILLER = "Ну, вообще-то, конечно, да."


def test_cats_counted_by_hand() -> None:
    stats = text_stats(CATS)
    assert (stats.characters, stats.characters_no_spaces) == (65, 54)
    assert (stats.words, stats.lemma_words, stats.unique_lemmas) == (12, 12, 9)
    assert (stats.water_words, stats.content_words, stats.numbers) == (3, 9, 0)
    assert stats.water_percent == 25.0
    assert stats.content_percent == 75.0
    assert stats.content_lemmas == 6
    assert stats.classic_nausea == pytest.approx(math.sqrt(2))
    assert stats.classic_nausea_lemma == "диван"
    assert stats.academic_nausea == pytest.approx(100 * 8 / 12)
    # Negation is content, not water, but never a keyword: "не" is left out.
    assert stats.academic_nausea_lemmas == ("диван", "кошка", "любить", "собака", "спать")
    assert [(k.lemma, k.count) for k in stats.keywords] == [
        ("диван", 2),
        ("кошка", 2),
        ("любить", 2),
        ("собака", 1),
        ("спать", 1),
    ]
    assert stats.keywords[0].density == pytest.approx(100 * 2 / 12)
    assert stats.keywords[-1].density == pytest.approx(100 / 12)


def test_tea_hyphens_numbers_and_water_list() -> None:
    stats = text_stats(TEA)
    assert (stats.characters, stats.characters_no_spaces) == (89, 76)
    assert (stats.words, stats.lemma_words, stats.unique_lemmas) == (15, 13, 11)
    assert (stats.water_words, stats.content_words, stats.numbers) == (3, 10, 1)
    assert stats.water_percent == pytest.approx(100 * 3 / 13)
    assert stats.content_lemmas == 7
    assert stats.classic_nausea == pytest.approx(math.sqrt(3))
    assert stats.classic_nausea_lemma == "чай"
    assert stats.academic_nausea == pytest.approx(100 * 7 / 13)
    assert stats.academic_nausea_lemmas == ("чай", "заваривать", "минута", "по-настоящему", "сахар")
    assert stats.keywords[0] == Keyword("чай", 3, pytest.approx(100 * 3 / 13))
    assert "3-5" not in {k.lemma for k in stats.keywords}
    assert "по-настоящему" in {k.lemma for k in stats.keywords}


def test_mixed_english_and_yo() -> None:
    stats = text_stats(MIXED)
    assert (stats.characters, stats.characters_no_spaces) == (33, 26)
    assert (stats.words, stats.lemma_words, stats.unique_lemmas) == (8, 8, 7)
    assert (stats.water_words, stats.water_percent, stats.content_percent) == (4, 50.0, 50.0)
    assert stats.classic_nausea == 1.0
    assert stats.classic_nausea_lemma == "cat"
    assert stats.academic_nausea == 50.0
    assert [k.lemma for k in stats.keywords] == ["cat", "dog", "ежик", "елка"]
    assert {k.density for k in stats.keywords} == {12.5}


def test_all_water() -> None:
    stats = text_stats(FILLER)
    assert (stats.words, stats.lemma_words, stats.water_words) == (5, 4, 4)
    assert (stats.water_percent, stats.content_percent) == (100.0, 0.0)
    assert (stats.classic_nausea, stats.classic_nausea_lemma) == (0.0, None)
    assert (stats.academic_nausea, stats.academic_nausea_lemmas, stats.keywords) == (0.0, (), ())
    assert stats.zipf.slope is None


def test_function_word_water_is_what_the_lemma_profile_drops() -> None:
    # CATS has no water-ru word; TEA has two (конечно, просто) on top of "это".
    function_words = get_profile("lemma").replace(stopwords=("ru", "en"))
    assert text_stats(CATS).water_words == canonicalize(CATS, function_words).dropped
    assert text_stats(TEA).water_words == canonicalize(TEA, function_words).dropped + 2
    # The lemma profile drops the water-ru fillers too: all water, no more.
    for text in (CATS, TEA):
        assert text_stats(text).water_words == canonicalize(text, "lemma").dropped


def test_water_lemmas() -> None:
    water = water_lemmas()
    assert {"и", "в", "он", "the", "конечно", "например", "буквально", "очень"} <= water
    assert not {"не", "нет", "без", "никогда", "чай", "простой"} & water


@pytest.mark.parametrize("text", ["", "   \n\t ", "— … !", "___"])
def test_a_text_without_words_is_an_error(text: str) -> None:
    with pytest.raises(EmptyText, match="no words") as info:
        text_stats(text)
    assert isinstance(info.value, TextTooShort)
    assert isinstance(info.value, CanonError)
    assert (info.value.words, info.value.k) == (0, 1)


def test_one_content_word() -> None:
    stats = text_stats("Кот")
    assert (stats.characters, stats.words, stats.lemma_words, stats.unique_lemmas) == (3, 1, 1, 1)
    assert (stats.water_percent, stats.content_percent) == (0.0, 100.0)
    assert (stats.classic_nausea, stats.classic_nausea_lemma) == (1.0, "кот")
    assert (stats.academic_nausea, stats.academic_nausea_lemmas) == (100.0, ("кот",))
    assert stats.keywords == (Keyword("кот", 1, 100.0),)
    assert (stats.zipf.slope, stats.zipf.r_squared, stats.zipf.natural) == (None, None, None)
    assert "too few" in stats.zipf.note


def test_one_water_word() -> None:
    stats = text_stats(" и ")
    assert (stats.characters, stats.characters_no_spaces, stats.words) == (3, 1, 1)
    assert (stats.water_percent, stats.content_percent) == (100.0, 0.0)
    assert (stats.classic_nausea, stats.classic_nausea_lemma, stats.keywords) == (0.0, None, ())


def test_top_limits_keywords_only() -> None:
    assert [k.lemma for k in text_stats(CATS, top=2).keywords] == ["диван", "кошка"]
    assert text_stats(CATS, top=0).keywords == ()
    assert text_stats(CATS, top=0).academic_nausea == text_stats(CATS).academic_nausea
    with pytest.raises(OptionError, match="top") as info:
        text_stats(CATS, top=-1)
    assert info.value.option == "top"


def test_longer_text_gets_a_zipf_fit(examples: Path) -> None:
    stats = text_stats((examples / "original.txt").read_text("utf-8"))
    assert stats.words > 300
    assert stats.classic_nausea_lemma == "чай"
    zipf = stats.zipf
    assert zipf.lemmas == stats.content_lemmas >= ZIPF_MIN_LEMMAS
    assert zipf.slope is not None and zipf.slope < 0
    assert zipf.r_squared is not None and 0 < zipf.r_squared < 1
    assert zipf.natural is True
    assert "within" in zipf.note


def test_zipf_fit_on_known_curves() -> None:
    natural = zipf_fit([round(1000 / rank) for rank in range(1, 41)])
    assert natural.slope == pytest.approx(-1, abs=0.02)
    assert natural.r_squared == pytest.approx(1, abs=0.01)
    assert natural.natural is True
    steep = zipf_fit([round(100_000 / rank**2.5) for rank in range(1, 41)])
    assert steep.slope is not None and steep.slope < -2
    assert steep.natural is False and "steeper" in steep.note
    flat = zipf_fit([2] * 5 + [1] * 200)  # 205 lemmas, 5 seen twice: almost nothing repeats
    assert flat.natural is False and "flatter" in flat.note


def test_zipf_fit_needs_enough_lemmas() -> None:
    assert zipf_fit([5, 4, 3, 2, 2] + [1] * 24).slope is None  # 29 lemmas
    assert zipf_fit([5, 4, 3, 2] + [1] * 40).slope is None  # 4 repeated
    assert zipf_fit([5, 4, 3, 2, 2] + [1] * 25).slope is not None
    equal = zipf_fit([3] * 40)
    assert (equal.slope, equal.r_squared, equal.natural) == (None, None, None)
    assert "equally" in equal.note


def test_to_dict_is_plain_json() -> None:
    data = text_stats(TEA, top=3).to_dict()
    assert list(data) == list(TextStats.__dataclass_fields__)
    density = pytest.approx(100 * 3 / 13)
    assert data["keywords"][0] == {"lemma": "чай", "count": 3, "density": density}
    assert list(data["zipf"]) == list(ZipfFit.__dataclass_fields__)
    assert json.loads(json.dumps(data, ensure_ascii=False))["academic_nausea_lemmas"][0] == "чай"


_POOL = [
    "кошка", "кошки", "диван", "и", "в", "не", "без", "очень", "конечно", "просто", "чай",
    "чая", "the", "cat", "по-настоящему", "2024", "3-5", "ёлка", "спит", "Москва",
]  # fmt: skip


@given(st.lists(st.sampled_from(_POOL), min_size=1, max_size=60), st.integers(0, 12))
def test_parts_add_up(words: list[str], top: int) -> None:
    stats = text_stats(" ".join(words), top=top)
    assert stats.lemma_words == len(words)
    assert stats.water_percent + stats.content_percent == pytest.approx(100)
    assert stats.water_words + stats.content_words == stats.lemma_words
    assert stats.content_percent == pytest.approx(100 * stats.content_words / stats.lemma_words)
    negation = {"не", "без"} & set(words)
    assert len(stats.keywords) == min(top, stats.content_lemmas - len(negation))
    for keyword in stats.keywords:
        assert keyword.density == pytest.approx(100 * keyword.count / stats.lemma_words)
    counts = [k.count for k in stats.keywords]
    assert counts == sorted(counts, reverse=True)
    if stats.keywords:
        assert stats.classic_nausea == pytest.approx(math.sqrt(stats.keywords[0].count))


def test_stats_command(examples) -> None:
    result = run_cli("stats", examples / "original.txt", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["keywords"][0]["lemma"] == "чай"
    assert data["source"]["source"].endswith("original.txt")
    empty = run_cli("stats", "-", input="... !!!")
    assert empty.returncode == 2 and "has no words" in empty.stderr
