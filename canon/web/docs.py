"""The API documentation page, served with its own Swagger UI assets: no CDN, works offline.

FastAPI's built-in ``/docs`` loads Swagger UI from a CDN (a floating version, no integrity
check) and starts it with an inline script; this page loads the assets that the
``swagger-ui-bundle`` package ships, and a start script from the app's static files, so it
works without the internet and under a policy that forbids inline scripts.

The Swagger UI that package ships (4.x) reads OpenAPI 3.0 documents only, and FastAPI writes
3.1: the page reads ``/docs/openapi.json``, the app's own schema labelled 3.0.3 (the schema
uses nothing 3.0's readers cannot draw); ``/openapi.json`` stays as FastAPI writes it.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["install_docs"]

ASSETS = "/docs-assets"
SCHEMA = "/docs/openapi.json"


def _page(title: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title>"
        f'<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">'
        '<link rel="stylesheet" href="/static/docs.css"></head>'
        f'<body><main><h1 class="visually-hidden">{escape(title)}</h1>'
        f'<div id="swagger-ui" data-openapi="{SCHEMA}"></div></main>'
        f'<script src="{ASSETS}/swagger-ui-bundle.js"></script>'
        '<script src="/static/docs.js"></script></body></html>'
    )


def install_docs(app: FastAPI) -> None:
    """``/docs`` and its assets; the app must be made with ``docs_url=None``."""
    import swagger_ui_bundle

    app.mount(ASSETS, StaticFiles(directory=str(swagger_ui_bundle.swagger_ui_path)), name="docs")
    router = APIRouter()

    @router.get(
        "/docs", include_in_schema=False, response_class=HTMLResponse, name="swagger_ui_html"
    )
    def docs() -> HTMLResponse:
        return HTMLResponse(_page(f"{app.title}: API"))

    @router.get(SCHEMA, include_in_schema=False)
    def schema() -> JSONResponse:
        return JSONResponse({**app.openapi(), "openapi": "3.0.3"})

    app.include_router(router)
