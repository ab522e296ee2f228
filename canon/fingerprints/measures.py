"""Set measures of two shingle sets: Jaccard, Dice and containment, on sets or hash arrays.

Let A and B be the sets of distinct shingles.  ``jaccard`` = |A∩B| / |A∪B|,
``dice`` = 2|A∩B| / (|A| + |B|), ``containment_first`` = |A∩B| / |A| (how much of the first
text is found in the second) and ``containment_second`` = |A∩B| / |B|.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["compare_sets", "exact_jaccard"]


def compare_sets(first: set[Any], second: set[Any]) -> tuple[int, float, float, float, float]:
    """``(common, jaccard, dice, containment_first, containment_second)`` of two non-empty sets."""
    if not first or not second:
        raise ValueError("both shingle sets must be non-empty: empty sets are not similar")
    common = len(first & second)
    union = len(first) + len(second) - common
    return (
        common,
        common / union,
        2 * common / (len(first) + len(second)),
        common / len(first),
        common / len(second),
    )


def exact_jaccard(first: np.ndarray, second: np.ndarray) -> float:
    """Jaccard of two sorted arrays of distinct hashes."""
    common = len(np.intersect1d(first, second, assume_unique=True))
    return common / (len(first) + len(second) - common)
