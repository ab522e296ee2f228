"""Real servers on 127.0.0.1 for the tests: a free port, and a uvicorn serving an app."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["free_port", "uvicorn_serving"]


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now (the system's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def uvicorn_serving(app: object) -> Iterator[str]:
    """``app`` served by a real uvicorn on a free port of 127.0.0.1: its address."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        running.should_exit = True
        thread.join(timeout=15)
