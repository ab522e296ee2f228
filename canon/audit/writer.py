"""Batches of crawled pages → the audit's file, in a thread of its own.

The crawl's event loop hands each batch over and goes on fetching; this thread writes the
batch's documents (one index transaction), then its rows and URLs (one state transaction),
then its marks (``seeded``), in the order the batches came, on connections of its own.  A
batch is written whole or, after a kill, not at all (its pages are fetched again on resume).
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..index.rules import IndexedProfile
from ..index.store import Index
from ..index.writes import Prepared
from .state import PageRow, Queued, State

__all__ = ["Batch", "Writer"]


@dataclass
class Batch:
    found: list[Queued] = field(default_factory=list)
    rows: list[PageRow] = field(default_factory=list)
    docs: list[Prepared] = field(default_factory=list)
    marks: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.found or self.rows or self.docs or self.marks)


class Writer:
    """Use as ``with Writer(path, profiles) as writer: writer.put(batch)``; leaving the block
    waits for every batch to be written and raises what writing raised."""

    def __init__(self, path: Path, profiles: list[IndexedProfile], backlog: int = 8) -> None:
        self.path = path
        self.profiles = profiles
        self.batches: queue.Queue[Batch | None] = queue.Queue(maxsize=backlog)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="canon-audit-writer", daemon=True)

    def __enter__(self) -> Writer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.batches.put(None)
        self.thread.join()
        if self.error is not None and exc[0] is None:
            raise self.error

    def put(self, batch: Batch) -> None:
        """Queue ``batch`` (waiting while ``backlog`` batches are still to be written)."""
        if self.error is not None:
            raise self.error
        self.batches.put(batch)

    def wait(self) -> None:
        """Until every batch queued so far is written."""
        self.batches.join()
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        with Index(self.path) as index, State(self.path) as state:
            while True:
                batch = self.batches.get()
                try:
                    if batch is None:
                        return
                    if self.error is None:
                        self._write(index, state, batch)
                except BaseException as exc:  # handed to the crawl's thread
                    self.error = exc
                finally:
                    self.batches.task_done()

    def _write(self, index: Index, state: State, batch: Batch) -> None:
        if batch.docs:
            index.write_batch(batch.docs, self.profiles)
        state.record(batch.found, batch.rows)
        for key, value in batch.marks.items():
            state.put(key, value)
