"""An HTML page → the address its ``<link rel="canonical">`` names, as an absolute URL.

Only the head is read: the scan stops at ``<body``, skips comments, scripts and styles, and
takes the first ``<link>`` whose ``rel`` holds the word ``canonical``.  A relative address is
resolved against the page's own URL; a page read from a file has none, so only an absolute
address counts there.

Two addresses name one page when they are equal as a server receives them
(:func:`page_address`): scheme and host in lower case, a default port dropped, an empty path
as ``/``, no fragment.  The query stays: ``?page=2`` may well be another page.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urljoin, urlsplit, urlunsplit

__all__ = ["canonical_link", "page_address"]

# What the scan meets in the head: a comment, a script or style body (skipped whole, to the end
# of the page when unclosed), the body's start (the scan ends), or a link tag's attributes.
_HEAD = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(?P<skipped>script|style)\b.*?(?:</(?P=skipped)\s*>|\Z)"
    r"|(?P<body><body[\s/>])"
    r"|<link\b(?P<link>[^>]*)>",
    re.DOTALL | re.IGNORECASE,
)
_ATTRIBUTE = re.compile(r"""([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _attributes(tag: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in _ATTRIBUTE.findall(tag):
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        found.setdefault(name.lower(), html.unescape(value).strip())
    return found


def page_address(url: str) -> str | None:
    """``url`` as the server it names receives it: ``http``/``https`` only (else None), scheme
    and host in lower case, no default port, no user name, an empty path as ``/``, no
    fragment."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    host = f"[{host}]" if ":" in host else host
    netloc = host if port is None or port == _DEFAULT_PORTS[scheme] else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def canonical_link(page: str, base: str | None = None) -> str | None:
    """The address the page's canonical link names (:func:`page_address`), resolved against
    ``base`` (the page's URL); None when it has none, or names no http(s) address."""
    for match in _HEAD.finditer(page):
        if match.group("body") is not None:
            return None
        tag = match.group("link")
        if tag is None:
            continue
        attributes = _attributes(tag)
        if "canonical" in attributes.get("rel", "").lower().split() and attributes.get("href"):
            href = attributes["href"]
            return page_address(urljoin(base, href) if base else href)
    return None
