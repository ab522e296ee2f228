"""HTTP headers, as both fetchers send and read them: the request's headers, a response's
media type and charset, how long a ``Retry-After`` asks to wait, a value cut short to be shown.

The one-page fetch (:mod:`.fetch`), the concurrent client (:mod:`.client`) and the search
providers (:mod:`.search.hits`) read headers the same way through these.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from .decoding import accepted

__all__ = ["SHOWN_CHARACTERS", "media_type", "request_headers", "retry_after", "shown"]

SHOWN_CHARACTERS = 100  # kept of a header value that is only shown (Date, reason phrase)


def shown(value: str) -> str:
    """``value`` cut to :data:`SHOWN_CHARACTERS`, its unprintable characters dropped."""
    return "".join(c for c in value[:SHOWN_CHARACTERS] if c.isprintable())


def request_headers(target: Any, user_agent: str) -> list[tuple[bytes, bytes]]:
    """The headers of a GET of ``target`` (an ``httpx.URL``) sent as ``user_agent``."""
    return [
        (b"Host", target.netloc),
        (b"User-Agent", user_agent.encode("ascii")),
        (b"Accept", b"text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1"),
        (b"Accept-Language", b"ru,en;q=0.5"),
        (b"Accept-Encoding", accepted().encode("ascii")),
    ]


def media_type(headers: Any) -> tuple[str, str | None]:
    """The media type (lower case) and the charset, if any, of a response's Content-Type."""
    header = headers.get("content-type", "")
    media = header.split(";", 1)[0].strip().lower()
    charset = None
    for param in header.split(";")[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            charset = shown(value.strip().strip("\"'").lower())
    return media, charset


def retry_after(value: str, fallback: float, limit: float) -> float:
    """Seconds a ``Retry-After`` header asks to wait (a number or an HTTP date), bounded."""
    value = value.strip()
    seconds = fallback
    if value.isdigit():
        seconds = float(value)
    elif value:
        try:
            seconds = (parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds()
        except (TypeError, ValueError, OverflowError):
            seconds = fallback
    return max(0.0, min(seconds, limit))
