"""Requests → refused early: a body over the size limit is a 413 before a route reads it all,
and a body that does not arrive within its deadline a 408.  Every 503 says when to come back
(``Retry-After``), whichever route gave it."""

from __future__ import annotations

import asyncio
import time

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .handlers import error_response

__all__ = ["BodyLimit", "RetryAfter"]

RETRY_SECONDS = b"10"  # what a 503 that does not say otherwise asks a client to wait


class RetryAfter:
    """A ``Retry-After`` on every 503 response that has none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 503:
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"retry-after" for name, _ in headers):
                    message = {**message, "headers": [*headers, (b"retry-after", RETRY_SECONDS)]}
            await send(message)

        await self.app(scope, receive, sending)


class BodyLimit:
    """413 for a request body over ``max_body`` bytes, by Content-Length and as it arrives; 408
    when the whole body has not arrived ``body_timeout`` seconds after the request began."""

    def __init__(self, app: ASGIApp, max_body: int, body_timeout: float = 30.0) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout

    def _message(self) -> str:
        return f"the request body is larger than the limit of {self.max_body:,} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.max_body:
            await error_response(self._message(), None, 413)(scope, receive, send)
            return
        received = 0
        due = time.monotonic() + self.body_timeout
        complete = False

        async def limited() -> Message:
            nonlocal received, complete
            if complete:  # after the body: waiting for a disconnect is not bounded here
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, due - time.monotonic()))
            except TimeoutError:
                raise HTTPException(408, "the request body did not arrive in time") from None
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            received += len(message.get("body", b""))
            if received > self.max_body:
                raise HTTPException(413, self._message())
            return message

        await self.app(scope, limited, send)
