"""A fetched page → its row and its document, in a worker process.

The HTML is decoded and read (:func:`canon.sources.crawl.page.page_facts`: head, links, main
and whole-page text), the main text canonicalized once per profile of the audit's index and
shingled, and the canonical word sequence hashed, so that two pages with the same main text
after canonicalization are found equal without comparing texts.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..canonical import canonicalize
from ..errors import CanonError, TextTooShort
from ..index.prepare import shingle_profiles
from ..index.schema import pack_text
from ..index.writes import Prepared
from ..profile import Profile
from ..sources.crawl.page import ContentArea, PageFacts, page_facts
from ..sources.extract import decode_html
from ..sources.limits import ReadLimits
from .indexability import noindex

__all__ = ["Read", "Reading", "one_line", "read_page", "words_of"]


@dataclass(frozen=True)
class Reading:
    """How pages are read: the content area, the index's profiles (the first counts words)
    and k."""

    area: ContentArea
    profiles: tuple[Profile, ...]
    k: int


@dataclass(frozen=True)
class Read:
    facts: PageFacts
    main_words: int
    page_words: int
    canonical_hash: str | None
    document: Prepared | None  # None when the main text is shorter than k words
    failed: bool = False  # reading the page raised: ``facts.error`` says what


def words_of(text: str, profile: Profile) -> int:
    return len(canonicalize(text, profile)) if text else 0


def _digest(tokens: tuple[str, ...]) -> str:
    return hashlib.sha256("\x1f".join(tokens).encode("utf-8")).hexdigest()[:32]


def _document(url: str, facts: PageFacts, reading: Reading) -> tuple[Prepared | None, str | None]:
    text = facts.main_text
    if not text:
        return None, None
    try:
        done = shingle_profiles(text, reading.profiles, reading.k, url)
    except TextTooShort:  # no document, but its words still make exact duplicates
        return None, _digest(tuple(canonicalize(text, reading.profiles[0]).tokens))
    content = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
    doc = Prepared(
        url, facts.title, "trafilatura", len(text), content, url, done.shingles,
        sentences=done.sentences, text=pack_text(text),
    )  # fmt: skip
    return doc, _digest(done.tokens)


def read_page(body: bytes, charset: str | None, url: str, reading: Reading) -> Read:
    """Read the page ``url`` answered with ``body``; an unreadable page gives empty facts,
    and a page that makes reading fail in any other way gives empty facts saying how (the
    failure is that page's: the crawl goes on)."""
    try:
        return _read(body, charset, url, reading)
    except Exception as exc:
        error = f"reading the page failed: {one_line(exc)}"
        facts = PageFacts(None, None, None, None, "", (), "", "", error)
        return Read(facts, 0, 0, canonical_hash=None, document=None, failed=True)


def one_line(exc: BaseException) -> str:
    """An exception as one line: its type and its message, newlines folded."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _read(body: bytes, charset: str | None, url: str, reading: Reading) -> Read:
    try:
        html, _ = decode_html(body, url, charset)
        facts = page_facts(html, url, reading.area, ReadLimits())
    except CanonError as exc:
        facts = PageFacts(None, None, None, None, "", (), "", "", str(exc))
    first = reading.profiles[0]
    document, digest = _document(url, facts, reading)
    return Read(
        facts, words_of(facts.main_text, first), words_of(facts.page_text, first), digest, document
    )


def read_fields(url: str, x_robots: str, read: Read) -> dict[str, Any]:
    """The columns of a page's row that reading it gives: ``reason`` is what reading found
    first, ``error`` (reading failed), ``noindex``, ``canonicalized`` (to another URL),
    ``no-text`` or ``""``; whether the page is indexable is worked out from the row
    (:func:`~.indexability.indexability`: a page without text is indexable)."""
    facts = read.facts
    reason = ""
    if read.failed:
        reason = "error"
    elif noindex(facts.robots) or noindex(x_robots):
        reason = "noindex"
    elif facts.canonical and facts.canonical != url:
        reason = "canonicalized"
    elif read.document is None and not facts.main_text:
        reason = "no-text"
    return {
        "canonical": facts.canonical,
        "meta_robots": facts.robots,
        "title": facts.title,
        "h1": facts.h1,
        "description": facts.description,
        "main_words": read.main_words,
        "page_words": read.page_words,
        "reason": reason,
        "canonical_hash": read.canonical_hash,
        "error": facts.error,
    }
