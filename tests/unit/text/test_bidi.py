"""Text under bidirectional controls is read in the order a reader sees it (UAX #9): a word
stored backwards under a right-to-left override reads as the word shown, a left-to-right
word in a right-to-left isolate stays as it is shown, and text without controls is untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

import canon
from canon.text.bidi import display_order

RLO, PDF, RLE, RLI, PDI, LRO = "\u202e", "\u202c", "\u202b", "\u2067", "\u2069", "\u202d"
SENTENCE = "Большая собака долго лаяла на соседского кота"
CLEAN = canon.canonicalize(SENTENCE, "lemma").tokens


def _backwards(words: str) -> str:
    return RLO + words[::-1] + PDF


@pytest.mark.parametrize(
    "text",
    [
        # every other word overridden (two overridden words side by side would show in
        # reverse order: the space between them takes their direction, UAX #9 rule N1)
        " ".join(_backwards(w) if i % 2 else w for i, w in enumerate(SENTENCE.split())),
        _backwards(SENTENCE),  # the whole sentence stored backwards
        "Большая собака " + _backwards("долго лаяла") + " на соседского кота",
        RLO + SENTENCE[::-1],  # an override left open to the end of the line
    ],
)
def test_words_stored_backwards_under_an_override_read_as_shown(text: str) -> None:
    result = canon.canonicalize(text, "lemma")
    assert result.tokens == CLEAN
    assert any(t.kind == "invisible" and t.repaired.strip() for t in result.tricks)


def test_the_text_keeps_its_length_and_each_run_its_place() -> None:
    text = "Кот " + _backwards("собака") + " спит\nи " + _backwards("лает")
    shown, runs = display_order(text)
    assert len(shown) == len(text)
    assert [(text[r.start : r.end], r.displayed) for r in runs] == [
        (_backwards("собака"), "собака"),
        (_backwards("лает"), "лает"),
    ]
    spans = canon.canonicalize(text, "lemma").spans
    assert text[slice(*spans[1])].strip(RLO + PDF) == "акабос"  # the word's run


@pytest.mark.parametrize(
    "text",
    [
        SENTENCE,
        "Кот " + RLI + "собака" + PDI + " спит",  # letters typed left to right stay so
        "Кот " + RLE + "собака" + PDF + " спит",
        "Кот " + LRO + "собака" + PDF + " спит",
        "Цитата: \u05e9\u05dc\u05d5\u05dd и дальше",  # Hebrew without controls: not touched
    ],
)
def test_text_shown_as_stored_is_left_alone(text: str) -> None:
    assert display_order(text)[0] == text or canon.canonicalize(text, "lemma").tokens == (
        canon.canonicalize(display_order(text)[0], "lemma").tokens
    )
    assert display_order(text)[1] == ()


@pytest.mark.parametrize(
    "backwards",
    [
        lambda w: f"&#x202E;{w[::-1]}&#x202C;",
        lambda w: f"\u202e{w[::-1]}\u202c",
        lambda w: f'<bdo dir="rtl">{w[::-1]}</bdo>',
        lambda w: f'<span style="unicode-bidi: bidi-override; direction: rtl">{w[::-1]}</span>',
        lambda w: f'<span class="r">{w[::-1]}</span>',  # .r of the page's sheet
    ],
    ids=["reference", "character", "bdo", "css-inline", "css-sheet"],
)
def test_an_override_in_an_html_page_is_read_as_shown(tmp_path: Path, backwards) -> None:
    words = SENTENCE.split()
    line = " ".join(backwards(w) if i % 2 else w for i, w in enumerate(words))
    body = "".join(f"<p>{line}, абзац номер {i}.</p>" for i in range(6))
    page = tmp_path / "draft.html"
    sheet = "<style>.r { unicode-bidi: bidi-override; direction: rtl }</style>"
    page.write_text(
        f"<html><head><title>Тест</title>{sheet}</head><body>{body}</body></html>", "utf-8"
    )
    document = canon.read_source(str(page))
    tokens = canon.canonicalize(document.text, "lemma").tokens
    assert tokens[: len(CLEAN)] == CLEAN
