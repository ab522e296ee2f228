"""The local engine: sources read in worker processes, the other dedup stages in this process.

Workers send back each block's shingle sets and band keys (:mod:`canon.dedup.reading`); this
process keeps, per document, only its source, origin and band keys, and puts its shingle set
in a :class:`~canon.dedup.store.HashStore` (memory up to the budget, then a file).  Entries
given ready (an index's documents) get their band keys here, ``ENTRY_CHUNK`` at a time.
Candidates and verification then run from the band keys and the store
(:mod:`canon.dedup.linking`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..sources.collection import Failure, Item
from .linking import buckets, link
from .origin import Origin, Origins, argument_of
from .reading import Block, keys_of, read_blocks
from .settings import Budget, MinHashSettings, Reading
from .stages import DedupResult, Entry, clusters
from .store import HashStore

if TYPE_CHECKING:  # an index is read only when a run has one
    from .indexed import IndexDocuments, IndexReader

__all__ = ["ENTRY_CHUNK", "LocalEngine", "dedup"]

Stage = Callable[[str], None]
ENTRY_CHUNK = 2048  # entries given ready whose signatures are computed at once
_UNBOUNDED = 2**62


def _quiet(stage: str) -> None:
    pass


@dataclass
class _Table:
    """What this process keeps per document, in input order, while the sets go to ``store``."""

    store: HashStore
    minhash: MinHashSettings
    index: IndexReader | None = None  # documents 0 .. base - 1 are the index's
    base: int = 0
    notes: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    origins: Origins = field(default_factory=Origins)
    parts: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # (rows, keys)
    pending: list[tuple[int, np.ndarray]] = field(default_factory=list)  # entries without keys
    signing: float = 0.0  # seconds spent on the signatures of entries

    def add_block(self, block: Block, arguments: Sequence[int]) -> Iterator[Failure]:
        """A block's documents, ``arguments`` the SOURCE arguments of its items."""
        start = len(self.sources)
        ok = np.array([r is None for r in block.reasons], dtype=bool)
        for source, reason, links, argument in zip(
            block.sources, block.reasons, block.links, arguments
        ):
            if reason is not None:
                yield Failure(source, reason)
            else:
                self.sources.append(source)
                self.origins.append(argument, links)
        self.store.extend(block.hashes, np.concatenate(([0], block.offsets[1:][ok])))
        self.parts.append((np.arange(start, len(self.sources)), block.keys[ok]))

    def add_index(self, index: IndexReader) -> None:
        """The index's documents first: their band keys from what it stores, their sets read
        from it when verified."""
        start = time.perf_counter()
        for source, _ in index.documents():
            self.sources.append(source)
            self.origins.append(0)
        keys, origin = index.keys(self.minhash)
        self.parts.append((np.arange(len(keys)), keys))
        self.notes += [origin.note] if origin.note else []
        self.index, self.base = index, len(self.sources)
        self.signing += time.perf_counter() - start

    def hashes(self, position: int) -> np.ndarray:
        """The shingle set of the document at ``position``."""
        if position < self.base:
            assert self.index is not None  # positions below base are the index's
            return self.index.hashes(position)
        return self.store[position - self.base]

    def add_entry(self, entry: Entry) -> None:
        self.pending.append((len(self.sources), entry.hashes))
        self.sources.append(entry.source)
        self.origins.append(entry.origin.argument, entry.origin)
        self.store.append(entry.hashes)
        if len(self.pending) >= ENTRY_CHUNK:
            self.sign()

    def sign(self) -> None:
        """The band keys of the entries waiting for them."""
        if self.pending:
            start = time.perf_counter()
            rows = np.array([row for row, _ in self.pending], dtype=np.int64)
            self.parts.append((rows, keys_of([h for _, h in self.pending], self.minhash)))
            self.pending.clear()
            self.signing += time.perf_counter() - start

    def keys(self) -> np.ndarray:
        """Every document's band keys, a row each."""
        self.sign()
        keys = np.zeros((len(self.sources), self.minhash.banding[0]), dtype=np.uint64)
        while self.parts:
            rows, part = self.parts.pop()
            keys[rows] = part
        return keys


def _collect(
    inputs: Iterable[Item | Entry], table: _Table, reading: Reading, workers: int
) -> list[Failure]:
    """Read the items (in ``workers`` processes) and take the entries, in input order."""
    order: deque[Entry | None] = deque()  # inputs taken and not yet handled; None: an item
    arguments: deque[int] = deque()  # of the items taken and not yet read
    failures: list[Failure] = []

    def items() -> Iterator[Item]:
        for x in inputs:
            order.append(x if isinstance(x, Entry) else None)
            if not isinstance(x, Entry):
                arguments.append(argument_of(x))
                yield x

    def entries_before_item() -> None:
        while (entry := order.popleft()) is not None:
            table.add_entry(entry)

    for block in read_blocks(items(), reading, workers=workers, minhash=table.minhash):
        for _ in block.sources:
            entries_before_item()
        failures += table.add_block(block, [arguments.popleft() for _ in block.sources])
    while order:
        entry = order.popleft()
        assert entry is not None  # only entries are left
        table.add_entry(entry)
    return failures


def _stages(
    table: _Table, keys: np.ndarray, settings: MinHashSettings, on_stage: Stage
) -> DedupResult:
    """Candidates, verification and components from the band keys and the stored sets."""
    seconds = {"signatures": table.signing}
    start = time.perf_counter()
    on_stage("candidates")
    found = buckets(keys)
    seconds["candidates"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("verification")
    linked = link(found, table.hashes, settings.threshold)
    seconds["verification"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("components")
    found_clusters = clusters(_Entries(table), linked.verified, table.hashes)
    seconds["components"] = time.perf_counter() - start
    bands, rows = settings.banding
    documents, verified = len(table.sources), len(linked.verified)
    if table.store.spilled_bytes:
        table.notes.append(
            f"shingle sets: {table.store.memory_bytes / 1e6:,.0f} MB held in memory, "
            f"{table.store.spilled_bytes / 1e6:,.0f} MB spilled to a temporary file "
            f"(budget {table.store.budget / 1e6:,.0f} MB)"
        )
    return DedupResult(
        tuple(found_clusters),
        documents,
        linked.checked,
        verified,
        bands,
        rows,
        seconds,
        tuple(table.notes),
    )


class _Entries(Sequence[tuple[str, Origin]]):
    """``(source, origin)`` of each document, without a tuple per document."""

    def __init__(self, table: _Table) -> None:
        self._table = table

    def __len__(self) -> int:
        return len(self._table.sources)

    def __getitem__(self, index: int) -> tuple[str, Origin]:  # type: ignore[override]  # no slices
        return self._table.sources[index], self._table.origins[index]


def _settings_of(threshold: float | MinHashSettings, num_perm: int, seed: int) -> MinHashSettings:
    if isinstance(threshold, MinHashSettings):
        return threshold
    return MinHashSettings(threshold, num_perm, seed)


def dedup(
    entries: Sequence[Entry],
    threshold: float | MinHashSettings = 0.8,
    *,
    num_perm: int = 128,
    seed: int = 1,
    on_stage: Stage = _quiet,
) -> DedupResult:
    """Clusters of documents whose shingle sets have Jaccard >= ``threshold`` (a number, or
    whole :class:`MinHashSettings`), the sets held in memory as given.

    ``on_stage`` is called with each stage's name as it starts (for a progress display).
    """
    settings = _settings_of(threshold, num_perm, seed)
    with HashStore(_UNBOUNDED) as store:
        table = _Table(store, settings)
        on_stage("signatures")
        for entry in entries:
            table.add_entry(entry)
        return _stages(table, table.keys(), settings, on_stage)


@dataclass(frozen=True)
class LocalEngine:
    """Read in ``workers`` processes (texts streamed from the inputs, dropped once shingled,
    signatures computed there), the sets kept within ``budget``; then run the stages here."""

    workers: int = 1
    budget: Budget = field(default_factory=Budget)

    def run(
        self,
        inputs: Iterable[Item | Entry],
        settings: MinHashSettings,
        reading: Reading,
        on_stage: Stage = _quiet,
        *,
        index: IndexDocuments | None = None,
    ) -> tuple[DedupResult, list[Failure]]:
        """Dedup ``index``'s documents (if given) and then ``inputs``."""
        on_stage("reading and shingling")
        with (
            HashStore(self.budget.memory, self.budget.spill_dir) as store,
            index.reader() if index is not None else nullcontext() as reader,
        ):
            table = _Table(store, settings)
            if reader is not None:
                table.add_index(reader)
            failures = _collect(inputs, table, reading, self.workers)
            on_stage("signatures")
            result = _stages(table, table.keys(), settings, on_stage)
        return result, failures
