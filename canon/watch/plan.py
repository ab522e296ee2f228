"""The order pages come due in, and a run's budget → the pages it checks.

The pages never checked come first, in the order they were added.  The others come by their
*due-ness*, the highest first: the time since the page was last checked times its *weight*,
how likely it is to be copied (:func:`weight`)::

    weight = 1                                       never found copied
           = 2 + min(copies still there, 4)          copied before
             + 2 if a copy was first seen in the last 30 days

so a page runs from 1 to 8: one copied, and copied lately, is checked up to eight times as
often as one never copied (its copies may grow, and a copy still there is worth knowing
gone).  Ties go to the page checked longest ago, then to the one added first.  The weight is
bounded and the time since the last check is not, so every page comes due however the others
are copied: in a watch of N pages of which a run checks k, a page waits about 8·N/k runs at
most, and N/k when no page is copied.

A run (:func:`plan_run`) takes the pages in that order, each given the queries a web check
would send for it by default (:func:`~canon.uniqueness.web.default_budget`), the last one what
is left; it never sends more than its budget, nor checks a page twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ..uniqueness.web import default_budget
from .records import WatchedPage

__all__ = ["COPIED", "MOST_LIVE", "RECENT", "RECENT_DAYS", "Copied", "due", "plan_run", "weight"]

COPIED = 2  # the weight of a page found copied before (1 for one never found copied)
MOST_LIVE = 4  # copies still there that add to a page's weight, one each, at most
RECENT = 2  # what a copy first seen lately adds to the weight
RECENT_DAYS = 30  # ... lately: within this many days
_LONG_AGO = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Copied:
    """What a page's history says of its copies: how many are still there (not gone), how
    many were ever found, and when the newest was first seen (ISO 8601; None: none found)."""

    live: int = 0
    ever: int = 0
    newest: str | None = None


def _date(value: str | None) -> datetime:
    """An ISO 8601 date in UTC; a date that cannot be read is taken as long ago."""
    try:
        date = datetime.fromisoformat(value or "")
    except ValueError:
        return _LONG_AGO
    return date if date.tzinfo else date.replace(tzinfo=UTC)


def weight(copied: Copied, now: datetime) -> int:
    """How likely a page is to be copied, from 1 (never found copied) to 8 (see above)."""
    if copied.ever <= 0:
        return 1
    days = (now - _date(copied.newest)).total_seconds() / 86_400
    return COPIED + min(copied.live, MOST_LIVE) + (RECENT if days <= RECENT_DAYS else 0)


def due(
    pages: Sequence[tuple[int, WatchedPage]], copied: Mapping[int, Copied], now: datetime
) -> list[tuple[int, WatchedPage]]:
    """``pages`` (with their ids) in the order they are due at ``now``: the never checked
    first, by id; then by due-ness (seconds since the last check × :func:`weight`), the
    highest first.  ``copied`` holds the copies of the pages that have any."""

    def key(item: tuple[int, WatchedPage]) -> tuple[bool, float, datetime, int]:
        page_id, page = item
        if page.checked is None:
            return (False, 0.0, _LONG_AGO, page_id)
        checked = _date(page.checked)
        age = max(0.0, (now - checked).total_seconds())
        return (True, -age * weight(copied.get(page_id, Copied()), now), checked, page_id)

    return sorted(pages, key=key)


def plan_run(pages: Sequence[tuple[int, WatchedPage]], budget: int) -> list[tuple[int, int]]:
    """(page id, queries) for the pages a run of ``budget`` queries checks, in order;
    ``pages`` come in the order they are due (:meth:`WatchStore.pages`), a page listed twice
    taken once."""
    plan: list[tuple[int, int]] = []
    planned: set[int] = set()
    left = budget
    for page_id, page in pages:
        if left <= 0:
            break
        if page_id in planned:
            continue
        queries = min(default_budget(page.text), left)
        plan.append((page_id, queries))
        planned.add(page_id)
        left -= queries
    return plan
