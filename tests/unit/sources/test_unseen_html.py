"""Elements of an HTML page that a reader never sees are left out of its text before
extraction: the check reads what the page shows, however the words were hidden."""

from __future__ import annotations

from pathlib import Path

import pytest

import canon

PARAGRAPH = "Большая собака долго лаяла на соседского кота возле старого забора."
SHEET = ".hid { display: none } #gone { visibility: hidden } p { margin: 0 }"


def _page(tmp_path: Path, inserted: str, *, sheet: str = SHEET, body: str = "") -> str:
    paragraphs = "".join(f"<p>{PARAGRAPH} {inserted} Конец абзаца номер {i}.</p>" for i in range(6))
    html = (
        f"<html><head><title>Тест</title><style>{sheet}</style></head>"
        f"<body{body}><article>{paragraphs}</article></body></html>"
    )
    path = tmp_path / "page.html"
    path.write_text(html, "utf-8")
    return canon.read_source(str(path)).text


@pytest.mark.parametrize(
    "hidden",
    [
        '<span style="display:none">вставка</span>',
        '<span style="visibility: hidden">вставка</span>',
        '<span style="font-size:0">вставка</span>',
        '<span style="font-size: 0px !important">вставка</span>',
        '<span style="opacity:0">вставка</span>',
        '<span style="color:#fff">вставка</span>',
        '<span style="color: white">вставка</span>',
        '<i style="background:#123456"><b style="color:#123456">вставка</b></i>',
        "<span hidden>вставка</span>",
        '<span class="note hid">вставка</span>',
        '<span id="gone">вставка</span>',
    ],
)
def test_an_unseen_element_is_left_out(tmp_path: Path, hidden: str) -> None:
    text = _page(tmp_path, hidden)
    assert "вставка" not in text
    assert text.count("Большая собака") == 6 and "Конец абзаца номер 5" in text


@pytest.mark.parametrize(
    ("shown", "body"),
    [
        ('<span style="color:#c00">вставка</span>', ""),
        ('<span style="font-size: 10px">вставка</span>', ""),
        ('<span class="note">вставка</span>', ""),
        ('<span style="color:#fff">вставка</span>', ' style="background:#000"'),
    ],
)
def test_a_shown_element_stays(tmp_path: Path, shown: str, body: str) -> None:
    assert "вставка" in _page(tmp_path, shown, body=body)


def test_white_text_on_a_dark_page_of_the_sheet_stays(tmp_path: Path) -> None:
    sheet = SHEET + " body { background: #111 } a { color: #fff }"
    assert "вставка" in _page(tmp_path, '<span style="color:#fff">вставка</span>', sheet=sheet)
    assert "ссылка" in _page(tmp_path, '<a href="/x">ссылка</a>', sheet=sheet)


def test_the_words_left_out_are_kept_once_each_without_scripts() -> None:
    from canon.sources.shown import as_seen

    html = (
        "<html><body><p>Видно всем.</p>"
        '<div hidden>один <span style="display:none">два</span><script>var x;</script></div>'
        '<p style="font-size:0">три</p><span hidden></span><style hidden>p {}</style>'
        "</body></html>"
    )
    seen = as_seen(html)
    assert seen.unseen == ("один два", "три")
    assert "Видно всем." in seen.html and "один" not in seen.html
    assert as_seen("<p>Видно всем.</p>").unseen == ()
