"""A source → a Document: its text and where it came from.  Everything downstream sees only this.

Sources: ``http(s)://`` URLs (fetched, main text extracted), ``.html``/``.htm`` files (main
text), ``.docx`` files (paragraphs and tables), any other file as text (``.txt``, ``.md``;
UTF-8 or a legacy Cyrillic encoding), and ``-`` for standard input (HTML recognised).
Every source is bounded by :class:`ReadLimits` before it is parsed.
"""

from __future__ import annotations

import gzip
import re
import sys
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from ..errors import ExtractionError, InputError
from ..records import record_dict
from .canonical_link import canonical_link
from .extract import decode, decode_html, extract_html
from .fetch import FetchOptions, fetch, is_url
from .limits import ReadLimits
from .pagecache import Page
from .word import docx_text

__all__ = ["Document", "page_document", "read_source"]

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
_FILE_SUFFIXES = frozenset(
    ".txt .md .html .htm .xhtml .docx .doc .csv .json .jsonl .xml .gz .pdf .rtf .odt".split()
)
# A source that is no file but reads as a site's address without its scheme: example.ru/page
_LIKE_A_HOST = re.compile(r"(?:www\.)?[\w-]+(?:\.[\w-]+)*\.[a-zа-я]{2,}(?:[/?#].*)?$", re.I)


@dataclass(frozen=True)
class Document:
    """One text ready to canonicalize, and what was done to get it.

    ``method`` is ``text``, ``docx``, ``trafilatura`` (an HTML page's main text) or
    ``whole-page`` (all its visible text).  For a URL, ``final_url`` is where redirects ended
    and ``fetched`` the response's date (``cached`` tells whether it came from the cache).
    ``unseen`` holds the words an HTML page or a .docx holds where no reader sees them
    (hidden elements or runs), left out of ``text``.  ``canonical`` is the address an HTML
    page's ``<link rel="canonical">`` names (absolute; a page read from a file has no URL to
    resolve a relative one against).
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
    unseen: tuple[str, ...] = ()
    canonical: str | None = None

    @property
    def chars(self) -> int:
        return len(self.text)

    def to_dict(self) -> dict[str, object]:
        """Everything but the text itself, and its length."""
        return record_dict(self, exclude=["text"], chars=self.chars)


def _looks_like_html(data: bytes) -> bool:
    head = data.lstrip()[:1024].lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<body" in head


def _from_html(
    data: bytes,
    source: str,
    charset: str | None,
    whole_page: bool,
    limits: ReadLimits,
    url: str | None = None,
) -> Document:
    """The page's Document; ``url`` is where it was found (its canonical link is resolved
    against it)."""
    html, encoding = decode_html(data, source, charset)
    page = extract_html(html, source, whole_page=whole_page, limits=limits)
    canonical = canonical_link(html, url)
    return Document(
        source,
        page.text,
        page.title,
        page.method,
        encoding,
        page.language,
        unseen=page.unseen,
        canonical=canonical,
    )


def _from_url(
    url: str, whole_page: bool, options: FetchOptions | None, limits: ReadLimits
) -> Document:
    return page_document(fetch(url, options), whole_page=whole_page, limits=limits)


def page_document(
    page: Page, *, whole_page: bool = False, limits: ReadLimits | None = None
) -> Document:
    """A fetched page → its Document (main text, or all visible text with ``whole_page``),
    so that fetching and extracting may run in different places."""
    limits = limits or ReadLimits()
    url = page.url
    if page.media_type == "text/plain" or (not page.media_type and not _looks_like_html(page.body)):
        text, encoding = decode(page.body, url, page.charset)
        doc = Document(url, text, encoding=encoding)
    else:
        doc = _from_html(page.body, url, page.charset, whole_page, limits, page.final_url or url)
    doc = replace(doc, final_url=page.final_url, fetched=page.date, cached=page.from_cache)
    return _capped(doc, limits.max_text)


def _from_docx(path: Path, source: str, limits: ReadLimits) -> Document:
    read = docx_text(path, source, limits)
    if not read.text.strip():
        raise ExtractionError(
            f"{source}: the document has no text", source=source, reason="no-text"
        )
    return Document(source, read.text, read.title, "docx", None, unseen=read.unseen)


def _too_large(source: str, message: str) -> InputError:
    return InputError(f"{source}: {message}", source=source, reason="too-large")


def _site(source: str) -> bool:
    """Whether a source that is no file reads as a site's address given without its scheme
    (``example.ru/page``; not ``draft.txt``)."""
    suffix = Path(source.split("/", 1)[0]).suffix.lower()
    return _LIKE_A_HOST.match(source) is not None and suffix not in _FILE_SUFFIXES


def _open(source: str) -> BinaryIO:
    path = Path(source)
    if path.is_dir():
        raise InputError(
            f"{source}: is a directory; give a file", source=source, reason="directory"
        )
    try:
        return path.open("rb")
    except FileNotFoundError:
        hint = f"; for a web page give its address: https://{source}" if _site(source) else ""
        raise InputError(f"{source}: no such file{hint}", source=source, reason="missing") from None
    except OSError as exc:
        raise InputError(
            f"{source}: cannot read ({exc.strerror or exc})", source=source, reason="unreadable"
        ) from None


def _read_bytes(source: str, stdin: BinaryIO | None, limit: int) -> bytes:
    """The bytes of a file or of stdin, refused past ``limit`` (never more is read)."""
    label = "<stdin>" if source == "-" else source
    stream = (stdin or sys.stdin.buffer) if source == "-" else _open(source)
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise InputError(
            f"{label}: cannot read ({exc.strerror or exc})", source=label, reason="unreadable"
        ) from None
    finally:
        if source != "-":
            stream.close()
    if len(data) > limit:
        raise _too_large(label, f"more than {limit:,} bytes, the limit (max_bytes)")
    return data


def _gunzipped(source: str, limit: int) -> bytes:
    """The bytes inside a gzip file, refused past ``limit`` (never more is unpacked)."""
    _open(source).close()  # the same errors as any file: missing, directory...
    try:
        with gzip.open(source, "rb") as stream:
            data = stream.read(limit + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{source}: not a readable gzip file ({exc})", source=source,
                         reason="unreadable") from None  # fmt: skip
    if len(data) > limit:
        raise _too_large(source, f"unpacks to more than {limit:,} bytes, the limit (max_bytes)")
    return data


def _capped(doc: Document, limit: int) -> Document:
    if doc.chars > limit:
        raise _too_large(
            doc.source, f"the text has {doc.chars:,} characters, more than {limit:,} (max_text)"
        )
    return doc


def read_source(
    source: str,
    *,
    whole_page: bool = False,
    fetch_options: FetchOptions | None = None,
    stdin: BinaryIO | None = None,
    limits: ReadLimits | None = None,
) -> Document:
    """Read a URL, a file or ``-`` (stdin) into a Document; a ``.gz`` file is read as the
    file inside (``page.html.gz`` as HTML), unpacked up to ``limits.max_bytes``.

    ``whole_page`` takes all visible text of an HTML page instead of its main text, to show
    how much a site's template adds.  ``limits`` bound what one source may hold (the defaults
    of :class:`ReadLimits`); a URL's body is bounded by ``fetch_options.max_bytes`` too.
    """
    limits = limits or ReadLimits()
    if is_url(source):
        return _capped(_from_url(source, whole_page, fetch_options, limits), limits.max_text)
    suffix = Path(source).suffix.lower()
    if suffix == ".docx" and source != "-":
        _open(source).close()  # the same errors as any file: missing, directory...
        return _capped(_from_docx(Path(source), source, limits), limits.max_text)
    label = "<stdin>" if source == "-" else source
    if suffix == ".gz" and source != "-":  # page.html.gz: the file inside, by its own suffix
        data = _gunzipped(source, limits.max_bytes)
        suffix = Path(source).with_suffix("").suffix.lower()
    else:
        data = _read_bytes(source, stdin, limits.max_bytes)
    if suffix in HTML_SUFFIXES or (source == "-" and _looks_like_html(data)):
        return _capped(_from_html(data, label, None, whole_page, limits), limits.max_text)
    text, encoding = decode(data, label)
    return _capped(Document(label, text, encoding=encoding), limits.max_text)
