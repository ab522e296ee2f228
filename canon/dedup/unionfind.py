"""Items joined in pairs → the groups they form: a union-find (disjoint-set) forest.

Both engines link verified pairs through it; a group's root is its smallest item.
"""

from __future__ import annotations

__all__ = ["UnionFind"]


class UnionFind:
    """``size`` items, each its own group until :meth:`union` joins two groups."""

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, item: int) -> int:
        """The root of ``item``'s group (paths halved on the way)."""
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def union(self, a: int, b: int) -> None:
        """Join the groups of ``a`` and ``b``; the smaller root stays the root."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)
