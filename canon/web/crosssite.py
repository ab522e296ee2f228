"""Requests from other sites → refused: no page elsewhere can make a browser post to this server.

Two checks, both before any work starts:

- every request that may change something (``POST``, ``PUT``, ``PATCH``, ``DELETE``), to a page
  or to the JSON API, is refused when its ``Sec-Fetch-Site`` is ``cross-site`` or its
  ``Origin`` is present and not this server's own (the host and port of its ``Host``, which
  :class:`~canon.web.hosts.KnownHosts` has checked).  A client
  that is no browser sends neither header, and the API serves it as before;
- a form posted to a page must carry the token its page gave (a hidden field, ``csrf_token``)
  and the same token in a cookie, signed with the server's secret (:mod:`.secret`): a double
  submit that another site can neither read nor forge.

A refusal is 403: a page in the request's language with its reason and a way back, or JSON
``{"error", "field"}`` for the API and for clients that ask for JSON.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import Response
from itsdangerous import Signer
from starlette.routing import NoMatchFound
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .handlers import error_response
from .i18n import LOCALES, error_text, locale_of, translations
from .service import N_, FieldError

__all__ = [
    "COOKIE",
    "FIELD",
    "CrossSite",
    "CrossSiteRefused",
    "FormTokens",
    "cross_site_handler",
    "foreign",
    "form_token",
    "refusal",
    "require_form_token",
    "wants_json",
]

COOKIE = "canon_form"
FIELD = "csrf_token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_STATE = "canon_form_token"
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Where each form is posted → the name of the page that shows it.
_FORM_PAGES = {"/": "compare_page", "/check": "check_page", "/check/web": "check_page",
               "/audit": "audit_list", "/signin": "signin_page"}  # fmt: skip


class CrossSiteRefused(FieldError):
    """A request refused as coming from another site, or a form without its page's token."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message, None, 403, key=key)


def _foreign_site() -> CrossSiteRefused:
    return CrossSiteRefused(
        "the request came from another site; this server takes requests from its own pages "
        "and from clients that are not browsers",
        N_("The form came from another site: this server takes forms from its own pages only"),
    )


def _no_token() -> CrossSiteRefused:
    return CrossSiteRefused(
        "the form lacks the token of this server's page, or it has expired: open the page "
        "again and submit it from there",
        N_("The form is out of date or did not come from this server's page: open the page "
           "again and submit it from there"),
    )  # fmt: skip


class FormTokens:
    """Makes and verifies the form tokens: a random value signed with the server's secret."""

    def __init__(self, secret: bytes) -> None:
        self._signer = Signer(secret, salt="canon.web.form-token")

    def __repr__(self) -> str:
        return "FormTokens(...)"  # the secret stays out of every log

    def new(self) -> str:
        return self._signer.sign(secrets.token_urlsafe(18)).decode()

    def valid(self, token: str | None) -> bool:
        return bool(token) and self._signer.validate(str(token))


class _ClientToken:
    """One request's token: the browser's own (its cookie), or a new one made when a page
    needs it, which the response then sets as the cookie."""

    def __init__(self, tokens: FormTokens, cookie: str | None) -> None:
        self._tokens = tokens
        self.cookie = cookie if tokens.valid(cookie) else None
        self.issued: str | None = None

    def value(self) -> str:
        if self.cookie is None and self.issued is None:
            self.issued = self._tokens.new()
        return self.cookie or self.issued or ""


def _host_port(netloc: str, default: int) -> tuple[str, int] | None:
    try:
        parts = urlsplit(f"//{netloc}")
        return (parts.hostname or "", parts.port or default) if parts.hostname else None
    except ValueError:  # a port that is no number
        return None


def _own_origin(origin: str, host: str | None) -> bool:
    """Whether ``origin`` names the host and port of the ``Host`` header."""
    scheme, _, netloc = origin.partition("://")
    if scheme not in _DEFAULT_PORTS or host is None or "/" in netloc:
        return False
    theirs = _host_port(netloc, _DEFAULT_PORTS[scheme])
    return theirs is not None and theirs == _host_port(host, _DEFAULT_PORTS[scheme])


def foreign(request: Request) -> bool:
    """Whether a browser says ``request`` comes from another site."""
    if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
        return True
    origin = request.headers.get("origin")
    return origin is not None and not _own_origin(origin, request.headers.get("host"))


def wants_json(request: Request) -> bool:
    """The API, and clients that ask for JSON rather than a page."""
    accept = request.headers.get("accept", "")
    return request.url.path.startswith("/api/") or (
        "application/json" in accept and "text/html" not in accept
    )


def _way_back(request: Request) -> str:
    """The page the form was on (the compare page for any other path)."""
    try:
        path = str(request.app.url_path_for(_FORM_PAGES.get(request.url.path, "compare_page")))
    except NoMatchFound:  # a server without that page
        path = "/"
    lang = request.query_params.get("lang")
    return path + (f"?lang={lang}" if lang in LOCALES else "")


def refusal(request: Request, error: CrossSiteRefused) -> Response:
    """The 403: JSON for the API, else a page with the reason and a link back."""
    if wants_json(request):
        return error_response(error.message, None, 403)
    from .routes.render import page  # the pages draw with the app's templates

    reason = error_text(error, translations(locale_of(request)))
    return page(request, "refused.html", 403, reason=reason, back=_way_back(request))


async def cross_site_handler(request: Request, exc: Exception) -> Response:
    """A :class:`CrossSiteRefused` a route's dependency raised."""
    assert isinstance(exc, CrossSiteRefused)
    return refusal(request, exc)


def form_token(request: Request) -> str:
    """The token for the forms of the page drawn for ``request``."""
    client: _ClientToken = request.scope["state"][_STATE]
    return client.value()


async def require_form_token(request: Request) -> None:
    """A route's guard: a form posted to a page carries the token of its browser's cookie."""
    if request.method not in UNSAFE or request.url.path.startswith("/api/"):
        return
    client: _ClientToken = request.scope["state"][_STATE]
    given = (await request.form()).get(FIELD)
    if (
        client.cookie is None
        or not isinstance(given, str)
        or not hmac.compare_digest(given.encode(), client.cookie.encode())
    ):
        raise _no_token()


class CrossSite:
    """Refuses cross-site requests before they reach a route; keeps each browser's token in
    its cookie (``HttpOnly``, ``SameSite=Strict``; ``Secure`` over HTTPS)."""

    def __init__(self, app: ASGIApp, tokens: FormTokens) -> None:
        self.app = app
        self.tokens = tokens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        client = _ClientToken(self.tokens, request.cookies.get(COOKIE))
        scope.setdefault("state", {})[_STATE] = client
        if request.method in UNSAFE and foreign(request):
            await refusal(request, _foreign_site())(scope, receive, send)
            return
        secure = "; Secure" if scope.get("scheme") == "https" else ""

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and client.issued:
                cookie = f"{COOKIE}={client.issued}; Path=/; HttpOnly; SameSite=Strict{secure}"
                headers = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_cookie)
