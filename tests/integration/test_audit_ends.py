"""An audit always ends: a robots.txt ``Crawl-delay`` and a ``Retry-After`` are obeyed only up
to their caps, a host that keeps failing is given up, and a crawl stops at ``--max-time`` and
resumes where it stopped.  Each limit met is said in the summary.  Served by a small real
server on 127.0.0.1 whose answers each test chooses."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from audit_site import sentences
from command import run_cli

from canon.audit.state import State
from canon.sources.client import Politeness

pytestmark = pytest.mark.network

Answer = tuple[int, dict[str, str], bytes]


def _page(number: int, links: int) -> bytes:
    text = " ".join(sentences(number, 12))
    more = "".join(f'<a href="/p{n}">ещё {n}</a> ' for n in range(number + 1, links + 1))
    return (
        f'<html><head><meta charset="utf-8"><title>Страница {number}</title></head><body>'
        f"<article><h1>Страница {number}</h1><p>{text}</p></article><nav>{more}</nav>"
        "</body></html>"
    ).encode()


@contextmanager
def _site(
    answer: Callable[[str], Answer], pause: float = 0.0
) -> Iterator[tuple[str, Counter[str]]]:
    hits: Counter[str] = Counter()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            hits[self.path] += 1
            time.sleep(pause if self.path != "/robots.txt" else 0)
            status, headers, body = answer(self.path)
            self.send_response(status)
            for name, value in {"Content-Type": "text/html; charset=utf-8", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


def _audit(base: str, out: Path, *extra: str) -> tuple[int, str, float]:
    began = time.monotonic()
    ran = run_cli("audit", base + "/", "--out", out, "--allow-private", "--workers", "1", *extra)
    return ran.returncode, ran.stdout + ran.stderr, time.monotonic() - began


def _robots(text: str) -> Answer:
    return 200, {"Content-Type": "text/plain"}, text.encode()


def test_the_defaults_bound_every_wait() -> None:
    politeness = Politeness()
    assert politeness.max_crawl_delay == 10 and politeness.max_retry_after == 10
    assert politeness.give_up == 10


@pytest.mark.timeout(60)
def test_a_huge_crawl_delay_is_capped_and_said(tmp_path: Path) -> None:
    def answer(path: str) -> Answer:
        if path == "/robots.txt":
            return _robots("User-agent: *\nCrawl-delay: 86400\n")
        number = int(path.strip("/p") or 0)
        return 200, {}, _page(number, 3)

    with _site(answer) as (base, hits):
        code, output, seconds = _audit(base, tmp_path, "--max-crawl-delay", "0.3")
    assert code == 0, output
    assert seconds < 30  # four pages, 0.3 s apart; obeyed, 86400 s between each
    assert {"/", "/p1", "/p2", "/p3"} <= set(hits)
    host = base.removeprefix("http://")
    assert f"{host} asks for a Crawl-delay of 86400 s; waited 0.3 s (--max-crawl-delay)" in output


@pytest.mark.timeout(60)
def test_a_host_that_keeps_failing_is_given_up(tmp_path: Path) -> None:
    pages = [f"{n}" for n in range(1, 41)]

    def answer(path: str) -> Answer:
        if path == "/robots.txt":
            return _robots("User-agent: *\n")
        if path == "/":
            links = "".join(f'<a href="/p{n}">{n}</a> ' for n in pages)
            body = f"<html><body><article><p>{' '.join(sentences(0, 12))}</p></article>{links}"
            return 200, {}, (body + "</body></html>").encode()
        return 503, {"Retry-After": "100000"}, b"<h1>busy</h1>"

    with _site(answer) as (base, hits):
        code, output, seconds = _audit(
            base, tmp_path, "--max-retry-after", "0.05", "--retries", "2", "--concurrency", "2"
        )
    assert code == 0, output
    asked = sum(n for path, n in hits.items() if path.startswith("/p"))
    # ten failures in a row (each after its retries), a few more already in flight: then none
    assert asked <= 3 * (10 + 2), hits
    assert seconds < 30
    assert f"{base.removeprefix('http://')} failed too often in a row" in output
    with State(tmp_path / "audit.db", readonly=True) as state:
        rows = {p.url: p for p in state.pages()}
    assert len(rows) == 41  # every page is recorded, none silently dropped
    assert sum(1 for p in rows.values() if p.error and "failed 10 times in a row" in p.error) >= 25


@pytest.mark.timeout(90)
def test_a_crawl_stops_at_max_time_and_resumes(tmp_path: Path) -> None:
    count = 12

    def answer(path: str) -> Answer:
        if path == "/robots.txt":
            return _robots("User-agent: *\n")
        number = int(path.strip("/p") or 0)
        return 200, {}, _page(number, count)

    with _site(answer, pause=0.4) as (base, hits):
        code, output, seconds = _audit(base, tmp_path, "--max-time", "1.5", "--concurrency", "1")
        assert code == 0, output
        assert seconds < 15
        assert "stopped after --max-time 1.5 s with" in output
        with State(tmp_path / "audit.db", readonly=True) as state:
            first = len(list(state.pages()))
        assert 1 <= first < count + 1
        code, output, _ = _audit(base, tmp_path, "--max-time", "0")
        assert code == 0, output
        assert "stopped after" not in output
    with State(tmp_path / "audit.db", readonly=True) as state:
        assert len(list(state.pages())) == count + 1
    assert hits["/"] == 1  # the page done is not fetched again


@pytest.mark.timeout(60)
def test_a_redirect_off_the_site_is_recorded_not_fetched(tmp_path: Path) -> None:
    with _site(lambda path: (200, {}, b"<html><body><p>elsewhere</p></body></html>")) as (
        other,
        elsewhere,
    ):

        def answer(path: str) -> Answer:
            if path == "/robots.txt":
                return _robots("User-agent: *\n")
            if path == "/away":
                return 301, {"Location": other + "/landing"}, b""
            body = _page(0, 0).replace(b"</nav>", b'<a href="/away">away</a></nav>')
            return 200, {}, body

        with _site(answer) as (base, hits):
            code, output, _ = _audit(base, tmp_path)
    assert code == 0, output
    assert hits["/away"] == 1 and not elsewhere  # the other host was never asked
    with State(tmp_path / "audit.db", readonly=True) as state:
        rows = {p.url: p for p in state.pages()}
    assert rows[base + "/away"].reason == "redirect" and rows[base + "/away"].status == 301


def test_a_page_with_a_stray_nul_byte_is_read_and_its_links_followed(tmp_path: Path) -> None:
    def answer(path: str) -> Answer:
        if path == "/robots.txt":
            return _robots("User-agent: *\n")
        number = int(path.strip("/p") or 0)
        page = _page(number, 2)
        return 200, {}, page.replace(b"<nav>", b"\x00<nav>") if number == 0 else page

    with _site(answer) as (base, hits):
        code, output, _ = _audit(base, tmp_path)
    assert code == 0, output
    assert hits["/p1"] == 1 and hits["/p2"] == 1
