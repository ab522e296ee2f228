"""An audit's page as an SEO specialist reads it, in a real Chromium against a real uvicorn:
at a desk's width and a phone's, no column of any table narrower than twelve characters of its
own font, no cell wrapped (a cut one shows its whole text on hover), the page no wider than
the window (the grid scrolls inside its own frame), a page of 1,000 audited pages kept short
by paging, and no serious accessibility violation; sorting, filtering and paging by plain
links, with scripts off; and the check page's verdict coloured by its pass mark.

The audit of 1,000 pages is not crawled: its status file is written straight into the audits
folder (tests/audit_status.py, the format :mod:`canon.web.audits` writes), so the page is
looked at in a second.  The fixtures (Chromium, axe-core, the check page's server) are in
tests/e2e/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from audit_status import write_audit
from serving import uvicorn_serving

import canon
from canon import Index
from canon.report.language import percent

pytestmark = pytest.mark.browser

AUDIT = "0123456789ab"
WIDTHS = {"desk": 1280, "phone": 390}
TALLEST = 12_000  # px: the page of an audit of 1,000 pages, at a phone's width too

# Each cell of each table of the page, measured against twelve "0" of its own computed font.
NARROW_CELLS = """() => {
  const pen = document.createElement("canvas").getContext("2d");
  const narrow = [];
  for (const cell of document.querySelectorAll("main table th, main table td")) {
    const s = getComputedStyle(cell);
    pen.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const twelve = pen.measureText("0".repeat(12)).width;
    const width = cell.getBoundingClientRect().width;
    if (width < twelve) narrow.push([cell.textContent.trim().slice(0, 40), width, twelve]);
  }
  return narrow;
}"""
# The grid's cells taller than a line (wrapped), and those cut without their whole text.
WRAPPED_OR_HIDDEN = """() => {
  const bad = [];
  for (const cell of document.querySelectorAll("table.grid td")) {
    const line = parseFloat(getComputedStyle(cell).lineHeight);
    const inner = cell.clientHeight - parseFloat(getComputedStyle(cell).paddingTop)
      - parseFloat(getComputedStyle(cell).paddingBottom);
    if (inner > line * 1.5) bad.push(["wrapped", cell.textContent]);
    const cut = cell.scrollWidth > cell.clientWidth + 1;
    if (cut && cell.title.trim() === "") bad.push(["cut without a title", cell.textContent]);
  }
  return bad;
}"""
SCRIPTLESS = {"viewport": {"width": 1280, "height": 900}, "locale": "ru-RU",
              "java_script_enabled": False}  # fmt: skip


@pytest.fixture(scope="module")
def audits(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn whose audits folder holds one finished audit of 1,000 pages."""
    from canon.web import create_app

    folder = tmp_path_factory.mktemp("audits")
    write_audit(folder, 1000, AUDIT)
    with uvicorn_serving(create_app(audits=folder)) as url:
        yield url


def _figures(page, selector: str) -> list[int]:
    texts = page.eval_on_selector_all(selector, "cells => cells.map(c => c.textContent)")
    return [int(t.translate({0xA0: None, 0x202F: None, ord(","): None})) for t in texts if t]


def _column(page, name: str) -> str:
    """The selector of the grid's cells of the column ``name`` (pages.csv's name)."""
    at = page.eval_on_selector_all(
        "table.grid col", "cols => cols.map(c => c.className.split(' ')[1])"
    ).index(f"c-{name}")
    return f"table.grid tbody td:nth-child({at + 1})"


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_audit_page_reads_at_a_desk_and_on_a_phone(audited, audits: str, width: int) -> None:
    audited.set_viewport_size({"width": width, "height": 900})
    audited.goto(f"{audits}/audit/{AUDIT}")
    assert audited.inner_text("h2#pages") == "Страницы (1\xa0000)"
    assert audited.locator("table.grid tbody tr").count() == 100
    assert audited.evaluate(NARROW_CELLS) == []
    assert audited.evaluate(WRAPPED_OR_HIDDEN) == []
    overflow = audited.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert overflow[0] <= overflow[1], overflow
    frame = audited.locator("div.wide.grid")
    assert frame.evaluate("f => getComputedStyle(f).overflowX") == "auto"
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")  # the grid scrolls in its frame
    height = audited.evaluate("document.documentElement.scrollHeight")
    assert height < TALLEST, height
    assert audited.violations() == []


def test_the_grid_speaks_russian_to_a_person(page, audits: str) -> None:
    page.goto(f"{audits}/audit/{AUDIT}")
    headers = page.eval_on_selector_all("table.grid th", "ths => ths.map(th => th.innerText)")
    assert headers[:4] == ["адрес", "статус", "индексация", "почему не индексируется"]
    assert not {"url", "indexable", "not_indexable_reason"} & set(headers)
    assert set(
        page.eval_on_selector_all(
            _column(page, "indexable"), "tds => tds.map(td => td.textContent)"
        )
    ) == {"да", "нет"}
    grid = page.inner_text("table.grid")
    assert "true" not in grid and "false" not in grid
    clusters = page.eval_on_selector_all("details.cluster summary", "s => s.map(e => e.innerText)")
    assert clusters[:3] == ["кластер 1: 21 страница", "кластер 2: 5 страниц (одинаковые тексты)",
                            "кластер 3: 2 страницы"]  # fmt: skip
    assert page.inner_text("#pages-shown") == "1–100 из 1\xa0000 страниц"
    first = page.locator("table.grid tbody td.url >> nth=0")
    assert first.get_attribute("title").startswith("https://shop.example/catalog/")
    assert first.inner_text().startswith("/catalog/")  # the site's own URLs by their paths


def test_sort_filter_and_page_with_scripts_off(browser, audits: str) -> None:
    context = browser.new_context(**SCRIPTLESS)
    page = context.new_page()
    try:
        page.goto(f"{audits}/audit/{AUDIT}?lang=en")
        words = _column(page, "words")
        page.click("table.grid th a:has-text('words')")
        assert page.get_attribute("th:has(a:has-text('words'))", "aria-sort") == "ascending"
        shown = _figures(page, words)
        assert shown == sorted(shown) and len(shown) == 100
        page.click("table.grid th a:has-text('words')")
        assert page.get_attribute("th:has(a:has-text('words'))", "aria-sort") == "descending"
        shown = _figures(page, words)
        assert shown == sorted(shown, reverse=True)
        assert page.locator("th[aria-sort]").count() == 1
        page.click("nav.filters a:has-text('Thin pages')")
        assert page.inner_text("#pages-shown") == "1–100 of 105 pages"
        assert page.get_attribute("nav.filters a[aria-current]", "href").count("show=thin") == 1
        thin = _figures(page, words)
        assert thin == sorted(thin, reverse=True) and max(thin) < 200  # still sorted
        page.click("nav.paging a[rel=next]")
        assert page.inner_text("#pages-shown") == "101–105 of 105 pages"
        assert page.locator("table.grid tbody tr").count() == 5
        assert "lang=en" in page.url and page.get_attribute("html", "lang") == "en"
        page.click("nav.filters a:has-text('Errors')")
        statuses = set(_figures(page, _column(page, "status")))
        assert statuses == {404, 500}
    finally:
        context.close()


def _check_at(page, served, draft: str, mark: float) -> tuple[str, str]:
    """The verdict's figure and its colour, checked at the pass mark ``mark``."""
    page.goto(served.url + "/check")
    page.fill("textarea[name=draft_text]", draft)
    page.fill("input[name=pass_mark]", f"{mark:g}")
    page.click("button[type=submit]")
    page.wait_for_selector("#uniqueness")
    colour = page.eval_on_selector("#uniqueness", "e => getComputedStyle(e).color")
    return page.inner_text("#uniqueness"), colour


def _green(colour: str) -> bool:
    red, green, blue = (int(part) for part in colour[colour.index("(") + 1 : -1].split(",")[:3])
    return green > red and green > blue


def test_the_verdict_is_green_at_the_pass_mark_and_red_below(page, served, examples_dir: Path):
    draft = (examples_dir / "rewrite.txt").read_text("utf-8")
    with Index(served.db, readonly=True) as index:
        uniqueness = canon.check(draft, index).verdict.uniqueness * 100
    figure, colour = _check_at(page, served, draft, max(0, round(uniqueness - 5)))
    assert figure == percent(uniqueness / 100, "ru") and _green(colour), colour
    assert "не ниже порога" in page.inner_text(".verdict .judgement")
    figure, colour = _check_at(page, served, draft, min(100, round(uniqueness + 5)))
    assert figure == percent(uniqueness / 100, "ru") and not _green(colour), colour
    red = colour[colour.index("(") + 1 : -1].split(",")
    assert int(red[0]) > int(red[1]), colour  # red, the figure below its mark
    assert "ниже порога" in page.inner_text(".verdict .judgement")
