"""A run's budget → the pages it checks: the never-checked first, then those checked longest
ago, each given the queries a web check would send for it by default
(:func:`~canon.uniqueness.web.default_budget`), the last one what is left."""

from __future__ import annotations

from collections.abc import Sequence

from ..uniqueness.web import default_budget
from .records import WatchedPage

__all__ = ["plan_run"]


def plan_run(pages: Sequence[tuple[int, WatchedPage]], budget: int) -> list[tuple[int, int]]:
    """(page id, queries) for the pages a run of ``budget`` queries checks, in order;
    ``pages`` come in the order they are due (:meth:`WatchStore.pages`)."""
    plan: list[tuple[int, int]] = []
    left = budget
    for page_id, page in pages:
        if left <= 0:
            break
        queries = min(default_budget(page.text), left)
        plan.append((page_id, queries))
        left -= queries
    return plan
