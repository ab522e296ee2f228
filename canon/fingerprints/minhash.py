"""MinHash signatures: one-permutation hashing with densification, vectorized in NumPy.

Broder's MinHash keeps, for each of ``num_perm`` random permutations, the smallest permuted
shingle hash; two signatures agree in a position with probability equal to the Jaccard
similarity of the shingle sets.  Computing ``num_perm`` permutations costs O(n·num_perm) per
document.  One-permutation hashing (Li, Owen & Zhang 2012) permutes once and splits the range
into ``num_perm`` bins, keeping each bin's minimum: O(n).  Bins left empty (short documents)
are filled by densification (Shrivastava 2017, "optimal densification"): an empty bin copies
the value of a non-empty bin chosen by a hash sequence that depends only on the bin, the
attempt and the seed, so two documents borrow alike and the estimator stays unbiased.

A signature carries its ``num_perm`` and ``seed`` and serializes to fixed-layout bytes;
signatures made with other settings are never compared.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import OptionError
from ..hashing import GOLDEN, Tokens, fmix64
from .shingles import many_window_hashes

__all__ = [
    "SIGNATURE_SCHEME",
    "Signature",
    "estimate_jaccard",
    "shingle_signatures",
    "signature",
    "signatures",
]

SIGNATURE_SCHEME = 1  # bumped when the construction changes: stored signatures then differ
_MAGIC = b"CNS1"
_HEADER = struct.Struct("<4sIIQ")  # magic, scheme, num_perm, seed
_EMPTY = np.uint64(2**64 - 1)
_GOLDEN = np.uint64(GOLDEN)


def _mix(x: np.ndarray | np.uint64) -> np.ndarray:
    """Permutes the hash space (fmix64 is a bijection)."""
    return fmix64(np.asarray(x))


def _check_num_perm(num_perm: int) -> None:
    if type(num_perm) is not int or num_perm < 1:
        raise OptionError(
            "num_perm", f"must be a positive integer, got {num_perm!r}", value=num_perm
        )


@dataclass(frozen=True, eq=False)
class Signature:
    """``num_perm`` minimum hash values of one document, and the settings that made them."""

    values: np.ndarray
    seed: int

    @property
    def num_perm(self) -> int:
        return len(self.values)

    def to_bytes(self) -> bytes:
        header = _HEADER.pack(_MAGIC, SIGNATURE_SCHEME, self.num_perm, self.seed)
        return header + self.values.astype("<u8").tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> Signature:
        magic, scheme, num_perm, seed = _HEADER.unpack_from(data)
        if magic != _MAGIC or scheme != SIGNATURE_SCHEME:
            raise ValueError("not a canon signature of this scheme")
        values = np.frombuffer(data, dtype="<u8", offset=_HEADER.size, count=num_perm)
        return cls(values.astype(np.uint64), seed)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Signature)
            and self.seed == other.seed
            and np.array_equal(self.values, other.values)
        )

    __hash__ = None  # type: ignore[assignment]  # equal by value, so not hashable


_FIRST_ATTEMPTS = 8  # attempts tried at once at first; each further round tries twice as many


@lru_cache(maxsize=64)
def _sources(num_perm: int, seed: int, start: int, stop: int) -> np.ndarray:
    """The bin each bin borrows from at attempts ``start`` … ``stop - 1`` (a bins × attempts
    array): a hash of the bin, the attempt and the seed only."""
    bins = np.arange(num_perm, dtype=np.uint64)[:, None]
    attempts = np.arange(start, stop, dtype=np.uint64)[None, :]
    salt = _mix(np.uint64(seed) ^ _GOLDEN)
    key = _mix(bins * np.uint64(num_perm + 1) + attempts ^ salt)
    sources = (key % np.uint64(num_perm)).astype(np.intp)
    sources.flags.writeable = False
    return sources


def _densify(values: np.ndarray, num_perm: int, seed: int) -> np.ndarray:
    """Fill empty bins (rows of ``values``) from non-empty ones, the same way for every row.

    An empty bin takes the original value of the first bin of its attempt sequence that is not
    empty (never a filled one).  Every empty bin of every row is followed at once, a growing
    block of attempts at a time, until each has found one (or ``64 · num_perm`` attempts)."""
    empty = values == _EMPTY
    rows = np.flatnonzero(empty.any(axis=1))
    if len(rows) == 0:
        return values
    filled = values.copy()
    full = ~empty[rows].ravel()
    row, bins = np.nonzero(empty[rows])  # the pending (row, bin) pairs, rows of ``full``
    start, width, last = 1, _FIRST_ATTEMPTS, 64 * num_perm
    while len(row) and start < last:
        stop = min(start + width, last)
        tried = _sources(num_perm, seed, start, stop)[bins]  # pending × attempts
        tried += (row * num_perm)[:, None]  # flat places in the rows of ``full``
        found = full[tried]
        hit = found.any(axis=1)
        first = tried[hit, found[hit].argmax(axis=1)] % num_perm
        filled[rows[row[hit]], bins[hit]] = values[rows[row[hit]], first]
        row, bins = row[~hit], bins[~hit]
        start, width = stop, width * 2
    return filled


_CHUNK = 1 << 18  # hashes signed at once: larger batches leave the CPU caches and slow down


def _chunks(sizes: np.ndarray) -> list[slice]:
    """Runs of consecutive documents of about ``_CHUNK`` hashes in all (at least one each)."""
    ends = np.cumsum(sizes)
    cuts, start, done = [], 0, 0
    while start < len(sizes):
        stop = max(int(np.searchsorted(ends, done + _CHUNK, side="right")), start + 1)
        cuts.append(slice(start, stop))
        done, start = int(ends[stop - 1]), stop
    return cuts


def signatures(docs: list[np.ndarray], num_perm: int = 128, seed: int = 1) -> list[Signature]:
    """Signatures of many documents' shingle-hash arrays at once (one pass over all hashes)."""
    _check_num_perm(num_perm)
    sizes = np.array([len(d) for d in docs], dtype=np.intp)
    out: list[Signature] = []
    for part in _chunks(sizes):
        hashes = np.concatenate(docs[part]).astype(np.uint64, copy=False)
        out += _signatures(hashes, sizes[part], num_perm, seed)
    return out


def shingle_signatures(
    docs: Sequence[Tokens], k: int, num_perm: int = 128, seed: int = 1
) -> list[Signature]:
    """Signatures of many documents' k-word shingles, from their tokens or token hashes
    (``Canonical.hashes``), a few hundred thousand tokens at a time: the same as
    :func:`signatures` of their ``shingle_hashes``, without a NumPy call per document."""
    _check_num_perm(num_perm)
    sizes = np.fromiter(map(len, docs), dtype=np.intp, count=len(docs))
    out: list[Signature] = []
    for part in _chunks(sizes):
        hashes, counts = many_window_hashes(docs[part], k)
        out += _signatures(hashes, counts.astype(np.intp), num_perm, seed)
    return out


def _signatures(hashes: np.ndarray, sizes: np.ndarray, num_perm: int, seed: int) -> list[Signature]:
    """Signatures of documents whose hashes lie end to end in ``hashes``, ``sizes`` each."""
    if (sizes == 0).any():
        raise ValueError("a document with no shingles has no signature")
    owner = np.repeat(np.arange(len(sizes), dtype=np.intp), sizes)
    permuted = _mix(hashes ^ _mix(np.uint64(seed)))
    # The high bits pick the bin (multiply-shift, unbiased for any num_perm); the whole
    # permuted value orders shingles within a bin.
    bins = ((permuted >> np.uint64(32)) * np.uint64(num_perm) >> np.uint64(32)).astype(np.intp)
    table = np.full(len(sizes) * num_perm, _EMPTY, dtype=np.uint64)
    np.minimum.at(table, owner * num_perm + bins, permuted)  # flat indices: several times faster
    dense = _densify(table.reshape(len(sizes), num_perm), num_perm, seed)
    return [Signature(row, seed) for row in dense]


def signature(hashes: np.ndarray, num_perm: int = 128, seed: int = 1) -> Signature:
    """The signature of one document's shingle hashes."""
    return signatures([hashes], num_perm, seed)[0]


def estimate_jaccard(first: Signature, second: Signature) -> float:
    """The share of positions where two signatures agree: an unbiased Jaccard estimate."""
    if first.num_perm != second.num_perm or first.seed != second.seed:
        raise ValueError(
            f"signatures made with other settings (num_perm {first.num_perm} vs "
            f"{second.num_perm}, seed {first.seed} vs {second.seed}) cannot be compared"
        )
    return float(np.mean(first.values == second.values))
