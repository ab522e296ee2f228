"""A hostile HTTP server on 127.0.0.1: what a fetcher meets when the other side is an attacker.

``serve()`` starts a threaded ``http.server`` on a free loopback port and yields a
:class:`Hostile` that records every request (path, query, Host header, TLS server name).
Routes (query parameters in brackets):

========================  ===========================================================
``/page``                 a small Russian article as HTML
``/echo-host``            the Host header it received, as text/plain
``/internal-admin``       what a rebinding or redirect attacker wants to reach
``/trickle``              200, then one body byte every ``interval`` s [interval, count]
``/slow-headers``         the status line, then header bytes one every ``interval`` s
``/slow-redirect``        waits ``delay`` s, then 302 to itself with ``n`` - 1, then /page
``/redirect``             302 to ``to``, exactly as given (any string)
``/redirect-port``        302 to ``http://127.0.0.1:99999/``
``/redirect-loopback``    302 to ``/internal-admin?action=delete`` on ``port`` at 127.0.0.1
``/encoded``              a body declared in the content coding ``name``
``/length-lie``           Content-Length of a terabyte, and a short body
any path given to serve   a fixed :class:`Reply` (bombs: :func:`brotli_bomb` and the like)
========================  ===========================================================

Every wait is bounded (``count`` bytes at most, ``MAX_SECONDS`` at most, and it ends when the
client hangs up or the server stops), so a test that forgets a deadline still ends.
"""

from __future__ import annotations

import contextlib
import ssl
import threading
import time
import zlib
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import brotli

__all__ = [
    "PAGE_TEXT",
    "Hostile",
    "Reply",
    "brotli_bomb",
    "deflate_bomb",
    "gzip_bomb",
    "serve",
]

MAX_SECONDS = 60.0  # no slow route runs longer than this, whoever is listening
_CHUNK = 1 << 20
PAGE_TEXT = (
    "Чай пришёл в Россию в семнадцатом веке и быстро стал частью повседневной жизни. "
    "Самовар собирал за столом всю семью, а разговоры за чаем тянулись до позднего вечера."
)
_PAGE = (
    "<!doctype html><html lang='ru'><head><meta charset='utf-8'><title>Чай</title></head>"
    f"<body><article><h1>Чай</h1><p>{PAGE_TEXT}</p></article></body></html>"
).encode()


@dataclass(frozen=True)
class Reply:
    """A fixed answer: status, headers and body (sent with its Content-Length)."""

    body: bytes
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/html; charset=utf-8"),)
    status: int = 200


def _zeros(size: int) -> Iterator[bytes]:
    block = bytes(_CHUNK)
    for start in range(0, size, _CHUNK):
        yield block[: min(_CHUNK, size - start)]


def brotli_bomb(size: int) -> bytes:
    """``size`` zero bytes brotli-compressed (1 GiB takes about 800 bytes)."""
    encoder = brotli.Compressor(quality=5, lgwin=24)
    return b"".join([*(encoder.process(block) for block in _zeros(size)), encoder.finish()])


def _zlib_bomb(size: int, wbits: int) -> bytes:
    encoder = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return b"".join([*(encoder.compress(block) for block in _zeros(size)), encoder.flush()])


def gzip_bomb(size: int) -> bytes:
    """``size`` zero bytes gzip-compressed (about 1/1000 of the size)."""
    return _zlib_bomb(size, 16 + zlib.MAX_WBITS)


def deflate_bomb(size: int, raw: bool = False) -> bytes:
    """``size`` zero bytes as HTTP deflate: zlib-wrapped, or ``raw`` deflate."""
    return _zlib_bomb(size, -zlib.MAX_WBITS if raw else zlib.MAX_WBITS)


class Hostile:
    """The running server: its address and every request it received."""

    def __init__(self, scheme: str, port: int, stopping: threading.Event) -> None:
        self.scheme = scheme
        self.port = port
        self.stopping = stopping
        self.hits: Counter[str] = Counter()  # by path, without the query
        self.requests: list[str] = []  # path and query of every request, in order
        self.hosts: list[str] = []  # the Host header of every request
        self.server_names: list[str | None] = []  # the TLS server name (SNI) of every handshake
        self.lock = threading.Lock()

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def reached(self, path: str) -> bool:
        with self.lock:
            return self.hits[path] > 0


def _query(path: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(path).query).items()}


def _number(query: Mapping[str, str], name: str, default: float) -> float:
    try:
        return max(0.0, min(float(query.get(name, default)), MAX_SECONDS))
    except ValueError:
        return default


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # one request per connection, bodies end at close
    hostile: Hostile
    replies: Mapping[str, Reply]

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        with self.hostile.lock:
            self.hostile.hits[path] += 1
            self.hostile.requests.append(self.path)
            self.hostile.hosts.append(self.headers.get("Host", ""))
        route = getattr(self, "route_" + path.strip("/").replace("-", "_"), None)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, ssl.SSLError):
            if path in self.replies:
                self._send(self.replies[path])
            elif route is not None:
                route(_query(self.path))
            else:
                self._send(Reply(b"no such page", status=404))

    def _send(self, reply: Reply) -> None:
        self.send_response(reply.status)
        for name, value in reply.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _drip(self, data: bytes, interval: float) -> None:
        """``data`` one byte at a time; stops at MAX_SECONDS, a hang-up or the server's end."""
        started = time.monotonic()
        for byte in data:
            if self.hostile.stopping.wait(interval) or time.monotonic() - started > MAX_SECONDS:
                return
            self.wfile.write(bytes([byte]))
            self.wfile.flush()

    def route_page(self, query: Mapping[str, str]) -> None:
        self._send(Reply(_PAGE))

    def route_echo_host(self, query: Mapping[str, str]) -> None:
        host = self.headers.get("Host", "").encode()
        self._send(Reply(host, headers=(("Content-Type", "text/plain"),)))

    def route_internal_admin(self, query: Mapping[str, str]) -> None:
        self._send(Reply(f"done: {query.get('action', 'nothing')}".encode()))

    def route_trickle(self, query: Mapping[str, str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.flush()
        count = int(_number(query, "count", 600))
        self._drip(b"<p>" + b"x" * count, _number(query, "interval", 1.0))

    def route_slow_headers(self, query: Mapping[str, str]) -> None:
        self.wfile.write(b"HTTP/1.1 200 OK\r\n")
        self.wfile.flush()
        self._drip(
            b"X-Slow: " + b"x" * int(_number(query, "count", 600)), _number(query, "interval", 1.0)
        )

    def route_slow_redirect(self, query: Mapping[str, str]) -> None:
        hops = int(_number(query, "n", 1))
        if self.hostile.stopping.wait(_number(query, "delay", 1.0)):
            return
        delay = query.get("delay", "1")
        self._redirect(f"/slow-redirect?n={hops - 1}&delay={delay}" if hops > 1 else "/page")

    def route_redirect(self, query: Mapping[str, str]) -> None:
        self._redirect(query.get("to", "/page"))

    def route_redirect_port(self, query: Mapping[str, str]) -> None:
        self._redirect("http://127.0.0.1:99999/")

    def route_redirect_loopback(self, query: Mapping[str, str]) -> None:
        port = query.get("port", str(self.hostile.port))
        self._redirect(f"http://127.0.0.1:{port}/internal-admin?action=delete")

    def route_encoded(self, query: Mapping[str, str]) -> None:
        coding = query.get("name", "x-unknown")
        self._send(
            Reply(_PAGE, headers=(("Content-Type", "text/html"), ("Content-Encoding", coding)))
        )

    def route_length_lie(self, query: Mapping[str, str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(10**12))
        self.end_headers()
        self.wfile.write(_PAGE)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients that hang up early (deadlines, caps) are what these tests do


def _tls_context(cert: tuple[Path, Path], hostile: Hostile) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*cert)

    def record(sock: object, name: str | None, _: object) -> None:
        with hostile.lock:
            hostile.server_names.append(name)

    context.sni_callback = record  # type: ignore[assignment]
    return context


@contextmanager
def serve(
    replies: Mapping[str, Reply] | None = None, cert: tuple[Path, Path] | None = None
) -> Iterator[Hostile]:
    """Run the server until the block ends; ``cert`` (certificate, key) makes it HTTPS."""
    stopping = threading.Event()
    handler = type("Handler", (_Handler,), {"replies": dict(replies or {})})
    server = _Server(("127.0.0.1", 0), handler)
    hostile = Hostile("https" if cert else "http", server.server_address[1], stopping)
    handler.hostile = hostile
    if cert:
        server.socket = _tls_context(cert, hostile).wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield hostile
    finally:
        stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
