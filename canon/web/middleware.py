"""Requests → refused early: a body over the size limit is a 413 before a route reads it all."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .handlers import error_response

__all__ = ["BodyLimit"]


class BodyLimit:
    """413 for a request body over ``max_body`` bytes: by Content-Length and as it arrives."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

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

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body:
                raise HTTPException(413, self._message())
            return message

        await self.app(scope, limited, send)
