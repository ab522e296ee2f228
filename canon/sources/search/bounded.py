"""A provider's answer → JSON data or an XML tree, its nesting bounded before it is built.

Python's ``json`` parser recurses once per level of nesting, so an answer of 200,000 opening
brackets ends in a ``RecursionError``; no search answer is nested more than a dozen levels.
:func:`load_json` first walks the text once, without recursion, counting the brackets outside
strings (each string skipped whole by one anchored, possessive match), and refuses an answer
nested deeper than :data:`MAX_DEPTH` before ``json`` sees it.  :func:`load_xml` counts the
depth as lxml's incremental parser opens each element, and stops at the same bound; it
resolves no entity and reads nothing from the network.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "TooDeep", "load_json", "load_xml"]

MAX_DEPTH = 64  # levels of nesting a provider's answer may have

_NEXT = re.compile(r'[\[\]{}"]')
_STRING_REST = re.compile(r'[^"\\]*+(?:\\.[^"\\]*+)*+"', re.S)  # after the opening quote


class TooDeep(ValueError):
    """An answer nested deeper than the bound; ``limit`` is the bound."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"nested deeper than {limit} levels")
        self.limit = limit


def _deeper_than(text: str, limit: int) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit``, in one pass
    (an unterminated string ends the count: ``json`` refuses the text anyway)."""
    depth = 0
    position = 0
    while (found := _NEXT.search(text, position)) is not None:
        char, position = found.group(), found.end()
        if char == '"':
            rest = _STRING_REST.match(text, position)
            if rest is None:
                return False
            position = rest.end()
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def load_json(body: bytes, limit: int = MAX_DEPTH) -> Any:
    """The JSON value of ``body`` (UTF-8, -16 or -32, as ``json`` reads bytes); ValueError
    when it is no JSON, :class:`TooDeep` when it nests deeper than ``limit``."""
    try:
        text = body.decode(json.detect_encoding(body))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not text ({exc.reason})") from None
    if _deeper_than(text, limit):
        raise TooDeep(limit)
    return json.loads(text)


def load_xml(xml: bytes, limit: int = MAX_DEPTH) -> Any:
    """The root element of the XML document ``xml``; ``lxml.etree.XMLSyntaxError`` when it is
    not one, :class:`TooDeep` as soon as an element opens deeper than ``limit``."""
    from lxml import etree

    events = etree.iterparse(
        io.BytesIO(xml),
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
    )
    depth = 0
    for event, _ in events:
        depth += 1 if event == "start" else -1
        if depth > limit:
            raise TooDeep(limit)
    return events.root
