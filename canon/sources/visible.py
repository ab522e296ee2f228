"""A parsed HTML page → all the text a reader sees: menus, sidebars and footers included;
scripts, styles, the head, frames and embedded applets not.

The text is read in one walk of the page's tree, which it leaves as it is.  Elements that
hold no text a reader sees (:data:`HIDDEN_TAGS`) are skipped with all they hold; the text
after them runs on into the text before them.  Elements that are only a wrapper (``object``,
``embed``, ``marquee``..., and every tag HTML does not define, such as ``<main>`` or Yandex's
``<noindex>``) give their text without a break around it.  Every other element is a break:
the words on either side of its start and of its end are two words, however they touch.

These are the rules of an HTML sanitizer set to drop scripts, styles, comments, the head,
``noscript`` and ``template`` and to keep the page's structure and forms, followed by reading
its text pieces separated by spaces; the sanitizer's other work (rewriting links, dropping
attributes) changes no text, so none of it is done.  The tree is expected as canon's parser
makes it: comments and processing instructions left out while parsing (the text around one
is a single piece, as when a sanitizer removes it).
"""

from __future__ import annotations

from typing import Any

__all__ = ["HIDDEN_TAGS", "page_title", "visible_text"]

# Skipped with their content: scripts, styles, the head and what only the head holds,
# frames, applets, what shows only without scripts, and templates.
HIDDEN_TAGS = frozenset(
    "script style head base link meta noscript template applet frame frameset noframes".split()
)
# Their text is kept without a break around it: embedded objects (an iframe's content is
# what shows where it cannot) and blinking text.
_WRAPPERS = frozenset({"iframe", "embed", "layer", "object", "blink", "marquee"})
_EMBEDDING = frozenset({"object", "applet"})  # a <param> outside them is skipped


def _known_tags() -> frozenset[str]:
    from lxml.html import defs

    return frozenset(defs.tags) | {"image"}  # <image> is read as <img>


def _kind(tag: Any, known: frozenset[str], embedded: int) -> str:
    """``skip``, ``wrap`` or ``break`` for an element with ``tag`` (``embedded``: how many
    ``object`` or ``applet`` elements hold it)."""
    if not isinstance(tag, str) or tag in HIDDEN_TAGS:
        return "skip"
    if tag == "param":
        return "wrap" if embedded else "skip"
    if tag in _WRAPPERS or tag not in known:
        return "wrap"
    return "break"


def visible_text(root: Any) -> str:
    """All text of the page ``root`` a reader sees, spaces collapsed (see the module's rules);
    ``root`` is not changed."""
    import lxml.etree

    known = _known_tags()
    pieces: list[str] = []
    add = pieces.append
    kinds: list[str] = []
    embedded = 0
    walk = lxml.etree.iterwalk(root, events=("start", "end"))
    for event, element in walk:
        if event == "start":
            kind = "break" if element is root else _kind(element.tag, known, embedded)
            kinds.append(kind)
            if kind == "skip":
                walk.skip_subtree()
                continue
            embedded += element.tag in _EMBEDDING
            if kind == "break":
                add(" ")
            add(element.text or "")
            continue
        kind = kinds.pop()
        if element is root:
            break
        if kind != "skip":
            embedded -= element.tag in _EMBEDDING
        if kind == "break":
            add(" ")
        add(element.tail or "")
    return " ".join("".join(pieces).split())


def page_title(root: Any) -> str | None:
    """The text of the page's first ``<title>``, spaces collapsed; None when it has none."""
    return " ".join((root.findtext(".//title") or "").split()) or None
