"""The FastAPI app: a JSON API and server-rendered pages over the library.

``create_app(index)`` serves ``/api/compare``, ``/api/check``, ``/api/check/jobs`` (checks
against the web, as jobs), ``/api/index/stats``, ``/healthz`` and the pages ``/`` (compare),
``/check`` (with ``/check/web/<id>``, a check against the web as it goes), ``/index``, and with a
folder of watches ``/watch`` (:mod:`canon.web.routes.watch`), in
Russian unless a request asks for English (``?lang=en`` or ``Accept-Language``).  Which pages
exist is decided when the app is created: ``/index`` and the check against the index with an
index; ``/check`` with an index or, without one, when a search provider is configured (then
the page checks against the web only); neither without both.  User text
is escaped everywhere (Jinja2 autoescape); the index is opened read-only unless
``allow_index_writes``; URLs that resolve to private or loopback addresses are refused unless
``allow_private``.  Requests are refused before any work when their ``Host`` is not one the
server answers to (400), when a browser says they come from another site, or when a form lacks
its page's token (403, :mod:`canon.web.crosssite`); on a server given a users file, when no
user has signed in (:mod:`canon.web.signin`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from .._version import __version__
from ..errors import OptionError
from ..index.store import Index
from .accounts import Accounts
from .audits import stop_audits
from .crosssite import (
    CrossSite,
    CrossSiteRefused,
    FormTokens,
    cross_site_handler,
    require_form_token,
)
from .docs import install_docs
from .handlers import (
    field_error_handler,
    http_error_handler,
    internal_error_handler,
    validation_error_handler,
)
from .hosts import KnownHosts
from .i18n import load_catalogs
from .middleware import BodyLimit, RetryAfter
from .routes import api, audit, pages, signin, watch, webcheck
from .running import pool_of
from .secret import derived_key, server_secret
from .security import SecurityHeaders
from .service import FieldError, configured_providers
from .settings import ServerSettings
from .signin import Failures, Sessions, SignIn
from .webjobs import WebJobs

__all__ = ["create_app", "has_check_page"]

STATIC = Path(__file__).parent / "static"


def _workers_for(settings: ServerSettings, web_jobs: WebJobs) -> Any:
    """Start the worker pool with the server (so the first request finds it warm) and stop it
    with the server, with the web checks and the audits still running."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = pool_of(settings)
        pool.start()
        if configured_providers():  # checks against the web may come: their worker too
            web_jobs.pool.start()
        yield
        pool.close()
        web_jobs.close()
        stop_audits()

    return lifespan


def has_check_page(settings: ServerSettings) -> bool:
    """Whether the server offers ``/check``: with an index (checked against it, and the web
    when a provider is configured), or with a configured search provider alone (the web
    only).  Asked once, when the app is created: a provider configured later needs a
    restart, as the check page itself says."""
    return settings.index is not None or bool(configured_providers())


def create_app(index: Path | None = None, **options: Any) -> FastAPI:
    """The web app; ``index`` (an index file) enables checking a draft against it.

    ``options`` are the other fields of :class:`~canon.web.settings.ServerSettings`
    (``allow_private``, ``max_body``, ``workers``, ``deadline``…), kept in
    ``app.state.settings`` for the routes."""
    settings = ServerSettings(index=Path(index) if index is not None else None, **options)
    accounts = Accounts(settings.users) if settings.users is not None else None
    load_catalogs()  # a broken catalog stops the server here, not on a page
    if settings.index is not None:
        with Index(settings.index, readonly=True) as opened:  # IndexFileError at start
            opened.stats()
    app = FastAPI(
        title="canon",
        version=__version__,
        description=__doc__ or "",
        docs_url=None,
        redoc_url=None,
        lifespan=_workers_for(settings, web_jobs := WebJobs(settings, accounts)),
        dependencies=[Depends(require_form_token)],
    )
    app.state.settings = settings
    app.state.web_jobs = web_jobs
    app.state.accounts = accounts
    app.state.failures = Failures()
    secret = server_secret(settings.secret_file)
    # Outermost last: the Host first, then other sites, then who asks, then the body's size
    # and time.
    app.add_middleware(BodyLimit, max_body=settings.max_body, body_timeout=settings.body_timeout)
    if accounts is not None:
        app.add_middleware(SignIn, accounts=accounts)
        app.add_middleware(
            Sessions,
            secret_key=derived_key(secret, "session"),
            max_age=round(settings.session_hours * 3600),
        )
    app.add_middleware(CrossSite, tokens=FormTokens(secret))
    app.add_middleware(KnownHosts, names=settings.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RetryAfter)
    app.add_exception_handler(CrossSiteRefused, cross_site_handler)
    app.add_exception_handler(FieldError, field_error_handler)
    app.add_exception_handler(RequestValidationError, validation_error_handler)
    app.add_exception_handler(HTTPException, http_error_handler)
    app.add_exception_handler(Exception, internal_error_handler)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    install_docs(app)
    app.include_router(api.router)
    app.include_router(webcheck.api_router)
    app.include_router(pages.router)
    if accounts is not None:
        app.include_router(signin.router)
    app.state.check_page = has_check_page(settings)
    if app.state.check_page:
        app.include_router(pages.check_router)
        app.include_router(webcheck.page_router)
    if settings.index is not None:
        app.include_router(pages.index_router)
    if settings.audits is not None:
        Path(settings.audits).mkdir(parents=True, exist_ok=True)
        app.include_router(audit.router)
    if settings.watches is not None:
        if not Path(settings.watches).is_dir():
            raise OptionError("watches", "must be a folder of watches, or one watch")
        app.include_router(watch.router)
    return app
