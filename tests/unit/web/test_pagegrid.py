"""An audit's pages grid without a browser: the query it reads, its filters counting what the
summary counts, its order and its pages of 100 rows, its cells said in Russian or English, and
the audit's page drawing it (a finished audit written into the audits folder, not crawled)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from audit_status import SITE, audit_status, write_audit
from webclient import PageClient

from canon.web import create_app
from canon.web.i18n import translations
from canon.web.pagegrid import COLUMN_LABELS, FILTERS, SUMMARY_FILTERS, GridQuery, grid

RU = translations("ru")
EN = translations("en")


@pytest.fixture(scope="module")
def status() -> dict:
    return audit_status(1000)


def _texts(g, column: str) -> list[str]:
    at = [h.name for h in g.headers].index(column)
    return [row[at].text for row in g.rows]


def test_the_query_keeps_what_it_knows_and_drops_the_rest() -> None:
    asked = GridQuery.of({"show": "thin", "sort": "words", "dir": "desc", "page": "3"}, "en")
    assert asked == GridQuery("thin", "words", True, 3, "en")
    assert asked.link(page=4) == "?show=thin&sort=words&dir=desc&page=4&lang=en#pages"
    odd = GridQuery.of({"show": "<x>", "sort": "secret", "dir": "up", "page": "-2"})
    assert odd == GridQuery()
    assert odd.link() == "?#pages"
    assert GridQuery.of({"page": "9" * 40}).page == 1  # no number too large to read


def test_each_filter_counts_what_the_summary_counts(status: dict) -> None:
    counts = {c.name: c.count for c in grid(status, GridQuery(), RU, "ru").choices}
    assert set(counts) == set(FILTERS)
    for key, name in SUMMARY_FILTERS.items():
        if key != "near_duplicate_clusters":
            assert counts[name] == status["summary"][key], key
    assert counts["canonicalized"] == sum(1 for row in status["pages"] if row[3] == "canonicalized")


def test_a_filter_lists_its_rows_only(status: dict) -> None:
    thin = grid(status, GridQuery(show="thin"), RU, "ru")
    assert thin.total == len(status["thin"]) and thin.first == 1
    assert {row[0].title for row in thin.rows} <= set(status["thin"])
    errors = grid(status, GridQuery(show="errors", sort="status"), RU, "ru")
    assert set(_texts(errors, "status")) == {"404", "500"}
    assert grid(status, GridQuery(show="exact"), RU, "ru").total == 4


def test_rows_sort_both_ways_with_the_empty_last(status: dict) -> None:
    up = grid(status, GridQuery(sort="words", show="no-text"), RU, "ru")
    assert up.total and set(_texts(up, "words")) == {"0"}
    words = [int(w.replace("\xa0", "")) for w in _texts(grid(status, GridQuery(sort="words"),
                                                            RU, "ru"), "words")]  # fmt: skip
    assert words == sorted(words)
    down = grid(status, GridQuery(sort="closest_similarity", descending=True), EN, "en")
    shares = _texts(down, "closest_similarity")
    assert shares[0] == "1.000" and shares == sorted(shares, reverse=True)
    last = grid(status, GridQuery(sort="closest_similarity", page=10), EN, "en")
    assert _texts(last, "closest_similarity")[-1] == ""  # the pages without one, at the end
    header = {h.name: h for h in down.headers}
    assert header["closest_similarity"].sorted == "descending"
    assert header["words"].sorted is None
    assert header["closest_similarity"].link == "?sort=closest_similarity#pages"  # again: up


def test_a_hundred_rows_a_page_and_links_to_the_others(status: dict) -> None:
    first = grid(status, GridQuery(lang="ru"), RU, "ru")
    assert (len(first.rows), first.first, first.last, first.page_count) == (100, 1, 100, 10)
    assert first.previous == "" and first.following == "?page=2&lang=ru#pages"
    assert [p.number for p in first.pages] == [1, 2, 3, None, 10]
    middle = grid(status, GridQuery(page=5), RU, "ru")
    assert [p.number for p in middle.pages] == [1, None, 3, 4, 5, 6, 7, None, 10]
    assert middle.rows[0][0].title == status["pages"][400][0]
    beyond = grid(status, GridQuery(page=99), RU, "ru")
    assert (beyond.page, beyond.first, beyond.last) == (10, 901, 1000)


def test_cells_read_in_the_pages_language(status: dict) -> None:
    russian = grid(status, GridQuery(), RU, "ru")
    english = grid(status, GridQuery(), EN, "en")
    assert [RU.gettext(h.label) for h in russian.headers][:3] == ["адрес", "статус", "индексация"]
    assert [h.name for h in russian.headers] == status["columns"]  # pages.csv's names
    assert set(COLUMN_LABELS) == set(status["columns"])
    assert set(_texts(russian, "indexable")) == {"да", "нет"}
    assert set(_texts(english, "indexable")) == {"yes", "no"}
    assert "закрыто в robots.txt" in _texts(russian, "not_indexable_reason")
    url = russian.rows[0][0]
    assert url.href == url.title == status["pages"][0][0] and url.text.startswith("/catalog/")
    assert url.title == SITE + url.text
    words = status["pages"][0][status["columns"].index("words")]
    assert _texts(russian, "words")[0] == f"{words:,}".replace(",", "\xa0")
    assert _texts(english, "words")[0] == f"{words:,}"
    assert re.fullmatch(r"0,\d{3}", _texts(russian, "closest_similarity")[0])


def test_a_status_without_its_thin_pages_counts_them_from_the_words() -> None:
    old = audit_status(120)
    del old["thin"]
    thin = grid(old, GridQuery(show="thin"), RU, "ru")
    assert thin.total == len(audit_status(120)["thin"]) > 0


# ------------------------------------------------------------------ the audit's page


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> PageClient:
    folder = tmp_path_factory.mktemp("audits")
    write_audit(folder)
    return PageClient(create_app(audits=folder))


def test_the_audit_page_draws_the_grid_in_russian(client: PageClient) -> None:
    page = client.get("/audit/0123456789ab").text
    assert '<h2 id="pages">Страницы (1\xa0000)</h2>' in page
    assert "1–100 из 1\xa0000 страниц" in page
    assert "кластер 1: 21 страница (" not in page and "кластер 1: 21 страница</summary>" in page
    assert "кластер 2: 5 страниц (одинаковые тексты)" in page
    assert "кластер 3: 2 страницы</summary>" in page
    assert "и ещё 1 страница" in page
    assert "ещё 32 кластера: их страницы — в таблице ниже" in page
    assert page.count('<details class="cluster"') == 20
    url = '<th scope="col" class="url"><a href="/audit/0123456789ab?sort=url#pages">адрес</a>'
    assert url in page
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    assert body.count("<tr>") == 100
    assert ">true<" not in body and ">false<" not in body and ">да<" in body
    assert 'href="/audit/0123456789ab?page=2#pages" rel="next"' in page


def test_the_grid_keeps_the_language_asked_for(client: PageClient) -> None:
    page = client.get("/audit/0123456789ab?lang=en&show=thin&sort=words&dir=asc").text
    assert '<th scope="col" class="count" aria-sort="ascending">' in page
    down = "?show=thin&amp;sort=words&amp;dir=desc&amp;lang=en#pages"
    assert f'href="/audit/0123456789ab{down}"' in page
    assert 'aria-current="page">Thin pages' in page
    main = page.split("<main>")[1]  # the language switch's links are above
    links = re.findall(r'href="(/audit/0123456789ab\?[^"]*)"', main)
    assert len(links) > 30 and all("lang=en" in unescape(link) for link in links)
    assert "1–100 of 105 pages" in page


def test_a_summary_figure_links_to_its_filter(client: PageClient) -> None:
    page = client.get("/audit/0123456789ab").text
    figures = page.split('<table class="figures">')[1].split("</table>")[0]
    assert '<a href="/audit/0123456789ab?show=thin#pages">105</a>' in figures
    assert '<a href="/audit/0123456789ab?show=errors#pages">21</a>' in figures
    assert ">0,90<" in figures  # the threshold, a figure of its own


def test_the_audit_page_answers_fast_for_ten_thousand_pages(tmp_path: Path) -> None:
    import json
    import time

    write_audit(tmp_path, 1000)
    path = tmp_path / "0123456789ab" / "status.json"
    status = json.loads(path.read_text("utf-8"))
    status["pages"] = [
        [f"{row[0]}&copy={n}", *row[1:]] for n in range(10) for row in status["pages"]
    ]
    path.write_text(json.dumps(status), "utf-8")
    with PageClient(create_app(audits=tmp_path)) as client:
        client.get("/audit/0123456789ab")
        started = time.perf_counter()
        page = client.get("/audit/0123456789ab?sort=title&dir=desc&page=50")
        took = time.perf_counter() - started
    assert page.status_code == 200 and "4\xa0901–5\xa0000 из 10\xa0000 страниц" in page.text
    assert took < 3, took
