"""The Dask engine (dask.distributed): the stages of :mod:`canon.dedup.stages`, as tasks.

- Workers read and canonicalize partitions of the sources and compute signatures and band keys.
- Band keys are shuffled (``Bag.groupby``) so that documents sharing a key meet; a group of at
  most :data:`~canon.dedup.linking.BUCKET_LIMIT` documents gives its candidate pairs, a larger
  one (thousands of copies of a page) is kept whole, never paired out.
- Workers verify the candidate pairs by exact Jaccard; only the shingle sets of documents in
  some pair or large group travel, once.  The client then walks each large group member by
  member against the groups already connected, as the local engine does
  (:mod:`canon.dedup.linking`), so both give the same pairs.
- The client joins verified pairs into connected components and chooses each one's member to
  keep, from the sets it already holds.

Signatures are per-document and deterministic, so the output equals the local engine's on the
same input.  Without an address, a ``LocalCluster`` of worker processes runs on this machine.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import CanonError
from ..extras import require
from ..fingerprints.lsh import band_keys
from ..fingerprints.minhash import signatures
from ..sources.collection import Failure, Item
from .linking import BUCKET_LIMIT, Linked, walk
from .settings import MinHashSettings, Reading
from .stages import DedupResult, Entry, clusters, pairs_within, read_entries, verify
from .unionfind import UnionFind

__all__ = ["DaskEngine", "connect", "dedup_dask"]

CONNECT_TIMEOUT = 10.0


def _require_dask() -> None:
    require("dask", "the Dask engine")


@contextmanager
def connect(
    scheduler: str | None, workers: int = 2, timeout: float = CONNECT_TIMEOUT
) -> Iterator[Any]:
    """A client of the scheduler at ``scheduler``, or of a new LocalCluster of processes."""
    _require_dask()
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            raise CanonError(
                f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s; "
                "check the address and that the scheduler runs",
                reason="scheduler",
            ) from exc
        with client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            # The scheduler's HTTP server starts even without a dashboard: on a free port, so
            # that a second cluster on the machine (port 8787 taken) adds no warning to stderr.
            dashboard_address=":0",
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


# Functions below run on the workers; they must be importable top-level functions.


def _read_partition(
    part: Iterable[tuple[int, Item | Entry]], reading: Reading
) -> list[tuple[int, Entry | Failure]]:
    part = list(part)  # a partition may be an iterator
    return list(zip([i for i, _ in part], read_entries([x for _, x in part], reading)))


def _band_records(
    part: Iterable[tuple[int, Entry]], num_perm: int, seed: int, bands: int, rows: int
) -> list[tuple[int, int, int]]:
    part = list(part)
    if not part:
        return []
    sigs = signatures([e.hashes for _, e in part], num_perm, seed)
    keys = band_keys(np.stack([s.values for s in sigs]), bands, rows)
    return [
        (band, int(key), index)
        for (index, _), row in zip(part, keys)
        for band, key in enumerate(row.tolist())
    ]


def _verify(
    part: Iterable[tuple[int, int]], hashes: dict[int, np.ndarray], threshold: float
) -> list[tuple[int, int, float]]:
    return verify(list(part), hashes, threshold)


def dedup_dask(
    inputs: Sequence[Item | Entry],
    settings: MinHashSettings | float,
    reading: Reading | None = None,
    *,
    client: Any,
    partitions: int | None = None,
) -> tuple[DedupResult, list[Failure]]:
    """Dedup ``inputs`` (sources to read on the workers, or prepared entries) on ``client``,
    under ``settings`` (or a Jaccard threshold with the other settings at their defaults),
    sources read as ``reading`` says."""
    if not isinstance(settings, MinHashSettings):
        settings = MinHashSettings(settings)
    return _run(inputs, settings, reading or Reading(), client, partitions)


def _candidates(
    entries: Any, settings: MinHashSettings
) -> tuple[list[tuple[int, int]], list[tuple[int, ...]]]:
    """Pairs sharing a band key in groups of at most ``BUCKET_LIMIT``, and the larger groups
    in the order the local engine walks them (by band, then key): band records are shuffled so
    that equal keys meet."""
    from dask.base import compute

    bands, rows = settings.banding
    groups = (
        entries.map_partitions(_band_records, settings.num_perm, settings.seed, bands, rows)
        .groupby(lambda record: (record[0], record[1]), shuffle="tasks")
        .map(lambda group: (group[0], tuple(sorted(index for _, _, index in group[1]))))
        .filter(lambda group: len(group[1]) > 1)
    )
    small = groups.filter(lambda g: len(g[1]) <= BUCKET_LIMIT).map(lambda g: pairs_within(g[1]))
    large = groups.filter(lambda g: len(g[1]) > BUCKET_LIMIT)
    pairs, walked = compute(small.flatten().distinct(), large)
    return sorted(pairs), [members for _, members in sorted(walked)]


def _verified_pairs(
    entries: Any,
    candidates: list[tuple[int, int]],
    large: list[tuple[int, ...]],
    threshold: float,
    count: int,
) -> tuple[list[tuple[int, int, float]], int, dict[int, np.ndarray]]:
    """Candidates verified on the workers (only the sets of documents in some pair or group
    travel), then the large groups walked here, after every pair; the verified pairs, how
    many pairs were checked, and the sets that travelled (those of every document in a
    cluster among them)."""
    import dask.bag as db
    from dask.delayed import delayed

    if not candidates and not large:
        return [], 0, {}
    needed = {i for pair in candidates for i in pair} | {i for group in large for i in group}
    hashes = dict(
        entries.filter(lambda r: r[0] in needed).map(lambda r: (r[0], r[1].hashes)).compute()
    )
    lookup = delayed(hashes, pure=True)
    found = []
    if candidates:
        found = sorted(
            db.from_sequence(candidates, npartitions=min(count, len(candidates)))
            .map_partitions(_verify, lookup, threshold)
            .compute()
        )
    linked = Linked(found, len(candidates))
    forest = UnionFind(max(needed) + 1)
    for a, b, _ in found:
        forest.union(a, b)
    for members in large:
        walk(np.array(members), hashes.__getitem__, threshold, forest, linked)
    return sorted(linked.verified), linked.checked, hashes


def _run(
    inputs: Sequence[Item | Entry],
    settings: MinHashSettings,
    reading: Reading,
    client: Any,
    partitions: int | None,
) -> tuple[DedupResult, list[Failure]]:
    import dask.bag as db

    seconds: dict[str, float] = {}
    start = time.perf_counter()
    count = partitions or max(1, 2 * len(client.scheduler_info()["workers"]))
    prepared = (
        db.from_sequence(list(enumerate(inputs)), npartitions=min(count, max(1, len(inputs))))
        .map_partitions(_read_partition, reading)
        .persist()
    )
    failures = [x for _, x in prepared.filter(lambda r: isinstance(r[1], Failure)).compute()]
    entries = prepared.filter(lambda r: isinstance(r[1], Entry))
    meta = dict(entries.map(lambda r: (r[0], (r[1].source, r[1].origin))).compute())
    seconds["signatures"] = time.perf_counter() - start
    start = time.perf_counter()
    candidates, large = _candidates(entries, settings)
    seconds["candidates"] = time.perf_counter() - start
    start = time.perf_counter()
    verified, checked, hashes = _verified_pairs(
        entries, candidates, large, settings.threshold, count
    )
    seconds["verification"] = time.perf_counter() - start
    start = time.perf_counter()
    # Renumber so that document order is the input order, as in the local engine.
    order = sorted(meta)
    position = {index: n for n, index in enumerate(order)}
    renumbered = [(position[a], position[b], j) for a, b, j in verified]
    found = clusters([meta[i] for i in order], renumbered, lambda n: hashes[order[n]])
    seconds["components"] = time.perf_counter() - start
    bands, rows = settings.banding
    result = DedupResult(tuple(found), len(meta), checked, len(verified), bands, rows, seconds)
    return result, failures


@dataclass(frozen=True)
class DaskEngine:
    """Run the stages as Dask tasks: on the scheduler at ``scheduler``, or on a LocalCluster
    of ``workers`` processes; ``partitions`` defaults to two per worker."""

    scheduler: str | None = None
    workers: int = 2
    partitions: int | None = None

    def run(
        self,
        inputs: Iterable[Item | Entry],
        settings: MinHashSettings,
        reading: Reading,
        on_stage: Any = None,
    ) -> tuple[DedupResult, list[Failure]]:
        inputs = list(inputs)
        with connect(self.scheduler, self.workers) as client:
            if on_stage is not None:
                on_stage("reading, shingling and clustering on Dask")
            return _run(inputs, settings, reading, client, self.partitions)
