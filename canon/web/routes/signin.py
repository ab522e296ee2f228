"""Signing in and out, on a server given a users file: ``/signin`` (a form of name and
password; on success the browser's session names the user and it goes on to the page it
asked for) and ``/signout``.  The checks themselves are :mod:`canon.web.signin`."""

from __future__ import annotations

from typing import Any

from anyio.to_thread import run_sync
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..accounts import Accounts
from ..i18n import LOCALES
from ..service import N_, FieldError
from ..signin import Failures, safe_next
from .forms import text
from .render import page

__all__ = ["router"]

router = APIRouter(default_response_class=HTMLResponse)


def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def _failures(request: Request) -> Failures:
    failures: Failures = request.app.state.failures
    return failures


def _with_lang(request: Request, where: str) -> str:
    lang = request.query_params.get("lang")
    if lang not in LOCALES or "lang=" in where:
        return where
    return where + ("&" if "?" in where else "?") + f"lang={lang}"


def _form(request: Request, status: int = 200, **context: Any) -> Response:
    context.setdefault("form", {"name": "", "next": safe_next(request.query_params.get("next"))})
    return page(request, "signin.html", status, **context)


@router.get("/signin")
def signin_page(request: Request) -> Response:
    return _form(request)


@router.post("/signin")
async def signin_submit(request: Request) -> Response:
    form = await request.form()
    name, password = text(form, "name").strip(), text(form, "password")
    where = safe_next(text(form, "next"))
    kept = {"name": name, "next": where}
    address = f"address:{request.client.host if request.client else ''}"
    wait = _failures(request).wait(f"name:{name.casefold()}", address)
    if wait:
        error = _failures(request).refusal(wait)
        response = _form(request, 429, form=kept, error=error)
        response.headers.update(error.headers or {})
        return response
    user = await run_sync(_accounts(request).sign_in, name, password)
    if user is None:
        _failures(request).failed(f"name:{name.casefold()}", address)
        error = FieldError("the name or the password is wrong", "password", 401,
                           key=N_("The name or the password is wrong"))  # fmt: skip
        return _form(request, 401, form=kept, error=error)
    request.session.clear()
    request.session.update({"user": user.name, "gen": user.generation})
    return RedirectResponse(_with_lang(request, where), 303)


@router.post("/signout")
def signout(request: Request) -> Response:
    request.session.clear()
    return RedirectResponse(_with_lang(request, "/signin"), 303)
