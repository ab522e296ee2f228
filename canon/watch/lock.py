"""One run of a watch at a time: an exclusive ``flock`` on ``watch.lock`` in its folder.

The lock is held for the whole run and released by the system when the process ends, however
it ends, so a run killed midway never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import OutputError

__all__ = ["LOCK_NAME", "locked"]

LOCK_NAME = "watch.lock"


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold the watch's lock, or refuse at once when another run holds it."""
    path = folder / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise OutputError(path, f"cannot open the lock ({exc.strerror or exc})") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "another process"
            raise OutputError(
                folder,
                f"another run of this watch is going on (process {holder}); wait for it to end",
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock
