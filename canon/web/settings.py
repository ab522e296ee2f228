"""A server's settings → one frozen record in ``app.state.settings``, read by every route."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request

__all__ = ["ServerSettings", "Settings", "server_settings"]


@dataclass(frozen=True)
class ServerSettings:
    """What one ``canon serve`` allows.

    ``index`` enables checks against that index file (opened read-only unless
    ``allow_index_writes``); ``allow_private`` lets URL fetches reach loopback, private and
    link-local addresses, and ``allow_private_results`` lets a check against the web fetch the
    search results found there (the provider's own address may be private either way);
    ``max_body`` bounds a request body, and a page fetched by URL, in bytes and ``max_text`` a
    text in characters (413 above either).  Heavy work runs in
    ``workers`` processes, each request's within ``deadline`` seconds, with at most ``queue``
    requests waiting (503 and ``Retry-After`` beyond).  Pages named by URL are fetched in
    ``fetch_threads`` threads of their own, each within ``fetch_deadline`` seconds.  A request
    body must arrive within ``body_timeout`` seconds (408).  With ``audits`` (a folder), the
    pages under ``/audit`` start site audits there, one at a time, and show their findings.
    Checks against the web started as jobs (the check page, ``/api/check/jobs``) run in
    ``web_jobs`` processes of their own, each within ``web_deadline`` seconds, with at most
    ``web_queue`` more waiting (429 and ``Retry-After`` beyond).
    """

    index: Path | None = None
    allow_private: bool = False
    allow_private_results: bool = False
    allow_index_writes: bool = False
    max_body: int = 2_000_000
    max_text: int = 200_000
    workers: int = 2
    deadline: float = 30.0
    queue: int = 64
    fetch_deadline: float = 20.0
    fetch_threads: int = 16
    body_timeout: float = 30.0
    audits: Path | None = None
    web_jobs: int = 1
    web_queue: int = 4
    web_deadline: float = 300.0


def server_settings(request: Request) -> ServerSettings:
    """The settings of the app serving ``request``."""
    settings: ServerSettings = request.app.state.settings
    return settings


Settings = Annotated[ServerSettings, Depends(server_settings)]
"""A route parameter of this type receives the app's settings."""
