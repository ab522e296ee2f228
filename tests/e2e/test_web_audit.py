"""The audit pages in a real Chromium against a real uvicorn: start an audit of the fixture
site (tests/audit_site.py, on 127.0.0.1), watch its progress, browse its clusters and pages,
download its files, and find in them what ``canon.audit_site`` finds on the same site."""

from __future__ import annotations

import csv
import io
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from audit_site import serve

from canon.audit import CrawlSettings, audit_site
from canon.sources.fetch import FetchOptions

pytestmark = [pytest.mark.browser, pytest.mark.network]


@pytest.fixture(scope="module")
def site() -> Iterator[object]:
    with serve(delay=0.01) as served:
        yield served


@pytest.fixture(scope="module")
def auditing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn whose app runs audits in a folder of its own (private sites allowed,
    since the fixture site is on the loopback address)."""
    import uvicorn

    from canon.web import create_app

    folder = tmp_path_factory.mktemp("audits")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(audits=folder, allow_private=True)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def _rows(text: str) -> dict[str, dict[str, str]]:
    return {row["url"]: row for row in csv.DictReader(io.StringIO(text))}


def _clusters(rows: dict[str, dict[str, str]]) -> set[frozenset[str]]:
    groups: dict[str, set[str]] = {}
    for url, row in rows.items():
        if row["cluster"]:
            groups.setdefault(row["cluster"], set()).add(url)
    return {frozenset(g) for g in groups.values()}


def test_an_audit_from_the_pages(page, site, auditing: str, tmp_path: Path) -> None:
    page.goto(auditing + "/audit")
    assert page.inner_text("h1") == "Аудит сайта"
    page.fill("input[name=start]", site.url("/"))
    page.fill("input[name=max_pages]", "200")
    page.click("button[type=submit]")
    page.wait_for_url("**/audit/*")
    assert page.locator("#audit").count() == 1
    page.wait_for_selector("ul.files a", timeout=120_000)  # the page reloads when done
    # what the library finds on the same site, crawled again into a folder of its own
    settings = CrawlSettings(starts=(site.url("/"),), max_pages=200, workers=1,
                             fetch=FetchOptions(allow_private=True))  # fmt: skip
    with ThreadPoolExecutor(1) as thread:  # away from Playwright's event loop
        expected = thread.submit(audit_site, settings, tmp_path / "direct").result().findings
    summary = page.inner_text("table.figures")
    assert f"кластеров почти дубликатов\t{len(expected.clusters)}" in summary
    assert page.locator("details.cluster").count() == len(expected.clusters)
    for cluster in expected.clusters:
        for url in cluster.members:
            assert page.locator(f"details.cluster a[href='{url}']").count() >= 1
    assert page.locator("table.pages tr").count() == len(expected.pages) + 1
    names = page.eval_on_selector_all("ul.files a", "links => links.map(a => a.textContent)")
    assert {"pages.csv", "pages.xlsx", "clusters.jsonl", "report.html"} <= set(names)
    base = page.url.split("?")[0]
    downloaded = httpx.get(f"{base}/files/pages.csv", timeout=10)
    assert downloaded.status_code == 200
    mine = _rows(downloaded.text)
    direct = _rows((tmp_path / "direct" / "pages.csv").read_text("utf-8"))
    assert set(mine) == set(direct)
    for url, row in direct.items():
        assert (mine[url]["status"], mine[url]["indexable"]) == (row["status"], row["indexable"])
    assert _clusters(mine) == _clusters(direct)  # numbered in crawl order, the same groups
    xlsx = httpx.get(f"{base}/files/pages.xlsx", timeout=10)
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert httpx.get(f"{base}/files/audit.db", timeout=10).status_code == 404
    assert httpx.get(f"{base}/files/..%2Fstatus.json", timeout=10).status_code == 404
    # the list of audits links to it
    page.goto(auditing + "/audit?lang=en")
    assert page.locator(f"table.audits a[href*='{base.rsplit('/', 1)[1]}']").count() == 1
    assert "done" in page.inner_text("table.audits")


def test_audit_refusals(page, auditing: str) -> None:
    page.goto(auditing + "/audit")
    page.fill("input[name=start]", "ftp://example.org/")
    page.click("button[type=submit]")
    error = page.wait_for_selector("p.error").inner_text()
    assert error == "Адрес сайта: укажите один адрес http(s)"
    assert page.input_value("input[name=start]") == "ftp://example.org/"
    assert httpx.get(auditing + "/audit/0123456789ab", timeout=10).status_code == 404
    assert httpx.get(auditing + "/audit/not-an-id", timeout=10).status_code == 404


def test_the_audit_pages_are_accessible(audited, auditing: str) -> None:
    audited.goto(auditing + "/audit")
    assert audited.violations() == []
    first = audited.locator("table.audits a").first
    if first.count():
        first.click()
        audited.wait_for_load_state()
        assert audited.violations() == []
