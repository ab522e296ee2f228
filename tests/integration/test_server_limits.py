"""The server's connection limits on a real uvicorn: a slow request head is cut off in time."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest
import uvicorn
from serving import free_port

from canon.web import create_app
from canon.web.server import ServerLimits, config

pytestmark = pytest.mark.network


@pytest.fixture(scope="module")
def server():
    port = free_port()
    limits = ServerLimits(head_timeout=1.0, keep_alive=1.0, max_head=4096, max_connections=50)
    running = uvicorn.Server(config(create_app(body_timeout=1.0), "127.0.0.1", port, limits))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}", port
    running.should_exit = True
    thread.join(timeout=10)


def _closed_after(port: int, send: bytes, pause: float, limit: float) -> float:
    """Trickle ``send`` a byte every ``pause`` seconds; the seconds until the server closes."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as client:
        client.settimeout(pause)
        for byte in send:
            try:
                client.sendall(bytes([byte]))
                if client.recv(1024) == b"":
                    break
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            if time.monotonic() - started > limit:
                break
    return time.monotonic() - started


def test_a_trickled_request_head_is_cut_off(server) -> None:
    url, port = server
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    took = _closed_after(port, head, pause=0.2, limit=15)
    assert took < 5  # head_timeout 1 s; a trickle would otherwise last 40 s
    assert httpx.get(f"{url}/healthz", timeout=5).json() == {"status": "ok"}


def test_a_silent_connection_is_closed(server) -> None:
    _, port = server
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        assert client.recv(1024) == b""  # closed by the server, not by the timeout
    assert time.monotonic() - started < 5


def test_an_oversized_head_is_refused(server) -> None:
    url, _ = server
    answer = httpx.get(f"{url}/healthz", headers={"X-Big": "a" * 10_000}, timeout=5)
    assert answer.status_code == 400


def test_normal_keep_alive_requests_still_work(server) -> None:
    url, _ = server
    with httpx.Client(timeout=5) as client:
        for _ in range(3):
            assert client.get(f"{url}/healthz").status_code == 200


def test_a_trickled_request_body_is_cut_off(server) -> None:
    # A body promised in full (Content-Length) but stopped after a few bytes: 408 once the
    # body deadline (1 s in this server; 30 s by default) has passed.
    _, port = server
    head = (
        b"POST /api/compare HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100000\r\n\r\n"
    )
    started = time.monotonic()
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(head + b'{"first": "')
        while b"}" not in answer and time.monotonic() - started < 8:  # head and body may split
            piece = client.recv(4096)
            if not piece:
                break
            answer += piece
    assert answer.split(b"\r\n", 1)[0].endswith(b"408 Request Timeout"), answer[:200]
    assert b'"field":null' in answer and time.monotonic() - started < 5
