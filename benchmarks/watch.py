"""Does a watch of 1,000 pages run within the audit's fetch limits?  ``canon watch`` add, then runs.

Two loopback servers (threads of this process), each answering after ``--latency`` seconds:

- the site: ``--pages`` pages (default 1,000) of generated Russian text (200 to 600 words from
  pymorphy3's dictionary, Zipf-distributed: :mod:`testkit.corpus`; no two pages alike) in a
  blog's template, each linking to the next ten, all in ``/sitemap.xml`` named by robots.txt;
- the web: a stand-in for SearXNG (its JSON format), answering each query after
  ``--search-latency`` seconds and counting it, that finds a phrase on the pages it serves
  (copier pages, each holding the first paragraphs of a page of the site) and on the site's
  own pages, and adds two unrelated pages of its own to every answer.

Steps, all on the same site:

- ``canon watch add DIR SITEMAP`` and ``canon watch add DIR --crawl SITE`` (the audit's
  crawler), each a process of its own: wall time, pages/s, requests the site received;
- the watch's past: the sitemap's watch as if it had run for 60 days, through the watch's
  own database calls: one run dated then, each page last checked at a date spread over the 60
  days, 5% of the pages found copied, their copier pages on the web;
- ``--runs`` runs (default 5) of ``--queries`` (default 100) queries, each after the web has
  changed: a quarter of the copies go, a third of the gone come back, some grow, new ones
  appear (of 1% of the pages, and of a tenth of the pages copied already).  Each run: wall
  time, the queries the stand-in received (never over the budget), the pages checked and how
  many of them were copied before (the plan checks those sooner), the pages of the web
  fetched, the changes found, the slowest page;
- the audit's fetch limits: a run and an add against an audit's ``--max-time`` (3,600 s), the
  slowest page's whole check (its queries and the pages found) against the deadline of one
  fetch (30 s).

Run from the repository root::

    python -m benchmarks.watch                 # 1,000 pages, 5 runs of 100 queries
    python -m benchmarks.watch --quick         # 100 pages, 2 runs: a smoke run
    python -m benchmarks.watch --pages 500 --runs 3 --search-latency 1.0
"""

from __future__ import annotations

import argparse
import html
import json
import random
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from benchmarks._common import (
    CANON_BIN,
    argument_parser,
    median,
    stopwatch,
    table,
    target_text,
    verdict,
)

__all__ = ["main", "parse_args"]

PAST_DAYS = 60  # the watch's past: it has run for this long
COPIED_SHARE = 0.05  # ... and found this share of its pages copied
NOISE = 40  # unrelated pages of the web, two of them in every answer
RESULTS = 10  # results an answer holds at most


# ---------------------------------------------------------------- the texts


def texts(count: int, seed: int = 11) -> list[list[str]]:
    """``count`` texts of 200 to 600 generated words, as paragraphs."""
    from testkit import corpus

    rng = random.Random(seed)
    sizes = [rng.randint(200, 600) for _ in range(count + NOISE)]
    lexicon = corpus.load_lexicon(30_000, seed)
    words = corpus.sample_words(lexicon, sum(sizes), 1.05, seed)
    out, pos = [], 0
    for size in sizes:
        out.append(corpus.paragraphs(words[pos : pos + size], rng))
        pos += size
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- the servers


@dataclass
class Web:
    """What the servers serve and count: the site's pages (paragraphs), the copier pages of
    the web (path → the site's page and how many of its paragraphs), and the requests."""

    site: list[list[str]]
    noise: list[list[str]]
    site_base: str = ""
    web_base: str = ""
    copies: dict[str, tuple[int, int]] = field(default_factory=dict)
    gone: dict[str, tuple[int, int]] = field(default_factory=dict)
    queries: int = 0
    site_hits: int = 0
    web_hits: int = 0
    flat_site: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.flat_site = [_flat(" ".join(p)) for p in self.site]

    def copy_text(self, path: str) -> list[str]:
        page, shown = self.copies[path]
        return self.site[page][:shown]

    def found(self, query: str) -> list[tuple[str, str]]:
        """(url, title) of the pages holding the phrase, then two unrelated pages."""
        phrase = _flat(query.strip().strip('"'))
        hits: list[tuple[str, str]] = []
        if phrase:
            with self.lock:
                copies = list(self.copies)
            hits += [(self.web_base + path, "Копия") for path in copies
                     if phrase in _flat(" ".join(self.copy_text(path)))]  # fmt: skip
            hits += [(f"{self.site_base}/p/{n}", f"Запись {n}")
                     for n, text in enumerate(self.flat_site) if phrase in text]  # fmt: skip
        spot = sum(map(ord, phrase)) % NOISE
        hits += [(f"{self.web_base}/n/{(spot + i) % NOISE}.html", "Разное") for i in (0, 1)]
        return hits[:RESULTS]


def _page(title: str, paragraphs: Sequence[str], links: Sequence[str] = ()) -> bytes:
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    more = "".join(f'<li><a href="{link}">Ещё запись</a></li>' for link in links)
    return (
        f'<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>{title}</title>'
        '</head><body><header><nav><a href="/">Главная</a> <a href="/p/0">Первая запись</a>'
        f"</nav></header><main><article><h1>{title}</h1>{body}</article></main>"
        f"<aside><ul>{more}</ul></aside><footer>Все права защищены.</footer></body></html>"
    ).encode()


def _site_answer(web: Web, path: str) -> tuple[int, bytes, str]:
    count = len(web.site)
    if path == "/robots.txt":
        return (
            200,
            f"User-agent: *\nAllow: /\nSitemap: {web.site_base}/sitemap.xml\n".encode(),
            ("text/plain"),
        )
    if path == "/sitemap.xml":
        entries = "".join(f"<url><loc>{web.site_base}/p/{n}</loc></url>" for n in range(count))
        return 200, (
            '<?xml version="1.0" encoding="UTF-8"?><urlset '
            f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
        ).encode(), "application/xml"  # fmt: skip
    if path == "/":
        links = [f"/p/{n}" for n in range(min(count, 20))]
        return (
            200,
            _page("Блог", ["Записи нашего блога: о саде, о доме и о книгах."], links),
            ("text/html; charset=utf-8"),
        )
    if path.startswith("/p/") and path[3:].isdigit() and int(path[3:]) < count:
        n = int(path[3:])
        links = [f"/p/{(n + i) % count}" for i in range(1, 11)]
        return 200, _page(f"Запись {n}", web.site[n], links), "text/html; charset=utf-8"
    return 404, b"<h1>Not found</h1>", "text/html"


def _web_answer(web: Web, path: str, query: dict[str, list[str]]) -> tuple[int, bytes, str]:
    if path == "/search":
        with web.lock:
            web.queries += 1
        found = web.found(query.get("q", [""])[0])
        results = [{"url": url, "title": title, "content": "", "engine": "stand-in",
                    "engines": ["stand-in"], "positions": [n + 1], "score": 1.0,
                    "category": "general"} for n, (url, title) in enumerate(found)]  # fmt: skip
        answer = {"query": query.get("q", [""])[0], "number_of_results": len(results),
                  "results": results, "answers": [], "corrections": [], "infoboxes": [],
                  "suggestions": [], "unresponsive_engines": []}  # fmt: skip
        return 200, json.dumps(answer, ensure_ascii=False).encode(), "application/json"
    with web.lock:
        copied = web.copies.get(path)
    if copied is not None:
        filler = web.noise[sum(map(ord, path)) % NOISE][:1]
        return 200, _page("Интересное", [*filler, *web.copy_text(path)]), "text/html"
    if path.startswith("/n/") and path.endswith(".html") and path[3:-5].isdigit():
        return 200, _page("Разное", web.noise[int(path[3:-5]) % NOISE]), "text/html"
    return 404, b"<h1>Not found</h1>", "text/html"


def _server(web: Web, latency: float, search_latency: float, is_site: bool) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            searching = parts.path == "/search" and not is_site
            time.sleep(search_latency if searching else latency)
            if is_site:
                with web.lock:
                    web.site_hits += 1
                status, body, kind = _site_answer(web, parts.path)
            else:
                if not searching:
                    with web.lock:
                        web.web_hits += 1
                status, body, kind = _web_answer(web, parts.path, parse_qs(parts.query))
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 256

    return Server(("127.0.0.1", 0), Handler)


@contextmanager
def serve(web: Web, latency: float, search_latency: float) -> Iterator[Web]:
    """The site and the web on two loopback ports."""
    servers = [_server(web, latency, search_latency, is_site) for is_site in (True, False)]
    web.site_base, web.web_base = (f"http://127.0.0.1:{s.server_address[1]}" for s in servers)
    threads = [threading.Thread(target=s.serve_forever, args=(0.05,), daemon=True)
               for s in servers]  # fmt: skip
    for thread in threads:
        thread.start()
    try:
        yield web
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


# ---------------------------------------------------------------- adding


def _add(folder: Path, *source: str) -> tuple[float, int, int]:
    """``canon watch add`` in a process of its own: (seconds, pages added, pages skipped)."""
    elapsed = stopwatch()
    done = subprocess.run(
        [str(CANON_BIN), "watch", "add", str(folder), *source, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = elapsed()
    report = json.loads(done.stdout)
    return seconds, len(report["added"]), len(report["skipped"])


# ---------------------------------------------------------------- the watch's past


def _iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def _past(folder: Path, web: Web, rng: random.Random) -> int:
    """Give the watch 60 days of past through its database's calls: one run dated then, each
    page checked at a date spread over the 60 days, 5% found copied (the copies served on the
    web).  The pages found copied."""
    from canon.uniqueness.web import default_budget, normalized_url
    from canon.watch.records import Copy
    from canon.watch.store import WatchStore

    now = datetime.now(UTC)
    start = now - timedelta(days=PAST_DAYS)
    with WatchStore(folder) as store:
        pages = dict(store.pages())
        plan = [(page_id, default_budget(page.text)) for page_id, page in sorted(pages.items())]
        run = store.start_run(_iso(start), sum(q for _, q in plan), plan)
        copied = set(rng.sample(sorted(pages), round(COPIED_SHARE * len(pages))))
        for entry in store.plan(run):
            page = pages[entry.page_id]
            when = start + timedelta(seconds=rng.uniform(0, PAST_DAYS * 86_400))
            copies = []
            if entry.page_id in copied:
                n = int(page.url.rsplit("/", 1)[1])
                shown = rng.randint(1, len(web.site[n]))
                path = f"/c/{n}-1.html"
                web.copies[path] = (n, shown)
                share = min(1.0, len(" ".join(web.site[n][:shown])) / len(page.text))
                first = when - timedelta(days=rng.uniform(0, PAST_DAYS))
                copies.append(Copy(page.url, normalized_url(web.web_base + path), round(share, 4),
                                   "copied", _iso(first), _iso(when)))  # fmt: skip
            store.page_checked(run, entry, _iso(when), copies, [], (0, 0))
        store.finish_run(run, _iso(now - timedelta(days=1)))
    return len(copied)


# ---------------------------------------------------------------- the runs


def _web_changes(web: Web, rng: random.Random) -> Counter[str]:
    """The web between two runs: copies go, come back, grow and appear."""
    said: Counter[str] = Counter()
    with web.lock:
        for path in list(web.copies):
            if rng.random() < 0.25:
                web.gone[path] = web.copies.pop(path)
                said["gone"] += 1
        for path in list(web.gone):
            if rng.random() < 1 / 3:
                web.copies[path] = web.gone.pop(path)
                said["back"] += 1
        for path, (n, shown) in list(web.copies.items()):
            if shown < len(web.site[n]) and rng.random() < 0.15:
                web.copies[path] = (n, min(len(web.site[n]), shown + rng.randint(1, 2)))
                said["grown"] += 1
        copied = sorted({n for n, _ in [*web.copies.values(), *web.gone.values()]})
        fresh = rng.sample(range(len(web.site)), max(1, len(web.site) // 100))
        again = [n for n in copied if rng.random() < 0.1]
        for n in fresh + again:
            taken = sum(1 for p in [*web.copies, *web.gone] if p.startswith(f"/c/{n}-"))
            web.copies[f"/c/{n}-{taken + 1}.html"] = (n, rng.randint(1, len(web.site[n])))
            said["new"] += 1
    return said


@dataclass(frozen=True)
class Run:
    seconds: float
    queries: int
    checked: int
    copied_before: int
    fetched: int
    changes: dict[str, int]
    median: float
    slowest: float
    web: Counter[str]


def _run(folder: Path, web: Web, queries: int, said: Counter[str]) -> Run:
    from canon.sources.search.searxng import SearXNG
    from canon.watch import RunSettings, WatchStore, run_watch

    with WatchStore(folder) as store:
        copied = set(store.copied())
    marks: list[float] = []
    settings = RunSettings(queries=queries, allow_private_results=True)
    asked, fetched = web.queries, web.web_hits
    elapsed = stopwatch()
    report = run_watch(folder, SearXNG(web.web_base), settings,
                       on_page=lambda _: marks.append(elapsed()))  # fmt: skip
    seconds = elapsed()
    with WatchStore(folder) as store:
        planned = [e.page_id for e in store.plan(report.run)]
    steps = [b - a for a, b in zip([0.0, *marks], marks, strict=False)]
    return Run(
        seconds, web.queries - asked, report.checked, len(copied & set(planned)),
        web.web_hits - fetched, report.counts(), median(steps) if steps else 0.0,
        max(steps, default=0.0), said,
    )  # fmt: skip


# ---------------------------------------------------------------- the report


def _limits() -> tuple[float, float]:
    """An audit's ``--max-time`` and the deadline of one of its fetches, as it sets them."""
    from canon.audit import CrawlSettings

    settings = CrawlSettings(starts=("http://example.ru/",))
    assert settings.max_time is not None
    return settings.max_time, settings.fetch.deadline


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.watch", __doc__)
    parser.add_argument("--pages", type=int, default=1000, help="pages on the site")
    parser.add_argument("--runs", type=int, default=5, help="runs of the watch")
    parser.add_argument("--queries", type=int, default=100, help="the budget of a run")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds a page waits")
    parser.add_argument(
        "--search-latency", type=float, default=None, help="seconds a query waits (default 0.3)"
    )
    parser.add_argument("--seed", type=int, default=5, help="the seed of the texts and events")
    parser.add_argument("--quick", action="store_true", help="100 pages, 2 runs: a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.pages, args.runs = 100, 2
    if args.search_latency is None:
        args.search_latency = 0.05 if args.quick else 0.3
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    total = stopwatch()
    print(
        f"{args.pages} pages, {args.runs} runs of {args.queries} queries; "
        f"{args.latency * 1000:.0f} ms a page, {args.search_latency * 1000:.0f} ms a query\n"
    )
    generated = texts(args.pages)
    web = Web(generated[: args.pages], generated[args.pages :])
    rng = random.Random(args.seed)
    with serve(web, args.latency, args.search_latency), tempfile.TemporaryDirectory() as tmp:
        folder, crawled = Path(tmp) / "watch", Path(tmp) / "crawled"
        adds = []
        for name, where, source in (
            ("canon watch add DIR SITEMAP", folder, [f"{web.site_base}/sitemap.xml"]),
            ("canon watch add DIR --crawl SITE", crawled, ["--crawl", f"{web.site_base}/"]),
        ):
            hits = web.site_hits
            seconds, added, skipped = _add(where, *source)
            adds.append((name, seconds, added, skipped, web.site_hits - hits))
        copied = _past(folder, web, rng)
        runs = []
        for _ in range(args.runs):
            runs.append(_run(folder, web, args.queries, _web_changes(web, rng)))
    max_time, deadline = _limits()
    print("Adding the pages (each `canon watch add` a process of its own)\n")
    print(table(
        ["step", "pages kept", "not kept", "requests to the site", "seconds", "pages/s"],
        [[name, str(added), str(skipped), str(hits), f"{s:.1f}", f"{added / s:.1f}"]
         for name, s, added, skipped, hits in adds],
    ))  # fmt: skip
    print(f"\nThe watch's past: {PAST_DAYS} days, {copied} pages found copied.\n")
    print(f"Runs of --queries {args.queries}\n")
    rows = []
    for number, r in enumerate(runs, 1):
        events = ", ".join(f"{k} {v}" for k, v in sorted(r.web.items()))
        found = ", ".join(f"{k} {v}" for k, v in r.changes.items() if v) or "none"
        rows.append([
            str(number), events, f"{r.seconds:.1f}", str(r.queries), str(r.checked),
            str(r.copied_before), str(r.fetched), found, f"{r.median:.2f}", f"{r.slowest:.2f}",
        ])  # fmt: skip
    print(table(["run", "the web before it", "seconds", "queries", "pages checked",
                 "copied before", "web pages fetched", "changes found", "a page s (median)",
                 "slowest page s"],
                rows))  # fmt: skip
    longest_run = max(r.seconds for r in runs)
    longest_add = max(a[1] for a in adds)
    slowest = max(r.slowest for r in runs)
    most = max(r.queries for r in runs)
    print("\nAgainst the audit's fetch limits\n")
    print(table(["measure", "worst", "target", "verdict"], [
        ["a run's wall time", f"{longest_run:.1f} s",
         target_text(f"{max_time:g} s (an audit's --max-time)", higher=False),
         verdict(longest_run, max_time, higher=False)],
        ["an add's wall time", f"{longest_add:.1f} s",
         target_text(f"{max_time:g} s (an audit's --max-time)", higher=False),
         verdict(longest_add, max_time, higher=False)],
        ["one page's whole check", f"{slowest:.2f} s",
         target_text(f"{deadline:g} s (the deadline of one fetch)", higher=False),
         verdict(slowest, deadline, higher=False)],
        ["queries a run sent", str(most), target_text(str(args.queries), higher=False),
         verdict(most, args.queries, higher=False)],
    ]))  # fmt: skip
    print(f"\n(all of it in {total():.0f} s)")


if __name__ == "__main__":
    main()
