"""An HTML page measured before any parser sees it, and its crowded paragraphs flattened.

:func:`check_html` refuses a page past :class:`ReadLimits`: its size, its elements and
attributes, and the attributes of its busiest element.  libxml2 compares each attribute of an
element with every earlier one, so a single ``<p>`` with 150,000 attributes (1.7 MB) kept
trafilatura busy for over a minute; such a page is refused in milliseconds instead.

Most pages are far inside the limits, and three bounds computed by single passes in C say so
without looking at one tag in Python: elements are at most the page's ``<`` characters; an
element's attributes at most half the characters of its tag (each takes a character and a
separator), so a page without a tag of ``2 × max_element_attributes`` characters has no element
past that limit; and all attributes at most half the page's characters, and at most its
separators (white space and ``/``).  Only a page that fails a bound is scanned tag by tag
(one linear regular-expression scan), and that scan gives the answer.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import islice

from ..errors import ExtractionError
from .limits import ReadLimits

__all__ = ["CROWDED", "check_html", "uncrowded"]

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


@cache
def _long_tag(max_element_attributes: int) -> re.Pattern[str]:
    """A tag long enough to hold more than ``max_element_attributes`` attributes, anywhere
    (in a comment or a script too: a bound need not know where it is)."""
    return re.compile(rf"<[A-Za-z][^>]{{{2 * max_element_attributes},}}")


def _separators(html: str) -> int:
    """White-space characters and slashes: an attribute after the tag's name follows one."""
    return len(html) - len("".join(html.split())) + html.count("/")


def _surely_within(html: str, limits: ReadLimits) -> bool:
    """Whether bounds computed in C alone show the page within the element and attribute
    limits (False: perhaps not, the page must be scanned)."""
    if html.count("<") > limits.max_elements:
        return False
    if _long_tag(limits.max_element_attributes).search(html) is not None:
        return False
    return len(html) // 2 <= limits.max_attributes or _separators(html) <= limits.max_attributes


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
    if not _surely_within(html, limits):
        _scan(html, source, limits)


def _scan(html: str, source: str, limits: ReadLimits) -> None:
    """Count the page's elements and attributes tag by tag; refuse it past ``limits``."""
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
    if html.count("<") <= CROWDED:
        return html  # not that many tags in the whole page
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
