"""Who is asking → the signed-in user of each request, on a server given a users file.

A browser signs in on ``/signin`` and is then known by its session: a cookie signed with the
server's secret (Starlette's ``SessionMiddleware``, by ``itsdangerous``) holding the user's
name and the ``generation`` of its password, so that changing the password or removing the
user ends every session at once.  A client of the JSON API sends ``Authorization: Bearer
TOKEN`` with a token of ``canon users token``.  Without either, a page answers 303 to the
sign-in page and the API 401 (``WWW-Authenticate: Bearer``); ``/healthz``, the style sheets
and the sign-in page itself are open.  Failed sign-ins are counted by name and by address:
after :data:`MAX_FAILURES` within :data:`FAILURE_WINDOW` seconds, more are refused (429 with
``Retry-After``) until the window has passed.

A server without a users file lets everyone in (:func:`user_of` is None): ``canon serve``
allows that only when it answers on loopback alone.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from threading import Lock
from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from .accounts import Accounts, User
from .crosssite import wants_json
from .handlers import error_response
from .service import N_, FieldError

__all__ = [
    "FAILURE_WINDOW",
    "MAX_FAILURES",
    "OPEN_PATHS",
    "SESSION_COOKIE",
    "Failures",
    "Owner",
    "Sessions",
    "SignIn",
    "owner_of",
    "safe_next",
    "user_of",
]

SESSION_COOKIE = "canon_session"
MAX_FAILURES = 5  # failed sign-ins allowed a name, and an address, within the window
FAILURE_WINDOW = 300.0  # seconds
OPEN_PATHS = ("/healthz", "/signin")  # and what lies under /static/
_STATE = "canon_user"


def user_of(request: Request) -> User | None:
    """The signed-in user of ``request`` (None on a server everyone may use)."""
    user: User | None = request.scope.get("state", {}).get(_STATE)
    return user


def owner_of(request: Request) -> str | None:
    """The name a job started by ``request`` is recorded under (None: an open server)."""
    user = user_of(request)
    return user.name if user is not None else None


Owner = Annotated[str | None, Depends(owner_of)]
"""A route parameter of this type receives the name of the user asking (or None)."""


def safe_next(where: str | None) -> str:
    """A page of this server to go to after signing in: a path, never another site."""
    if not where or not where.startswith("/") or where.startswith(("//", "/\\")):
        return "/"
    return where if all(c.isprintable() for c in where) else "/"


class Failures:
    """Failed sign-ins by key (a name, an address), within a sliding window."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = FAILURE_WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._times: defaultdict[str, deque[float]] = defaultdict(deque)
        self._lock = Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._times[key]
        while times and now - times[0] > self.window:
            times.popleft()
        return times

    def wait(self, *keys: str) -> int:
        """Seconds until any of ``keys`` may try again (0: now)."""
        now = time.monotonic()
        with self._lock:
            waits = [
                self.window - (now - times[0])
                for key in keys
                if len(times := self._recent(key, now)) >= self.limit
            ]
        return max(1, round(max(waits))) if waits else 0

    def failed(self, *keys: str) -> None:
        now = time.monotonic()
        with self._lock:
            for key in keys:
                self._recent(key, now).append(now)
            if len(self._times) > 100_000:  # a flood of names: forget those that are quiet
                for key in [k for k, v in self._times.items() if not self._recent(k, now)]:
                    del self._times[key]

    def refusal(self, seconds: int) -> FieldError:
        return FieldError(
            f"too many failed sign-ins; try again in {seconds} s",
            None,
            429,
            {"Retry-After": str(seconds)},
            key=N_("Too many failed sign-ins: try again in %(seconds)s s"),
            params={"seconds": seconds},
        )


class Sessions:
    """Starlette's signed-cookie sessions, the cookie marked ``Secure`` on requests that came
    over HTTPS (directly, or through a proxy uvicorn trusts) and not otherwise."""

    def __init__(self, app: ASGIApp, secret_key: str, max_age: int) -> None:
        options = {"secret_key": secret_key, "session_cookie": SESSION_COOKIE,
                   "max_age": max_age, "same_site": "lax"}  # fmt: skip
        self.plain = SessionMiddleware(app, **options)  # type: ignore[arg-type]
        self.secure = SessionMiddleware(app, https_only=True, **options)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chosen = self.secure if scope.get("scheme") in ("https", "wss") else self.plain
        await chosen(scope, receive, send)


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            kind, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if kind.lower() == "bearer" else None
    return None


class SignIn:
    """Lets a request through only with a user: its session's, or its bearer token's."""

    def __init__(self, app: ASGIApp, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    def _user(self, scope: Scope) -> User | None:
        token = _bearer(scope)
        if token is not None:
            return self.accounts.by_token(token)
        session = scope.get("session") or {}
        name = session.get("user")
        if not isinstance(name, str):
            return None
        user = self.accounts.user(name)
        return user if user is not None and user.generation == session.get("gen") else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path in OPEN_PATHS or path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        from anyio.to_thread import run_sync

        user = await run_sync(self._user, scope)
        if user is None:
            await self._refused(scope)(scope, receive, send)
            return
        scope.setdefault("state", {})[_STATE] = user
        await self.app(scope, receive, send)

    def _refused(self, scope: Scope) -> ASGIApp:
        request = Request(scope)
        if wants_json(request) or _bearer(scope) is not None:
            response = error_response(
                "sign in first: send 'Authorization: Bearer TOKEN' with an API token of one "
                "of this server's users",
                None,
                401,
            )
            response.headers["WWW-Authenticate"] = 'Bearer realm="canon"'
            return response
        where = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        lang = request.query_params.get("lang")
        query = f"?next={quote(where, safe='/')}" + (f"&lang={quote(lang)}" if lang else "")
        root: str = scope.get("root_path", "")
        return RedirectResponse(f"{root}/signin{query}", 303)
