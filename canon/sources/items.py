"""Items of a collection → Documents, the URLs among them fetched ahead, several at once.

``canon index add`` and ``canon dedup`` read items in worker processes; the URLs of a block of
consecutive items are fetched together first (:func:`fetched_ahead`, through the shared
keep-alive pool), a block at a time so an input of any length is held a block at most, and
each item, fetched or not, becomes a Document the same way (:func:`item_document`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass

from ..errors import InputError
from ..workers import blocks
from .canonical_link import canonical_link
from .collection import Item
from .documents import Document, page_document, read_source
from .extract import extract_html
from .fetch import FetchOptions, Page, is_url

__all__ = ["FETCH_BLOCK", "Fetched", "fetched_ahead", "item_document"]

FETCH_BLOCK = 128  # consecutive items whose URLs are fetched together


@dataclass(frozen=True)
class Fetched:
    """A URL item whose page was fetched (``page``), or whose fetch failed (``error``)."""

    source: str
    page: Page | None
    error: str = ""


def _fetches(item: Item) -> bool:
    return item.text is None and item.html is None and is_url(item.source)


def fetched_ahead(items: Iterable[Item], options: FetchOptions) -> Iterator[Item | Fetched]:
    """The items in order, the URLs among each block of ``FETCH_BLOCK`` consecutive items
    fetched ahead, concurrently, when it has several: only a block is held, whatever the
    length of ``items``."""
    for block in blocks(items, FETCH_BLOCK):
        yield from _fetched_block(block, options)


def _fetched_block(items: list[Item], options: FetchOptions) -> Iterator[Item | Fetched]:
    urls = [item.source for item in items if _fetches(item)]
    if len(urls) < 2:
        yield from items
        return
    from .fetchall import fetch_all

    with closing(fetch_all(urls, options)) as pages:  # in the order of the URLs
        for item in items:
            if not _fetches(item):
                yield item
                continue
            _, page = next(pages)
            if isinstance(page, Page):
                yield Fetched(item.source, page)
            else:
                yield Fetched(item.source, None, str(page))


def item_document(
    item: Item | Fetched, *, whole_page: bool, fetch_options: FetchOptions | None
) -> Document:
    """The Document of an item: its text, its HTML extracted, its fetched page, or its source
    read (a file, or a URL fetched now)."""
    if isinstance(item, Fetched):
        if item.page is None:
            raise InputError(item.error or f"{item.source}: not fetched", source=item.source)
        return page_document(item.page, whole_page=whole_page)
    if item.text is not None:
        return Document(item.source, item.text, method="text", encoding=None)
    if item.html is not None:
        page = extract_html(item.html, item.source, whole_page=whole_page)
        canonical = canonical_link(item.html, item.source if is_url(item.source) else None)
        return Document(
            item.source,
            page.text,
            page.title,
            page.method,
            None,
            page.language,
            canonical=canonical,
        )
    return read_source(item.source, whole_page=whole_page, fetch_options=fetch_options)
