"""An HTML page → the page as a reader sees it: bidirectional text in display order, unseen
elements left out.

Text extraction keeps a page's characters in stored order and drops the invisible controls, so
a word stored backwards under a right-to-left override (``&#x202E;акабос&#x202C;``, or the
``<bdo dir="rtl">`` element) would come out backwards, with nothing left to show it was a
trick.  Before extraction, every text node of a page that has such controls, or a ``bdo``
element, or an element that CSS overrides (``unicode-bidi: bidi-override`` and ``direction:
rtl``, inline or by a simple rule of the page's own style sheet), is put in the order a reader
sees (:mod:`canon.text.bidi`), the controls kept, so that the check reads the word shown and
reports the override.  Pages without any, the common case, are passed on as they are.

A copywriter can also add words that no reader sees, so that a copied text checks as new:
elements with the ``hidden`` attribute, or styled (inline, or by a simple rule of the page's
own ``<style>``: ``tag``, ``.class``, ``#id``, ``tag.class``) as not displayed, invisible, of
no font size, transparent, or in the colour of the background behind them (white on a page
that declares none).  They are removed before extraction, and their words are kept apart
(:attr:`Seen.unseen`) for the check to report.  Style sheets linked from other
files, complex selectors and colours set by classes on both sides are not looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..text.bidi import display_order

__all__ = ["Seen", "as_seen", "show", "without_unseen"]

_RLO, _LRO, _PDF = "\u202e", "\u202d", "\u202c"
# The controls as characters or as numeric character references, the bdo element, and the CSS
# property; each looked for on its own (one expression with all of them tries each at every
# character of the page).
_CONTROLS = tuple(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
_CONTROL_REFERENCE = re.compile(
    r"&#(?:x0*(?:202[a-e]|206[6-9])|0*(?:823[4-8]|829[4-7]));", re.IGNORECASE
)
_BDO = re.compile(r"<bdo\b", re.IGNORECASE)
_BIDI_HINT = re.compile(r"-(?i:bidi)")  # found fast (a plain first character), then:
_UNICODE_BIDI = re.compile(r"unicode-bidi", re.IGNORECASE)


# What hides an element from a reader, in an inline style or a page's own style sheet.
_DECLARATION = re.compile(r"([a-z-]+)\s*:\s*([^;]+)")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SIMPLE = re.compile(r"\s*([a-z][a-z0-9]*)?(?:([.#])([A-Za-z_][\w-]*))?\s*$")
_ZERO = re.compile(r"0*\.?0+(?:px|pt|em|rem|%|vw|vh)?|0")
_WHITE = frozenset({"#fff", "#ffffff", "white", "rgb(255,255,255)", "rgb(255, 255, 255)"})
_INLINE = frozenset(
    "a abbr b bdi bdo cite code em font i kbd mark q s small span strong sub sup u".split()
)
Rules = list[tuple[str, dict[str, str]]]  # a page's style rules: selectors, declarations
_MAX_RULES = 2_000  # rules of a page's style sheets looked at, at most
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")  # what lxml takes in no text
_NO_TEXT = frozenset({"script", "style", "template", "noscript", "svg", "title", "meta", "link"})
_UNSEEN_HINTS = re.compile(r"<style|\shidden[\s>=]|style\s*=", re.IGNORECASE)


@cache
def _parser() -> Any:
    """lxml's HTML parser, made (and lxml imported) for the first page that needs a look:
    reading a plain text file loads no lxml."""
    import lxml.html

    return lxml.html.HTMLParser(encoding="utf-8")


def _declarations(style: str) -> dict[str, str]:
    found = {}
    for name, value in _DECLARATION.findall(style.lower()):
        found[name] = value.replace("!important", "").strip()
    return found


def _colour(value: str | None) -> str | None:
    return None if value is None else value.replace(" ", "")


def _hides(style: dict[str, str], background: str | None, *, colour_too: bool = True) -> bool:
    """Whether declarations make an element's text unseen: not displayed, invisible, no size,
    transparent, or (``colour_too``) in the colour of what lies behind it."""
    if style.get("display") == "none" or style.get("visibility") in ("hidden", "collapse"):
        return True
    if _ZERO.fullmatch(style.get("font-size", "1")) or style.get("opacity") in ("0", "0.0"):
        return True
    colour = _colour(style.get("color"))
    if colour is None or not colour_too:
        return False
    behind = _colour(background) or "#ffffff"
    same = {colour, behind} <= {_colour(w) for w in _WHITE}
    return same or colour == behind


def _background(style: dict[str, str]) -> str | None:
    value = style.get("background-color") or style.get("background")
    return value.split()[0] if value else None


@dataclass(frozen=True)
class _Selectors:
    """Simple selectors of the page's style sheets: tags, classes, ids, and ``tag.class``
    pairs."""

    tags: frozenset[str]
    classes: frozenset[str]
    ids: frozenset[str]
    tag_classes: frozenset[tuple[str, str]]

    @property
    def any(self) -> bool:
        """Whether these selectors may select an element at all."""
        return bool(self.tags or self.classes or self.ids or self.tag_classes)

    def selects(self, element: Any) -> bool:
        classes = set(str(element.get("class", "")).split())
        return (
            element.tag in self.tags
            or not classes.isdisjoint(self.classes)
            or element.get("id") in self.ids
            or any((element.tag, c) in self.tag_classes for c in classes)
        )


def _sheet_rules(root: Any) -> Rules:
    """The rules of the page's own style sheets: selectors and declarations (bounded)."""
    return [
        (selectors, _declarations(body))
        for sheet in root.iter("style")
        for selectors, body in _RULE.findall(sheet.text or "")[:_MAX_RULES]
    ]


def _sheet_hiding(rules: Rules) -> _Selectors:
    """The simple selectors of the page's style sheets whose declarations hide what they
    select (not by colour: what lies behind an element a sheet styles is the sheet's
    business)."""
    return _selected(rules, lambda declared: _hides(declared, None, colour_too=False))


def _selected(rules: Rules, wanted: Callable[[dict[str, str]], bool]) -> _Selectors:
    """The simple selectors (``tag``, ``.class``, ``#id``, ``tag.class``) of the rules whose
    declarations are ``wanted``."""
    tags: set[str] = set()
    classes: set[str] = set()
    ids: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for selectors, declared in rules:
        if not wanted(declared):
            continue
        for selector in selectors.split(","):
            found = _SIMPLE.match(selector)
            if found is None:
                continue
            tag, kind, name = found.groups()
            if kind == "." and tag:
                pairs.add((tag, name))
            elif kind == ".":
                classes.add(name)
            elif kind == "#":
                ids.add(name)
            elif tag and tag not in ("html", "body", "head"):
                tags.add(tag)
    return _Selectors(frozenset(tags), frozenset(classes), frozenset(ids), frozenset(pairs))


def without_unseen(root: Any, rules: Rules | None = None) -> list[str]:
    """Remove from a parsed page the elements a reader never sees (the ``hidden`` attribute,
    inline styles and the page's own simple style rules that hide them); the words of each
    removed element, spaces collapsed (blank for one that held none, or a script or style)."""
    rules = _sheet_rules(root) if rules is None else rules
    hiding = _sheet_hiding(rules)
    page = _page_background(rules)
    unseen: dict[int, Any] = {}
    # Without a sheet that hides, only an element with a hidden or a style attribute may go.
    candidates = (
        root.iter() if hiding.any else root.xpath("descendant-or-self::*[@hidden or @style]")
    )
    for element in candidates:
        if not isinstance(element.tag, str) or element.tag in ("html", "body", "head"):
            continue
        style = element.get("style")
        if (
            element.get("hidden") is not None
            or hiding.selects(element)
            or (style and _hides(_declarations(style), _behind(element) or page))
        ):
            unseen[id(element)] = element
    words = []
    for element in unseen.values():
        parent = element.getparent()
        if parent is None or any(id(a) in unseen for a in element.iterancestors()):
            continue  # inside an element removed already
        words.append(_words(element))
        element.drop_tree()
        # An inline element left empty goes too: the extractor reads a paragraph with an empty
        # inline element in it differently (it keeps one such paragraph of several).
        while parent is not None and parent.tag in _INLINE and len(parent) == 0:
            if (parent.text or "").strip():
                break
            grand = parent.getparent()
            if grand is None:  # a subtree removed already
                break
            parent.drop_tree()
            parent = grand
    return words


def _words(element: Any) -> str:
    """The words of an element about to be removed, spaces collapsed; none of a script's or a
    style's (they are dropped from it first)."""
    if element.tag in _NO_TEXT:
        return ""
    for inner in list(element.iter(*_NO_TEXT)):
        inner.drop_tree()
    return " ".join(element.text_content().split())


def _page_background(rules: Rules) -> str | None:
    """The background the page's style sheets give ``html`` or ``body``, if any."""
    for selectors, declared in rules:
        if {s.strip().lower() for s in selectors.split(",")} & {"html", "body"}:
            background = _background(declared)
            if background:
                return background
    return None


def _behind(element: Any) -> str | None:
    """The background colour an element's own or nearest ancestor's inline style declares."""
    while element is not None:
        style = element.get("style")
        if style:
            background = _background(_declarations(style))
            if background:
                return background
        element = element.getparent()
    return None


@dataclass(frozen=True)
class Seen:
    """A page as a reader sees it (``html``), and the words of each element left out because
    no reader sees them (``unseen``, in page order)."""

    html: str
    unseen: tuple[str, ...] = ()


def as_seen(html: str) -> Seen:
    """``html`` as a reader sees it: the text of its overrides in display order and the
    elements no reader sees removed (serialized again), or ``html`` itself when it has
    neither style, ``hidden`` attribute nor bidirectional control."""
    bidi, styled = _hints(html)
    if not (bidi or styled):
        return Seen(html)
    import lxml.etree
    import lxml.html

    try:  # as bytes: a page may open with an XML declaration, which a str may not carry
        root = lxml.html.document_fromstring(html.encode("utf-8"), parser=_parser())
    except (ValueError, lxml.etree.ParserError):
        return Seen(html)  # nothing lxml can read: the extractor says what it makes of it
    changed, removed = _show(root, bidi, styled)
    if not changed:
        return Seen(html)
    return Seen(str(lxml.html.tostring(root, encoding="unicode")), removed)


def show(root: Any, html: str) -> tuple[str, ...]:
    """Make the parsed page ``root`` (of the markup ``html``) as a reader sees it, in place,
    as :func:`as_seen` does to its markup; the words of the elements left out."""
    bidi, styled = _hints(html)
    return _show(root, bidi, styled)[1] if bidi or styled else ()


def _bidi(html: str) -> bool:
    """Whether the markup has a bidirectional control (as a character or a reference), a
    ``bdo`` element or a ``unicode-bidi`` style."""
    return (
        any(control in html for control in _CONTROLS)
        or ("&#" in html and _CONTROL_REFERENCE.search(html) is not None)
        or _BDO.search(html) is not None
        or (_BIDI_HINT.search(html) is not None and _UNICODE_BIDI.search(html) is not None)
    )


def _hints(html: str) -> tuple[bool, bool]:
    """Whether the markup has what puts text in display order (:func:`_bidi`), and what may
    hide an element (a style or a ``hidden`` attribute)."""
    return _bidi(html), _UNSEEN_HINTS.search(html) is not None


def _show(root: Any, bidi: bool, styled: bool) -> tuple[bool, tuple[str, ...]]:
    """Whether showing the page changed ``root``, and the words of the elements left out."""
    rules = _sheet_rules(root)  # read once, before anything is removed
    removed = without_unseen(root, rules) if styled else []
    if bidi:
        _display_order(root, rules)
    return bool(bidi or removed), tuple(words for words in removed if words)


def _override(declared: dict[str, str]) -> str | None:
    """The override control that declarations set (``unicode-bidi: bidi-override`` and a
    ``direction``), if any."""
    if declared.get("unicode-bidi") not in ("bidi-override", "isolate-override"):
        return None
    return _RLO if declared.get("direction") == "rtl" else _LRO


def _overridden(root: Any, rules: Rules) -> list[tuple[Any, str]]:
    """The elements whose text is shown overridden, and the override: ``bdo``, and elements
    a ``unicode-bidi`` override styles inline or by a simple rule of the page's sheets."""
    found = [
        (element, _RLO if str(element.get("dir", "")).lower() == "rtl" else _LRO)
        for element in root.iter("bdo")
    ]
    rtl = _selected(rules, lambda declared: _override(declared) == _RLO)
    ltr = _selected(rules, lambda declared: _override(declared) == _LRO)
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag == "bdo":
            continue
        sheet = _RLO if rtl.selects(element) else _LRO if ltr.selects(element) else ""
        override = _override(_declarations(element.get("style") or "")) or sheet
        if override:
            found.append((element, override))
    return found


def _display_order(root: Any, rules: Rules) -> None:
    for element, override in _overridden(root, rules):
        element.text = override + (element.text or "")
        last = element[-1] if len(element) else None
        if last is not None:
            last.tail = (last.tail or "") + _PDF
        else:
            element.text += _PDF
    for element in root.iter():
        if isinstance(element.tag, str):  # not a comment or a processing instruction
            shown = _shown(element.text)
            if shown is not None:
                element.text = shown
        shown = _shown(element.tail)
        if shown is not None:
            element.tail = shown


def _shown(text: str | None) -> str | None:
    """``text`` in display order, or None when that changes nothing (or gives characters
    that lxml would not take back)."""
    if not text:
        return None
    shown = display_order(text)[0]
    return shown if shown != text and not _NOT_XML.search(shown) else None
