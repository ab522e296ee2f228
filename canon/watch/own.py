"""Which pages of the web are not copies: the watched site's own, each page's canonical
target, and the sites allowed to republish (syndication partners).

A site is named by its host (lower case, ``www.`` dropped) and, when it is not the scheme's
default, its port: ``example.ru``, ``127.0.0.1:8080``.  A URL belongs to a site when its host
is that host or one of its subdomains and, when the site names a port, on that port.  The
same names are turned into the ``re:`` entries a web check leaves out, so such pages are
never fetched; the canonical targets, exact addresses, are left out by address.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..errors import OptionError
from ..uniqueness.web import normalized_url

__all__ = ["Ownership", "site_name", "site_of"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
_SITE = re.compile(r"^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+(?::\d{1,5})?$")


def site_of(url: str) -> str | None:
    """The site a URL is on (``host`` or ``host:port``), or None for what is no web URL."""
    try:
        parts = urlsplit(url.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not host:
        return None
    host = host.lower().rstrip(".").removeprefix("www.")
    return host if port in (None, _DEFAULT_PORTS[parts.scheme.lower()]) else f"{host}:{port}"


def site_name(entry: str) -> str:
    """A site as a user names it (``partner.ru``, ``www.partner.ru``, ``host:8080`` or a URL
    on it), in the form :func:`site_of` gives; refused when it names none."""
    text = entry.strip()
    found = site_of(text) if "://" in text else text.lower().rstrip(".").removeprefix("www.")
    if not found or not _SITE.match(found):
        raise OptionError(
            "allow", f"must be a domain such as partner.ru (or host:port), got {entry!r}",
            value=entry,
        )  # fmt: skip
    return found


def _belongs(site: str, to: str) -> bool:
    host, _, port = site.partition(":")
    own_host, _, own_port = to.partition(":")
    if own_port and port != own_port:
        return False
    return host == own_host or host.endswith("." + own_host)


def _pattern(site: str) -> str:
    """The ``re:`` entry that matches the URLs on ``site`` (an RE2 pattern)."""
    host, _, port = site.partition(":")
    port_part = f":{port}" if port else r"(?::\d+)?"
    return rf"re:(?i)^https?://(?:[^/?#@]*\.)?{re.escape(host)}{port_part}(?:[/?#]|$)"


@dataclass(frozen=True)
class Ownership:
    """The watched site's own sites, the canonical targets (normalized URLs) and the sites
    allowed to republish."""

    sites: frozenset[str]
    canonicals: frozenset[str]
    allowed: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls, urls: Iterable[str | None], canonicals: Iterable[str | None], allowed: Iterable[str]
    ) -> Ownership:
        """The ownership of pages at ``urls`` (their addresses and final addresses) whose
        canonical links name ``canonicals``."""
        sites = frozenset(s for s in (site_of(u) for u in urls if u) if s)
        targets = frozenset(normalized_url(c) for c in canonicals if c)
        return cls(sites, targets, frozenset(allowed))

    def excludes(self, url: str) -> bool:
        """Whether ``url`` is never a copy: on an own or allowed site, or a canonical target."""
        if normalized_url(url) in self.canonicals:
            return True
        site = site_of(url)
        return site is not None and any(_belongs(site, s) for s in self.sites | self.allowed)

    def exclusions(self) -> tuple[str, ...]:
        """The entries a web check leaves out (:class:`~canon.uniqueness.exclusion.Exclusion`):
        each site as a pattern, each canonical target as its address."""
        return tuple(_pattern(s) for s in sorted(self.sites | self.allowed)) + tuple(
            sorted(self.canonicals)
        )
