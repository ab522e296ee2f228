"""The README's screenshots: the Russian check, compare, site audit and watch pages, drawn by a
real Chromium.

    python docs/screens.py          # writes docs/check-ru.png, compare-ru.png, audit-ru.png and
                                    # watch-ru.png
    python docs/screens.py watch    # only those named (check, compare, audit, watch)

It indexes examples/original.txt in a temporary folder, serves the app with uvicorn on a free
loopback port, checks examples/rewrite.txt against it and compares the two examples, in a
browser whose language is Russian (Chromium at /usr/bin/chromium, driven by Playwright).  The
audit's page is that of an audit of the tests' fixture site (tests/audit_site.py, about 60
pages served on 127.0.0.1), started from the page and crawled for real.  The watch's page is
that of examples/original.txt published on a blog, in a watch of two runs whose copies hold
what a check of the page against three other pages finds they hold (their addresses made up).
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fixture site the audit crawls

import uvicorn  # noqa: E402
from audit_site import serve  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

import canon  # noqa: E402
from canon.watch import Change, Copy, WatchedPage, WatchStore  # noqa: E402
from canon.watch.findings import found_in  # noqa: E402
from canon.watch.own import Ownership  # noqa: E402
from canon.web import create_app  # noqa: E402

EXAMPLES = ROOT / "examples"
OUT = ROOT / "docs"
SHOTS = ("check", "compare", "audit", "watch")
BLOG = "https://blog.example.ru/chai/kak-zavarivat.html"
RUNS = ("2026-11-02T06:00:00+00:00", "2026-12-01T06:00:00+00:00")


def _serve(db: Path, audits: Path, watches: Path) -> tuple[uvicorn.Server, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # the site is on the loopback
    app = create_app(db, audits=audits, watches=watches, allow_private=True)
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


def _copies(folder: Path) -> dict[str, tuple[float, str, tuple[tuple[int, int], ...]]]:
    """What three pages of the web hold of examples/original.txt, as a watch's run finds it:
    a news site copying its first paragraphs, a rewrite (examples/rewrite.txt) and a forum
    post quoting one paragraph.  By their made-up addresses: (share, kind, spans)."""
    paragraphs = (EXAMPLES / "original.txt").read_text("utf-8").split("\n\n")
    pages = {
        "https://chai-news.example.com/2026/11/kak-zavarivat-chaj": "Новости чая\n\n"
        + "\n\n".join(paragraphs[1:4]),
        "https://recepty.example.net/napitki/chaj": (EXAMPLES / "rewrite.txt").read_text("utf-8"),
        "https://forum.example.org/t/1742": "Форум\n\n" + paragraphs[6],
    }
    sources = folder / "web"
    sources.mkdir()
    names = {}
    for number, (url, text) in enumerate(pages.items()):
        (sources / f"{number}.txt").write_text(text, "utf-8")
        names[f"{number}.txt"] = url
    text = (EXAMPLES / "original.txt").read_text("utf-8")
    here = Path.cwd()
    try:
        os.chdir(sources)
        with canon.Index(sources / "web.db", create=True) as index:
            profiles = [canon.get_profile("raw"), canon.get_profile("lemma")]
            canon.add_sources(index, list(names), canon.IndexRules(profiles, k=4))
            result = canon.check(text, index)
    finally:
        os.chdir(here)
    found = found_in(SimpleNamespace(result=result), len(text), Ownership.of([], [], ()))
    return {names[name]: (f.share, f.kind, f.spans) for name, f in found.items()}


def _make_watch(folder: Path) -> None:
    """A watch of the blog after two runs: the news site and the forum found first, the
    rewrite found and the forum post gone on the second."""
    found = _copies(folder.parent.parent)
    news, rewrite, forum = found
    text = (EXAMPLES / "original.txt").read_text("utf-8")
    title = text.split("\n", 1)[0]
    others = [("https://blog.example.ru/chai/zelenyj.html", "Зелёный чай: когда снимать чайник",
               "Зелёный чай заваривают водой, которая не успела закипеть."),
              ("https://blog.example.ru/chai/posuda.html", "Посуда для чая",
               "Фарфоровый чайник держит тепло дольше стеклянного.")]  # fmt: skip

    def copy(url: str, seen: str, gone: str | None = None) -> Copy:
        share, kind, spans = found[url]
        return Copy(BLOG, url, share, kind, RUNS[0] if url != rewrite else seen, seen, gone,
                    spans)  # fmt: skip

    def new(run: int, c: Copy) -> Change:
        return Change(run, BLOG, c.url, "new", c.share, None, c.kind, c.first_seen, c.last_seen)

    with WatchStore(folder, create=True) as store:
        store.put_page(WatchedPage(BLOG, None, None, title, text, RUNS[0]))
        for url, name, body in others:
            store.put_page(WatchedPage(url, None, None, name, body, RUNS[0]))
        ids = {page.url: number for number, page in store.pages()}
        for number, started in enumerate(RUNS):
            run = store.start_run(started, 40, [(ids[u], 10) for u in ids])
            for entry in store.plan(run):
                if entry.page_id != ids[BLOG]:
                    store.page_checked(run, entry, started, [], [], (4, 0))
                elif number == 0:
                    copies = [copy(news, started), copy(forum, started)]
                    changes = [new(run, c) for c in copies]
                    store.page_checked(run, entry, started, copies, changes, (10, 0))
                else:
                    copies = [copy(news, started), copy(rewrite, started),
                              copy(forum, RUNS[0], gone=started)]  # fmt: skip
                    share = found[forum][0]
                    changes = [
                        new(run, copies[1]),
                        Change(run, BLOG, forum, "gone", 0.0, share, "copied", RUNS[0], RUNS[0]),
                    ]
                    store.page_checked(run, entry, started, copies, changes, (10, 0))
            store.finish_run(run, started.replace("06:00:00", "06:02:41"))


def _watch(page: Page, url: str) -> Path:
    page.goto(url + "/watch")
    page.click("table.watches a")
    page.click("table.pages a")
    page.wait_for_selector("#page-text mark")
    path = OUT / "watch-ru.png"
    page.screenshot(path=str(path))
    return path


def main(names: list[str]) -> None:
    wanted = names or list(SHOTS)
    unknown = sorted(set(wanted) - set(SHOTS))
    if unknown:
        raise SystemExit(f"no screenshot named {', '.join(unknown)}: choose of {', '.join(SHOTS)}")
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
        watches = Path(folder) / "watches"
        _make_watch(watches / "blog")
        server, url = _serve(db, audits, watches)
        try:
            with serve(delay=0.0) as site, sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="ru-RU")
                takers: dict[str, Callable[[], Path]] = {
                    "check": lambda: _check(page, url),
                    "compare": lambda: _compare(page, url),
                    "audit": lambda: _audit(page, url, site.url("/")),
                    "watch": lambda: _watch(page, url),
                }
                for name in wanted:
                    print(takers[name]().relative_to(ROOT))
                browser.close()
        finally:
            server.should_exit = True


if __name__ == "__main__":
    main(sys.argv[1:])
