"""The README's screenshots: the Russian check, compare and site audit pages, drawn by a real
Chromium.

    python docs/screens.py    # writes docs/check-ru.png, docs/compare-ru.png, docs/audit-ru.png

It indexes examples/original.txt in a temporary folder, serves the app with uvicorn on a free
loopback port, checks examples/rewrite.txt against it and compares the two examples, in a
browser whose language is Russian (Chromium at /usr/bin/chromium, driven by Playwright).  The
audit's page is that of an audit of the tests' fixture site (tests/audit_site.py, about 60
pages served on 127.0.0.1), started from the page and crawled for real.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fixture site the audit crawls

import uvicorn  # noqa: E402
from audit_site import serve  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

import canon  # noqa: E402
from canon.web import create_app  # noqa: E402

EXAMPLES = ROOT / "examples"
OUT = ROOT / "docs"


def _serve(db: Path, audits: Path) -> tuple[uvicorn.Server, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(db, audits=audits, allow_private=True)  # the site is on the loopback
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def _check(page: Page, url: str) -> Path:
    page.goto(url + "/check")
    page.fill("textarea[name=draft_text]", (EXAMPLES / "rewrite.txt").read_text("utf-8"))
    page.click("button[type=submit]")
    page.wait_for_selector("#uniqueness")
    page.click("tr[data-source='1']")
    page.locator("#result").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('result').scrollIntoView({block: 'start'})")
    path = OUT / "check-ru.png"
    page.screenshot(path=str(path))
    return path


def _compare(page: Page, url: str) -> Path:
    page.goto(url + "/")
    page.fill("textarea[name=first_text]", (EXAMPLES / "original.txt").read_text("utf-8"))
    page.fill("textarea[name=second_text]", (EXAMPLES / "rewrite.txt").read_text("utf-8"))
    page.click("button[type=submit]")
    page.wait_for_selector("table.similarity")
    page.locator(".text[data-side='0'] mark[data-shingles]").nth(3).click()
    page.evaluate("document.getElementById('result').scrollIntoView({block: 'start'})")
    path = OUT / "compare-ru.png"
    page.screenshot(path=str(path))
    return path


def _audit(page: Page, url: str, site: str) -> Path:
    page.goto(url + "/audit")
    page.fill("input[name=start]", site)
    page.click("button[type=submit]")
    page.wait_for_selector("ul.files a", timeout=180_000)  # the page reloads when done
    page.goto(page.url.split("?")[0] + "?show=near&sort=cluster")
    page.evaluate("document.getElementById('pages').scrollIntoView({block: 'start'})")
    path = OUT / "audit-ru.png"
    page.screenshot(path=str(path))
    return path


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="canon-screens-") as folder:
        db = Path(folder) / "corpus.db"
        source = Path(folder) / "original.txt"  # shown by its name, not by this folder
        source.write_bytes((EXAMPLES / "original.txt").read_bytes())
        with canon.Index(db, create=True) as index:
            profiles = [canon.get_profile("raw"), canon.get_profile("lemma")]
            here = Path.cwd()
            try:
                os.chdir(folder)
                canon.add_sources(index, [source.name], canon.IndexRules(profiles, k=4))
            finally:
                os.chdir(here)
        audits = Path(folder) / "audits"
        audits.mkdir()
        server, url = _serve(db, audits)
        try:
            with serve(delay=0.0) as site, sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="ru-RU")
                shots = (_check(page, url), _compare(page, url), _audit(page, url, site.url("/")))
                for path in shots:
                    print(path.relative_to(ROOT))
                browser.close()
        finally:
            server.should_exit = True


if __name__ == "__main__":
    main()
