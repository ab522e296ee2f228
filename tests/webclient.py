"""The web app as a browser uses it, for the tests: FastAPI's TestClient on 127.0.0.1 (a Host
the server answers to) that posts each page's form with the token its page gave, as the forms
do; and the same for a real server over httpx."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient

__all__ = ["BASE", "FIELD", "PageClient", "form_post", "token_of"]

BASE = "http://127.0.0.1"
FIELD = "csrf_token"
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def token_of(html: str) -> str:
    """The form token a page's forms carry."""
    found = _TOKEN.search(html)
    assert found, "the page has no form token"
    return found.group(1)


def _with_token(data: Any, token: str) -> Any:
    if data is None or isinstance(data, dict):
        return {FIELD: token, **(data or {})}
    return [(FIELD, token), *data]


class PageClient(TestClient):
    """A TestClient whose form posts to pages carry the token of the compare page, fetched
    once (its cookie is kept by the client); ``token=False`` posts without it.  The JSON API
    and posts that give their own ``csrf_token`` go as they are."""

    def __init__(self, app: Any, **options: Any) -> None:
        options.setdefault("base_url", BASE)
        super().__init__(app, **options)
        self._token: str | None = None

    def form_token(self) -> str:
        if self._token is None or "canon_form" not in self.cookies:
            self._token = token_of(self.get("/").text)
        return self._token

    def post(self, url: Any, *args: Any, token: bool = True, **options: Any) -> Any:
        path = str(url)
        form = options.get("data")
        page = token and not path.startswith("/api/") and "json" not in options
        if page and not (isinstance(form, dict) and FIELD in form):
            options["data"] = _with_token(form, self.form_token())
        return super().post(url, *args, **options)


def form_post(url: str, **options: Any) -> httpx.Response:
    """A form posted to a real server's page (``url``) as a browser would: with the token of
    the server's compare page, and its cookie (one client, so the cookie goes along)."""
    timeout = options.pop("timeout", 60)
    with httpx.Client(timeout=timeout) as client:
        token = token_of(client.get(httpx.URL(url).join("/")).text)
        options["data"] = _with_token(options.get("data"), token)
        return client.post(url, **options)
