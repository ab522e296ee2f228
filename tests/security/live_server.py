"""A real ``canon serve`` in a child process on 127.0.0.1, for attacks and their measurements.

The server runs as its own process, so a test can read its memory (psutil, the whole process
tree: the server and its worker processes), see whether it still answers, and stop it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil
from serving import free_port

__all__ = ["LiveServer", "live_server"]


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen[bytes]

    def rss(self) -> int:
        """Resident memory of the server and its worker processes, in bytes."""
        parent = psutil.Process(self.process.pid)
        total = 0
        for proc in [parent, *parent.children(recursive=True)]:
            with suppress(psutil.NoSuchProcess):
                total += proc.memory_info().rss
        return total

    def peak_rss(self) -> int:
        """The largest resident memory any one of the processes reached (Linux VmHWM)."""
        parent = psutil.Process(self.process.pid)
        peak = 0
        for proc in [parent, *parent.children(recursive=True)]:
            try:
                status = Path(f"/proc/{proc.pid}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) * 1024)
        return peak

    def healthy(self, timeout: float = 2.0) -> bool:
        try:
            return httpx.get(f"{self.url}/healthz", timeout=timeout).status_code == 200
        except httpx.HTTPError:
            return False


@contextmanager
def live_server(*args: str, env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """``canon serve ARGS`` on a free loopback port, until the block ends."""
    port = free_port()
    command: Sequence[str] = [sys.executable, "-m", "canon", "serve", "--port", str(port), *args]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    server = LiveServer(f"http://127.0.0.1:{port}", process)
    try:
        deadline = time.monotonic() + 60
        while not server.healthy(timeout=1):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"canon serve did not start (exit {process.poll()})")
            time.sleep(0.2)
        yield server
    finally:
        for child in psutil.Process(process.pid).children(recursive=True):
            child.kill()
        process.kill()
        process.wait(timeout=10)
