"""A submitted form → its values: texts, numbers within bounds, one side (a text, a URL or a
file), the values to fill the form in again.  A value out of bounds is a :class:`FieldError`
naming its field.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from starlette.datastructures import FormData, UploadFile

from ..jobs import Side
from ..running import side_of
from ..service import N_, FieldError

__all__ = ["kept", "number", "side", "text"]


def text(form: FormData, name: str) -> str:
    """The text of the field ``name``; empty when absent or a file."""
    value = form.get(name)
    return value if isinstance(value, str) else ""


def number(form: FormData, name: str, default: float, low: float, high: float) -> float:
    """A number field of a form, within ``[low, high]``; a field error otherwise."""
    raw = text(form, name).strip().replace(",", ".")
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        raise FieldError(
            f"{name}: give a number from {low:g} to {high:g}, not {raw[:20]!r}",
            name,
            key=N_("%(side)s: give a number from %(low)s to %(high)s"),
            params={"low": f"{low:g}", "high": f"{high:g}"},
        )
    return value


async def side(request: Request, form: FormData, field: str) -> Side:
    """The side of a form: an uploaded file, a URL (fetched now) or the pasted text; at most
    one of them."""
    upload = form.get(f"{field}_file")
    has_file = isinstance(upload, UploadFile) and bool(upload.filename)
    url, pasted = text(form, f"{field}_url"), text(form, f"{field}_text")
    if sum((has_file, bool(url.strip()), bool(pasted.strip()))) > 1:
        raise FieldError(
            f"{field}: give a text, a URL or a file, one of them",
            field,
            key=N_("%(side)s: fill in one of text, URL or file, not several"),
        )
    if has_file:
        assert isinstance(upload, UploadFile)
        return Side(field, upload_name=upload.filename or "", upload=await upload.read())
    if not url.strip() and not pasted.strip():
        raise FieldError(
            f"{field}: the text is empty",
            field,
            key=N_("%(side)s is empty: paste a text, give a URL or upload a file"),
        )
    return await side_of(request, field, text=pasted, url=url)


def kept(form: FormData, *names: str) -> dict[str, Any]:
    """The values of a submitted form, to fill it in again."""
    values: dict[str, Any] = {name: text(form, name) for name in names}
    values["profiles"] = [p for p in form.getlist("profiles") if isinstance(p, str)]
    values["skip_quotes"] = bool(form.get("skip_quotes"))
    return values
