"""The pages as a Russian editor meets them, in a real Chromium against a real uvicorn: Russian
by default and English on request, forms that keep their values, the headline figure against
a pass mark, one source's fragments at a click, plain messages for empty sides, the API
documentation offline, and no serious accessibility violation on any page (axe-core).

The fixtures (Chromium, the server with an index of two sources, axe-core) are in
tests/e2e/conftest.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

import canon
from canon import Index
from canon.report.language import percent
from canon.report.model import check_view
from canon.sources.documents import Document

pytestmark = pytest.mark.browser

SHORT = "Кошка ловила мышей в старом амбаре у реки, а пёс спал у порога."


def _examples(examples_dir: Path) -> tuple[str, str]:
    return tuple((examples_dir / n).read_text("utf-8") for n in ("original.txt", "rewrite.txt"))


def _in_view(page, selector: str) -> bool:
    """The element's top is inside the viewport, below the page's start (it was scrolled to)."""
    return page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
                  return window.scrollY > 0 && r.top >= -1 && r.top < window.innerHeight; }""",
        selector,
    )


# ------------------------------------------------------------------ languages


def test_russian_by_default_english_by_the_switch(page, served) -> None:
    page.goto(served.url + "/")
    assert page.get_attribute("html", "lang") == "ru"
    assert page.inner_text("h1") == "Сравнение двух текстов"
    assert page.inner_text("nav a >> nth=0") == "Сравнить"
    assert "Текст A" in page.inner_text("form") and "Compare" not in page.inner_text("main")
    page.click("nav .languages a[hreflang=en]")
    page.wait_for_load_state()
    assert page.url.endswith("/?lang=en")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("h1") == "Compare two texts"
    # the choice survives a submit, and the switch keeps the rest of the query
    page.fill("textarea[name=first_text]", SHORT)
    page.click("button[type=submit]")
    assert "Text B is empty" in page.wait_for_selector("p.error").inner_text()
    page.goto(served.url + "/check?lang=en&x=1")
    back = urlsplit(page.get_attribute("nav .languages a[hreflang=ru]", "href"))
    assert (back.path, parse_qs(back.query)) == ("/check", {"lang": ["ru"], "x": ["1"]})
    page.click("nav .languages a[hreflang=ru]")
    page.wait_for_load_state()
    assert page.inner_text("h1") == "Проверка текста на уникальность по индексу"
    assert page.get_attribute("html", "lang") == "ru"


@pytest.mark.parametrize(
    ("language", "heading", "lang"),
    [("en-US,en;q=0.9,ru;q=0.5", "Compare two texts", "en"),
     ("de-DE,ru;q=0.8,en;q=0.5", "Сравнение двух текстов", "ru"),
     ("fr-FR", "Сравнение двух текстов", "ru")],
)  # fmt: skip
def test_accept_language_chooses_the_language(
    browser, served, language: str, heading: str, lang: str
) -> None:
    context = browser.new_context(extra_http_headers={"Accept-Language": language})
    try:
        page = context.new_page()
        page.goto(served.url + "/")
        assert page.inner_text("h1") == heading
        assert page.get_attribute("html", "lang") == lang
        page.goto(served.url + "/?lang=ru")  # the query wins over the header
        assert page.get_attribute("html", "lang") == "ru"
    finally:
        context.close()


# ------------------------------------------------------------------ the compare page


def test_compare_form_keeps_every_value_and_shows_the_result(page, served, examples_dir) -> None:
    first, second = _examples(examples_dir)
    page.goto(served.url + "/")
    page.fill("textarea[name=first_text]", first)
    page.fill("textarea[name=second_text]", second)
    page.select_option("select[name=k]", "2")
    page.uncheck("input[name=profiles][value=raw]")
    page.check("input[name=profiles][value=stem]")
    page.click("button[type=submit]")
    page.wait_for_selector("table.similarity")
    assert page.input_value("textarea[name=first_text]") == first.replace("\r\n", "\n")
    assert page.input_value("textarea[name=second_text]") == second.replace("\r\n", "\n")
    assert page.input_value("select[name=k]") == "2"
    checked = page.eval_on_selector_all(
        "input[name=profiles]:checked", "boxes => boxes.map(b => b.value)"
    )
    assert checked == ["lemma", "stem"]
    # the table has the asked k's and profiles, with the library's figures
    table = canon.compare_table(first, second, [2, 3, 4], ["lemma", "stem"])
    body = page.inner_text("table.similarity")
    for k in (2, 3, 4):
        assert percent(table.cell("stem", k).jaccard, "ru") in body
    assert not re.search(r"\braw\b", body)
    assert _in_view(page, "#result")


def test_compare_page_says_which_side_is_empty(page, served) -> None:
    page.goto(served.url + "/")
    page.fill("textarea[name=second_text]", SHORT)
    page.click("button[type=submit]")
    error = page.wait_for_selector("p.error").inner_text()
    assert error.startswith("Текст A пуст") and "k" not in error
    assert page.input_value("textarea[name=second_text]") == SHORT  # kept for the next try
    page.fill("textarea[name=first_text]", SHORT)
    page.fill("textarea[name=second_text]", "   \n ")
    page.click("button[type=submit]")
    assert page.wait_for_selector("p.error").inner_text().startswith("Текст B пуст")
    # text that has no word at all is empty too
    page.fill("textarea[name=second_text]", "... !!! —")
    page.click("button[type=submit]")
    assert page.wait_for_selector("p.error").inner_text().startswith("Текст B пуст")
    assert _in_view(page, "#error") or page.evaluate("window.scrollY") == 0


def test_compare_page_refuses_a_text_and_a_url_on_one_side(page, served) -> None:
    page.goto(served.url + "/")
    page.fill("textarea[name=first_text]", SHORT)
    page.fill("input[name=first_url]", "https://example.org/article")
    page.fill("textarea[name=second_text]", SHORT)
    page.click("button[type=submit]")
    error = page.wait_for_selector("p.error").inner_text()
    assert error == "Текст A: заполните что-то одно — текст, URL или файл"
    assert page.input_value("input[name=first_url]") == "https://example.org/article"
    assert page.locator("table.similarity").count() == 0  # nothing was fetched or compared


# ------------------------------------------------------------------ the check page


def _check(served, draft: str, **options) -> canon.CheckResult:
    with Index(served.db, readonly=True) as index:
        return canon.check(draft, index, canon.CheckSettings(**options))


def test_check_headline_is_the_verdict_against_the_pass_mark(page, served, examples_dir) -> None:
    draft = _examples(examples_dir)[1]
    page.goto(served.url + "/check")
    page.fill("textarea[name=draft_text]", draft)
    page.fill("textarea[name=exclude]", "nowhere.example\nre:^missing")
    page.check("input[name=skip_quotes]")
    page.uncheck("input[name=profiles][value=raw]")
    page.fill("input[name=pass_mark]", "10")
    page.fill("input[name=sentence_threshold]", "0.7")
    page.fill("input[name=min_shared]", "4")
    page.click("button[type=submit]")
    page.wait_for_selector("#uniqueness")
    expected = _check(served, draft, profiles=["lemma"], exclude=["nowhere.example", "re:^missing"],
                      skip_quotes=True, sentence_threshold=0.7, min_shared=4)  # fmt: skip
    figure = percent(expected.verdict.uniqueness, "ru")
    assert page.inner_text("#uniqueness") == figure
    passed = expected.verdict.uniqueness * 100 >= 10
    assert page.get_attribute("#uniqueness", "class") == ("pass" if passed else "fail")
    # every value is kept
    assert page.input_value("textarea[name=draft_text]") == draft.replace("\r\n", "\n")
    assert page.input_value("textarea[name=exclude]") == "nowhere.example\nre:^missing"
    assert page.is_checked("input[name=skip_quotes]")
    assert not page.is_checked("input[name=profiles][value=raw]")
    assert page.is_checked("input[name=profiles][value=lemma]")
    assert page.input_value("input[name=pass_mark]") == "10"
    assert page.input_value("input[name=sentence_threshold]") == "0.7"
    assert page.input_value("input[name=min_shared]") == "4"
    assert _in_view(page, "#result")
    assert page.text_content("details.details table").count("lemma") == 1  # raw was left out
    # a pass mark above the figure turns the same figure red, saying so in words too
    mark = min(100, expected.verdict.uniqueness * 100 + 5)
    page.fill("input[name=pass_mark]", f"{mark:.1f}")
    page.click("button[type=submit]")
    page.wait_for_selector("#uniqueness")
    assert page.inner_text("#uniqueness") == figure
    assert page.get_attribute("#uniqueness", "class") == "fail"
    assert "ниже порога" in page.inner_text(".verdict .judgement")


def test_clicking_a_source_marks_exactly_its_fragments(page, served, examples_dir) -> None:
    draft = _examples(examples_dir)[1]
    page.goto(served.url + "/check")
    page.fill("textarea[name=draft_text]", draft)
    page.click("button[type=submit]")
    page.wait_for_selector("#draft mark")
    view = check_view(_check(served, draft), Document("draft", draft))
    assert len(view.sources) == 2, [s.source for s in view.sources]
    for source in view.sources:
        number = str(source.number)
        expected = [r.text for r in view.text if r.kind and number in r.twins]
        page.click(f"tr[data-source='{number}']")
        picked = page.eval_on_selector_all(
            "#draft mark.picked", "marks => marks.map(m => m.textContent)"
        )
        assert picked == expected and picked
        others = page.locator("#draft mark:not(.picked)").count()
        assert others == sum(1 for r in view.text if r.kind) - len(expected)
        assert page.locator(f"#source-{number}[open]").count() == 1
    assert len({s.source for s in view.sources}) == 2  # two sources, two different sets


def test_check_page_says_the_draft_is_empty(page, served) -> None:
    page.goto(served.url + "/check")
    page.click("button[type=submit]")
    assert page.wait_for_selector("p.error").inner_text().startswith("Черновик пуст")


def test_check_page_upload(page, served, examples_dir, tmp_path) -> None:
    import docx

    draft = _examples(examples_dir)[1]
    document = docx.Document()
    for paragraph in draft.split("\n\n"):
        document.add_paragraph(paragraph)
    path = tmp_path / "черновик.docx"
    document.save(str(path))
    page.goto(served.url + "/check")
    page.set_input_files("input[name=draft_file]", str(path))
    page.click("button[type=submit]")
    page.wait_for_selector("#uniqueness")
    expected = _check(served, canon.read_source(str(path)).text)
    assert page.inner_text("#uniqueness") == percent(expected.verdict.uniqueness, "ru")
    assert "черновик.docx" in page.inner_text("#result table")


# ------------------------------------------------------------------ the index page


def test_index_page_reads_as_the_command_line(page, served) -> None:
    from click.testing import CliRunner

    from canon.cli import cli

    printed = CliRunner().invoke(cli, ["index", "stats", str(served.db)]).output
    page.goto(served.url + "/index?lang=en")
    shown = page.inner_text("main")
    per_document = re.search(r"per document\s+(\S+) bytes", printed).group(1)
    assert f"per document\t{per_document} bytes" in shown
    for rows in re.findall(r": (\S+) shingles", printed):
        assert rows in shown
    assert "shingles" in shown and "postings" not in shown
    page.goto(served.url + "/index")
    assert "шинглов" in page.inner_text("main")


# ------------------------------------------------------------------ offline and accessible


def test_docs_render_with_the_network_blocked(page, served) -> None:
    refused: list[str] = []

    def only_loopback(route) -> None:
        if route.request.url.startswith(served.url):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_loopback)
    page.goto(served.url + "/docs")
    page.wait_for_selector(".swagger-ui .opblock-summary-path", timeout=15_000)
    paths = page.inner_text(".swagger-ui")
    assert "/api/compare" in paths and "/api/check" in paths
    assert refused == []


def _fill_compare(page, examples_dir) -> None:
    first, second = _examples(examples_dir)
    page.fill("textarea[name=first_text]", first)
    page.fill("textarea[name=second_text]", second)
    page.click("button[type=submit]")
    page.wait_for_selector("table.similarity")


def _fill_check(page, examples_dir) -> None:
    page.fill("textarea[name=draft_text]", _examples(examples_dir)[1])
    page.click("button[type=submit]")
    page.wait_for_selector("#uniqueness")
    page.click("tr[data-source='1']")


def _fill_error(page, examples_dir) -> None:
    page.click("button[type=submit]")
    page.wait_for_selector("p.error")


PAGES = [
    ("/", None),
    ("/", _fill_compare),
    ("/?lang=en", _fill_compare),
    ("/", _fill_error),
    ("/check", None),
    ("/check", _fill_check),
    ("/check?lang=en", _fill_check),
    ("/index", None),
    ("/index?lang=en", None),
    ("/docs", None),
]


@pytest.mark.parametrize(("path", "then"), PAGES, ids=[f"{p}-{t.__name__ if t else 'empty'}"
                                                       for p, t in PAGES])  # fmt: skip
def test_no_serious_accessibility_violation(audited, served, examples_dir, path, then) -> None:
    audited.goto(served.url + path)
    if path == "/docs":
        audited.wait_for_selector(".swagger-ui .opblock-summary-path", timeout=15_000)
    if then is not None:
        then(audited, examples_dir)
    assert audited.violations() == []
