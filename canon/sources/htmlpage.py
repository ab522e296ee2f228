"""An HTML page parsed once → everything canon reads from it: the tree of its head and links,
the page as a reader sees it, all its visible text, and its main text (trafilatura).

:class:`HtmlPage` checks the markup against the read limits (:func:`~.markup.check_html`),
parses it once, the way trafilatura parses a page it is given, and reads everything from that
tree, one step a method:

- :attr:`HtmlPage.root`: the page as found, for its head's facts and its links;
- :meth:`HtmlPage.show`: the page as a reader sees it (:func:`~.shown.show`: unseen elements
  removed, overridden text in display order), in place, once;
- :meth:`HtmlPage.visible`: all visible text and the ``<title>`` (:mod:`.visible`);
- :meth:`HtmlPage.main`: the main text by trafilatura on that same tree (which copies it
  before cutting it down), and, when asked for, the title trafilatura's metadata gives: from
  the meta tags, JSON-LD and headings only, not the dates, authors and licence that make up
  most of the cost of trafilatura's metadata and that canon does not use.

A page that does not open as a whole document (``<html`` or ``<!doctype``, the test lxml
applies before it picks a fragment out), or that has a crowded paragraph to flatten
(:func:`~.markup.uncrowded`), is read as separate passes over its markup, each with a parse of
its own, as the single tree would not be the one each pass has always read.
"""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from .limits import ReadLimits
from .markup import check_html, uncrowded
from .shown import as_seen, show
from .visible import page_title, visible_text

__all__ = ["HtmlPage", "MainText", "main_settings"]

# How lxml tells a whole document from a fragment (lxml.html.fromstring).
_WHOLE = re.compile(r"^\s*<(?:html|!doctype)", re.IGNORECASE)


def main_settings() -> dict[str, Any]:
    """What canon asks of trafilatura's ``bare_extraction`` for a main text.

    Main text only: a site's menus, sidebars and footers are what make two of its pages look
    alike, so precision matters most.  favor_precision had the best token F1 on the
    article-extraction benchmark (benchmarks/extraction.py: 0.965 mean vs 0.959 for the
    defaults) and kept ads and footers of short pages out.  Tables are part of an article;
    readers' comments are not the author's text.  trafilatura's own deduplication is off: it
    keeps a cache across documents, so one page's result would depend on the pages read before
    it."""
    return {
        "favor_precision": True,
        "include_comments": False,
        "include_tables": True,
        "deduplicate": False,
    }


@dataclass(frozen=True)
class MainText:
    """A page's main text (``""`` when trafilatura found none), its title when asked for,
    and its language (trafilatura gives one only when asked to filter by it: None)."""

    text: str
    title: str | None
    language: str | None


def _title(tree: Any) -> str | None:
    """The title trafilatura's metadata gives the page: its meta tags, then JSON-LD, then
    its headings and ``<title>`` (the same steps, in the same order, cleaned the same)."""
    import trafilatura

    try:
        from trafilatura.metadata import examine_meta, extract_meta_json, extract_title
    except ImportError:  # pragma: no cover - another trafilatura: all its metadata
        return trafilatura.extract_metadata(tree).title
    metadata = examine_meta(tree)
    if metadata.author and " " not in metadata.author:
        metadata.author = None
    with suppress(Exception):  # as trafilatura: a JSON-LD block it cannot read gives nothing
        metadata = extract_meta_json(tree, metadata)
    if not metadata.title:
        metadata.title = extract_title(tree)
    metadata.clean_and_trim()
    return metadata.title


class HtmlPage:
    """One HTML page, checked against ``limits`` and parsed once (see the module)."""

    def __init__(self, html: str, source: str, limits: ReadLimits | None = None) -> None:
        check_html(html, source, limits)
        self.source = source
        self._found = html
        self.html = uncrowded(html)
        self._one = self.html is html and _WHOLE.match(html) is not None
        self._tree: Any = None  # the one tree (trafilatura's parse)
        self._root: Any = None  # the page as found, when read apart
        self._unseen: tuple[str, ...] | None = None
        self._seen_html = self.html  # what separate passes read once the page is shown

    def _parsed(self) -> Any:
        """The one tree, or None when trafilatura cannot read the page."""
        if self._tree is None and self._one:
            import trafilatura

            self._tree = trafilatura.load_html(self.html)
            self._one = self._tree is not None and self._tree.getparent() is None
        return self._tree if self._one else None

    @property
    def root(self) -> Any:
        """The page's document as found (before :meth:`show`); raises lxml's ``ValueError``
        or ``ParserError`` when it is no HTML lxml can read."""
        tree = self._parsed()
        if tree is not None:
            return tree
        if self._root is None:
            import lxml.html

            self._root = lxml.html.document_fromstring(self._found)
        return self._root

    def show(self) -> tuple[str, ...]:
        """Make the page as a reader sees it (once); the words of the elements left out."""
        if self._unseen is None:
            tree = self._parsed()
            if tree is not None:
                self._unseen = show(tree, self.html)
            else:
                seen = as_seen(self.html)
                self._seen_html, self._unseen = seen.html, seen.unseen
        return self._unseen

    def visible(self) -> tuple[str, str | None]:
        """All text a reader sees, and the page's ``<title>`` (:mod:`.visible`)."""
        self.show()
        tree = self._parsed()
        if tree is None:
            import lxml.etree
            import lxml.html

            parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True)
            try:
                tree = lxml.html.document_fromstring(self._seen_html, parser=parser)
            except (ValueError, lxml.etree.ParserError):
                return "", None
        return visible_text(tree), page_title(tree)

    def main(self, *, titled: bool = False) -> MainText:
        """The main text by trafilatura, with its title when ``titled``."""
        import trafilatura

        self.show()
        tree = self._parsed()
        if tree is None:  # the markup, as trafilatura would be given it
            document = trafilatura.bare_extraction(
                self._seen_html, with_metadata=titled, **main_settings()
            )
            title = getattr(document, "title", None)
        else:
            document = trafilatura.bare_extraction(tree, with_metadata=False, **main_settings())
            title = _title(tree) if titled and document is not None else None
        text = getattr(document, "text", None) or ""
        return MainText(text, title, getattr(document, "language", None))
