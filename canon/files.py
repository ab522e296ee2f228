"""A file written whole or not at all: into a temporary file beside it, put in its place
(:func:`os.replace`) when it is complete, so that a reader never sees half of it and a failed
write leaves the file as it was."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .errors import OutputError

__all__ = ["replacing"]


@contextmanager
def replacing(path: Path, mode: str = "w") -> Iterator[IO[Any]]:
    """``path`` open for writing (``mode`` ``"w"``: UTF-8 text as written; ``"wb"``: bytes),
    put in place when the block ends; an :class:`~canon.errors.OutputError` naming ``path``
    when it cannot be written."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    text = "b" not in mode
    try:
        with temporary.open(
            mode, encoding="utf-8" if text else None, newline="" if text else None
        ) as out:
            yield out
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise OutputError(path, f"cannot write ({exc.strerror or exc})") from exc
