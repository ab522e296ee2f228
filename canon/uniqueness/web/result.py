"""A web check's record: the check result, each source's URL and query, the cost.

:class:`WebSource` is a :class:`~canon.uniqueness.SourceMatch` that also names the query
that found the page; :class:`WebCheck` holds the :class:`~canon.uniqueness.CheckResult`
(the same verdict, sources and fragments as an index check) with the queries sent and the
pages compared, failed or excluded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from ...records import plain
from ..against_index import CheckResult, SourceMatch
from .candidates import Asked, PageRecord

__all__ = ["WebCheck", "WebSource"]


@dataclass(frozen=True)
class WebSource(SourceMatch):
    """A page of the web that explains part of the draft, and the query that found it
    (``None`` for a source of the index a web check was combined with)."""

    query: str | None = None

    @classmethod
    def of(cls, match: SourceMatch, query: str | None) -> WebSource:
        values = {f.name: getattr(match, f.name) for f in fields(SourceMatch)}
        return cls(**values, query=query)


@dataclass(frozen=True)
class WebCheck:
    """A draft checked against the pages a search provider found (and an index, if given).

    ``queries`` are the queries of this check, each sent or read from the cache;
    ``pages`` every page found: compared, failed (with the reason) or excluded.
    """

    result: CheckResult
    provider: str
    queries: tuple[Asked, ...]
    pages: tuple[PageRecord, ...]
    index: str | None = None  # the index also checked against

    def with_unseen(self, unseen: Sequence[str]) -> WebCheck:
        """The check with a draft's unseen words among its tricks
        (:meth:`CheckResult.with_unseen`)."""
        return replace(self, result=self.result.with_unseen(unseen)) if unseen else self

    @property
    def sent(self) -> int:
        """Queries sent to the provider by this check (the others came from the cache)."""
        return sum(1 for q in self.queries if not q.cached)

    @property
    def compared(self) -> int:
        return sum(1 for p in self.pages if p.status == "compared")

    @property
    def failed(self) -> tuple[PageRecord, ...]:
        return tuple(p for p in self.pages if p.status == "failed")

    def summary(self) -> str:
        """One line of cost: queries sent and cached, pages compared, failed, excluded."""
        cached = len(self.queries) - self.sent
        excluded = sum(1 for p in self.pages if p.status == "excluded")
        parts = [
            f"{self.provider}: {self.sent} quer{'y' if self.sent == 1 else 'ies'} sent",
            f"{cached} from the cache" if cached else "",
            f"{self.compared} page{'' if self.compared == 1 else 's'} compared",
            f"{len(self.failed)} failed" if self.failed else "",
            f"{excluded} excluded" if excluded else "",
        ]
        return ", ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.result.to_dict(),
            "web": {
                "provider": self.provider,
                "index": self.index,
                "queries_sent": self.sent,
                "queries_cached": len(self.queries) - self.sent,
                "pages_compared": self.compared,
                "pages_failed": len(self.failed),
                "queries": plain(self.queries),
                "pages": plain(self.pages),
            },
        }
