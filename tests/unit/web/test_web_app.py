"""The app's assembly: module-level routers, one frozen ServerSettings per app in app.state."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from webclient import PageClient

import canon
from canon.web import ServerSettings, create_app
from canon.web.routes import api, pages


def _paths(router) -> set[tuple[str, str]]:
    return {
        (method, route.path)
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods
    }


def test_routes_live_in_module_level_routers() -> None:
    assert _paths(api.router) == {
        ("GET", "/healthz"),
        ("POST", "/api/compare"),
        ("POST", "/api/check"),
        ("POST", "/api/stats"),
        ("GET", "/api/index/stats"),
    }
    assert _paths(pages.router) == {("GET", "/"), ("POST", "/")}
    assert _paths(pages.index_router) | _paths(pages.check_router) == {
        ("GET", "/check"),
        ("POST", "/check"),
        ("GET", "/index"),
    }
    assert _paths(pages.check_router) == {("GET", "/check")}  # also on a web-only server


def test_settings_are_one_frozen_record_in_app_state(tmp_path: Path, examples: Path) -> None:
    db = tmp_path / "c.db"
    with canon.Index(db, create=True) as index:
        canon.add_sources(
            index, [str(examples / "original.txt")], canon.IndexRules([canon.get_profile("raw")])
        )
    app = create_app(str(db), allow_private=True, max_body=5000, max_text=300)
    assert app.state.settings == ServerSettings(
        index=db, allow_private=True, allow_index_writes=False, max_body=5000, max_text=300
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        app.state.settings.max_text = 1  # type: ignore[misc]
    assert create_app().state.settings == ServerSettings()


def test_two_apps_in_one_process_keep_their_own_settings() -> None:
    strict, loose = PageClient(create_app(max_text=50)), PageClient(create_app())
    body = {"first": "кошка ловила мышей " * 5, "second": "кошка ловила мышей"}
    assert strict.post("/api/compare", json=body).status_code == 413
    assert loose.post("/api/compare", json=body).status_code == 200
    form = {"first_text": body["first"], "second_text": body["second"]}
    assert strict.post("/", data=form).status_code == 413
    assert loose.post("/", data=form).status_code == 200


def test_pages_of_the_index_exist_only_with_an_index() -> None:
    client = PageClient(create_app())
    for path in ("/check", "/index"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert answer.json() == {"error": "Not Found", "field": None}
    assert 'href="/check"' not in client.get("/").text
