"""Where each document of a run came from, as far as choosing a cluster's document to keep
needs it: the SOURCE argument that named it, where its redirects ended, and the page its
canonical link names.

A worker reads a document's links (:func:`links_of`); this process knows the argument of each
item it hands out (:class:`Named`), since a URL is fetched before its item reaches a worker.
The run keeps them compactly (:class:`Origins`): documents come in argument order, so the
arguments are kept as runs, and the links only of the documents that have one.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from dataclasses import dataclass

from ..sources.canonical_link import page_address
from ..sources.collection import Item
from ..sources.documents import Document

__all__ = ["Named", "Origin", "Origins", "addresses", "argument_of", "links_of"]


@dataclass(frozen=True)
class Origin:
    """A document's ``argument`` (the SOURCE argument that named it, from 1; 0 for an index's
    documents and for inputs given without one), the URL its redirects ended at when another
    (``moved_to``), and the address its canonical link names when that is another page
    (``canonical``)."""

    argument: int = 0
    moved_to: str | None = None
    canonical: str | None = None

    @property
    def linked(self) -> bool:
        return self.moved_to is not None or self.canonical is not None


@dataclass(frozen=True)
class Named(Item):
    """An item, with the number of the SOURCE argument that named it."""

    argument: int = 0


def argument_of(item: Item) -> int:
    return item.argument if isinstance(item, Named) else 0


def addresses(source: str, origin: Origin) -> set[str]:
    """The addresses a document answers to: its source's and where its redirects ended (none
    for a file)."""
    found = (page_address(url) for url in (source, origin.moved_to) if url)
    return {address for address in found if address is not None}


def links_of(doc: Document) -> Origin | None:
    """The document's redirect and canonical link, when it has either (no argument yet)."""
    moved = doc.final_url if doc.final_url and doc.final_url != doc.source else None
    origin = Origin(0, moved)
    canonical = doc.canonical
    if canonical is not None and canonical not in addresses(doc.source, origin):
        origin = Origin(0, moved, canonical)  # a page naming itself says nothing of the others
    return origin if origin.linked else None


class Origins:
    """The origins of a run's documents, by position in the order they were added."""

    def __init__(self) -> None:
        self._starts = array("q")  # the first position of each run of one argument
        self._arguments = array("q")
        self._links: dict[int, Origin] = {}
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def append(self, argument: int, links: Origin | None = None) -> None:
        """The next document's argument, and its links (their ``argument`` is not read)."""
        if not self._arguments or self._arguments[-1] != argument:
            self._starts.append(self._count)
            self._arguments.append(argument)
        if links is not None and links.linked:
            self._links[self._count] = links
        self._count += 1

    def __getitem__(self, position: int) -> Origin:
        if not 0 <= position < self._count:
            raise IndexError(position)
        argument = self._arguments[bisect_right(self._starts, position) - 1]
        links = self._links.get(position)
        if links is None:
            return Origin(argument)
        return Origin(argument, links.moved_to, links.canonical)
