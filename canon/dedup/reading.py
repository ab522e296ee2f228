"""Items → dedup entries: read, canonicalized and shingled in blocks, in worker processes.

A block is a few dozen consecutive items.  Its URLs are fetched first, all at once, in this
process (:func:`canon.sources.fetchall.fetch_all`); a worker then reads, canonicalizes and
shingles the block, computes its documents' MinHash signatures and LSH band keys, and sends
back one :class:`Block` of NumPy arrays (every document's shingle hashes end to end, with
offsets, and a row of band keys per document), not a Python object per document: the
signatures of a read source are never computed in this process.  Items are taken from the
input as blocks are handed out, and only a few blocks per worker are in flight, so a text is
held only until it is shingled: memory follows the shingle sets, not the corpus.

Workers are forked once per run, after this process has loaded the profile's rules, the
analyzer and the persisted lemma cache (:mod:`canon.text.lemma_cache`), so they start warm;
they are closed normally at the end, so each writes the lemmas it learned to that cache.
"""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice

import numpy as np

from ..canonical import canonicalize
from ..errors import CanonError, TextTooShort
from ..fingerprints.lsh import band_keys
from ..fingerprints.minhash import signatures
from ..fingerprints.shingles import shingle_hashes
from ..sources.collection import Failure, Item
from ..sources.documents import Document
from ..sources.items import Fetched, fetched_ahead, item_document
from ..text.lemmatize import is_known
from ..workers import blocks, die_with_parent, in_order
from .origin import Origin, links_of
from .settings import MinHashSettings, Reading

__all__ = [
    "BLOCK_ITEMS",
    "TOO_SHORT",
    "Block",
    "Result",
    "keys_of",
    "read_block",
    "read_blocks",
    "read_stream",
]

TOO_SHORT = "too-short"  # the reason of a text with fewer words than k: a LeftOut's

BLOCK_ITEMS = 32  # items a worker reads per block
AHEAD = 3  # blocks in flight per worker

Result = tuple[str, int, np.ndarray, Origin | None]  # a document read: see Block.results


@dataclass(frozen=True)
class Block:
    """The shingle sets of consecutive items: document ``i``'s sorted distinct hashes are
    ``hashes[offsets[i]:offsets[i + 1]]``; an item that could not be read has ``reasons[i]``
    (and no hashes).  ``links[i]`` are its redirect and canonical link, when it has either
    (:func:`~canon.dedup.origin.links_of`).  ``keys[i]`` are document ``i``'s LSH band keys
    (zeros for an item not read; no columns when the block was read without MinHash
    settings)."""

    sources: tuple[str, ...]
    chars: np.ndarray
    offsets: np.ndarray
    hashes: np.ndarray
    reasons: tuple[str | None, ...]
    links: tuple[Origin | None, ...]
    keys: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.uint64))

    def results(self) -> Iterator[Result | Failure]:
        """``(source, chars, hashes, links)`` or a Failure for each item, in order."""
        for i, source in enumerate(self.sources):
            reason = self.reasons[i]
            if reason is not None:
                yield Failure(source, reason)
            else:
                start, end = int(self.offsets[i]), int(self.offsets[i + 1])
                yield source, int(self.chars[i]), self.hashes[start:end], self.links[i]


def _document(item: Item | Fetched, reading: Reading) -> Document:
    return item_document(item, whole_page=reading.whole_page, fetch_options=reading.fetch_options)


def _shingled(item: Item | Fetched, reading: Reading) -> tuple[int, np.ndarray, Origin | None]:
    doc = _document(item, reading)
    canonical = canonicalize(doc.text, reading.profile)
    hashes = shingle_hashes(canonical.hashes, reading.k)
    if len(hashes) == 0:
        words, name = len(canonical.tokens), reading.profile.name
        raise TextTooShort(
            words,
            reading.k,
            item.source,
            f"{item.source}: has {words} canonical words under {name}, fewer than k={reading.k}",
        )
    return doc.chars, hashes, links_of(doc)


def keys_of(sets: list[np.ndarray], minhash: MinHashSettings) -> np.ndarray:
    """The LSH band keys of shingle sets (a row each) under ``minhash``."""
    bands, rows = minhash.banding
    if not sets:
        return np.zeros((0, bands), dtype=np.uint64)
    sigs = signatures(sets, minhash.num_perm, minhash.seed)
    return band_keys(np.stack([s.values for s in sigs]), bands, rows)


def read_block(
    items: list[Item | Fetched], reading: Reading, minhash: MinHashSettings | None = None
) -> Block:
    """Read, canonicalize and shingle ``items`` (an item that fails gets its reason), and
    with ``minhash`` compute their band keys."""
    chars = np.zeros(len(items), dtype=np.int64)
    sizes = np.zeros(len(items) + 1, dtype=np.int64)
    arrays: list[np.ndarray] = []
    reasons: list[str | None] = []
    links: list[Origin | None] = []
    for i, item in enumerate(items):
        try:
            chars[i], hashes, linked = _shingled(item, reading)
        except TextTooShort:
            reasons.append(TOO_SHORT)  # left out, not failed: the run tells them apart (a code,
            # not a sentence: it crosses the engines as a Failure's reason)
            links.append(None)
            continue
        except CanonError as exc:
            reasons.append(str(exc))
            links.append(None)
            continue
        reasons.append(None)
        links.append(linked)
        sizes[i + 1] = len(hashes)
        arrays.append(hashes)
    hashes = np.concatenate(arrays) if arrays else np.empty(0, dtype=np.uint64)
    sources = tuple(item.source for item in items)
    block = Block(sources, chars, np.cumsum(sizes), hashes, tuple(reasons), tuple(links))
    if minhash is None:
        return block
    keys = np.zeros((len(items), minhash.banding[0]), dtype=np.uint64)
    keys[np.array([r is None for r in reasons], dtype=bool)] = keys_of(arrays, minhash)
    return dataclasses.replace(block, keys=keys)


def _fetched(items: list[Item], reading: Reading) -> list[Item | Fetched]:
    """The block's items, its URLs fetched together (when it has several)."""
    return list(fetched_ahead(items, reading.fetch_options))


_reading: Reading | None = None
_minhash: MinHashSettings | None = None


def _init(reading: Reading, minhash: MinHashSettings | None, parent: int) -> None:
    global _reading, _minhash
    die_with_parent(parent)
    _reading, _minhash = reading, minhash


def _work(items: list[Item | Fetched]) -> Block:
    assert _reading is not None
    return read_block(items, _reading, _minhash)


def _blocks(items: Iterable[Item], reading: Reading) -> Iterator[list[Item | Fetched]]:
    for block in blocks(items, BLOCK_ITEMS):
        yield _fetched(block, reading)


def _in_workers(
    blocks: Iterator[list[Item | Fetched]],
    reading: Reading,
    workers: int,
    minhash: MinHashSettings | None,
) -> Iterator[Block]:
    """Blocks read by ``workers`` processes, in order, at most ``AHEAD`` each in flight.  The
    profile's rules, the analyzer, the persisted lemmas and the banding are loaded here first,
    so the workers are forked with them (and share their pages)."""
    canonicalize("проверка связи", reading.profile)
    is_known("проверка")  # loads the persisted lemmas (a profile's table may answer without)
    if minhash is not None:
        minhash.banding  # noqa: B018  (computed once, here, not in every worker)
    # Objects made so far are left out of the workers' garbage collections: a collection
    # writes to every object it visits, which would copy each page shared after the fork.
    gc.freeze()
    try:
        pool = multiprocessing.get_context("fork").Pool(
            workers, _init, (reading, minhash, os.getpid())
        )
    finally:
        gc.unfreeze()
    try:
        yield from in_order(pool, _work, blocks, AHEAD * workers)
        pool.close()  # a normal end: each worker writes its lemmas as it exits
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def read_blocks(
    items: Iterable[Item],
    reading: Reading,
    *,
    workers: int = 1,
    minhash: MinHashSettings | None = None,
) -> Iterator[Block]:
    """The items read in blocks, in order (with band keys under ``minhash``); items are taken
    from ``items`` only as workers get free (an input of one block is read here)."""
    fetched = _blocks(items, reading)
    first = list(islice(fetched, 2))
    if workers <= 1 or len(first) < 2:
        yield from (read_block(b, reading, minhash) for b in chain(first, fetched))
    else:
        yield from _in_workers(chain(first, fetched), reading, workers, minhash)


def read_stream(
    items: Iterable[Item], reading: Reading, *, workers: int = 1
) -> Iterator[Result | Failure]:
    """``(source, chars, shingle hashes, links)`` or a Failure for each item, in order; items are
    taken from ``items`` only as workers get free (an input of one block is read here)."""
    for block in read_blocks(items, reading, workers=workers):
        yield from block.results()
