"""The audit's standalone report.html in the command line's language, its URLs by path."""

from __future__ import annotations

import re

import pytest
from audit_site import Page, paragraphs, sentences, serve
from click.testing import CliRunner

from canon.cli import cli

pytestmark = pytest.mark.network

NBSP = "\u00a0"
SITE = {
    "/": Page("Главная", [], ("/article", "/copy", "/hidden")),
    "/article": Page("Статья", paragraphs(sentences(901, 40))),
    "/copy": Page("Копия", paragraphs(sentences(901, 40))),
    "/hidden": Page(
        "Скрытая", paragraphs(sentences(902, 40)), head='<meta name="robots" content="noindex">'
    ),
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """The report of one audit of :data:`SITE` under a Russian and an English locale, with
    the site's origin."""
    made = {}
    with serve(delay=0.0, site=SITE) as site:
        for lang, env in (("ru", "ru_RU.UTF-8"), ("en", "C")):
            out = tmp_path_factory.mktemp(lang)
            done = CliRunner().invoke(
                cli,
                ["audit", site.url("/"), "--out", str(out), "--allow-private",
                 "--content-keep", "article > p"],
                env={"LANG": env, "LC_ALL": "", "LC_MESSAGES": ""},
            )  # fmt: skip
            assert done.exit_code == 0, done.output
            made[lang] = ((out / "report.html").read_text("utf-8"), site.url("/").rstrip("/"))
    return made


def test_the_report_speaks_russian_under_a_russian_locale(reports) -> None:
    page, origin = reports["ru"]
    assert '<html lang="ru">' in page
    assert f"<h1>canon, аудит сайта: {origin}/</h1>" in page
    for heading in ("Сводка", "Страницы", "Без основного текста"):
        assert re.search(rf"<h2[^>]*>{heading}</h2>", page), heading
    assert '<th scope="col">адрес</th>' in page and '<th scope="col">индексация</th>' in page
    assert "(2 страницы)" in page  # the pages in clusters, in their plural form
    assert "порог 0,90 · не меньше 200 слов" in page
    assert '<td class="num">1,000</td>' in page  # the similarity of the copies, by Babel
    assert "<td>true</td>" not in page and "<td>false</td>" not in page
    assert "<td>да</td>" in page and "<td>noindex</td>" in page


def test_the_report_stays_english_under_the_c_locale(reports) -> None:
    page, origin = reports["en"]
    assert '<html lang="en">' in page and f"<h1>canon audit: {origin}/</h1>" in page
    assert '<h2 id="pages">Pages</h2>' in page and "(2 pages)" in page
    assert "threshold 0.90 · at least 200 words" in page and '<td class="num">1.000</td>' in page


def test_a_url_of_the_site_is_shown_by_its_path_the_whole_in_its_tooltip(reports) -> None:
    for page, origin in reports.values():
        cell = f'<td class="url"><span title="{origin}/article">/article</span></td>'
        assert cell in page
        # no table of URLs is wider than the page: each scrolls in its own box
        assert "word-break:break-all" not in page
        tables = page.count('<table class="sortable">')
        assert tables and page.count('<div class="wide" tabindex="0" role="region"') == tables
