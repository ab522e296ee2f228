"""Sources in, library results out: what the API and the pages share.  No logic of its own."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..comparison import Comparison, Table, compare_table
from ..errors import CanonError, IndexFileError, InputError, ProfileError, TextTooShort
from ..index.store import Index, IndexStats
from ..sources.documents import Document, read_source
from ..sources.fetch import FetchOptions, is_url
from ..uniqueness import CheckResult, check

__all__ = [
    "UPLOAD_SUFFIXES",
    "FieldError",
    "check_draft",
    "compare_docs",
    "index_stats",
    "read_text",
    "read_upload",
]

UPLOAD_SUFFIXES = (".txt", ".html", ".htm", ".docx")


class FieldError(Exception):
    """A request the library refused, with the field it came from and an HTTP status."""

    def __init__(self, message: str, field: str | None, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


def _capped(doc: Document, field: str, max_text: int) -> Document:
    if doc.chars > max_text:
        raise FieldError(
            f"{field}: the text has {doc.chars:,} characters, more than the limit {max_text:,}",
            field,
            413,
        )
    return doc


def read_text(value: str, field: str, *, allow_private: bool, max_text: int) -> Document:
    """A pasted text, or the main text of an http(s) URL, as a Document."""
    if not is_url(value.strip()):
        return _capped(Document(field, value), field, max_text)
    try:
        doc = read_source(value.strip(), fetch_options=FetchOptions(allow_private=allow_private))
    except CanonError as exc:
        raise FieldError(str(exc), field) from exc
    return _capped(doc, field, max_text)


def read_upload(name: str, data: bytes, field: str, *, max_text: int) -> Document:
    """An uploaded .txt/.html/.docx file, read by ``read_source`` from a temporary file."""
    suffix = Path(name).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise FieldError(f"{field}: upload a {', '.join(UPLOAD_SUFFIXES)} file, not {name}", field)
    with tempfile.TemporaryDirectory(prefix="canon-web-") as folder:
        path = Path(folder) / f"upload{suffix}"
        path.write_bytes(data)
        try:
            doc = read_source(str(path))
        except CanonError as exc:
            raise FieldError(str(exc).replace(str(path), name), field) from exc
    return _capped(dataclasses.replace(doc, source=name), field, max_text)


def compare_docs(
    first: Document, second: Document, ks: Sequence[int], profiles: Sequence[str]
) -> Table:
    """``compare_table`` of two documents; an error names the field it belongs to."""
    try:
        table = compare_table(first.text, second.text, ks, profiles, labels=("first", "second"))
    except ProfileError as exc:
        raise FieldError(str(exc), "profiles") from exc
    except CanonError as exc:
        raise FieldError(str(exc), None) from exc
    cells = list(table.cells.values())
    if not any(isinstance(c, Comparison) for c in cells):
        short = cells[0]
        field = "first" if short.first_words < short.k else "second"
        raise FieldError(short.message, field)  # type: ignore[union-attr]
    return table


def check_draft(
    index: Path,
    draft: Document,
    *,
    writable: bool = False,
    exclude: Sequence[str] = (),
    skip_quotes: bool = False,
    top: int = 10,
    similar: float | None = None,
) -> CheckResult:
    """``check`` of a draft against the index, opened read-only unless ``writable``."""
    try:
        with Index(index, readonly=not writable) as opened:
            return check(
                draft.text,
                opened,
                exclude=exclude,
                skip_quotes=skip_quotes,
                top=top,
                similar=similar,
            )
    except ProfileError as exc:
        raise FieldError(str(exc), "similar") from exc
    except IndexFileError as exc:
        raise FieldError(str(exc), None, 500) from exc
    except TextTooShort as exc:
        raise FieldError(str(exc), "draft") from exc
    except InputError as exc:  # the only other input check reads: a bad --exclude pattern
        raise FieldError(str(exc).removeprefix("--"), "exclude") from exc


def index_stats(index: Path) -> IndexStats:
    """The index's statistics (opened read-only)."""
    try:
        with Index(index, readonly=True) as opened:
            return opened.stats()
    except CanonError as exc:
        raise FieldError(str(exc), None, 500) from exc
