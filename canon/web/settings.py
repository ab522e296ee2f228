"""A server's settings → one frozen record in ``app.state.settings``, read by every route."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request

from ..errors import OptionError
from ..sources.addresses import is_loopback

__all__ = [
    "LOOPBACK_HOSTS",
    "ServerSettings",
    "Settings",
    "allowed_hosts",
    "beyond_loopback",
    "server_settings",
]

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")  # the Host names a local server answers
_NAME = re.compile(r"(\*\.)?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?")


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
    ``web_queue`` more waiting (429 and ``Retry-After`` beyond).  Requests whose ``Host`` is
    none of ``allowed_hosts`` (names, IP addresses, ``*.example.com`` or ``*`` for any) get 400;
    the form tokens are signed with the secret kept in ``secret_file`` (made at the first start;
    ``CANON_SECRET`` overrides it; without either, a random secret for this process).  With
    ``users`` (a users file of ``canon users``), every page and the API need a signed-in user
    (:mod:`canon.web.signin`), whose session lasts ``session_hours``; each user sees the jobs
    they started and spends their own quotas.  At most ``audits_at_once`` audits run at once
    on the server (and at most the user's own quota of them, for each user).  With ``watches``
    (a folder of watches of ``canon watch``, or one watch), the pages under ``/watch`` show
    them, read-only.
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
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    secret_file: Path | None = None
    users: Path | None = None
    session_hours: float = 12.0
    audits_at_once: int = 1
    watches: Path | None = None


def _host_name(name: str) -> str:
    """A name as a ``Host`` header carries it: lower case, IPv6 in brackets, no port."""
    name = name.strip().lower()
    try:
        return f"[{ipaddress.IPv6Address(name.strip('[]'))}]"
    except ValueError:
        pass
    if name != "*" and not _NAME.fullmatch(name):
        raise OptionError(
            "allowed_host",
            f"must be a host name or an IP address (or *.example.com, or *), not {name[:60]!r}",
            value=name,
        )
    return name


def allowed_hosts(bind: str, names: Iterable[str] = ()) -> tuple[str, ...]:
    """The ``Host`` names a server bound to ``bind`` answers: the loopback names, ``bind``
    itself unless it is every address, and ``names``."""
    every = {"0.0.0.0", "::", "[::]", ""}
    found = [*LOOPBACK_HOSTS, *([] if bind.strip() in every else [bind]), *names]
    return tuple(dict.fromkeys(_host_name(name) for name in found))


def beyond_loopback(bind: str, hosts: Iterable[str]) -> tuple[str, str] | None:
    """What lets machines other than this one reach a server bound to ``bind`` and answering
    ``hosts``, as (setting, value): ``("host", "0.0.0.0")``, ``("allowed_host", "a.ru")``;
    None when it answers on loopback alone."""
    if not is_loopback(bind.strip().lower()):
        return ("host", bind)
    others = [name for name in hosts if not is_loopback(name)]
    return ("allowed_host", others[0]) if others else None


def server_settings(request: Request) -> ServerSettings:
    """The settings of the app serving ``request``."""
    settings: ServerSettings = request.app.state.settings
    return settings


Settings = Annotated[ServerSettings, Depends(server_settings)]
"""A route parameter of this type receives the app's settings."""
