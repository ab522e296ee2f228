"""Every response → security headers: what a page may load, who may frame it, no sniffing.

Pages load only the app's own scripts, styles and images (``default-src 'self'``), may not
be framed (``frame-ancestors 'none'``), and are never reinterpreted by a browser's content
sniffing; no page's address is sent to another site.  The API documentation page needs
inline styles (Swagger UI sets them), so its policy allows those, and nothing else more.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP_DOCS", "CSP_PAGES", "SecurityHeaders"]

CSP_PAGES = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
CSP_DOCS = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # No referrer leaves for other sites; within the server's own, browsers then send the real
    # Origin with a form (under no-referrer they send "null", which :mod:`.crosssite` refuses).
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds the headers to every HTTP response (errors included)."""

    def __init__(self, app: ASGIApp, docs_path: str = "/docs") -> None:
        self.app = app
        self.docs_path = docs_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = CSP_DOCS if scope["path"].startswith(self.docs_path) else CSP_PAGES

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0] not in _NAMES]
                headers += [*_COMMON, (b"content-security-policy", policy.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


_NAMES = frozenset({name for name, _ in _COMMON} | {b"content-security-policy"})
