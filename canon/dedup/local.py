"""The local engine: the dedup stages in this process (sources read in worker processes)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..lsh import band_keys
from ..sketch import signatures
from ..sources.collection import Failure, Item
from .settings import MinHashSettings, Reading
from .stages import DedupResult, Entry, candidates, clusters, iter_entries, verify

__all__ = ["LocalEngine", "dedup"]

Stage = Callable[[str], None]


def _quiet(stage: str) -> None:
    pass


def dedup(
    entries: Sequence[Entry],
    threshold: float | MinHashSettings = 0.8,
    *,
    num_perm: int = 128,
    seed: int = 1,
    on_stage: Stage = _quiet,
) -> DedupResult:
    """Clusters of documents whose shingle sets have Jaccard >= ``threshold`` (a number, or
    whole :class:`MinHashSettings`).

    ``on_stage`` is called with each stage's name as it starts (for a progress display).
    """
    settings = (
        threshold
        if isinstance(threshold, MinHashSettings)
        else MinHashSettings(threshold, num_perm, seed)
    )
    threshold, num_perm, seed = settings.threshold, settings.num_perm, settings.seed
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    on_stage("signatures")
    bands, rows = settings.banding
    sigs = signatures([e.hashes for e in entries], num_perm, seed) if entries else []
    seconds["signatures"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("candidates")
    values = np.stack([s.values for s in sigs]) if sigs else np.empty((0, num_perm), np.uint64)
    pairs = candidates(band_keys(values, bands, rows)) if len(entries) > 1 else set()
    seconds["candidates"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("verification")
    hashes = {i: e.hashes for i, e in enumerate(entries)}
    verified = verify(sorted(pairs), hashes, threshold)
    seconds["verification"] = time.perf_counter() - start
    start = time.perf_counter()
    on_stage("components")
    found = clusters([(e.source, e.chars) for e in entries], verified)
    seconds["components"] = time.perf_counter() - start
    return DedupResult(tuple(found), len(entries), len(pairs), len(verified), bands, rows, seconds)


@dataclass(frozen=True)
class LocalEngine:
    """Read in ``workers`` processes (texts streamed from the inputs, dropped once shingled),
    then run the stages here."""

    workers: int = 1

    def run(
        self,
        inputs: Iterable[Item | Entry],
        settings: MinHashSettings,
        reading: Reading,
        on_stage: Stage = _quiet,
    ) -> tuple[DedupResult, list[Failure]]:
        on_stage("reading and shingling")
        entries: list[Entry] = []
        failures: list[Failure] = []
        for x in iter_entries(inputs, reading, workers=self.workers):
            (entries if isinstance(x, Entry) else failures).append(x)  # type: ignore[arg-type]
        return dedup(entries, settings, on_stage=on_stage), failures
