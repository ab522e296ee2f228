"""The Dask engine (dask.distributed): the stages of :mod:`canon.dedup.stages`, as tasks.

- Workers read and canonicalize partitions of the sources and compute signatures and band keys.
- Band keys are shuffled (``Bag.groupby``) so that documents sharing a key meet; each group
  gives its candidate pairs.
- Workers verify the candidate pairs by exact Jaccard; only the shingle sets of documents in
  some candidate pair travel, once.
- The client joins verified pairs into connected components.

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

from ..errors import CanonError, MissingResource
from ..lsh import band_keys
from ..profile import Profile, get_profile
from ..sketch import signatures
from ..sources.collection import Failure, Item
from ..sources.fetch import FetchOptions
from .settings import MinHashSettings, Reading
from .stages import DedupResult, Entry, clusters, pairs_within, read_entries, verify

__all__ = ["DaskEngine", "connect", "dedup_dask"]

CONNECT_TIMEOUT = 10.0


def _require_dask() -> None:
    try:
        import dask.bag  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise MissingResource(
            "the Dask engine needs Dask: pip install 'canon[dask]' (dask and distributed)",
            package="dask",
        ) from exc


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
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
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
    threshold: float | MinHashSettings,
    *,
    client: Any,
    profile: Profile | str = "lemma",
    k: int = 4,
    num_perm: int = 128,
    seed: int = 1,
    partitions: int | None = None,
    whole_page: bool = False,
    fetch_options: FetchOptions | None = None,
) -> tuple[DedupResult, list[Failure]]:
    """Dedup ``inputs`` (sources to read on the workers, or prepared entries) on ``client``."""
    settings = (
        threshold
        if isinstance(threshold, MinHashSettings)
        else MinHashSettings(threshold, num_perm, seed)
    )
    reading = Reading(get_profile(profile), k, whole_page, fetch_options or FetchOptions())
    return _run(inputs, settings, reading, client, partitions)


def _candidate_pairs(entries: Any, settings: MinHashSettings) -> list[tuple[int, int]]:
    """Pairs sharing a band key: band records are shuffled so that equal keys meet."""
    bands, rows = settings.banding
    return sorted(
        entries.map_partitions(_band_records, settings.num_perm, settings.seed, bands, rows)
        .groupby(lambda record: (record[0], record[1]), shuffle="tasks")
        .map(lambda group: [index for _, _, index in group[1]])
        .filter(lambda members: len(members) > 1)
        .map(pairs_within)
        .flatten()
        .distinct()
        .compute()
    )


def _verified_pairs(
    entries: Any, candidates: list[tuple[int, int]], threshold: float, count: int
) -> list[tuple[int, int, float]]:
    """Candidates verified on the workers; only the sets of documents in some pair travel."""
    import dask
    import dask.bag as db

    if not candidates:
        return []
    needed = {i for pair in candidates for i in pair}
    hashes = dict(
        entries.filter(lambda r: r[0] in needed).map(lambda r: (r[0], r[1].hashes)).compute()
    )
    lookup = dask.delayed(hashes, pure=True)
    return sorted(
        db.from_sequence(candidates, npartitions=min(count, len(candidates)))
        .map_partitions(_verify, lookup, threshold)
        .compute()
    )


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
    meta = dict(entries.map(lambda r: (r[0], (r[1].source, r[1].chars))).compute())
    seconds["signatures"] = time.perf_counter() - start
    start = time.perf_counter()
    candidates = _candidate_pairs(entries, settings)
    seconds["candidates"] = time.perf_counter() - start
    start = time.perf_counter()
    verified = _verified_pairs(entries, candidates, settings.threshold, count)
    seconds["verification"] = time.perf_counter() - start
    start = time.perf_counter()
    # Renumber so that document order is the input order, as in the local engine.
    order = sorted(meta)
    position = {index: n for n, index in enumerate(order)}
    renumbered = [(position[a], position[b], j) for a, b, j in verified]
    found = clusters([meta[i] for i in order], renumbered)
    seconds["components"] = time.perf_counter() - start
    bands, rows = settings.banding
    result = DedupResult(
        tuple(found), len(meta), len(candidates), len(verified), bands, rows, seconds
    )
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
