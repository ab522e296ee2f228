"""The app under uvicorn, with limits a public server needs: no client may hold a connection.

uvicorn bounds idle keep-alive connections and the number of connections (503 above it), but
not the time a client takes to send its request line and headers (a client trickling a header
a minute keeps its connection for ever), nor the size of a head that arrives in one piece.
:class:`GuardedH11Protocol` closes a connection whose request head is not complete within
``head_timeout`` seconds of its first byte (or of connecting), and answers 400 to a head over
``max_head`` bytes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["GuardedH11Protocol", "ServerLimits", "serve"]


@dataclass(frozen=True)
class ServerLimits:
    """Connection limits; the defaults suit a small public server."""

    head_timeout: float = 10.0  # seconds to send the request line and headers
    keep_alive: float = 5.0  # seconds an idle keep-alive connection stays open
    max_head: int = 16_384  # bytes of a request line and headers
    max_connections: int = 200  # open connections and running requests; 503 above


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's head."""

    head_timeout = ServerLimits.head_timeout
    max_head = ServerLimits.max_head

    # uvicorn's H11Protocol narrows asyncio's BaseTransport to Transport; this follows it.
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        super().connection_made(transport)
        self._arm()

    def _waiting_for_head(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_overdue)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_overdue(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._waiting_for_head():
            self._arm()
            self._head_bytes += len(data)
            if self._head_bytes > self.max_head and b"\r\n\r\n" not in data[: self.max_head]:
                self._disarm()
                self.send_400_response("the request head is too large")
                return
        super().data_received(data)
        if not self._waiting_for_head():
            self._disarm()
            self._head_bytes = 0

    def on_response_complete(self) -> None:
        self._disarm()  # the keep-alive timer governs an idle connection
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def _protocol(limits: ServerLimits) -> type[GuardedH11Protocol]:
    settings = {"head_timeout": limits.head_timeout, "max_head": limits.max_head}
    return type("CanonH11Protocol", (GuardedH11Protocol,), settings)


def config(app: Any, host: str, port: int, limits: ServerLimits = ServerLimits()) -> Any:
    """uvicorn's Config for ``app`` under ``limits``."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=_protocol(limits),
        timeout_keep_alive=int(max(1, limits.keep_alive)),
        h11_max_incomplete_event_size=limits.max_head,
        limit_concurrency=limits.max_connections,
        log_level="info",
    )


def serve(app: Any, host: str, port: int, limits: ServerLimits = ServerLimits()) -> None:
    """Run ``app`` until interrupted."""
    import uvicorn

    uvicorn.Server(config(app, host, port, limits)).run()
