"""Quotations in a text: the character ranges a check may leave out of the count.

«Ёлочки» may nest and are matched by depth; „лапки“, “English” and "straight" quotes are matched
pairwise.  A quotation inside a «…» range is part of it.
"""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["quoted_ranges"]

_OTHER_QUOTES = re.compile(r"„[^„“”]*[“”]|“[^“”]*”|\"[^\"\n]*\"")
_GUILLEMETS = re.compile(r"[«»]")


def quoted_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of quotations, quote marks included; nested «…» count as one."""
    ranges: list[tuple[int, int]] = []
    depth = start = 0
    for mark in _GUILLEMETS.finditer(text):
        if mark.group() == "«":
            start = mark.start() if depth == 0 else start
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                ranges.append((start, mark.end()))
    starts = [s for s, _ in ranges]  # guillemet ranges, found in order: sorted, disjoint
    others = []
    for quote in _OTHER_QUOTES.finditer(text):
        owner = bisect_right(starts, quote.start()) - 1
        if owner < 0 or quote.start() >= ranges[owner][1]:
            others.append(quote.span())
    return sorted(ranges + others)
