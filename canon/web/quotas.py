"""A signed-in user's search queries → counted against their quota for the day before a check
against the web starts, and what the check did not send given back when it ends.

A check may send at most its budget (the ``queries`` asked, else the default's ceiling,
:data:`canon.uniqueness.web.queries.MAX_QUERIES`), so that much is counted first: two checks
started at once can never spend more than the quota between them.  Queries answered from the
cache cost the provider nothing and are given back; a check that failed keeps its count (what
it sent before failing is unknown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..uniqueness.web.queries import MAX_QUERIES
from .accounts import Accounts, QuotaSpent, User, today
from .service import N_, FieldError, WebCheckRequest

__all__ = ["Reserved", "reserve_queries", "settle"]


@dataclass(frozen=True)
class Reserved:
    """Queries counted for one check: whose, how many, on which day."""

    user: str
    queries: int
    day: str


def reserve_queries(
    accounts: Accounts | None, user: User | None, asked: WebCheckRequest
) -> Reserved | None:
    """Counts the check's budget against ``user``'s quota for today (None on an open
    server); 429 naming ``queries`` when less is left."""
    if accounts is None or user is None:
        return None
    budget = asked.settings.search.queries or MAX_QUERIES
    day = today()
    try:
        accounts.spend(user.name, budget, day)
    except QuotaSpent as exc:
        raise FieldError(
            exc.message,
            "queries",
            429,
            key=N_("You have %(left)s of your %(quota)s search queries left today: ask for "
                   "fewer, or wait for tomorrow"),
            params={"left": exc.left, "quota": exc.quota},
        ) from None  # fmt: skip
    return Reserved(user.name, budget, day)


def settle(accounts: Accounts | None, reserved: Reserved | None, answer: Any) -> None:
    """Gives back the queries of ``reserved`` the check did not send (``answer``: the JSON of
    the check, or None when it never ran)."""
    if accounts is None or reserved is None:
        return
    sent = reserved.queries
    if answer is None:
        sent = 0
    elif isinstance(answer, dict) and isinstance(answer.get("web"), dict):
        sent = int(answer["web"].get("queries_sent", sent))
    accounts.refund(reserved.user, reserved.queries - min(sent, reserved.queries), reserved.day)
