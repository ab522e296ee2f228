"""Shingle sets of a run → an append-only store: in memory up to a budget, beyond it one file.

Sets are appended a block at a time (a block's sets end to end, with offsets) and numbered in
the order they come.  While the sets held fit the budget they stay in memory as the blocks
came; the first block that would pass it, and every block after, is written to ``hashes.u64``
in a temporary directory (in ``spill_dir``, else the system's): one flat file of little-endian
uint64 values, the sets end to end, read back through a memory map.  Where each set starts
and ends is one int64 array (8 bytes a document) kept in memory.  The directory is deleted
when the store is closed, which a ``with`` block does on any exit, an error or Ctrl-C too.
"""

from __future__ import annotations

import tempfile
from array import array
from bisect import bisect_right
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

import numpy as np

from ..errors import OutputError

__all__ = ["SPILL_NAME", "HashStore"]

SPILL_NAME = "hashes.u64"
_PREFIX = "canon-dedup-"


class HashStore:
    """Sorted shingle-hash sets by number; at most ``budget`` bytes of them in memory."""

    def __init__(self, budget: int, spill_dir: Path | None = None) -> None:
        self.budget = budget
        self._spill_dir = spill_dir
        self._ends = array("q", [0])  # set i is positions ends[i] .. ends[i + 1]
        self._chunks: list[np.ndarray] = []  # in memory: blocks of sets end to end
        self._chunk_starts: list[int] = []
        self._held = 0  # positions held in memory (they come first)
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._file: BinaryIO | None = None
        self._map: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self._ends) - 1

    @property
    def memory_bytes(self) -> int:
        """Bytes of sets held in memory."""
        return self._held * 8

    @property
    def spilled_bytes(self) -> int:
        """Bytes of sets written to the file."""
        return (self._ends[-1] - self._held) * 8

    @property
    def path(self) -> Path | None:
        """The spill file, once there is one."""
        return None if self._folder is None else Path(self._folder.name) / SPILL_NAME

    def extend(self, hashes: np.ndarray, offsets: np.ndarray) -> None:
        """Append the sets ``hashes[offsets[i]:offsets[i + 1]]``, in order."""
        hashes = np.ascontiguousarray(hashes, dtype=np.uint64)
        total = self._ends[-1]
        self._ends.extend((np.asarray(offsets[1:], dtype=np.int64) + total).tolist())
        if self._file is None and (total + len(hashes)) * 8 <= self.budget:
            self._chunks.append(hashes)
            self._chunk_starts.append(total)
            self._held = total + len(hashes)
            return
        self._write(hashes)

    def append(self, hashes: np.ndarray) -> None:
        """Append one set."""
        self.extend(hashes, np.array([0, len(hashes)]))

    def _write(self, hashes: np.ndarray) -> None:
        if self._file is None:
            self._open()
        assert self._file is not None
        try:
            self._file.write(hashes.astype("<u8", copy=False).tobytes())
        except OSError as exc:
            raise OutputError(str(self.path), f"cannot spill shingle sets: {exc}") from exc
        self._map = None

    def _open(self) -> None:
        folder = None if self._spill_dir is None else str(self._spill_dir)
        try:
            self._folder = tempfile.TemporaryDirectory(prefix=_PREFIX, dir=folder)
            self._file = open(Path(self._folder.name) / SPILL_NAME, "wb")  # noqa: SIM115
        except OSError as exc:
            self.close()
            raise OutputError(str(folder), f"cannot spill shingle sets: {exc}") from exc

    def _mapped(self) -> np.ndarray:
        if self._map is None:
            assert self._file is not None and self.path is not None
            self._file.flush()
            self._map = np.memmap(self.path, dtype="<u8", mode="r")
        return self._map

    def __getitem__(self, index: int) -> np.ndarray:
        start, end = self._ends[index], self._ends[index + 1]
        if end <= self._held and start < end:
            chunk = bisect_right(self._chunk_starts, start) - 1
            base = self._chunk_starts[chunk]
            return self._chunks[chunk][start - base : end - base]
        if start == end:
            return np.empty(0, dtype=np.uint64)
        return np.asarray(self._mapped()[start - self._held : end - self._held])

    def close(self) -> None:
        """Drop the sets and delete the spill file (if any)."""
        self._map = None
        self._chunks.clear()
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def __enter__(self) -> HashStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
