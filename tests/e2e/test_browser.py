"""The web pages in a real Chromium (Playwright driving Debian's /usr/bin/chromium) against a real
uvicorn on 127.0.0.1, and a bounded load test of the JSON API.

The fixtures are in tests/e2e/conftest.py: without Chromium these tests are skipped, saying how
to enable them; CI sets CANON_REQUIRE_BROWSER=1, which turns a missing browser into a failure.
A screenshot of every page test is kept in tests/e2e/artifacts/ when the test fails.
"""

from __future__ import annotations

import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

import canon
from canon import Index
from canon.report.language import percent

pytestmark = pytest.mark.browser

HOSTILE = '<script>window.hacked = 1</script> "><img src=x onerror="window.hacked=2">'


def test_compare_page(page, served, examples_dir: Path, tmp_path: Path) -> None:
    server = served.url
    first = (examples_dir / "original.txt").read_text("utf-8") + "\n" + HOSTILE
    second = (examples_dir / "rewrite.txt").read_text("utf-8") + "\n" + HOSTILE
    page.goto(server + "/")
    page.fill("textarea[name=first_text]", first)
    page.fill("textarea[name=second_text]", second)
    page.click("button[type=submit]")
    page.wait_for_selector("table.similarity")
    expected = canon.compare_table(first, second)
    lemma3 = expected.cell("lemma", 3)
    body = page.inner_text("table.similarity")
    assert percent(lemma3.jaccard, "ru") in body
    assert percent(expected.cell("raw", 3).jaccard, "ru") in body
    assert page.locator(".text[data-side='0'] mark.exact").count() > 0
    assert page.locator(".text[data-side='1'] mark.rewrite").count() > 0
    assert page.evaluate("window.hacked") is None  # the hostile text was shown, not run
    assert "<script>window.hacked" in page.inner_text(".text[data-side='0']")
    page.locator(".text[data-side='0'] mark[data-shingles]").first.click()
    assert page.locator(".text[data-side='1'] mark.twin").count() > 0
    page.screenshot(path=str(tmp_path / "compare.png"), full_page=True)
    assert (tmp_path / "compare.png").stat().st_size > 10_000
    if os.environ.get("CANON_README_SCREENSHOT"):  # how the README's picture is made
        page.locator("table.similarity").scroll_into_view_if_needed()
        page.screenshot(path=os.environ["CANON_README_SCREENSHOT"])


def test_a_form_on_another_site_is_refused_in_the_browser(page, served) -> None:
    """Another site's page (its address served by the browser's router) that posts the
    compare form to canon: Chromium sends that site's Origin, no cookie of canon's (SameSite),
    and canon answers with its refusal page, which leads back to its own compare page."""
    attack = (
        f'<!doctype html><form method="post" action="{served.url}/" enctype="multipart/form-data">'
        '<input name="csrf_token" value="guessed"><textarea name="first_text">один два три'
        '</textarea><textarea name="second_text">один два три</textarea>'
        '<button type="submit">go</button></form>'
    )
    page.route("http://attacker.test/", lambda route: route.fulfill(
        body=attack, content_type="text/html"))  # fmt: skip
    page.goto("http://attacker.test/")
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert page.url.startswith(served.url)
    assert page.inner_text("h1") == "Запрос отклонён"
    assert "с другого сайта" in page.inner_text("#error")
    page.click("#back")
    page.wait_for_selector("textarea[name=first_text]")  # the compare page, its form ready
    assert page.url == served.url + "/"


def test_compare_page_shows_an_error_for_an_empty_text(page, served) -> None:
    page.goto(served.url + "/?lang=en")
    page.fill("textarea[name=first_text]", "Кошка ловила мышей в старом амбаре у реки")
    page.click("button[type=submit]")
    error = page.wait_for_selector("p.error")
    assert "Text B is empty" in error.inner_text()  # the second side, named as the page names it


def test_check_page(page, served, examples_dir: Path) -> None:
    draft = (examples_dir / "rewrite.txt").read_text("utf-8")
    page.goto(served.url + "/check?lang=en")
    page.fill("textarea[name=draft_text]", draft)
    page.click("button[type=submit]")
    page.wait_for_selector("mark")
    with Index(served.db, readonly=True) as index:
        expected = canon.check(draft, index)
    verdict = expected.verdict
    # The headline figure first, then its two parts, drawn to scale.
    assert page.inner_text("#uniqueness") == f"{verdict.uniqueness * 100:.1f}%"
    parts = page.inner_text(".verdict .parts")
    assert f"copied {verdict.copied * 100:.1f}%" in parts
    assert f"rewritten {verdict.rewritten * 100:.1f}%" in parts
    width = float(page.get_attribute("svg.bar rect.copied", "width"))
    assert width == pytest.approx(verdict.copied * 100, abs=0.01)
    assert page.locator("table.tricks tr").count() == len(expected.tricks) + 1
    page.click("details.details summary")
    details = page.inner_text("details.details")
    for profile in expected.profiles:
        assert f"{profile.uniqueness * 100:.1f}%" in details
    assert "original.txt" in page.inner_text("table.sources")
    assert page.locator("mark.exact").count() > 0 and page.locator("mark.rewrite").count() > 0
    # Clicking a source keeps only its fragments marked and opens it beside the draft.
    marks = page.locator("#draft mark").count()
    page.click("tr[data-source='1']")
    picked = page.locator("#draft mark.picked").count()
    assert 0 < picked <= marks
    assert page.locator("#draft.picking").count() == 1
    assert page.locator("#source-1[open] .sides .text mark").count() > 0
    page.click("tr[data-source='1']")
    assert page.locator("#draft mark.picked").count() == 0


def test_load(served) -> None:
    server = served.url
    """1,000 compare requests, 20 at a time: no errors; prints requests/s and p95 latency."""
    body = {"first": "Кошка ловила мышей в старом амбаре у реки",
            "second": "Кошки ловят мышь в старых амбарах у рек", "k": 2}  # fmt: skip
    latencies: list[float] = []
    failures: list[int] = []
    with httpx.Client(base_url=server, timeout=30) as client:

        def one(_: int) -> None:
            start = time.perf_counter()
            response = client.post("/api/compare", json=body)
            latencies.append(time.perf_counter() - start)
            if response.status_code != 200:
                failures.append(response.status_code)

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=20) as pool:
            list(pool.map(one, range(1000)))
        elapsed = time.perf_counter() - started
    p95 = statistics.quantiles(latencies, n=20)[-1]
    print(f"\nload: 1,000 requests, 20 concurrent: {1000 / elapsed:.0f} requests/s, "
          f"p95 {p95 * 1000:.0f} ms")  # fmt: skip
    assert failures == [] and len(latencies) == 1000
