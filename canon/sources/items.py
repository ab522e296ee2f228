"""Items of a collection → Documents, the URLs among them fetched ahead, several at once.

``canon index add`` and ``canon dedup`` read items in worker processes; a batch's URLs are
fetched together first (:func:`fetched_ahead`, through the shared keep-alive pool), and each
item, fetched or not, becomes a Document the same way (:func:`item_document`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..errors import InputError
from .collection import Item
from .documents import Document, page_document, read_source
from .extract import extract_html
from .fetch import FetchOptions, Page, is_url

__all__ = ["Fetched", "fetched_ahead", "item_document"]


@dataclass(frozen=True)
class Fetched:
    """A URL item whose page was fetched (``page``), or whose fetch failed (``error``)."""

    source: str
    page: Page | None
    error: str = ""


def _fetches(item: Item) -> bool:
    return item.text is None and item.html is None and is_url(item.source)


def fetched_ahead(items: Iterable[Item], options: FetchOptions) -> Iterator[Item | Fetched]:
    """The items in order, each URL's page fetched ahead (concurrently) when there are
    several."""
    items = list(items)
    urls = [item.source for item in items if _fetches(item)]
    if len(urls) < 2:
        yield from items
        return
    from .fetchall import fetch_all

    pages = dict(fetch_all(urls, options))
    for item in items:
        page = pages.get(item.source) if _fetches(item) else None
        if page is None:
            yield item
        elif isinstance(page, Page):
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
        return Document(item.source, page.text, page.title, page.method, None, page.language)
    return read_source(item.source, whole_page=whole_page, fetch_options=fetch_options)
