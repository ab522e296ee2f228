"""Reading files and stdin: encodings, HTML main text, .docx, limits, and every kind of bad
input."""

from __future__ import annotations

import gzip
import io
import time
import zipfile
from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_BREAK
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import FIXTURES, ROOT
from wordfiles import CLOSING, CONTENT_TYPES, OPENING, body, write_docx

import canon
from canon.errors import ExtractionError
from canon.sources.documents import read_source
from canon.sources.extract import check_html
from canon.sources.limits import ReadLimits
from canon.sources.word import docx_text

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


# --- limits on every source ----------------------------------------------------------------


def test_read_limits_are_validated() -> None:
    with pytest.raises(canon.OptionError) as info:
        ReadLimits(max_text=0)
    assert info.value.option == "max_text"
    with pytest.raises(canon.OptionError):
        ReadLimits(max_bytes=True)  # type: ignore[arg-type]


def test_a_file_and_stdin_are_read_up_to_max_bytes(tmp_path: Path) -> None:
    data = PARAGRAPH.encode("utf-8")
    path = _write(tmp_path / "text.txt", data)
    assert read_source(str(path), limits=ReadLimits(max_bytes=len(data))).text == PARAGRAPH
    for source, stdin in ((str(path), None), ("-", io.BytesIO(data))):
        with pytest.raises(canon.InputError, match="more than") as info:
            read_source(source, stdin=stdin, limits=ReadLimits(max_bytes=len(data) - 1))
        assert info.value.reason == "too-large"


def test_text_longer_than_max_text_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "text.txt", PARAGRAPH.encode("utf-8"))
    assert read_source(str(path), limits=ReadLimits(max_text=len(PARAGRAPH))).chars == len(
        PARAGRAPH
    )
    with pytest.raises(canon.InputError, match="characters") as info:
        read_source(str(path), limits=ReadLimits(max_text=len(PARAGRAPH) - 1))
    assert info.value.reason == "too-large"


# --- .docx: the text python-docx gives, read by a bounded streaming parser -------------------


def _python_docx_text(path: Path) -> tuple[str, str | None]:
    """The reference: how canon read .docx files with python-docx (each merged cell once; the
    title's white space collapsed, as canon does now)."""
    document = docx.Document(str(path))
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        seen: list[object] = []
        for row in table.rows:
            for cell in row.cells:
                if not any(cell._tc is tc for tc in seen):
                    seen.append(cell._tc)
                    parts.append(cell.text)
    title = " ".join((document.core_properties.title or "").split()) or None
    return "\n".join(p for p in parts if p.strip()), title


RUN_TEXT = st.text(
    alphabet=st.sampled_from(list("абвгдеёжзийклмнопрстуфхцчшщъыьэюяABCxyz019 .,-\t\n")),
    max_size=12,
)
RUNS = st.lists(st.tuples(RUN_TEXT, st.booleans()), max_size=4)  # (text, page break after)
CELLS = st.lists(st.lists(st.lists(RUN_TEXT, min_size=1, max_size=2), min_size=1, max_size=3))


@pytest.mark.slow
@settings(max_examples=40)
@given(
    paragraphs=st.lists(RUNS, max_size=6),
    tables=st.lists(CELLS, max_size=2),
    title=st.text(alphabet=st.sampled_from(list("Заголовк title")), max_size=20),
)
def test_docx_text_is_the_one_python_docx_gives(
    tmp_path_factory: pytest.TempPathFactory, paragraphs, tables, title: str
) -> None:
    document = docx.Document()
    document.core_properties.title = title
    for runs in paragraphs:
        paragraph = document.add_paragraph()
        for text, page_break in runs:
            run = paragraph.add_run(text)
            if page_break:
                run.add_break(WD_BREAK.PAGE)
    for rows in tables:
        table = document.add_table(rows=len(rows), cols=max(map(len, rows), default=1) or 1)
        for row, cells in zip(table.rows, rows):
            for cell, texts in zip(row.cells, cells):
                cell.text = texts[0]
                for more in texts[1:]:
                    cell.add_paragraph(more)
    path = tmp_path_factory.mktemp("docx") / "generated.docx"
    document.save(str(path))
    expected, expected_title = _python_docx_text(path)
    read = docx_text(path, str(path), ReadLimits())
    assert (read.text, read.title, read.unseen) == (expected, expected_title, ())


KNOWN = """
<w:p><w:r><w:t>Один</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve">два </w:t></w:r>
  <w:hyperlink r:id="rId9"><w:r><w:t>ссылка</w:t></w:r></w:hyperlink></w:p>
<w:p><w:r><w:t>а</w:t><w:br/><w:t>б</w:t><w:br w:type="page"/><w:t>в</w:t><w:cr/>
  <w:noBreakHyphen/><w:ptab/></w:r></w:p>
<w:p><w:r><w:pict><w:txbxContent><w:p><w:r><w:t>в рамке</w:t></w:r></w:p></w:txbxContent>
  </w:pict></w:r></w:p>
<w:p/>
<w:tbl><w:tr><w:tc><w:p><w:r><w:t>A1</w:t></w:r></w:p><w:p><w:r><w:t>A1b</w:t></w:r></w:p></w:tc>
  <w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>B1</w:t></w:r></w:p>
  <w:tbl><w:tr><w:tc><w:p><w:r><w:t>вложенная</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:tc>
</w:tr></w:tbl>
<w:p><w:r><w:t>После &amp; таблицы&#33;</w:t></w:r></w:p>
"""


def test_docx_known_answer(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "known.docx", body(KNOWN), title="Известный  ответ")
    doc = read_source(str(path))
    assert doc.method == "docx" and doc.title == "Известный ответ"
    assert doc.text == "Один\tдва ссылка\nа\nбв\n-\t\nПосле & таблицы!\nA1\nA1b\nB1"
    # python-docx agrees, except that it repeats a cell for every grid column it spans
    python_docx = [p.text for p in docx.Document(str(path)).paragraphs if p.text.strip()]
    assert "\n".join(python_docx) == doc.text.split("\nA1")[0]
    assert [c.text for c in docx.Document(str(path)).tables[0].rows[0].cells][1:] == ["B1", "B1"]


@pytest.mark.parametrize(
    ("document", "reason", "message"),
    [
        (body("<w:p><w:r><w:t>без конца</w:t></w:r>"), "bad-xml", "not well-formed"),
        (["<w:document><w:body/></w:document>"], "not-docx", "not a Word document"),  # no xmlns
        (
            [
                '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e "раз">]>',
                OPENING.split("\n", 1)[1],
                "<w:p><w:r><w:t>&e;</w:t></w:r></w:p>",
                CLOSING,
            ],
            "bad-xml",
            "declares a DTD",
        ),
        (
            [
                '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
                OPENING.split("\n", 1)[1],
                "<w:p><w:r><w:t>&x;</w:t></w:r></w:p>",
                CLOSING,
            ],
            "bad-xml",
            "declares a DTD",
        ),
        (
            ['<?xml version="1.0"?><workbook xmlns="urn:x"><sheet/></workbook>'],
            "not-docx",
            "not a Word document",
        ),
        (body("<w:p><w:r><w:t> </w:t></w:r></w:p>"), "no-text", "has no text"),
    ],
)
def test_docx_refusals(tmp_path: Path, document: list[str], reason: str, message: str) -> None:
    path = write_docx(tmp_path / "bad.docx", document)
    with pytest.raises(canon.InputError, match=message) as info:
        read_source(str(path))
    assert info.value.reason == reason
    assert "\n" not in str(info.value) and "root:" not in str(info.value)


def test_docx_without_a_main_document(tmp_path: Path) -> None:
    path = tmp_path / "empty.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
    with pytest.raises(ExtractionError, match="no main document") as info:
        read_source(str(path))
    assert info.value.reason == "not-docx"


def test_docx_limits(tmp_path: Path) -> None:
    words = "<w:p><w:r><w:t>" + "слово " * 100 + "</w:t></w:r></w:p>"
    path = write_docx(tmp_path / "long.docx", body(words * 50))
    text = read_source(str(path)).text
    assert text == "\n".join(["слово " * 100] * 50)

    def refused(**limits: int) -> str:
        with pytest.raises(canon.InputError) as info:
            read_source(str(path), limits=ReadLimits(**limits))
        assert "\n" not in str(info.value)
        return str(info.value.reason)

    assert refused(max_text=len(text) - 1) == "too-large"
    assert refused(max_docx_bytes=path.stat().st_size - 1) == "too-large"
    assert refused(max_unpacked=1_000) == "too-large"
    bomb = write_docx(tmp_path / "spaces.docx", [OPENING, b" " * (4 << 20), CLOSING])
    with pytest.raises(ExtractionError, match="expands") as info:
        read_source(str(bomb))
    assert info.value.reason == "bomb"
    with pytest.raises(ExtractionError, match="has no text"):  # read once allowed
        read_source(str(bomb), limits=ReadLimits(max_ratio=10_000))


# --- HTML: measured before any parser sees it ------------------------------------------------

MEASURED = """<html><head><title>t</title><script>if (a<b && c<d) { x = "<p a=1>" }</script>
<style>p > a { color: red }</style></head><body><!-- <div a b c d e f> -->
<p class="x" id='y' data-z=1 hidden>текст <b>жирный</b></p></body></html>"""
# html, head, title, script, style, body, p, b; the p's four attributes, none elsewhere


@pytest.mark.parametrize(
    ("field", "at_limit"),
    [("max_elements", 8), ("max_attributes", 4), ("max_element_attributes", 4)],
)
def test_check_html_counts_elements_and_attributes(field: str, at_limit: int) -> None:
    check_html(MEASURED, "page", ReadLimits(**{field: at_limit}))
    with pytest.raises(ExtractionError, match="too complex") as info:
        check_html(MEASURED, "page", ReadLimits(**{field: at_limit - 1}))
    assert info.value.reason == "too-complex" and "\n" not in str(info.value)


def test_check_html_size_and_unclosed_markup() -> None:
    check_html(MEASURED, "page", ReadLimits(max_bytes=len(MEASURED)))
    with pytest.raises(ExtractionError) as info:
        check_html(MEASURED, "page", ReadLimits(max_bytes=len(MEASURED) - 1))
    assert info.value.reason == "too-large"
    # an unclosed script or comment runs to the end, as in a browser: one element, no more
    check_html("<p>a</p><script>" + "<b x=1>" * 1000, "page", ReadLimits(max_elements=2))
    check_html("<p>a</p><!--" + "<b x=1>" * 1000, "page", ReadLimits(max_elements=1))
    with pytest.raises(ExtractionError, match="attributes"):
        check_html("<p\n" + "\n".join(f"a{i}" for i in range(300)) + ">", "page")


def _real_pages() -> list[Path]:
    root = ROOT
    pages = sorted((FIXTURES / "site").glob("*.html"))
    for shared in (root.parent / "shared" / "data", root.parents[1] / "shared" / "data"):
        if shared.is_dir():
            pages += sorted(shared.rglob("*.htm*"))
            break
    return pages


@pytest.mark.slow
def test_real_pages_pass_the_html_check() -> None:
    pages = _real_pages()
    assert pages
    for page in pages:
        data = page.read_bytes()
        if page.suffix == ".gz":
            data = gzip.decompress(data)
        check_html(data.decode("utf-8", "replace"), str(page))  # raises if refused


def test_a_page_with_too_many_attributes_is_refused_before_trafilatura(tmp_path: Path) -> None:
    attributes = " ".join(f"a{i}=1" for i in range(150_000))
    path = tmp_path / "attributes.html"
    path.write_text(f"<html><body><p {attributes}>{PARAGRAPH}</p></body></html>", "utf-8")
    started = time.perf_counter()
    with pytest.raises(ExtractionError, match="more than 200 attributes") as info:
        read_source(str(path))
    assert time.perf_counter() - started < 2
    assert info.value.reason == "too-complex"


@pytest.mark.parametrize(
    ("source", "hinted"),
    [("example.ru/news/1", True), ("www.lenta.ru", True), ("нет.рф", True),
     ("draft.txt", False), ("drafts/a.md", False), ("missing", False)],
)  # fmt: skip
def test_a_site_given_without_its_scheme_is_told_how_to_give_it(
    source: str, hinted: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no such file here
    with pytest.raises(canon.InputError) as info:
        canon.read_source(source)
    message = str(info.value)
    assert message.startswith(f"{source}: no such file") and info.value.reason == "missing"
    assert (f"https://{source}" in message) is hinted
