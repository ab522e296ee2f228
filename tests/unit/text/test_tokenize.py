"""canon.text.tokenize: words and their spans, hyphen rules, Latin look-alike letters folded."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canon.text.normalize import normalize
from canon.text.tokenize import Fold, fold_confusables, has_mixed_words, word_spans, words

# The Latin twin of each Cyrillic letter that has one (written independently of the module).
_TWINS = {
    "а": "a",
    "в": "b",
    "с": "c",
    "е": "e",
    "н": "h",
    "к": "k",
    "м": "m",
    "о": "o",
    "р": "p",
    "т": "t",
    "х": "x",
    "у": "y",
    "ё": "ë",
}
_CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_SEPARATORS = [" ", "-", "\u2011", "—", ", ", "_", "…", "\u00a0", "\u0301", "\u00ad"]
texts = st.lists(st.sampled_from([*_CYRILLIC, *"abcxyzé019ЁЙ", *_SEPARATORS]), max_size=40).map(
    "".join
)
cyrillic_words = st.text(st.sampled_from(_CYRILLIC), min_size=1, max_size=12)


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@pytest.mark.parametrize(
    ("text", "hyphenated", "split"),
    [
        ("Из-за дождя", ["из-за", "дождя"], ["из", "за", "дождя"]),
        ("из\u2011за", ["из-за"], ["из", "за"]),  # non-breaking hyphen, written as "-"
        ("по-моему — да", ["по-моему", "да"], ["по", "моему", "да"]),
        ("seo-специалист", ["seo-специалист"], ["seo", "специалист"]),
        ("-из-", ["из"], ["из"]),  # a hyphen at either end is not part of the word
        ("а--б", ["а", "б"], ["а", "б"]),  # two hyphens do not join
        ("a_b", ["a", "b"], ["a", "b"]),  # the underscore is not a letter
        ("ул. Ленина, 5", ["ул", "ленина", "5"], ["ул", "ленина", "5"]),
        ("Ｔｅｓｔ ﬁle", ["test", "file"], ["test", "file"]),
        ("", [], []),
    ],
)
def test_known_words(text: str, hyphenated: list[str], split: list[str]) -> None:
    norm = normalize(text)
    assert words(norm, keep_hyphens=True) == hyphenated
    assert words(norm, keep_hyphens=False) == split


def test_known_spans() -> None:
    text = "Из-за  дождя —\u00a0ﬁle"
    norm = normalize(text)
    spans = word_spans(norm, keep_hyphens=True)
    assert [text[s:e] for s, e in spans] == ["Из-за", "дождя", "ﬁle"]
    assert [text[s:e] for s, e in word_spans(norm, keep_hyphens=False)] == [
        "Из",
        "за",
        "дождя",
        "ﬁle",
    ]


@given(texts, st.booleans())
def test_words_and_spans_agree(text: str, keep_hyphens: bool) -> None:
    norm = normalize(text)
    found = words(norm, keep_hyphens=keep_hyphens)
    spans = word_spans(norm, keep_hyphens=keep_hyphens)
    assert len(found) == len(spans)
    previous_end = 0
    for word, (start, end) in zip(found, spans):
        assert previous_end <= start < end <= len(text)
        # the word is what its span normalizes to (hyphens written as "-")
        assert word in _norm(text[start:end]).replace("\u2010", "-")
        previous_end = end


@given(texts)
def test_words_follow_the_reference_rule(text: str) -> None:
    norm = normalize(text)
    assert words(norm, keep_hyphens=False) == re.findall(r"[^\W_]+", _norm(text))
    # joining by hyphens only merges split words: the same letters, in the same order
    joined = words(norm, keep_hyphens=True)
    assert [p for w in joined for p in w.split("-")] == words(norm, keep_hyphens=False)


@given(st.text(st.sampled_from([*_CYRILLIC, *"abc019 -"]), max_size=40), st.booleans())
def test_plain_text_spans_are_the_words_themselves(text: str, keep_hyphens: bool) -> None:
    norm = normalize(text)
    found = words(norm, keep_hyphens=keep_hyphens)
    assert [text[s:e] for s, e in word_spans(norm, keep_hyphens=keep_hyphens)] == found


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("мaмa", "мама"),  # Latin a twice
        ("cтoл", "стол"),  # Latin c and o
        ("ëлка", "ёлка"),  # Latin e with diaeresis
        ("сeo-спeциалист", "сео-специалист"),  # each hyphenated part on its own
        ("seo-специалист", "seo-специалист"),  # an English part is a word of its own
        ("мaмd", "мaмd"),  # d has no Cyrillic twin: the word is not a disguised Russian word
        ("mama", "mama"),  # no Cyrillic at all
        ("café", "café"),
        ("мама", "мама"),
        ("2024", "2024"),
    ],
)
def test_fold_confusables_known(word: str, folded: str) -> None:
    assert fold_confusables(word) == folded


@given(cyrillic_words, st.data())
def test_disguised_words_fold_back(word: str, data: st.DataObject) -> None:
    """Replace some look-alike letters by their Latin twins, keeping one Cyrillic letter."""
    positions = [i for i, c in enumerate(word) if c in _TWINS]
    chosen = data.draw(st.sets(st.sampled_from(positions)) if positions else st.just(set()))
    if len(chosen) == len(word):
        chosen.discard(min(chosen))
    disguised = "".join(_TWINS[c] if i in chosen else c for i, c in enumerate(word))
    assert fold_confusables(disguised) == word
    assert has_mixed_words(disguised) == bool(chosen)


@given(st.text(st.sampled_from([*_CYRILLIC, *"abcdefghijklmnopqrstuvwxyzë-"]), max_size=20))
def test_folding_is_idempotent_and_keeps_length(word: str) -> None:
    folded = fold_confusables(word)
    assert len(folded) == len(word)
    assert fold_confusables(folded) == folded
    for part, folded_part in zip(word.split("-"), folded.split("-"), strict=True):
        # each hyphenated part is left alone, or written in Cyrillic letters only
        assert folded_part == part or not re.search("[a-zë]", folded_part)


@given(st.lists(st.text(st.sampled_from(_CYRILLIC + "abcdxyz"), min_size=1, max_size=8)))
def test_has_mixed_words_is_any_word_with_both_scripts(parts: list[str]) -> None:
    text = " ".join(parts)

    def mixed(word: str) -> bool:
        return bool(re.search("[а-яё]", word)) and bool(re.search("[a-z]", word))

    assert has_mixed_words(text) == any(mixed(w) for w in parts)


@given(st.text(st.sampled_from(_CYRILLIC + "abcxyzàé×αβᴀ _-1."), max_size=40), st.booleans())
def test_has_mixed_words_is_a_cyrillic_letter_beside_another(text: str, wide: bool) -> None:
    other = r"[^\W\d_а-яё]" if wide else "[a-zà-ÿ]"
    beside = re.search(f"[а-яё]{other}|{other}[а-яё]", text) is not None
    assert has_mixed_words(text, wide=wide) == beside


def test_has_mixed_words_known() -> None:
    assert has_mixed_words("это мaмa")
    assert not has_mixed_words("мама mama")
    assert not has_mixed_words("мама-mama")  # two words joined by a hyphen, each of one script


def test_fold_record() -> None:
    fold = Fold(3, 7, "мaмa", "мама")
    assert fold.to_dict() == {"start": 3, "end": 7, "original": "мaмa", "folded": "мама"}
