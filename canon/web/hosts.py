"""A request's ``Host`` → let through when the server answers to that name, else a 400 that
says which name was refused: DNS rebinding (a name of the attacker's resolving to 127.0.0.1)
never reaches a route.

The names are :class:`~canon.web.settings.ServerSettings` ``allowed_hosts``: exact names and
addresses (IPv6 in brackets), ``*.example.com`` for its subdomains, ``*`` for any.  The port
is not compared.  The refusal is JSON ``{"error", "field"}`` like every other.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from .handlers import error_response

__all__ = ["KnownHosts", "host_name"]


def host_name(header: str | None) -> str | None:
    """The name of a ``Host`` header, lower case, IPv6 in brackets, without its port; None
    when it is missing or no host."""
    if not header or any(c.isspace() or c in "/?#@\\" for c in header):
        return None
    try:
        parts = urlsplit(f"//{header}")
        parts.port  # noqa: B018  (a port that is no number raises here)
    except ValueError:
        return None
    name = parts.hostname
    if not name:
        return None
    return f"[{name}]" if ":" in name else name


class KnownHosts:
    """Refuses (400) a request whose ``Host`` is none of ``names``."""

    def __init__(self, app: ASGIApp, names: Sequence[str]) -> None:
        self.app = app
        self.names = {name.lower() for name in names}
        self.any = "*" in self.names
        self.suffixes = tuple(name[1:] for name in self.names if name.startswith("*."))

    def answers(self, host: str | None) -> bool:
        if host is None:
            return False
        return self.any or host in self.names or host.endswith(self.suffixes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.any:
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if self.answers(host_name(header)):
            await self.app(scope, receive, send)
            return
        shown = header[:80]
        refusal = error_response(
            f"this server does not answer to the host name {shown!r}: ask for it by one of "
            "the names it answers to (its administrator can allow more)",
            None,
            400,
        )
        await refusal(scope, receive, send)
