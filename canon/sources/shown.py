"""An HTML page → the same page with its text under bidirectional controls in display order.

Text extraction keeps a page's characters in stored order and drops the invisible controls, so
a word stored backwards under a right-to-left override (``&#x202E;акабос&#x202C;``, or the
``<bdo dir="rtl">`` element) would come out backwards, with nothing left to show it was a
trick.  Before extraction, every text node of a page that has such controls, or a ``bdo``
element, is put in the order a reader sees (:mod:`canon.text.bidi`), the controls kept, so
that the check reads the word shown and reports the override.  Pages without either, the
common case, are passed on as they are.
"""

from __future__ import annotations

import re

import lxml.html

from ..text.bidi import display_order

__all__ = ["in_display_order"]

_RLO, _LRO, _PDF = "\u202e", "\u202d", "\u202c"
# The controls as characters or as numeric character references, and the bdo element.
_SUSPECT = re.compile(
    r"[\u202a-\u202e\u2066-\u2069]|&#(?:x0*(?:202[a-e]|206[6-9])|0*(?:823[4-8]|829[4-7]));|<bdo\b",
    re.IGNORECASE,
)


def in_display_order(html: str) -> str:
    """``html`` with the text of its overrides, embeddings, isolates and ``bdo`` elements in
    display order (serialized again), or ``html`` itself when it has none."""
    if _SUSPECT.search(html) is None:
        return html
    root = lxml.html.document_fromstring(html)
    for element in root.iter("bdo"):
        override = _RLO if str(element.get("dir", "")).lower() == "rtl" else _LRO
        element.text = override + (element.text or "")
        last = element[-1] if len(element) else None
        if last is not None:
            last.tail = (last.tail or "") + _PDF
        else:
            element.text += _PDF
    for element in root.iter():
        if isinstance(element.tag, str):  # not a comment or a processing instruction
            element.text = _shown(element.text)
        element.tail = _shown(element.tail)
    return str(lxml.html.tostring(root, encoding="unicode"))


def _shown(text: str | None) -> str | None:
    return text if text is None else display_order(text)[0]
