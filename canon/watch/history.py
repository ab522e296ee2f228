"""A page's copies before a check and what the check found → its copies after and the
changes: ``new`` (never seen), ``grown`` (its share rose by the growth step or more),
``back`` (seen again after it was gone) and ``gone`` (seen before, not found now).

A copy whose page could not be fetched this time is neither seen nor gone: it keeps its
dates until a check reaches it again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, replace

from .findings import Found
from .records import Change, Copy

__all__ = ["Seen", "updated"]


@dataclass(frozen=True)
class Seen:
    """One check of one page: the run, the page, and when it was checked."""

    run: int
    page: str
    date: str


def _change(seen: Seen, copy: Copy, change: str, previous: float | None) -> Change:
    return Change(
        seen.run, seen.page, copy.url, change, copy.share if change != "gone" else 0.0,
        previous, copy.kind, copy.first_seen, copy.last_seen,
    )  # fmt: skip


def updated(
    before: Sequence[Copy],
    found: Mapping[str, Found],
    unreached: Set[str],
    seen: Seen,
    growth: float,
) -> tuple[list[Copy], list[Change]]:
    """The copies that changed (or were seen again) and the changes, in a stable order."""
    copies: list[Copy] = []
    changes: list[Change] = []
    known = {c.url: c for c in before}
    for url, old in sorted(known.items()):
        now = found.get(url)
        if now is None:
            if old.gone is None and url not in unreached:
                gone = replace(old, gone=seen.date)
                copies.append(gone)
                changes.append(_change(seen, gone, "gone", old.share))
            continue
        copy = replace(
            old, share=now.share, kind=now.kind, last_seen=seen.date, gone=None, spans=now.spans
        )
        copies.append(copy)
        if old.gone is not None:
            changes.append(_change(seen, copy, "back", None))
        elif now.share >= old.share + growth - 1e-9:
            changes.append(_change(seen, copy, "grown", old.share))
    for url, now in sorted(found.items()):
        if url not in known:
            copy = Copy(seen.page, url, now.share, now.kind, seen.date, seen.date, None, now.spans)
            copies.append(copy)
            changes.append(_change(seen, copy, "new", None))
    return copies, changes
