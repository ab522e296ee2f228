"""Tokens → k-word shingles (sliding windows) and their stable 64-bit hashes.

A shingle set keeps each distinct window once: repeating a fragment adds no weight.

The hash of a shingle is defined so that anyone can recompute it, on any platform:

- each token's hash is ``xxh3_64`` (seed 0) of its UTF-8 bytes;
- a window of tokens ``t1 … tk`` hashes to ``h_k``, where ``h_0 = k · 0x9E3779B97F4A7C15`` and
  ``h_j = fmix64(h_{j-1} XOR hash(t_j))``, all arithmetic modulo 2**64, ``fmix64`` being
  MurmurHash3's 64-bit finalizer (a bijection).

The chain runs over whole arrays of windows at once in NumPy, which is far faster than hashing
each shingle's bytes in a Python loop, and never uses Python's salted ``hash()``.  Token hashes
are remembered per distinct token for the life of the process (by Zipf's law most tokens of a
text are already known), so a document's tokens become a ``uint64`` array in one C-speed map;
the functions taking tokens also take that array itself (``Canonical.hashes``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import xxhash

from .errors import OptionError

__all__ = [
    "FMIX_M1",
    "FMIX_M2",
    "GOLDEN",
    "fmix64",
    "forget_hashes",
    "keep_sampled",
    "many_window_hashes",
    "remember_hashes",
    "shingle_hashes",
    "shingles",
    "token_hashes",
    "window_count",
    "window_hashes",
]

GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / the golden ratio
FMIX_M1 = np.uint64(0xFF51AFD7ED558CCD)  # MurmurHash3's fmix64 multipliers
FMIX_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
_HASH_LIMIT = 4_000_000  # distinct tokens whose hash is remembered; a real corpus stays below

_known: dict[str, int] = {}

Tokens = Sequence[str] | np.ndarray  # words, or their token hashes (``uint64``)


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


def _xxh3(token: str) -> int:
    return xxhash.xxh3_64_intdigest(token.encode("utf-8"))


def remember_hashes(tokens: Iterable[str], hashes: Iterable[int]) -> None:
    """Seed the token-hash memory with hashes computed elsewhere (a persisted cache)."""
    if len(_known) < _HASH_LIMIT:
        _known.update(zip(tokens, hashes))


def forget_hashes() -> None:
    """Forget every remembered token hash, as in a fresh process (for cold benchmarks)."""
    _known.clear()


def token_hashes(tokens: Tokens) -> np.ndarray:
    """xxh3_64 of each token's UTF-8 bytes (``uint64`` array); each distinct token is hashed
    once per process.  An array of token hashes is returned as it is."""
    if isinstance(tokens, np.ndarray):
        return tokens.astype(np.uint64, copy=False)
    try:
        return np.fromiter(map(_known.__getitem__, tokens), dtype=np.uint64, count=len(tokens))
    except KeyError:
        pass
    missing = set(tokens).difference(_known)
    if len(_known) + len(missing) > _HASH_LIMIT:
        _known.clear()
        missing = set(tokens)
    _known.update(zip(missing, map(_xxh3, missing)))
    return np.fromiter(map(_known.__getitem__, tokens), dtype=np.uint64, count=len(tokens))


def fmix64(x: np.ndarray, *, inplace: bool = False) -> np.ndarray:
    """MurmurHash3's 64-bit finalizer, a bijection of uint64 (``x`` itself with ``inplace``)."""
    if not inplace:
        x = np.array(x, dtype=np.uint64, copy=True)
    with np.errstate(over="ignore"):
        x ^= x >> _S33
        x *= FMIX_M1
        x ^= x >> _S33
        x *= FMIX_M2
        x ^= x >> _S33
    return x


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


def many_window_hashes(docs: Sequence[Tokens], k: int) -> tuple[np.ndarray, np.ndarray]:
    """The window hashes of many documents in one pass, end to end, and how many windows each
    document has: the chain runs once over all tokens, and the windows that would straddle two
    documents are left out.  Equal to concatenating ``window_hashes(doc, k)`` of each."""
    _check_window(k, 1)
    arrays = [token_hashes(d) for d in docs]
    lengths = np.fromiter(map(len, arrays), dtype=np.int64, count=len(arrays))
    counts = np.maximum(lengths - (k - 1), 0)
    tokens = np.concatenate(arrays) if arrays else np.empty(0, dtype=np.uint64)
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
