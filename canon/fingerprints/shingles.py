"""Tokens → k-word shingles (sliding windows) and their stable 64-bit hashes.

A shingle set keeps each distinct window once: repeating a fragment adds no weight.

A window of tokens ``t1 … tk`` hashes to ``h_k``, where ``h_0 = k · 0x9E3779B97F4A7C15`` and
``h_j = fmix64(h_{j-1} XOR hash(t_j))``, all arithmetic modulo 2**64, with the token hash and
``fmix64`` of :mod:`canon.hashing`: anyone can recompute it, on any platform.  The chain runs
over whole arrays of windows at once in NumPy, far faster than hashing each shingle's bytes in
a Python loop; the functions taking tokens also take their hashes (``Canonical.hashes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

from ..errors import OptionError
from ..hashing import GOLDEN, Tokens, each_token_hash, fmix64, token_hashes

__all__ = [
    "keep_sampled",
    "many_window_hashes",
    "shingle_hashes",
    "shingles",
    "window_count",
    "window_hashes",
]


def _check_window(k: int, step: int) -> None:
    if type(k) is not int or k < 1:
        raise OptionError("k", f"(the shingle size) must be a positive integer, got {k!r}", value=k)
    if type(step) is not int or step < 1:
        raise OptionError("step", f"must be a positive integer, got {step!r}", value=step)


def window_count(n: int, k: int, step: int = 1) -> int:
    """How many windows of ``k`` words, ``step`` apart, fit in ``n`` words."""
    _check_window(k, step)
    return 0 if n < k else (n - k) // step + 1


def shingles(tokens: Sequence[str], k: int, step: int = 1) -> set[tuple[str, ...]]:
    """The set of distinct k-word windows, starting every ``step`` words."""
    count = window_count(len(tokens), k, step)
    tokens = tuple(tokens)
    return {tokens[i : i + k] for i in range(0, count * step, step)}


def shingle_hashes(tokens: Tokens, k: int, step: int = 1) -> np.ndarray:
    """The sorted distinct 64-bit hashes of the shingles (see the module's definition) of
    ``tokens``, words or their :func:`token_hashes`."""
    return _sorted_distinct(window_hashes(tokens, k, step))


def window_hashes(tokens: Tokens, k: int, step: int = 1) -> np.ndarray:
    """The hash of every window in order (window ``i`` starts at token ``i * step``) of
    ``tokens``, words or their :func:`token_hashes`."""
    count = window_count(len(tokens), k, step)
    if count == 0:
        return np.empty(0, dtype=np.uint64)
    hashes = token_hashes(tokens)
    h = np.full(count, (k * GOLDEN) % 2**64, dtype=np.uint64)
    stop = (count - 1) * step + 1
    with np.errstate(over="ignore"):
        for j in range(k):
            h ^= hashes[j : j + stop : step]
            fmix64(h, inplace=True)
    return h


def _end_to_end(docs: Sequence[Tokens], total: int) -> np.ndarray:
    """The token hashes of all documents end to end (``total`` tokens): hash arrays as they
    are, words hashed together in one pass (:func:`~canon.hashing.each_token_hash`)."""
    if not any(isinstance(d, np.ndarray) for d in docs):
        return each_token_hash(chain.from_iterable(docs), total)
    arrays = [
        token_hashes(d) if isinstance(d, np.ndarray) else each_token_hash(d, len(d)) for d in docs
    ]
    return np.concatenate(arrays)


def many_window_hashes(docs: Sequence[Tokens], k: int) -> tuple[np.ndarray, np.ndarray]:
    """The window hashes of many documents in one pass, end to end, and how many windows each
    document has: the chain runs once over all tokens, and the windows that would straddle two
    documents are left out.  Equal to concatenating ``window_hashes(doc, k)`` of each."""
    _check_window(k, 1)
    lengths = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    counts = np.maximum(lengths - (k - 1), 0)
    tokens = _end_to_end(docs, int(lengths.sum()))
    total = len(tokens) - k + 1
    if total <= 0 or not counts.any():
        return np.empty(0, dtype=np.uint64), counts
    h = np.full(total, (k * GOLDEN) % 2**64, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            h ^= tokens[j : j + total]
            fmix64(h, inplace=True)
    # Document i's windows start at its first token and go on for counts[i] tokens.
    firsts = np.cumsum(lengths) - lengths
    ends = np.cumsum(counts)
    starts = np.arange(ends[-1], dtype=np.int64) + np.repeat(firsts - (ends - counts), counts)
    return h[starts], counts


def _sorted_distinct(values: np.ndarray) -> np.ndarray:
    """Sort and drop repeats; ``np.unique`` is several times slower on uint64 in NumPy 2.x."""
    values.sort()
    if len(values) < 2:
        return values
    keep = np.empty(len(values), dtype=bool)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def keep_sampled(hashes: np.ndarray, sample: int) -> np.ndarray:
    """The hashes that mod-``sample`` sampling keeps (all of them when ``sample`` is 1)."""
    return hashes if sample == 1 else hashes[hashes % np.uint64(sample) == 0]
