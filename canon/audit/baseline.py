"""A folder's finished audit → kept, whole, as the baseline of the next audit made there.

A folder holds one audit at a time, in ``audit.db`` and its outputs.  An audit run into a folder
whose audit was stopped (killed, failed, out of time) resumes it; one run into a folder whose
audit *finished* is a new audit of the site, and the finished one is first moved into
``DIR/previous/``: its ``audit.db`` and its outputs, so that it can still be read or analysed
again, and the new audit's changes are counted against it (:mod:`.changes`).  An older
``previous/`` is replaced: the baseline is always the last audit that finished.

An audit is finished once its outputs are written after a crawl that was not cut short by its
time limit (:func:`mark_finished`); an audit made before that mark existed counts as finished
when it was seeded and crawled and no URL of it is left to fetch.

The move is staged in ``DIR/.previous.part/`` and the database goes last, so a move stopped at
any point is finished by the next run: the folder's files are moved (before a database, what
lies beside it: its write-ahead log, its shared memory and its folder of postings segments),
the old ``previous/`` removed, the stage renamed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..errors import OutputError
from .state import State

__all__ = ["PREVIOUS", "finished", "finished_at", "keep_as_previous", "mark_finished", "moving"]

PREVIOUS = "previous"
_PART = ".previous.part"
_FINISHED = "finished"  # the audit's meta key: when its outputs were written
_BESIDE = ("-wal", "-shm", "-segments")  # what SQLite and the index keep beside a database


def mark_finished(state: State) -> None:
    """Record that the audit of ``state`` finished: the next audit of its folder is a new one."""
    state.put(_FINISHED, datetime.now(UTC).isoformat(timespec="seconds"))


def finished_at(state: State) -> str | None:
    """When the audit of ``state`` finished (for an audit from before the mark: when its crawl
    ended), or None while it has not."""
    when = state.get(_FINISHED)
    if when is None and state.get("seeded") and not state.pending():
        when = state.get("crawled")
    return when if isinstance(when, str) else None


def finished(path: Path) -> bool:
    """Whether the audit file ``path`` holds an audit that finished (none there: False)."""
    if not path.is_file():
        return False
    with State(path) as state:  # read-write: closing it folds a left write-ahead log in
        return finished_at(state) is not None


def moving(folder: Path, audit_file: str) -> bool:
    """Whether the audit in ``folder`` is to be kept as the baseline before a new one starts:
    it finished, or a move of it was stopped midway."""
    return (folder / _PART).is_dir() or finished(folder / audit_file)


def keep_as_previous(folder: Path, names: Sequence[str]) -> Path:
    """Move the files ``names`` of ``folder`` (those there; the audit's database last) into
    ``folder/previous/``, replacing what was there; that folder."""
    part, previous = folder / _PART, folder / PREVIOUS
    try:
        part.mkdir(exist_ok=True)
        for name in names:
            for moved in (*(name + suffix for suffix in _BESIDE), name):
                if (folder / moved).exists():
                    os.replace(folder / moved, part / moved)
        if previous.exists():
            shutil.rmtree(previous)
        os.replace(part, previous)
    except OSError as exc:
        raise OutputError(
            folder, f"cannot move the last audit into {PREVIOUS}/ ({exc.strerror or exc})"
        ) from exc
    return previous
