"""Every canonical token keeps the span of the original text it came from."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import texts

import canon
from canon.text.normalize import normalize


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@given(texts)
def test_raw_spans_cover_their_tokens(text: str) -> None:
    result = canon.canonicalize(text, "raw")
    previous = (0, 0)
    for token, (start, end) in zip(result.tokens, result.spans, strict=True):
        assert 0 <= start < end <= len(text)
        # Spans run left to right; tokens from one normalization unit share it ("½" → "1⁄2").
        assert start >= previous[0] and end >= previous[1]
        assert token in _norm(text[start:end])
        previous = (start, end)


@given(texts)
def test_normalized_text_is_the_whole_text_normalization(text: str) -> None:
    assert normalize(text).text == _norm(text)


@given(st.text(st.sampled_from(list("абвгдеёжз ийк-\u0301\u00ad\u200b…")), max_size=50))
def test_lemma_spans_point_at_their_words(text: str) -> None:
    result = canon.canonicalize(text, canon.Profile(keep_hyphens=True, strip_marks=True))
    for token, (start, end) in zip(result.tokens, result.spans, strict=True):
        source = normalize(text[start:end], strip_marks=True).text
        assert re.sub(r"[\s…]", "", source).strip("-") == token


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Привет, мир!", ["Привет", "мир"]),
        ("Ёлка… №5", ["Ёлка", "№5"]),
        ("ﬁx Straße", ["ﬁx", "Straße"]),
        ("за\u0301мок", ["за\u0301", "мок"]),
    ],
)
def test_raw_spans_known(text: str, expected: list[str]) -> None:
    result = canon.canonicalize(text, "raw")
    assert [text[s:e] for s, e in result.spans] == expected


def test_lemma_spans_survive_lemmas_and_dropped_words() -> None:
    text = "Из-за дождя мы не гуляли в сo\u00adсновый лес за\u0301мка."
    result = canon.canonicalize(text, "lemma")
    pairs = [(text[s:e], t) for t, (s, e) in zip(result.tokens, result.spans, strict=True)]
    assert pairs == [
        ("дождя", "дождь"),
        ("не", "не"),
        ("гуляли", "гулять"),
        ("сo\u00adсновый", "сосновый"),
        ("лес", "лес"),
        ("за\u0301мка", "замок"),
    ]
