"""A source (file path or ``-`` for stdin) → a Document: its main text and where it came from.

Text files are decoded as UTF-8 when they are; otherwise the legacy Cyrillic encodings that
Russian users still have (windows-1251, KOI8-R, cp866, MacCyrillic, ISO-8859-5) are told apart
by charset_normalizer.  HTML goes through trafilatura's main-text extraction.  This is the only
module that reads user files or imports trafilatura.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .errors import InputError

__all__ = ["Document", "decode", "read_source"]

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
_LEGACY_CYRILLIC = ["cp1251", "koi8_r", "cp866", "mac_cyrillic", "iso8859_5"]
_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


@dataclass(frozen=True)
class Document:
    """One text ready to canonicalize, and what was done to get it."""

    source: str
    text: str
    title: str | None = None
    method: str = "text"  # "text", or "trafilatura" for HTML main-text extraction
    encoding: str = "utf-8"
    language: str | None = None

    @property
    def chars(self) -> int:
        return len(self.text)

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "title": self.title,
            "method": self.method,
            "encoding": self.encoding,
            "language": self.language,
            "chars": self.chars,
        }


def decode(data: bytes, source: str) -> tuple[str, str]:
    """``(text, encoding)`` of a file's bytes; refuses empty and binary data."""
    if not data.strip():
        raise InputError(f"{source}: the file is empty; give a file with text in it")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    if b"\x00" in data[:65536]:
        raise InputError(
            f"{source}: this looks like a binary file, not text; give a .txt, .md or .html file"
        )
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=_LEGACY_CYRILLIC).best()
    if best is None:
        raise InputError(
            f"{source}: cannot tell the text's encoding (not UTF-8, windows-1251 or KOI8-R); "
            "save it as UTF-8"
        )
    return str(best), best.encoding


def _looks_like_html(text: str) -> bool:
    head = text.lstrip()[:512].lower()
    return head.startswith(("<!doctype html", "<html")) or "<body" in head


def _from_html(html: str, source: str, encoding: str) -> Document:
    import trafilatura

    # Main text only: menus, sidebars and footers are what make two pages of one site look
    # alike.  Tables hold real content in articles; comments are not the author's text.
    extracted = trafilatura.bare_extraction(
        html, include_comments=False, include_tables=True, with_metadata=True
    )
    text = getattr(extracted, "text", None) or ""
    if not text.strip():
        raise InputError(f"{source}: no main text found in this HTML page")
    return Document(
        source=source,
        text=text,
        title=getattr(extracted, "title", None),
        method="trafilatura",
        encoding=encoding,
        language=getattr(extracted, "language", None),
    )


def _read_bytes(source: str, stdin: BinaryIO | None) -> bytes:
    if source == "-":
        return (stdin or sys.stdin.buffer).read()
    path = Path(source)
    if path.is_dir():
        raise InputError(f"{source}: is a directory; give a file")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{source}: no such file") from None
    except OSError as exc:
        raise InputError(f"{source}: cannot read ({exc.strerror or exc})") from None


def read_source(source: str, *, stdin: BinaryIO | None = None) -> Document:
    """Read a file (``.txt``, ``.md``, ``.html``...) or ``-`` (stdin) into a Document."""
    label = "<stdin>" if source == "-" else source
    text, encoding = decode(_read_bytes(source, stdin), label)
    is_html = Path(source).suffix.lower() in HTML_SUFFIXES or (
        source == "-" and _looks_like_html(text)
    )
    if is_html:
        return _from_html(text, label, encoding)
    return Document(source=label, text=text, encoding=encoding)
