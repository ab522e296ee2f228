"""The README's screenshots: the Russian check and compare pages, drawn by a real Chromium.

    python docs/screens.py            # writes docs/check-ru.png and docs/compare-ru.png

It indexes examples/original.txt in a temporary folder, serves the app with uvicorn on a free
loopback port, checks examples/rewrite.txt against it and compares the two examples, in a
browser whose language is Russian (Chromium at /usr/bin/chromium, driven by Playwright).
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

import uvicorn  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

import canon  # noqa: E402
from canon.web import create_app  # noqa: E402

EXAMPLES = ROOT / "examples"
OUT = ROOT / "docs"


def _serve(db: Path) -> tuple[uvicorn.Server, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning")
    )
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
        server, url = _serve(db)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="ru-RU")
                for path in (_check(page, url), _compare(page, url)):
                    print(path.relative_to(ROOT))
                browser.close()
        finally:
            server.should_exit = True


if __name__ == "__main__":
    main()
