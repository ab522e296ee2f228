"""A check against the web from the check page, in a real Chromium against a real uvicorn: the
control, the progress in its live region as the stages go, the result as an index check shows
it (its headline figure equal to ``canon.web_check``'s, each source with its URL and the
query that found it), and no serious accessibility violation while it runs or once done; the
same on a server with no index, whose check page checks against the web only.

The search provider is the SearXNG stand-in of tests/search_server.py (a real HTTP server on
127.0.0.1 that also serves the pages its results point to), behind a loopback relay that
holds each search a while, so that the stages last long enough to be seen.
"""

from __future__ import annotations

import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from search_server import DRAFT, StandIn, serve
from serving import uvicorn_serving

import canon
from canon import CheckSettings, SearchSettings
from canon.report.language import percent
from canon.sources.fetch import FetchOptions
from canon.uniqueness.web import provider_of, web_check

pytestmark = pytest.mark.browser

QUERIES = 3


class _Relay(BaseHTTPRequestHandler):
    """Passes ``GET /search`` on to the stand-in after ``server.delay`` seconds."""

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        time.sleep(self.server.delay)  # type: ignore[attr-defined]
        target = self.server.target + self.path  # type: ignore[attr-defined]
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy
        with direct.open(target, timeout=10) as answer:  # loopback only
            body, status = answer.read(), answer.status
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class WebServed:
    def __init__(self, url: str, db: Path, stand: StandIn, relay: ThreadingHTTPServer) -> None:
        self.url, self.db, self.stand, self.relay = url, db, stand, relay


@pytest.fixture(scope="module")
def web_served(tmp_path_factory: pytest.TempPathFactory, examples_dir: Path) -> Iterator[WebServed]:
    """uvicorn serving canon's app with an index of one source and SearXNG configured (the
    relay to the stand-in), on free ports of 127.0.0.1."""
    from canon.web import create_app

    folder = tmp_path_factory.mktemp("webcheck")
    db = folder / "corpus.db"
    with canon.Index(db, create=True) as index:
        canon.add_sources(
            index,
            [str(examples_dir / "original.txt")],
            canon.IndexRules([canon.get_profile("raw"), canon.get_profile("lemma")], k=4),
        )
    patch = pytest.MonkeyPatch()
    with serve() as stand:
        relay = ThreadingHTTPServer(("127.0.0.1", 0), _Relay)
        relay.daemon_threads = True
        relay.target, relay.delay = stand.base, 0.8  # type: ignore[attr-defined]
        threading.Thread(target=relay.serve_forever, daemon=True).start()
        patch.setenv("CANON_SEARCH_CONFIG", str(folder / "none.toml"))
        patch.setenv("CANON_SEARXNG_URL", f"http://127.0.0.1:{relay.server_address[1]}")
        try:
            with uvicorn_serving(
                create_app(db, allow_private=True, allow_private_results=True, workers=1)
            ) as url:
                yield WebServed(url, db, stand, relay)
        finally:
            relay.shutdown()
            relay.server_close()
            patch.undo()


@pytest.fixture(scope="module")
def web_only(web_served: WebServed) -> Iterator[WebServed]:
    """A second server with the same provider (the relay) and no index: web checks only."""
    from canon.web import create_app

    with uvicorn_serving(
        create_app(allow_private=True, allow_private_results=True, workers=1)
    ) as url:
        yield WebServed(url, web_served.db, web_served.stand, web_served.relay)


def _expected(served: WebServed) -> canon.WebCheck:
    """``canon.web_check`` of the draft, as the server runs it: the index too, the same
    provider (asked directly), the same rules for pages."""
    fetching = FetchOptions(allow_private=True, max_bytes=2_000_000, deadline=20.0)
    with canon.Index(served.db, readonly=True) as index:
        return web_check(
            DRAFT,
            provider_of(f"searxng:{served.stand.base}"),
            CheckSettings(
                search=SearchSettings(queries=QUERIES, fetch=fetching, allow_private_results=True)
            ),
            index=index,
        )


def _start(page, served: WebServed, with_index: bool = True) -> None:
    page.goto(served.url + "/check")
    page.fill("textarea[name=draft_text]", DRAFT)
    page.fill("input[name=queries]", str(QUERIES))
    if with_index:
        assert page.is_checked("input[name=web_index]")
    page.click("fieldset.web button[type=submit]")
    page.wait_for_selector("#webjob", timeout=15_000)


def _said_until_done(page, seconds: float = 90) -> list[str]:
    """The texts of the live region, read every 100 ms until the result shows."""
    said: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if page.query_selector("#uniqueness") is not None:
                return said
            region = page.query_selector("#webjob-text")
            text = region.inner_text() if region is not None else None
        except Exception:  # the page is reloading to show the result
            text = None
        if text and (not said or said[-1] != text):
            said.append(text)
        time.sleep(0.1)
    raise AssertionError(f"no result in {seconds} s; said: {said}")


def test_a_web_check_from_the_check_page_shows_its_progress_and_result(
    page, web_served: WebServed
) -> None:
    web_served.relay.delay = 0.8  # type: ignore[attr-defined]
    _start(page, web_served)
    region = page.query_selector("#webjob-text")
    assert (
        region.get_attribute("aria-live") == "polite" and region.get_attribute("role") == "status"
    )
    assert re.fullmatch(re.escape(web_served.url) + r"/check/web/[0-9a-f]{16}", page.url)
    said = _said_until_done(page)
    assert len(said) >= 2, said  # the region changed as the check went
    assert any(re.fullmatch(rf"Поиск: запрос \d of {QUERIES}".replace("of", "из"), s)
               for s in said), said  # fmt: skip
    order = ["Ждёт", "Составляются запросы", "Запросы", "Поиск", "Загрузка", "Сравнение", "Готово"]
    stages = [next(i for i, start in enumerate(order) if s.startswith(start)) for s in said]
    assert stages == sorted(stages), said  # the stages in order, never back
    expected = _expected(web_served)
    headline = page.inner_text("#uniqueness")
    assert headline == percent(expected.result.verdict.uniqueness, "ru")
    copy = web_served.stand.url("/pages/copy.html")
    row = page.query_selector(f'table.sources tr:has(a[href="{copy}"])')
    assert row is not None and row.inner_text().count(copy) == 1
    found_by = next(p.query for p in expected.pages if p.url == copy)
    assert row.query_selector("td.query").inner_text() == found_by
    assert page.input_value("textarea[name=draft_text]").split() == DRAFT.split()  # kept
    assert page.input_value("input[name=queries]") == str(QUERIES)
    assert "SearXNG" in page.inner_text("#web-bill")
    assert page.query_selector('main [lang="en"]') is None  # every sentence in Russian


def test_no_serious_accessibility_violation_while_running_and_done(
    audited, web_served: WebServed
) -> None:
    web_served.relay.delay = 2.5  # type: ignore[attr-defined]
    try:
        _start(audited, web_served)
        assert audited.violations() == []  # in progress
        assert audited.query_selector("#webjob") is not None  # still running when audited
        _said_until_done(audited)
        audited.wait_for_load_state()
        assert audited.violations() == []  # the result
    finally:
        web_served.relay.delay = 0.8  # type: ignore[attr-defined]


# ------------------------------------------------------------------ a server with no index


def test_a_web_only_server_checks_against_the_web_to_its_result(page, web_only: WebServed) -> None:
    page.goto(web_only.url + "/check")
    assert "только по интернету" in page.inner_text("#web-only")
    assert page.query_selector("input[name=profiles]") is None
    assert page.query_selector("input[name=web_index]") is None
    assert [b.inner_text() for b in page.query_selector_all("main button")] == [
        "Проверить по интернету"
    ]
    page.fill("textarea[name=draft_text]", DRAFT)
    page.fill("input[name=queries]", str(QUERIES))
    page.press("input[name=queries]", "Enter")  # the form's own action: the web
    page.wait_for_selector("#webjob", timeout=15_000)
    said = _said_until_done(page)
    assert any(s.startswith("Поиск: запрос") for s in said), said  # its progress shown
    alone = web_check(
        DRAFT,
        provider_of(f"searxng:{web_only.stand.base}"),
        CheckSettings(
            search=SearchSettings(
                queries=QUERIES,
                fetch=FetchOptions(allow_private=True, max_bytes=2_000_000, deadline=20.0),
                allow_private_results=True,
            )
        ),
    )
    assert page.inner_text("#uniqueness") == percent(alone.result.verdict.uniqueness, "ru")
    copy = web_only.stand.url("/pages/copy.html")
    assert page.query_selector(f'table.sources a[href="{copy}"]') is not None
    assert page.query_selector('main [lang="en"]') is None
    page.click("text=English")
    assert "against the web only" in page.inner_text("#web-only")


def test_the_web_only_page_has_no_serious_accessibility_violation(
    audited, web_only: WebServed
) -> None:
    audited.goto(web_only.url + "/check")
    assert audited.violations() == []
    _start(audited, web_only, with_index=False)
    _said_until_done(audited)
    audited.wait_for_load_state()
    assert audited.violations() == []  # the result
