"""Locality-sensitive hashing over MinHash signatures: bands × rows from a Jaccard threshold.

Two documents become candidates when all ``rows`` values of at least one of ``bands`` bands
agree, which happens with probability ``1 - (1 - s^rows)^bands`` at Jaccard ``s`` (the
S-curve).  As datasketch does, the banding is chosen by integrating that curve: the area below
the threshold is the false-positive mass, the area above it the false-negative mass, and the
(bands, rows) with ``bands·rows <= num_perm`` minimizing their weighted sum wins.  Every
candidate is verified by exact Jaccard afterwards, so a false positive costs only time while a
false negative loses a duplicate: the weights favour recall.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..errors import OptionError
from ..hashing import FMIX_M1, GOLDEN

__all__ = ["band_keys", "candidate_probability", "optimal_bands"]

_GRID = 2001


def candidate_probability(similarity: float, bands: int, rows: int) -> float:
    """The chance that two documents of Jaccard ``similarity`` share at least one band."""
    return float(1 - (1 - similarity**rows) ** bands)


def _area(threshold: float, bands: int, rows: int) -> tuple[float, float]:
    s = np.linspace(0.0, 1.0, _GRID)
    curve = 1 - (1 - s**rows) ** bands
    below, above = s <= threshold, s >= threshold
    false_positive = np.trapezoid(curve[below], s[below]) if below.sum() > 1 else 0.0
    false_negative = np.trapezoid(1 - curve[above], s[above]) if above.sum() > 1 else 0.0
    return float(false_positive), float(false_negative)


@cache
def optimal_bands(
    threshold: float, num_perm: int, fp_weight: float = 0.05, fn_weight: float = 0.95
) -> tuple[int, int]:
    """``(bands, rows)`` for a Jaccard ``threshold`` in (0, 1] and ``num_perm`` values."""
    if not 0 < threshold <= 1:
        raise OptionError("threshold", f"must be in (0, 1], got {threshold}", value=threshold)
    if type(num_perm) is not int or num_perm < 1:
        raise OptionError(
            "num_perm", f"must be a positive integer, got {num_perm!r}", value=num_perm
        )
    best, best_cost = (1, num_perm), float("inf")
    for bands in range(1, num_perm + 1):
        for rows in range(1, num_perm // bands + 1):
            fp, fn = _area(threshold, bands, rows)
            cost = fp_weight * fp + fn_weight * fn
            if cost < best_cost:
                best, best_cost = (bands, rows), cost
    return best


def band_keys(values: np.ndarray, bands: int, rows: int) -> np.ndarray:
    """One 64-bit key per band of each signature row: shape ``(documents, bands)``."""
    values = np.atleast_2d(values).astype(np.uint64)
    keys = np.zeros((values.shape[0], bands), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for band in range(bands):
            h = np.full(values.shape[0], np.uint64(band + 1) * np.uint64(GOLDEN))
            for value in values[:, band * rows : (band + 1) * rows].T:
                h = (h ^ value) * FMIX_M1
                h ^= h >> np.uint64(29)
            keys[:, band] = h
    return keys
