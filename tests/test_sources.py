"""Reading files and stdin: encodings, HTML main text, and every kind of bad input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import canon
from canon.sources.documents import read_source

PARAGRAPH = (
    "Зелёный чай заваривают водой, которая не кипит: около восьмидесяти градусов. "
    "Чёрный чай любит крутой кипяток, а улун - что-то среднее. Съешьте ещё этих "
    "мягких французских булок, да выпейте же чаю. Подробнее читайте в нашем журнале."
)


@pytest.mark.parametrize(
    ("encoding", "reported"),
    [
        ("utf-8", "utf-8"),
        ("cp1251", "cp1251"),
        ("koi8_r", "koi8_r"),
        ("utf-8-sig", "utf-8"),
        ("utf-16", "utf-16-le"),
    ],
)
def test_text_encodings(tmp_path: Path, encoding: str, reported: str) -> None:
    path = tmp_path / "text.txt"
    path.write_bytes(PARAGRAPH.encode(encoding))
    doc = read_source(str(path))
    assert doc.text == PARAGRAPH
    assert doc.encoding == reported
    assert doc.method == "text"


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_r"])
def test_short_legacy_text(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "short.txt"
    text = "Привет, мир! Как дела у копирайтера?"
    path.write_bytes(text.encode(encoding))
    assert read_source(str(path)).text == text


def test_stdin() -> None:
    doc = read_source("-", stdin=io.BytesIO(PARAGRAPH.encode("cp1251")))
    assert doc.source == "<stdin>"
    assert doc.text == PARAGRAPH


HTML = f"""<!doctype html><html><head><meta charset="utf-8"><title>Как заваривать чай</title>
</head><body><nav><a href="/">Главная</a> <a href="/shop">Магазин чая</a></nav>
<article><h1>Как заваривать чай</h1><p>{PARAGRAPH}</p><p>{PARAGRAPH[::-1]}</p></article>
<footer>© Чайный блог. Все права защищены. Подписывайтесь на рассылку.</footer></body></html>"""


def test_html_main_text_through_trafilatura(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(HTML, "utf-8")
    doc = read_source(str(path))
    assert doc.method == "trafilatura"
    assert doc.title == "Как заваривать чай"
    assert "Зелёный чай заваривают" in doc.text
    assert "Подписывайтесь на рассылку" not in doc.text  # footer is boilerplate
    assert "Магазин чая" not in doc.text  # so is the menu


def test_html_from_stdin_is_recognised() -> None:
    doc = read_source("-", stdin=io.BytesIO(HTML.encode("utf-8")))
    assert doc.method == "trafilatura"


def test_html_without_main_text(tmp_path: Path) -> None:
    path = tmp_path / "empty.html"
    path.write_text(
        "<html><head><title>t</title></head><body><script>var a;</script></body></html>", "utf-8"
    )
    with pytest.raises(canon.InputError, match="no main text"):
        read_source(str(path))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing.txt", "no such file"),
        (lambda p: p, "is a directory"),
        (lambda p: _write(p / "empty.txt", b""), "the file is empty"),
        (lambda p: _write(p / "blank.txt", b" \n\t\n"), "the file is empty"),
        (lambda p: _write(p / "image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "binary"),
    ],
)
def test_bad_input_names_the_source(tmp_path: Path, make, message: str) -> None:
    path = make(tmp_path)
    with pytest.raises(canon.InputError, match=message) as info:
        read_source(str(path))
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
