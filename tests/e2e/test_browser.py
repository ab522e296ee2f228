"""The web pages in a real Chromium (Playwright driving Debian's /usr/bin/chromium) against a real
uvicorn on 127.0.0.1, and a bounded load test of the JSON API.

Without Chromium these tests are skipped, saying how to enable them; CI sets
CANON_REQUIRE_BROWSER=1, which turns a missing browser into a failure.  A screenshot of every
page test is kept in tests/artifacts/ when the test fails.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

import canon
from canon import Index

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
REQUIRED = bool(os.environ.get("CANON_REQUIRE_BROWSER"))
HOSTILE = '<script>window.hacked = 1</script> "><img src=x onerror="window.hacked=2">'


def _browser_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install playwright"
    if not shutil.which(CHROMIUM):
        return f"{CHROMIUM} is missing: apt-get install chromium (CI does)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    missing = _browser_missing()
    if missing:
        if REQUIRED:
            pytest.fail(f"CANON_REQUIRE_BROWSER is set but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )  # fmt: skip
        yield launched
        launched.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served:
    def __init__(self, url: str, db: Path) -> None:
        self.url = url
        self.db = db


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, examples_dir: Path) -> Iterator[Served]:
    """A real uvicorn serving canon's app, with a small index, on a free port."""
    import uvicorn

    from canon.web import create_app

    db = tmp_path_factory.mktemp("web") / "corpus.db"
    with Index(db, create=True) as index:
        canon.add_sources(index, [str(examples_dir / "original.txt")],
                          [canon.get_profile("raw"), canon.get_profile("lemma")], k=4)  # fmt: skip
    port = _free_port()
    config = uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield Served(f"http://127.0.0.1:{port}", db)
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def examples_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def page(browser, request: pytest.FixtureRequest) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    yield opened
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


def test_compare_page(page, served: Served, examples_dir: Path, tmp_path: Path) -> None:
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
    assert f"{lemma3.jaccard * 100:.1f}%" in body
    assert f"{expected.cell('raw', 3).jaccard * 100:.1f}%" in body
    assert page.locator(".text[data-side='0'] mark.exact").count() > 0
    assert page.locator(".text[data-side='1'] mark.rewrite").count() > 0
    assert page.evaluate("window.hacked") is None  # the hostile text was shown, not run
    assert "<script>window.hacked" in page.inner_text(".text[data-side='0']")
    page.locator(".text[data-side='0'] mark[data-shingles]").first.click()
    assert page.locator(".text[data-side='1'] mark.twin").count() > 0
    page.screenshot(path=str(tmp_path / "compare.png"), full_page=True)
    assert (tmp_path / "compare.png").stat().st_size > 10_000
    if os.environ.get("CANON_README_SCREENSHOT"):  # how the README's picture is made
        page.locator("h2", has_text="Similarity").scroll_into_view_if_needed()
        page.screenshot(path=os.environ["CANON_README_SCREENSHOT"])


def test_compare_page_shows_an_error_for_an_empty_text(page, served: Served) -> None:
    page.goto(served.url + "/")
    page.fill("textarea[name=first_text]", "Кошка ловила мышей в старом амбаре у реки")
    page.click("button[type=submit]")
    error = page.wait_for_selector("p.error")
    assert "second" in error.inner_text()


def test_check_page(page, served: Served, examples_dir: Path) -> None:
    draft = (examples_dir / "rewrite.txt").read_text("utf-8")
    page.goto(served.url + "/check")
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


def test_load(served: Served) -> None:
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
