"""A real HTTP server on 127.0.0.1 serving fixture pages written for these tests.

Pages are our two articles rendered in two site templates (``fixtures/site/``), in UTF-8,
windows-1251 and KOI8-R, with and without declared charsets, plus every awkward response a
fetcher meets: gzip, redirects (one, a chain, a loop, too many), a slow answer, a body over the
cap, a PDF, an image, 404 and 500.
"""

from __future__ import annotations

import contextlib
import gzip
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import brotli

# How often the serving thread looks for shutdown(): a stop takes at most this long.
POLL = 0.05

FIXTURES = Path(__file__).parent / "fixtures" / "site"
SLOW_SECONDS = 3.0
# A page title that is markup if a page ever fails to escape it (HTML source: entities).
HOSTILE_TITLE = "&lt;script&gt;alert(1)&lt;/script&gt; Сад"


def article(name: str) -> tuple[str, list[str]]:
    """(title, paragraphs) of a fixture article: the first line is the title."""
    lines = (FIXTURES / f"article-{name}.txt").read_text("utf-8").strip().split("\n\n")
    title, *rest = lines
    return title.strip(), [p.strip() for p in rest if p.strip()]


def render(template: str, name: str, charset: str = "utf-8", title: str | None = None) -> str:
    """A fixture page; ``title`` (HTML source) replaces the article's own title."""
    own_title, paragraphs = article(name)
    title = own_title if title is None else title
    body = "\n".join(f"<p>{p}</p>" for p in paragraphs)
    html = (FIXTURES / f"template-{template}.html").read_text("utf-8")
    return html.format(charset=charset, title=title, body=body)


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0


def _html(template: str, name: str, encoding: str, header: str | None, meta: str) -> Reply:
    body = render(template, name, charset=meta).encode(encoding)
    content_type = f"text/html; charset={header}" if header else "text/html"
    return Reply(body=body, headers=(("Content-Type", content_type),))


def _redirect(target: str, status: int = 302) -> Reply:
    return Reply(status=status, headers=(("Location", target),))


def routes() -> dict[str, Callable[[], Reply]]:
    tea_utf8 = render("blog", "tea").encode("utf-8")
    big = render("blog", "tea").encode("utf-8") * 40  # about 400 KB
    pages: dict[str, Callable[[], Reply]] = {
        # charsets: declared in the header, in a <meta> tag, in both, or nowhere
        "/utf8": lambda: _html("blog", "tea", "utf-8", "utf-8", "utf-8"),
        "/utf8-undeclared": lambda: _html("blog", "tea", "utf-8", None, ""),
        "/cp1251-header": lambda: _html("blog", "tea", "cp1251", "windows-1251", ""),
        "/cp1251-meta": lambda: _html("blog", "tea", "cp1251", None, "windows-1251"),
        "/cp1251-undeclared": lambda: _html("blog", "tea", "cp1251", None, ""),
        "/cp1251-said-latin1": lambda: _html("blog", "tea", "cp1251", "iso-8859-1", ""),
        "/koi8-header": lambda: _html("news", "tea", "koi8_r", "koi8-r", ""),
        "/koi8-meta": lambda: _html("news", "tea", "koi8_r", None, "koi8-r"),
        "/koi8-undeclared": lambda: _html("news", "tea", "koi8_r", None, ""),
        "/plain-koi8": lambda: Reply(
            body=article("garden")[1][0].encode("koi8_r"),
            headers=(("Content-Type", "text/plain; charset=koi8-r"),),
        ),
        "/brotli": lambda: Reply(
            body=brotli.compress(tea_utf8),
            headers=(("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "br")),
        ),
        "/gzip": lambda: Reply(
            body=gzip.compress(tea_utf8),
            headers=(("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "gzip")),
        ),
        # one article in one template, two articles in one template, one in two templates
        "/blog/tea": lambda: _html("blog", "tea", "utf-8", "utf-8", "utf-8"),
        "/blog/garden": lambda: _html("blog", "garden", "utf-8", "utf-8", "utf-8"),
        "/news/tea": lambda: _html("news", "tea", "utf-8", "utf-8", "utf-8"),
        "/news/garden": lambda: _html("news", "garden", "utf-8", "utf-8", "utf-8"),
        "/hostile-title": lambda: Reply(
            body=render("blog", "garden", title=HOSTILE_TITLE).encode("utf-8"),
            headers=(("Content-Type", "text/html; charset=utf-8"),),
        ),
        "/empty-main": lambda: Reply(
            body=b"<html><head><title>x</title></head><body><script>1</script></body></html>",
            headers=(("Content-Type", "text/html"),),
        ),
        # redirects
        "/redirect-one": lambda: _redirect("/utf8", 301),
        "/redirect-chain": lambda: _redirect("/chain-2"),
        "/chain-2": lambda: _redirect("/chain-3", 307),
        "/chain-3": lambda: _redirect("/utf8", 308),
        "/redirect-loop": lambda: _redirect("/loop-b"),
        "/loop-b": lambda: _redirect("/redirect-loop"),
        # failures
        "/slow": lambda: Reply(body=tea_utf8, delay=SLOW_SECONDS),
        "/big": lambda: Reply(body=big, headers=(("Content-Type", "text/html"),)),
        "/big-unsized": lambda: Reply(body=big, headers=(("Content-Type", "text/html"),)),
        "/pdf": lambda: Reply(
            body=b"%PDF-1.4\n%...", headers=(("Content-Type", "application/pdf"),)
        ),
        "/image": lambda: Reply(
            body=b"\x89PNG\r\n\x1a\n", headers=(("Content-Type", "image/png"),)
        ),
        "/404": lambda: Reply(status=404, body=b"<h1>Not found</h1>"),
        "/500": lambda: Reply(status=500, body=b"<h1>Oops</h1>"),
    }
    for hop in range(1, 9):  # /many-1 -> /many-2 -> ... -> /many-8 -> /utf8
        target = f"/many-{hop + 1}" if hop < 8 else "/utf8"
        pages[f"/many-{hop}"] = lambda target=target: _redirect(target)
    return pages


class Site:
    """The running server: its base URL and how often each path was requested."""

    def __init__(self, base: str, hits: Counter[str], agents: list[str]) -> None:
        self.base = base
        self.hits = hits
        self.agents = agents  # the User-Agent of every request, in order

    def url(self, path: str) -> str:
        return self.base + path


def _handler(pages: dict[str, Callable[[], Reply]], hits: Counter[str], agents: list[str]) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            hits[path] += 1
            agents.append(self.headers.get("User-Agent", ""))
            make = pages.get(path)
            reply = make() if make else Reply(status=404, body=b"no such page")
            if reply.delay:
                time.sleep(reply.delay)
            self.send_response(reply.status)
            for name, value in reply.headers:
                self.send_header(name, value)
            if path == "/big-unsized":  # no length: the cap must hold while streaming
                self.send_header("Connection", "close")
                self.close_connection = True
                self.end_headers()
                self._write(reply.body)
                return
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self._write(reply.body)

        def _write(self, body: bytes) -> None:
            # The client may stop reading, as a capped fetch does.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients that hang up early (timeouts, caps) are part of the tests


@contextmanager
def serve() -> Iterator[Site]:
    hits: Counter[str] = Counter()
    agents: list[str] = []
    server = _QuietServer(("127.0.0.1", 0), _handler(routes(), hits, agents))
    thread = threading.Thread(target=server.serve_forever, args=(POLL,), daemon=True)
    thread.start()
    try:
        yield Site(f"http://127.0.0.1:{server.server_address[1]}", hits, agents)
    finally:
        server.shutdown()
        server.server_close()
