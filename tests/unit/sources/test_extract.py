"""canon.sources.extract: bytes → text (BOMs, declared and detected Cyrillic encodings), and an
HTML page's main text or all its visible text."""

from __future__ import annotations

import codecs

import pytest

import canon
from canon.sources.extract import Extracted, decode, decode_html, extract_html

TEXT = (
    "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация "
    "южных губерний даст мощный толчок подъёму сельского хозяйства."
)


def _same_codec(name: str, expected: str) -> bool:
    return codecs.lookup(name).name == codecs.lookup(expected).name


@pytest.mark.parametrize(
    ("bom", "codec"),
    [(b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")],
)
def test_a_byte_order_mark_decides(bom: bytes, codec: str) -> None:
    text, encoding = decode(bom + TEXT.encode(codec), "bom.txt")
    assert text == TEXT  # the mark itself is not part of the text
    assert encoding == codec


def test_a_byte_order_mark_beats_a_declaration() -> None:
    text, encoding = decode(b"\xef\xbb\xbf" + TEXT.encode("utf-8"), "x", "windows-1251")
    assert (text, encoding) == (TEXT, "utf-8")


def test_utf8_without_declaration() -> None:
    assert decode(TEXT.encode("utf-8"), "x") == (TEXT, "utf-8")


@pytest.mark.parametrize("codec", ["cp1251", "koi8_r", "cp866", "mac_cyrillic", "iso8859_5"])
def test_legacy_cyrillic_is_detected(codec: str) -> None:
    text, encoding = decode(TEXT.encode(codec), "legacy.txt")
    assert text == TEXT
    assert _same_codec(encoding, codec)


@pytest.mark.parametrize("codec", ["cp1251", "koi8_r"])
def test_a_short_legacy_text_is_detected(codec: str) -> None:
    text, encoding = decode("Привет, мир".encode(codec), "short.txt")
    assert text == "Привет, мир"
    assert _same_codec(encoding, codec)


@pytest.mark.parametrize(
    ("declared", "codec"), [("windows-1251", "cp1251"), ("KOI8-R", "koi8_r"), ("cp866", "cp866")]
)
def test_a_declared_charset_is_used(declared: str, codec: str) -> None:
    text, encoding = decode(TEXT.encode(codec), "page", declared)
    assert text == TEXT
    assert _same_codec(encoding, codec)


def test_a_declaration_that_decodes_wins_over_detection() -> None:
    # KOI8-R bytes decode as windows-1251 too (into the wrong letters): the order is the
    # browser's, a declaration first, so the declared charset is what the bytes are read as.
    data = TEXT.encode("koi8_r")
    text, encoding = decode(data, "page", "windows-1251")
    assert _same_codec(encoding, "cp1251")
    assert text == data.decode("cp1251") != TEXT


def test_a_declaration_that_cannot_decode_falls_back_to_detection() -> None:
    text, encoding = decode(TEXT.encode("cp1251"), "page", "utf-8")
    assert text == TEXT and _same_codec(encoding, "cp1251")


@pytest.mark.parametrize(
    "declared", ["iso-8859-1", "latin-1", "windows-1252", "ascii", "us-ascii", "x-no-such"]
)
def test_untrusted_and_unknown_declarations_are_ignored(declared: str) -> None:
    for codec in ("cp1251", "koi8_r"):
        text, encoding = decode(TEXT.encode(codec), "page", declared)
        assert text == TEXT
        assert _same_codec(encoding, codec)
    assert decode(TEXT.encode("utf-8"), "page", declared) == (TEXT, "utf-8")


@pytest.mark.parametrize("data", [b"", b" ", b"\n\t \r\n"])
def test_empty_is_refused(data: bytes) -> None:
    with pytest.raises(canon.InputError) as info:
        decode(data, "empty.txt")
    assert info.value.reason == "empty"
    assert info.value.source == "empty.txt"
    assert str(info.value).startswith("empty.txt: ")


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"%PDF-1.7\n\x00\x01\x02",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00",
        "tea".encode("utf-16-le") * 200,  # UTF-16 without its mark: a NUL every other byte
        bytes(range(256)) * 40,  # bytes of every value, as in compressed data
    ],
)
def test_binary_is_refused(data: bytes) -> None:
    with pytest.raises(canon.InputError) as info:
        decode(data, "blob.bin")
    assert info.value.reason == "binary"
    assert info.value.source == "blob.bin"
    assert "--" not in str(info.value)


def test_a_stray_nul_byte_in_text_is_dropped_not_refused() -> None:
    assert decode(TEXT.encode("utf-8") + b"\x00", "x") == (TEXT, "utf-8")
    page = f"<html><body><p>{TEXT}</p>\x00<a href='/next'>далее</a></body></html>"
    html, _ = decode_html(page.encode("utf-8"), "page.html")
    assert "\x00" not in html and "href='/next'" in html


def test_utf16_is_not_binary_with_its_mark() -> None:
    assert decode(b"\xff\xfe" + "чай".encode("utf-16-le"), "x") == ("чай", "utf-16-le")


def _page(charset: str) -> bytes:
    html = f'<html><head><meta charset="{charset}"><title>Чай</title></head><body>{TEXT}</body>'
    return html.encode("cp1251")


def test_decode_html_reads_the_meta_charset() -> None:
    text, encoding = decode_html(_page("windows-1251"), "page.html")
    assert TEXT in text and _same_codec(encoding, "cp1251")
    http_equiv = (
        '<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">' + TEXT
    ).encode("koi8_r")
    text, encoding = decode_html(http_equiv, "page.html")
    assert TEXT in text and _same_codec(encoding, "koi8_r")


def test_decode_html_header_beats_meta() -> None:
    data = _page("koi8-r")  # the meta is wrong; the header is right
    text, encoding = decode_html(data, "page.html", header_charset="windows-1251")
    assert TEXT in text and _same_codec(encoding, "cp1251")


def test_decode_html_untrusted_header_leaves_the_meta() -> None:
    text, encoding = decode_html(_page("windows-1251"), "page.html", header_charset="ISO-8859-1")
    assert TEXT in text and _same_codec(encoding, "cp1251")


ARTICLE = [
    "Зелёный чай заваривают водой не горячее восьмидесяти градусов, иначе он горчит.",
    "Листья промывают коротко, а первый настой сливают, чтобы раскрыть аромат.",
    "Второй и третий проливы считаются самыми вкусными: в них больше всего сладости.",
    "Хранить чай лучше в плотно закрытой банке, вдали от света и чужих запахов.",
]
TITLE = "Как заваривать зелёный чай"
MENU, ASIDE, FOOTER = "Магазин посуды", "Подпишитесь на рассылку скидок", "Все права защищены"
HIDDEN = ["счётчик посещений", "Включите JavaScript", "Шаблон карточки", "секретная заметка"]
PAGE = f"""<!doctype html><html><head><meta charset="utf-8"><title>{TITLE}</title>
<style>body {{ color: red }}</style><script>var tracker = "{HIDDEN[0]}";</script></head>
<body><noscript>{HIDDEN[1]}</noscript><template>{HIDDEN[2]}</template><!-- {HIDDEN[3]} -->
<nav><ul><li><a href="/">Главная</a></li><li><a href="/shop">{MENU}</a></li></ul></nav>
<main><article><h1>{TITLE}</h1>
{"".join(f"<p>{p}</p>" for p in ARTICLE)}
<table><tr><td>Сенча</td><td>Семьдесят пять градусов</td></tr></table>
</article></main>
<div class="comments" id="comments"><p>Отличная статья, спасибо автору за советы!</p></div>
<aside>{ASIDE}</aside><footer>© 2024 Чайная лавка. {FOOTER}.</footer></body></html>"""


def test_main_text_is_the_article() -> None:
    page = extract_html(PAGE, "tea.html")
    assert isinstance(page, Extracted) and page.method == "trafilatura"
    assert page.title == TITLE
    for paragraph in ARTICLE:
        assert paragraph in page.text
    assert "Семьдесят пять градусов" in page.text  # tables are part of an article
    for outside in (MENU, ASIDE, FOOTER, "Отличная статья", *HIDDEN):
        assert outside not in page.text


def test_whole_page_is_all_visible_text() -> None:
    page = extract_html(PAGE, "tea.html", whole_page=True)
    assert page.method == "whole-page"
    assert page.title == TITLE
    for visible in (*ARTICLE, MENU, ASIDE, FOOTER, "Отличная статья", "Семьдесят пять"):
        assert visible in page.text
    for hidden in HIDDEN:  # scripts, noscript, templates and comments are not seen
        assert hidden not in page.text
    assert "  " not in page.text and "\n" not in page.text  # whitespace collapsed


def test_a_page_does_not_depend_on_the_pages_read_before() -> None:
    first = extract_html(PAGE, "tea.html")
    other = PAGE.replace(TITLE, "Другая страница")  # the same paragraphs on another page
    for _ in range(4):  # trafilatura's own deduplication would empty the page by now
        extract_html(other, "other.html")
        assert extract_html(PAGE, "tea.html") == first


@pytest.mark.parametrize(
    "html",
    [
        "",
        "   ",
        "<html><body></body></html>",
        "<html><head><title>Пусто</title><script>run()</script></head><body><nav></nav></body>",
    ],
)
@pytest.mark.parametrize(("whole_page", "reason"), [(False, "no-main-text"), (True, "no-text")])
def test_a_page_without_text_is_refused(html: str, whole_page: bool, reason: str) -> None:
    with pytest.raises(canon.InputError) as info:
        extract_html(html, "empty.html", whole_page=whole_page)
    error = info.value
    assert type(error).__name__ == "ExtractionError"
    assert error.reason == reason and error.source == "empty.html"
    assert str(error).startswith("empty.html: ") and "--" not in str(error)
