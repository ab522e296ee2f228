"""A site's robots.txt → which of its URLs canon may fetch, how slowly, and its sitemaps.

Parsed by protego (Google's matching rules: the longest match wins, ``*`` and ``$``).  Rules
are read for canon's product token, ``canon``, and fall back to the ``*`` group.  As RFC 9309
says, a robots.txt that is missing (4xx) allows everything, and one that cannot be had (a
5xx after retries, no answer) disallows everything: a site in trouble is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["AGENT", "Robots"]

AGENT = "canon"
_MAX_CHARS = 500_000  # Google reads the first 500 KiB of a robots.txt


@dataclass(frozen=True)
class Robots:
    """The rules of one site; ``status`` is the HTTP status robots.txt was answered with
    (0: no answer)."""

    text: str = ""
    status: int = 404
    _parsed: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        from protego import Protego

        object.__setattr__(self, "_parsed", Protego.parse(self.text[:_MAX_CHARS]))

    @property
    def unreachable(self) -> bool:
        return self.status == 0 or self.status >= 500

    def allowed(self, url: str) -> bool:
        if self.unreachable:
            return False
        if self.status >= 400:
            return True
        return bool(self._parsed.can_fetch(url, AGENT))

    def crawl_delay(self) -> float:
        if self.status >= 400 or self.status == 0:
            return 0.0
        delay = self._parsed.crawl_delay(AGENT)
        return float(delay) if delay else 0.0

    def sitemaps(self) -> list[str]:
        if self.status >= 400 or self.status == 0:
            return []
        return list(self._parsed.sitemaps)
