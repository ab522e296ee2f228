"""A source → a Document: its text and where it came from.  Everything downstream sees only this.

Sources: ``http(s)://`` URLs (fetched, main text extracted), ``.html``/``.htm`` files (main
text), ``.docx`` files (paragraphs and tables), any other file as text (``.txt``, ``.md``;
UTF-8 or a legacy Cyrillic encoding), and ``-`` for standard input (HTML recognised).
"""

from __future__ import annotations

import sys
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from ..errors import ExtractionError, InputError
from ..records import record_dict
from .extract import decode, decode_html, extract_html
from .fetch import FetchOptions, fetch, is_url

__all__ = ["Document", "read_source"]

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})


@dataclass(frozen=True)
class Document:
    """One text ready to canonicalize, and what was done to get it.

    ``method`` is ``text``, ``docx``, ``trafilatura`` (an HTML page's main text) or
    ``whole-page`` (all its visible text).  For a URL, ``final_url`` is where redirects ended
    and ``fetched`` the response's date (``cached`` tells whether it came from the cache).
    """

    source: str
    text: str
    title: str | None = None
    method: str = "text"
    encoding: str | None = "utf-8"
    language: str | None = None
    final_url: str | None = None
    fetched: str | None = None
    cached: bool = False

    @property
    def chars(self) -> int:
        return len(self.text)

    def to_dict(self) -> dict[str, object]:
        """Everything but the text itself, and its length."""
        return record_dict(self, exclude=["text"], chars=self.chars)


def _looks_like_html(data: bytes) -> bool:
    head = data.lstrip()[:1024].lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<body" in head


def _from_html(data: bytes, source: str, charset: str | None, whole_page: bool) -> Document:
    html, encoding = decode_html(data, source, charset)
    page = extract_html(html, source, whole_page=whole_page)
    return Document(source, page.text, page.title, page.method, encoding, page.language)


def _from_url(url: str, whole_page: bool, options: FetchOptions | None) -> Document:
    page = fetch(url, options)
    if page.media_type == "text/plain" or (not page.media_type and not _looks_like_html(page.body)):
        text, encoding = decode(page.body, url, page.charset)
        doc = Document(url, text, encoding=encoding)
    else:
        doc = _from_html(page.body, url, page.charset, whole_page)
    return replace(doc, final_url=page.final_url, fetched=page.date, cached=page.from_cache)


def _from_docx(path: Path, source: str) -> Document:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ExtractionError(
            f"{source}: not a valid .docx file (not a Word zip archive)",
            source=source,
            reason="not-docx",
        ) from exc
    paragraphs = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            paragraphs.extend(cell.text for cell in row.cells)
    text = "\n".join(p for p in paragraphs if p.strip())
    if not text.strip():
        raise ExtractionError(
            f"{source}: the document has no text", source=source, reason="no-text"
        )
    title = document.core_properties.title or None
    return Document(source, text, title, "docx", None)


def _read_bytes(source: str, stdin: BinaryIO | None) -> bytes:
    if source == "-":
        return (stdin or sys.stdin.buffer).read()
    path = Path(source)
    if path.is_dir():
        raise InputError(
            f"{source}: is a directory; give a file", source=source, reason="directory"
        )
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{source}: no such file", source=source, reason="missing") from None
    except OSError as exc:
        raise InputError(
            f"{source}: cannot read ({exc.strerror or exc})", source=source, reason="unreadable"
        ) from None


def read_source(
    source: str,
    *,
    whole_page: bool = False,
    fetch_options: FetchOptions | None = None,
    stdin: BinaryIO | None = None,
) -> Document:
    """Read a URL, a file or ``-`` (stdin) into a Document.

    ``whole_page`` takes all visible text of an HTML page instead of its main text, to show
    how much a site's template adds.
    """
    if is_url(source):
        return _from_url(source, whole_page, fetch_options)
    suffix = Path(source).suffix.lower()
    if suffix == ".docx" and source != "-":
        _read_bytes(source, stdin)  # the same errors as any file: missing, directory...
        return _from_docx(Path(source), source)
    label = "<stdin>" if source == "-" else source
    data = _read_bytes(source, stdin)
    if suffix in HTML_SUFFIXES or (source == "-" and _looks_like_html(data)):
        return _from_html(data, label, None, whole_page)
    text, encoding = decode(data, label)
    return Document(label, text, encoding=encoding)
