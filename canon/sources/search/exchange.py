"""A provider's request → its answer, the whole exchange within a deadline.

httpx bounds each read, not a request: a provider that sends a byte every half second holds a
request for as long as it likes.  Here a request goes through the fetcher's network backend
(:class:`~canon.sources.transport.PinnedBackend`), whose every wait (the DNS lookup, the
connection, TLS, each write and each read) is cut to what is left of the request's
:class:`~canon.sources.transport.Deadline`; the body is decoded and capped as it arrives
(:class:`~canon.sources.fetch.CappedBody`).  The provider's address may be private (a SearXNG
on this machine): that is the user's own configuration, not a page found on the web.
Redirects are not followed.  Failures are raised as they are (``DeadlinePassed``, httpcore's
errors, a ``FetchError`` for an answer too large or undecodable) for the provider to say.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..decoding import accepted
from ..fetch import CappedBody, FetchOptions

if TYPE_CHECKING:
    import httpx

    from ..transport import Deadline

__all__ = ["Answer", "exchange"]


@dataclass(frozen=True)
class Answer:
    """A provider's HTTP answer: its status, headers and (decoded) body."""

    status: int
    headers: httpx.Headers
    body: bytes = b""


def _headers(request: httpx.Request, user_agent: str) -> list[tuple[bytes, bytes]]:
    """The request's headers, with a User-Agent, the codings canon decodes, and the
    credentials of its address (``http://user:password@host``) as Basic authorization."""
    named = {name.lower() for name, _ in request.headers.raw}
    headers = list(request.headers.raw)
    if b"user-agent" not in named:
        headers.append((b"User-Agent", user_agent.encode("ascii")))
    if b"accept-encoding" not in named:
        headers.append((b"Accept-Encoding", accepted().encode("ascii")))
    userinfo = request.url.userinfo
    if userinfo and b"authorization" not in named:
        headers.append((b"Authorization", b"Basic " + base64.b64encode(userinfo)))
    return headers


def exchange(
    request: httpx.Request, options: FetchOptions, deadline: Deadline, max_bytes: int
) -> Answer:
    """``request`` sent and its answer read, each wait at most ``options``' timeouts and
    all of them within ``deadline``; a body over ``max_bytes`` (as sent or decoded) is
    refused as soon as it passes."""
    import httpcore
    import httpx

    from ..tls import tls_context
    from ..transport import PinnedBackend

    url = request.url
    target = httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port,
                          target=url.raw_path)  # fmt: skip
    read = options.read_timeout
    timeouts = {"connect": options.connect_timeout, "read": read, "write": read, "pool": read}
    backend = PinnedBackend(deadline, allow_private=True)
    capped = replace(options, max_bytes=max_bytes)
    pool = httpcore.ConnectionPool(ssl_context=tls_context(), network_backend=backend, retries=0)
    headers = _headers(request, options.user_agent)
    extensions = {"timeout": timeouts}
    with pool, pool.stream(request.method, target, headers=headers, content=request.read(),
                           extensions=extensions) as response:  # fmt: skip
        answered = httpx.Headers(response.headers)
        body = CappedBody(str(url), answered, capped)
        for chunk in response.iter_stream():
            body.feed(chunk)
        return Answer(response.status, answered, body.finish())
