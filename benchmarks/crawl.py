"""Does fetching still cap throughput?  ``canon audit`` and ``index add @urls.txt`` on a slow site.

A loopback HTTP server (threaded) serves ``--pages`` generated pages (default 1,000: a Russian
text of 900 words in a shop's template of about 20 KB (a menu of 120 links, a sidebar, a
footer, a script), each page linking to ten others, all of them in ``/sitemap.xml``),
answering each request after ``--latency`` seconds (default 0.1 s, a far server).  In one
run, on the same pages:

- trafilatura alone: ``trafilatura.bare_extraction`` of each page's HTML with the settings
  canon asks for (main text, no metadata), in ``--workers`` processes: the floor;
- page reading alone: :func:`canon.sources.crawl.page.page_facts` (the page checked and
  parsed once: head facts, links, the page as seen, whole-page and main text), in
  ``--workers`` processes;
- extraction alone: what the audit does to each page once it has its bytes
  (:func:`canon.audit.pages.read_page`: head facts, links, main and whole-page text,
  canonical forms and shingles under raw and lemma), in ``--workers`` processes (the mean of
  a run before the crawl and one after, as the machine's load may change) and in one, no
  network: the rate fetching must keep up with;
- ``canon audit``: :func:`canon.audit.audit_site` over the site with ``--concurrency``
  requests in flight, pages/s of the crawl (robots.txt and the sitemap included, analysis and
  outputs not: they are timed apart), and the most requests the server had in flight at once;
- ``canon index add @urls.txt``: :func:`canon.index.add_sources` over the same URLs with
  ``--workers`` processes, pages/s, and requests in flight at most.

The three "alone" rates are measured in turns, once before the crawl and once after (the
mean of the two), as the machine's load changes; the load average is printed before and after.

Targets: the audit crawls at ≥ 0.8× the rate of extraction alone in the same number of
processes; page reading alone runs at ≥ 0.8× trafilatura alone.

Run from the repository root::

    python -m benchmarks.crawl                 # 1,000 pages, 100 ms a response
    python -m benchmarks.crawl --quick         # 200 pages, a smoke run
    python -m benchmarks.crawl --pages 500 --latency 0.05 --concurrency 16
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from benchmarks._common import argument_parser, stopwatch, table, target_text, verdict
from canon import AddSettings

__all__ = ["main", "parse_args"]

_WORDS = (
    "дом сад город река лес поле море берег мост завод рынок школа книга письмо окно дорога "
    "улица площадь башня сосна береза гора долина озеро остров вокзал поезд корабль мастер "
    "учитель врач повар художник музыкант писатель инженер садовник рыбак старый новый "
    "большой маленький зеленый синий тихий шумный светлый темный теплый холодный видит "
    "строит находит открывает рисует читает пишет любит помнит ждет утром вечером всегда"
).split()


def _template() -> tuple[str, str]:
    """A shop's template around every page: a menu of 120 links, a sidebar, a footer, a
    script and a style, about 20 KB, as real pages carry (its links go to pages of the site:
    the --quick site of 200 pages answers some with 404)."""
    rng = random.Random(0)
    menu = "".join(
        f'<li><a href="/p/{i}">{rng.choice(_WORDS)} {rng.choice(_WORDS)}</a></li>'
        for i in range(120)
    )
    side = "".join(
        f"<div class='card'><a href='/p/{200 + i}'>{' '.join(rng.choices(_WORDS, k=8))}</a></div>"
        for i in range(40)
    )
    foot = "".join(f"<a href='/p/{300 + i}'>{rng.choice(_WORDS)}</a> " for i in range(30))
    head = (
        "<style>body{font:15px sans-serif}.card{padding:4px;margin:2px}nav li{display:inline}"
        "</style><script>window.dataLayer=[];function track(e){dataLayer.push(e)}</script>"
    )
    before = f"{head}</head><body><header><nav><ul>{menu}</ul></nav></header><main>"
    after = f"</main><aside>{side}</aside><footer>{foot} Все права защищены.</footer>"
    return before, after + "</body></html>"


_BEFORE, _AFTER = _template()


def _page(n: int, pages: int) -> bytes:
    """Page ``n``: an article of 900 words in 30 paragraphs, ten links to other pages."""
    rng = random.Random(n)
    words = [rng.choice(_WORDS) for _ in range(900)]
    sentences = [" ".join(words[i : i + 10]).capitalize() + "." for i in range(0, 900, 10)]
    body = "".join(f"<p>{' '.join(sentences[i : i + 3])}</p>" for i in range(0, 90, 3))
    links = "".join(f'<li><a href="/p/{(n * 7 + i) % pages}">ещё</a></li>' for i in range(10))
    return (
        f'<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Страница {n}'
        f"</title>{_BEFORE}<article><h1>Страница {n}</h1>{body}</article>"
        f"<ul>{links}</ul>{_AFTER}"
    ).encode()


class _Log:
    """Requests in flight at the server and the most there were, shared with its process."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("fork")
        self.in_flight = context.Value("i", 0)
        self.most = context.Value("i", 0)

    def reset(self) -> None:
        with self.most.get_lock():
            self.most.value = 0

    def enter(self) -> None:
        with self.in_flight.get_lock():
            self.in_flight.value += 1
            with self.most.get_lock():
                self.most.value = max(self.most.value, self.in_flight.value)

    def leave(self) -> None:
        with self.in_flight.get_lock():
            self.in_flight.value -= 1


def _serve(port: Any, pages: dict[str, bytes], latency: float, log: _Log) -> None:
    """The server's process: answers every request after ``latency`` seconds."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body in two writes: no 40 ms stall

        def do_GET(self) -> None:
            log.enter()
            try:
                time.sleep(latency)
                body = pages.get(self.path.split("?", 1)[0])
                kind = "application/xml" if self.path.endswith(".xml") else "text/plain"
                kind = "text/html; charset=utf-8" if self.path.startswith("/p/") else kind
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")
            finally:
                log.leave()

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 256

    server = Server(("127.0.0.1", port.value), Handler)
    port.value = server.server_address[1]
    server.serve_forever()


@contextmanager
def serve(count: int, latency: float) -> Iterator[tuple[str, dict[str, bytes], _Log]]:
    """The site in a process of its own (its threads never compete with the crawler's)."""
    import socket

    with socket.socket() as probe:  # a free port, known before the pages name it
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    base = f"http://127.0.0.1:{free}"
    pages = _site(base, count)
    log = _Log()
    context = multiprocessing.get_context("fork")
    port = context.Value("i", free)
    server = context.Process(target=_serve, args=(port, pages, latency, log), daemon=True)
    server.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as client:
            if client.connect_ex(("127.0.0.1", free)) == 0:
                break
        time.sleep(0.05)
    try:
        yield base, pages, log
    finally:
        server.terminate()
        server.join(5)


def _site(base: str, count: int) -> dict[str, bytes]:
    pages = {f"/p/{n}": _page(n, count) for n in range(count)}
    entries = "".join(f"<url><loc>{base}/p/{n}</loc></url>" for n in range(count))
    pages["/sitemap.xml"] = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
    ).encode()
    pages["/robots.txt"] = b"User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n"
    return pages


def _pooled(run: Any, items: list[tuple[Any, ...]], workers: int) -> float:
    """Pages/s of ``run(*item)`` over ``items`` in ``workers`` processes (one: in this one),
    after a first call that loads what it needs."""
    run(*items[0])
    elapsed = stopwatch()
    if workers == 1:
        for item in items:
            run(*item)
    else:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            list(pool.map(run, *zip(*items), chunksize=8))
    return len(items) / elapsed()


def _trafilatura(html: str) -> int:
    """The main text's length (a result a process can send back)."""
    import trafilatura

    from canon.sources.htmlpage import main_settings

    document = trafilatura.bare_extraction(html, **main_settings())
    return len(getattr(document, "text", None) or "")


def _floor(pages: dict[str, bytes], base: str, workers: int) -> tuple[float, float]:
    """Pages/s of trafilatura alone and of canon's page reading alone, in ``workers``
    processes."""
    from canon.sources.crawl.page import page_facts

    items = [(body.decode(), f"{base}{path}") for path, body in pages.items() if path[:3] == "/p/"]
    alone = _pooled(_trafilatura, [(html,) for html, _ in items], workers)
    return alone, _pooled(page_facts, items, workers)


def _extraction(pages: dict[str, bytes], base: str, workers: int) -> float:
    """Pages/s of reading the pages' bytes as the audit does, in ``workers`` processes."""
    from canon.audit.pages import Reading, read_page
    from canon.profile import get_profile
    from canon.sources.crawl.page import ContentArea

    reading = Reading(ContentArea(), (get_profile("raw"), get_profile("lemma")), 4)
    items = [(body, f"{base}{path}") for path, body in pages.items() if path.startswith("/p/")]
    read_page(items[0][0], "utf-8", items[0][1], reading)  # warm: dictionaries loaded
    elapsed = stopwatch()
    if workers == 1:
        for body, url in items:
            read_page(body, "utf-8", url, reading)
    else:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            n = len(items)
            list(pool.map(read_page, *zip(*items), ["utf-8"] * n, [reading] * n, chunksize=8))
    return len(items) / elapsed()


def _audit(base: str, args: argparse.Namespace, folder: Path) -> tuple[float, float, int]:
    """(crawl pages/s, analysis + outputs seconds, pages fetched)."""
    from canon.audit import CrawlSettings, audit_site
    from canon.sources.client import Politeness
    from canon.sources.fetch import FetchOptions

    settings = CrawlSettings(
        starts=(base + "/",),
        fetch=FetchOptions(allow_private=True),
        politeness=Politeness(concurrency=args.concurrency),
        workers=args.workers,
    )
    elapsed = stopwatch()
    result = audit_site(settings, folder)
    total = elapsed()
    crawl = result.crawl
    assert crawl is not None
    return crawl.fetched / crawl.seconds, total - crawl.seconds, crawl.fetched


def _index_add(base: str, count: int, args: argparse.Namespace, folder: Path) -> float:
    from canon.index import Index, add_sources
    from canon.sources.fetch import FetchOptions

    urls = folder / "urls.txt"
    urls.write_text("\n".join(f"{base}/p/{n}" for n in range(count)), "utf-8")
    elapsed = stopwatch()
    with Index(folder / "add.db", create=True) as index:
        report = add_sources(
            index,
            [f"@{urls}"],
            settings=AddSettings(
                workers=args.workers, fetch_options=FetchOptions(allow_private=True)
            ),
        )
    seconds = elapsed()
    assert not report.failures, report.failures[:3]
    return report.added / seconds


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.crawl", __doc__)
    parser.add_argument("--pages", type=int, default=1000, help="pages on the site")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds a response waits")
    parser.add_argument("--concurrency", type=int, default=8, help="audit requests in flight")
    parser.add_argument(
        "--workers", type=int, default=min(4, os.cpu_count() or 1), help="reading processes"
    )
    parser.add_argument("--quick", action="store_true", help="200 pages: a smoke run")
    parser.add_argument("--no-index-add", action="store_true", help="skip index add")
    args = parser.parse_args(argv)
    if args.quick:
        args.pages = 200
    return args


def _row(
    run: str,
    where: str,
    reading: float,
    most: int | None = None,
    extraction: float | None = None,
    floor: float | None = None,
    target: bool = False,
) -> list[str]:
    """A row of the table: pages/s, and ratios to extraction and to trafilatura alone; the
    target (0.8×) is checked against extraction, or against trafilatura without it."""
    versus = extraction or floor
    return [
        run,
        where,
        f"{reading:.1f}",
        "—" if most is None else str(most),
        f"{reading / extraction:.2f}×" if extraction else "",
        f"{reading / floor:.2f}×" if floor else "",
        f"{target_text('0.8×', higher=True)}: {verdict(reading / versus, 0.8, higher=True)}"
        if target and versus
        else "",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    total = stopwatch()
    print(
        f"{args.pages} pages, {args.latency * 1000:.0f} ms a response, "
        f"{args.workers} workers, concurrency {args.concurrency}\n"
    )
    with (
        serve(args.pages, args.latency) as (base, pages, log),
        tempfile.TemporaryDirectory() as tmp,
    ):
        loads = [os.getloadavg()[0]]
        floors = [_floor(pages, base, args.workers)]
        before = _extraction(pages, base, args.workers)
        alone_one = _extraction(pages, base, 1) if args.workers > 1 else before
        log.reset()
        crawl_rate, after, fetched = _audit(base, args, Path(tmp) / "audit")
        crawl_most = log.most.value
        # once before the crawl and once after: a shared machine's load changes meanwhile
        alone = (before + _extraction(pages, base, args.workers)) / 2
        floors.append(_floor(pages, base, args.workers))
        loads.append(os.getloadavg()[0])
        floor = sum(f[0] for f in floors) / 2
        reading = sum(f[1] for f in floors) / 2
        workers = f"{args.workers} processes"
        rows = [
            _row("trafilatura alone", workers, reading=floor),
            _row("page reading alone", workers, reading, None, floor=floor, target=True),
            _row("extraction alone", workers, alone),
            _row("extraction alone", "1 process", alone_one),
            _row("canon audit (crawl)", workers, crawl_rate, crawl_most, alone, floor, True),
        ]
        if not args.no_index_add:
            log.reset()
            add_rate = _index_add(base, args.pages, args, Path(tmp))
            rows.append(
                _row("canon index add @urls.txt", workers, add_rate, log.most.value, alone, floor)
            )
    header = ["run", "reading in", "pages/s", "most in flight", "vs extraction"]
    header += ["vs trafilatura", "target"]
    print(table(header, rows))
    print(f"\nload average (1 min): {loads[0]:.2f} before, {loads[1]:.2f} after the crawl")
    print(f"audit: {fetched} pages fetched; analysis and the four outputs took {after:.1f} s")
    print(f"Total benchmark time: {total():.1f} s")


if __name__ == "__main__":
    main()
