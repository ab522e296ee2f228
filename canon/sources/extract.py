"""Bytes → text: legacy Cyrillic encodings, and an HTML page's main text (trafilatura).

Decoding follows the order a browser uses: a byte-order mark, then the charset of the HTTP
header, then a ``<meta>`` charset, then UTF-8, then detection among the Cyrillic legacy
encodings (windows-1251, KOI8-R, cp866, MacCyrillic, ISO-8859-5) by charset_normalizer.  A
declared Latin-1 or ASCII charset is a server default more often than a fact on Russian sites,
so it is not trusted.  This is the only module that imports trafilatura.

A page is measured before any parser sees it (:func:`check_html`, one linear scan): its size,
its elements and attributes, and the attributes of its busiest element.  libxml2 compares
each attribute of an element with every earlier one, so a single ``<p>`` with 150,000
attributes (1.7 MB) kept trafilatura busy for over a minute; such a page is refused in
milliseconds instead.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from itertools import islice

from ..errors import ExtractionError, InputError
from .limits import ReadLimits
from .shown import as_seen

__all__ = ["Extracted", "check_html", "decode", "decode_html", "extract_html", "load_extractor"]

_LEGACY_CYRILLIC = ["cp1251", "koi8_r", "cp866", "mac_cyrillic", "iso8859_5"]
_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_UNTRUSTED = frozenset({"iso-8859-1", "latin-1", "windows-1252", "cp1252", "ascii", "us-ascii"})
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_\-:.]+)""", re.IGNORECASE)
# Markup as a parser meets it: comments and script or style bodies (never tags, however many
# "<" they hold), and start tags up to their ">".  An unclosed comment or body runs to the end
# of the page, as in a browser, so the scan reads every character a bounded number of times.
_MARKUP = re.compile(
    r"<!--(?:.*?-->|.*)"
    r"|(?P<script><script\b[^>]*)>(?:.*?</script\s*>|.*)"
    r"|(?P<style><style\b[^>]*)>(?:.*?</style\s*>|.*)"
    r"|(?P<tag><[A-Za-z][^>]*)",
    re.DOTALL | re.IGNORECASE,
)
_QUOTED = re.compile(r""""[^"]*"|'[^']*'""")
_ATTRIBUTE = re.compile(r"[^\s=/>]+(?:\s*=\s*[^\s>]*)?")  # the tag's name is the first


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


def _visible_text(html: str) -> tuple[str, str | None]:
    """All text a reader sees, and the page's ``<title>``: menus, sidebars and footers included;
    scripts and styles not.  (trafilatura's ``html2txt`` either drops asides and footers or
    keeps script code.)
    """
    import lxml.etree
    import lxml.html
    from lxml_html_clean import Cleaner

    cleaner = Cleaner(
        scripts=True,
        javascript=True,
        style=True,
        comments=True,
        page_structure=False,
        forms=False,
        kill_tags={"head", "noscript", "template"},
    )
    try:
        page = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return "", None
    title = " ".join((page.findtext(".//title") or "").split()) or None
    tree = cleaner.clean_html(page)
    return " ".join(" ".join(tree.itertext()).split()), title


def _too_complex(source: str, what: str) -> ExtractionError:
    return ExtractionError(
        f"{source}: the page is too complex to extract ({what})",
        source=source,
        reason="too-complex",
    )


def check_html(html: str, source: str, limits: ReadLimits | None = None) -> None:
    """Refuse a page past ``limits`` (size, elements, attributes) before it is parsed."""
    limits = limits or ReadLimits()
    if len(html) > limits.max_bytes:
        raise ExtractionError(
            f"{source}: the page has {len(html):,} characters, more than {limits.max_bytes:,}",
            source=source,
            reason="too-large",
        )
    elements = attributes = 0
    for markup in _MARKUP.finditer(html):
        tag = markup.group("tag") or markup.group("script") or markup.group("style")
        if tag is None:
            continue  # a comment
        elements += 1
        if elements > limits.max_elements:
            raise _too_complex(source, f"more than {limits.max_elements:,} elements")
        names = _ATTRIBUTE.finditer(_QUOTED.sub("v", tag))  # a value, read as one word
        own = sum(1 for _ in islice(names, limits.max_element_attributes + 2)) - 1
        if own > limits.max_element_attributes:
            limit = limits.max_element_attributes
            raise _too_complex(source, f"an element with more than {limit:,} attributes")
        attributes += own
        if attributes > limits.max_attributes:
            raise _too_complex(source, f"more than {limits.max_attributes:,} attributes")


CROWDED = 2_000  # elements inside one paragraph above which it is read as plain text
_PARAGRAPH_EDGE = re.compile(r"<p[\s>]|</p\s*>", re.IGNORECASE)


def uncrowded(html: str) -> str:
    """``html`` with each paragraph that holds more than :data:`CROWDED` elements read as
    plain text (its tags removed, a line break kept as a space); ``html`` itself when it has
    none.  trafilatura's paragraph scan (``//p//text()`` in libxml2) takes time that grows with
    the square of the text pieces inside one paragraph: 40,000 ``<span>`` in one ``<p>``
    cost three minutes; a paragraph never needs that many to show its text."""
    if all(piece.count("<") <= CROWDED for piece in _PARAGRAPH_EDGE.split(html)):
        return html  # no stretch between paragraph edges with that many tags: no parse
    import lxml.etree
    import lxml.html

    try:
        parser = lxml.html.HTMLParser(encoding="utf-8")
        root = lxml.html.document_fromstring(html.encode("utf-8"), parser=parser)
    except (ValueError, lxml.etree.ParserError):
        return html
    crowded = [p for p in root.iter("p") if sum(1 for _ in islice(p.iter(), CROWDED + 2)) > CROWDED]

    if not crowded:
        return html
    for paragraph in crowded:
        for line_break in paragraph.iter("br"):
            line_break.tail = " " + (line_break.tail or "")
        lxml.etree.strip_tags(paragraph, "*")
    return str(lxml.html.tostring(root, encoding="unicode"))


def load_extractor() -> None:
    """Import trafilatura now (a process that will extract pages loads it before the first)."""
    import trafilatura  # noqa: F401


def extract_html(
    html: str, source: str, *, whole_page: bool = False, limits: ReadLimits | None = None
) -> Extracted:
    """The main text of a page (trafilatura), or all its visible text with ``whole_page``;
    the page is first checked against ``limits`` (:func:`check_html`)."""
    import trafilatura

    check_html(html, source, limits)
    seen = as_seen(uncrowded(html))
    html = seen.html

    if whole_page:
        text, title = _visible_text(html)
        extracted = Extracted(text, title, None, "whole-page", seen.unseen)
    else:
        # Main text only: a site's menus, sidebars and footers are what make two of its pages
        # look alike, so precision matters most.  favor_precision had the best token F1 on the
        # article-extraction benchmark (benchmarks/extraction.py: 0.965 mean vs 0.959 for the
        # defaults) and kept ads and footers of short pages out.  Tables are part of an
        # article; readers' comments are not the author's text.  trafilatura's own
        # deduplication is off: it keeps a cache across documents, so one page's result would
        # depend on the pages read before it.  Metadata gives the title.
        document = trafilatura.bare_extraction(
            html,
            favor_precision=True,
            include_comments=False,
            include_tables=True,
            deduplicate=False,
            with_metadata=True,
        )
        extracted = Extracted(
            getattr(document, "text", None) or "",
            getattr(document, "title", None),
            getattr(document, "language", None),
            "trafilatura",
            seen.unseen,
        )
    if not extracted.text.strip():
        reason = "no-text" if whole_page else "no-main-text"
        message = f"{source}: no main text found in this HTML page"
        raise ExtractionError(message, source=source, reason=reason)
    return extracted
