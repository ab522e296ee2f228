"""A watch's records: a page watched, a copy of it found on the web, a change between runs,
and what one run did.

Every date is ISO 8601 in UTC, to the second.  A copy's ``share`` is the part of the page's
text (0 to 1, by characters) the copying page holds; ``kind`` is ``copied`` when most of that
part is there word for word, ``rewritten`` when it is found only after canonicalization.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..records import record_dict

__all__ = ["CHANGES", "Change", "Copy", "RunReport", "WatchedPage"]

CHANGES = ("new", "grown", "back", "gone")
"""What a run can say about a copy: first found, holding more of the page than before, found
again after it was gone, no longer found."""


@dataclass(frozen=True)
class WatchedPage:
    """A published page: its address, where it ended after redirects, the address its
    ``<link rel="canonical">`` names, its title and main text, and when it was added and last
    checked against the web (None: never)."""

    url: str
    final_url: str | None
    canonical: str | None
    title: str | None
    text: str
    added: str
    checked: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self, exclude=["text"], chars=len(self.text))


@dataclass(frozen=True)
class Copy:
    """A page of the web that holds part of a watched page: its ``url``, the ``share`` of the
    watched page it holds, ``copied`` or ``rewritten``, when it was first and last seen,
    when it was found gone (None while it is there), and the characters ``[start, end)`` of
    the watched page's text it was last seen holding."""

    page: str
    url: str
    share: float
    kind: str
    first_seen: str
    last_seen: str
    gone: str | None = None
    spans: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class Change:
    """One change a run found: a copy of ``page`` at ``url`` is ``new``, ``grown``, ``back``
    or ``gone`` (:data:`CHANGES`); its share now and before (None for a new one)."""

    run: int
    page: str
    url: str
    change: str
    share: float
    previous: float | None
    kind: str
    first_seen: str
    last_seen: str

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class RunReport:
    """What one run did: its number, whether it resumed a run stopped midway, the pages it
    checked (of those planned), queries sent and read from the cache, the changes found, and,
    when a command was to be told of them, why telling it failed (None: it was told, or there
    was nothing to tell)."""

    run: int
    resumed: bool
    planned: int
    checked: int
    budget: int
    sent: int
    cached: int
    changes: tuple[Change, ...]
    started: str
    finished: str
    notify_failed: str | None = None

    def counts(self) -> dict[str, int]:
        """The number of changes of each kind, every kind named."""
        return {kind: sum(1 for c in self.changes if c.change == kind) for kind in CHANGES}

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self, counts=self.counts())
