"""Errors → JSON ``{"error": ..., "field": ...}`` with a status; never a traceback."""

from __future__ import annotations

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from .service import FieldError

__all__ = [
    "error_response",
    "field_error_handler",
    "http_error_handler",
    "internal_error_handler",
    "validation_error_handler",
]


def error_response(
    message: str, field: str | None, status: int, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status, headers=headers)


async def field_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """A request the library refused: its message, field and status."""
    assert isinstance(exc, FieldError)
    return error_response(exc.message, exc.field, exc.status, exc.headers)


async def http_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own errors (404, 405, 413 while reading a body) in the same shape."""
    assert isinstance(exc, HTTPException)
    return error_response(str(exc.detail), None, exc.status_code)


async def internal_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Anything unforeseen: a bare 500 that tells nothing of the inside."""
    return error_response("internal server error", None, 500)


async def validation_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """A body that does not fit the schema: the first problem and its field, 422.  Unlike
    FastAPI's own answer, it never echoes the input back."""
    assert isinstance(exc, RequestValidationError)
    problems = exc.errors()
    if not problems:
        return error_response("the request does not fit the API's schema", None, 422)
    first = problems[0]
    path = [str(part) for part in first.get("loc", ()) if part not in ("body", "query")]
    field = path[0] if path and not path[0].isdigit() else None  # a position names no field
    where = ".".join(path) or "the request body"
    message = f"{where}: {first.get('msg', 'invalid value')}"
    return error_response(message[:300], field, 422)
