"""Stable 64-bit hashes under everything canon stores: a token's hash and the fmix64 chain.

- each token's hash is ``xxh3_64`` (seed 0) of its UTF-8 bytes;
- ``fmix64`` is MurmurHash3's 64-bit finalizer, a bijection of ``uint64``; the shingle windows
  (:mod:`canon.fingerprints.shingles`), the MinHash permutations and the LSH band keys chain it.

Token hashes are remembered per distinct token for the life of the process (by Zipf's law most
tokens of a text are already known), so a document's tokens become a ``uint64`` array in one
C-speed map; a persisted lemma cache may seed the memory.  Many documents' words at once
(:func:`each_token_hash`) are hashed instead, every token: once the memory holds the
vocabulary of a corpus (10⁵ tokens and more) a lookup misses the CPU caches and costs more than
xxh3 of the token's bytes.  Python's salted ``hash()`` is never used: these values are
persisted, so they never change without a new profile fingerprint.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import xxhash

__all__ = [
    "FMIX_M1",
    "FMIX_M2",
    "GOLDEN",
    "Tokens",
    "each_token_hash",
    "fmix64",
    "forget_hashes",
    "remember_hashes",
    "token_hashes",
]

GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / the golden ratio
FMIX_M1 = np.uint64(0xFF51AFD7ED558CCD)  # MurmurHash3's fmix64 multipliers
FMIX_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
_HASH_LIMIT = 4_000_000  # distinct tokens whose hash is remembered; a real corpus stays below

_known: dict[str, int] = {}

Tokens = Sequence[str] | np.ndarray  # words, or their token hashes (``uint64``)


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


def each_token_hash(tokens: Iterable[str], count: int) -> np.ndarray:
    """xxh3_64 of the UTF-8 bytes of each of ``count`` tokens (``uint64`` array): the same
    values as :func:`token_hashes`, each token hashed in one C-speed pass and none looked up
    or remembered, for words in bulk (``count`` must be how many ``tokens`` yields)."""
    digests = map(xxhash.xxh3_64_intdigest, map(str.encode, tokens))
    return np.fromiter(digests, dtype=np.uint64, count=count)


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
