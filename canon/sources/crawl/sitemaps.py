"""A fetched sitemap → the page URLs it lists and the sitemaps it points to.

XML sitemaps, sitemap indexes, plain-text lists, RSS and Atom feeds are parsed by
ultimate-sitemap-parser (its XML parser refuses entity expansion); canon fetches them itself,
with its own checks, and unpacks a gzipped one (``.xml.gz``) here, bounded: no more than the
fetch's byte cap comes out of the archive, so a gzip bomb is refused.
"""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass

from ...errors import FetchError

__all__ = ["SITEMAP_TYPES", "Sitemap", "read_sitemap", "unpack"]

# What servers send sitemaps as: XML, text, or gzip (served as a file, not an encoding).
SITEMAP_TYPES = frozenset(
    {
        "application/xml",
        "text/xml",
        "text/plain",
        "application/rss+xml",
        "application/atom+xml",
        "application/gzip",
        "application/x-gzip",
        "application/octet-stream",
    }
)
_GZIP = b"\x1f\x8b"


@dataclass(frozen=True)
class Sitemap:
    url: str
    pages: tuple[str, ...]
    sitemaps: tuple[str, ...]


def unpack(url: str, body: bytes, limit: int) -> bytes:
    """``body``, gunzipped when it is a gzip file; refused past ``limit`` bytes unpacked."""
    if not body.startswith(_GZIP):
        return body
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error as exc:
        raise FetchError(url, f"the gzipped sitemap is damaged ({exc})", reason="decoding") from exc
    if len(out) > limit or inflater.unconsumed_tail:
        raise FetchError(
            url, f"the sitemap unpacks to more than {limit:,} bytes", reason="too-large"
        )
    return out


def read_sitemap(url: str, body: bytes, limit: int) -> Sitemap:
    """The page URLs and child sitemaps of a fetched sitemap (gzipped or not)."""
    from usp.objects.sitemap import AbstractIndexSitemap
    from usp.tree import sitemap_from_str

    logging.getLogger("usp").setLevel(logging.CRITICAL)  # it warns about every odd line
    text = unpack(url, body, limit).decode("utf-8", "replace")
    parsed = sitemap_from_str(text)
    if isinstance(parsed, AbstractIndexSitemap):
        children = tuple(child.url for child in parsed.sub_sitemaps)
        return Sitemap(url, (), children)
    return Sitemap(url, tuple(page.url for page in parsed.all_pages()), ())
