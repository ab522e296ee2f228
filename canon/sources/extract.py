"""Bytes → text: legacy Cyrillic encodings, and an HTML page's main text or visible text.

Decoding follows the order a browser uses: a byte-order mark, then the charset of the HTTP
header, then a ``<meta>`` charset, then UTF-8, then detection among the Cyrillic legacy
encodings (windows-1251, KOI8-R, cp866, MacCyrillic, ISO-8859-5) by charset_normalizer.  A
declared Latin-1 or ASCII charset is a server default more often than a fact on Russian sites,
so it is not trusted.

A page is measured before any parser sees it (:func:`check_html`, :mod:`.markup`), then parsed
once and read from that tree (:class:`~.htmlpage.HtmlPage`).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from ..errors import ExtractionError, InputError
from .htmlpage import HtmlPage
from .limits import ReadLimits
from .markup import check_html

__all__ = [
    "Extracted",
    "check_html",
    "decode",
    "decode_html",
    "extract_html",
    "load_extractor",
    "main_extracted",
]

_LEGACY_CYRILLIC = ["cp1251", "koi8_r", "cp866", "mac_cyrillic", "iso8859_5"]
_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_UNTRUSTED = frozenset({"iso-8859-1", "latin-1", "windows-1252", "cp1252", "ascii", "us-ascii"})
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_\-:.]+)""", re.IGNORECASE)


def _codec(name: str | None) -> str | None:
    """Python's name for a declared charset, or None when unknown or not to be trusted."""
    if not name:
        return None
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        return None
    return None if name.lower() in _UNTRUSTED or codec in _UNTRUSTED else codec


# A file is binary when its first bytes hold NUL bytes and other control characters (two at
# least, and one for every thousand bytes or more); a text with a stray NUL (a page a tool
# wrote badly) is read without it.
_SNIFFED = 65_536
_ODD_SHARE = 1_000
_CONTROLS = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)])


def decode(data: bytes, source: str, declared: str | None = None) -> tuple[str, str]:
    """``(text, encoding)`` of ``data``; refuses empty and binary data."""
    if not data.strip():
        raise InputError(
            f"{source}: the file is empty; give a file with text in it",
            source=source,
            reason="empty",
        )
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    head = data[:_SNIFFED]
    odd = len(head) - len(head.translate(None, _CONTROLS))  # NUL and other controls
    if odd >= 2 and odd * _ODD_SHARE > len(head):
        raise InputError(
            f"{source}: this looks like a binary file, not text; give a .txt, .md or .html file",
            source=source,
            reason="binary",
        )
    if b"\x00" in data:  # a stray NUL byte in a text: no character, as browsers read it
        data = data.replace(b"\x00", b"")
    codec = _codec(declared)
    if codec:
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            pass  # the declaration is wrong: detect instead
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=_LEGACY_CYRILLIC).best()
    if best is None:
        raise InputError(
            f"{source}: cannot tell the text's encoding (not UTF-8, windows-1251 or KOI8-R); "
            "save it as UTF-8",
            source=source,
            reason="encoding",
        )
    return str(best), best.encoding


def decode_html(data: bytes, source: str, header_charset: str | None = None) -> tuple[str, str]:
    """Decode an HTML page: the header's charset, else its ``<meta>`` charset, else detection."""
    declared = _codec(header_charset)
    if declared is None:
        match = _META_CHARSET.search(data[:4096])
        declared = _codec(match.group(1).decode("ascii", "replace")) if match else None
    return decode(data, source, declared)


@dataclass(frozen=True)
class Extracted:
    text: str
    title: str | None
    language: str | None
    method: str
    unseen: tuple[str, ...] = ()  # the words of the elements no reader sees, left out


def load_extractor() -> None:
    """Import trafilatura now (a process that will extract pages loads it before the first)."""
    import trafilatura  # noqa: F401


def extract_html(
    html: str, source: str, *, whole_page: bool = False, limits: ReadLimits | None = None
) -> Extracted:
    """The main text of a page (trafilatura), or all its visible text with ``whole_page``;
    the page is first checked against ``limits`` (:func:`check_html`) and parsed once
    (:class:`~.htmlpage.HtmlPage`); the main text comes with the title trafilatura's
    metadata gives, the whole page with its ``<title>``."""
    page = HtmlPage(html, source, limits)
    if whole_page:
        text, title = page.visible()
        extracted = Extracted(text, title, None, "whole-page", page.show())
        return _found(extracted, page.source, whole_page=True)
    return main_extracted(page)


def main_extracted(page: HtmlPage, *, titled: bool = True) -> Extracted:
    """The main text of a parsed page (with the title when ``titled``); refused when
    trafilatura finds none."""
    main = page.main(titled=titled)
    extracted = Extracted(main.text, main.title, main.language, "trafilatura", page.show())
    return _found(extracted, page.source, whole_page=False)


def _found(extracted: Extracted, source: str, *, whole_page: bool) -> Extracted:
    """``extracted``, refused when it has no text."""
    if not extracted.text.strip():
        reason = "no-text" if whole_page else "no-main-text"
        message = f"{source}: no main text found in this HTML page"
        raise ExtractionError(message, source=source, reason=reason)
    return extracted
