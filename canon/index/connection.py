"""A path → an open SQLite connection to a canon index; every SQLite error as one IndexFileError.

Writers use WAL mode, so a check reads while an add is under way.  A reader opens the file with
``mode=ro``; on storage it cannot write (a read-only folder or mount), where WAL mode could not
create its ``-shm`` file, it opens the file as immutable instead (no lock, no ``-shm``), which
is right as long as no write-ahead log is left beside it.  A left log is named in the message.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from ..errors import IndexFileError
from .schema import check_schema, create_schema, is_blank

__all__ = [
    "BUSY_TIMEOUT",
    "open_file",
    "open_index",
    "read_error",
    "reading",
    "transaction",
    "use_wal",
    "write_error",
]

BUSY_TIMEOUT = 30.0  # seconds a writer waits for another one's transaction


_UNDECODABLE = "could not decode to utf-8"  # a text column holding other bytes


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    if _UNDECODABLE in text.lower():
        return "a text column holds bytes that are not UTF-8"  # never echo the bytes
    return text.splitlines()[0] if text else type(exc).__name__


def _code(exc: sqlite3.Error) -> str:
    """The SQLite primary result code's name (``SQLITE_CORRUPT``), or ``""``."""
    name = getattr(exc, "sqlite_errorname", None) or ""
    primary = name.split("_")
    return "_".join(primary[:2]) if len(primary) > 1 else name


def _kind(exc: sqlite3.Error) -> str:
    """What went wrong, as an ``IndexFileError.reason``."""
    code, text = _code(exc), str(exc).lower()
    if code == "SQLITE_FULL" or "database or disk is full" in text:
        return "disk-full"
    if code == "SQLITE_READONLY" or "readonly" in text or "read-only" in text:
        return "read-only"
    if code == "SQLITE_NOTADB" or "not a database" in text:
        return "not-an-index"
    if code == "SQLITE_CORRUPT" or "malformed" in text or _UNDECODABLE in text:
        return "corrupt"
    if code in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in text:
        return "busy"
    if code in ("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"):
        return "unreadable"
    return "sqlite"


def _explain(path: Path, kind: str, exc: sqlite3.Error, writing: bool) -> str:
    detail = _first_line(exc)
    if kind == "disk-full":
        return "the disk is full; free some space, then run the command again"
    if kind == "read-only" and writing:
        return "the index is read-only; check the file's permissions"
    if kind == "read-only":
        return f"SQLite could not write the files it keeps beside the index ({detail})"
    if kind == "not-an-index":
        return f"is not a canon index ({detail})"
    if kind == "corrupt":
        return f"is damaged ({detail}); build a new index from its sources"
    if kind == "busy":
        return "another process holds the index locked; try again when it is done"
    if kind == "unreadable" and Path(f"{path}-wal").exists():
        return (
            f"cannot open its write-ahead log {path}-wal here ({detail}); open the index once "
            "where its folder can be written, so that the log is folded into the file"
        )
    return detail


def read_error(path: Path, exc: sqlite3.Error) -> IndexFileError:
    """A SQLite error met while opening or reading ``path``, as one line."""
    kind = _kind(exc)
    message = _explain(path, kind, exc, writing=False)
    if kind not in ("not-an-index", "corrupt"):
        message = f"cannot read: {message}"
    return IndexFileError(f"{path}: {message}", path=path, reason=kind)


def write_error(path: Path, exc: sqlite3.Error) -> IndexFileError:
    """A SQLite error met while writing ``path``; the transaction was rolled back."""
    kind = _kind(exc)
    if kind in ("not-an-index", "corrupt"):
        return read_error(path, exc)
    return IndexFileError(
        f"{path}: cannot write: {_explain(path, kind, exc, writing=True)} "
        "(documents already committed are intact)",
        path=path,
        reason=kind,
    )


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Turn a SQLite error raised inside into an :class:`IndexFileError`."""
    try:
        yield
    except sqlite3.Error as exc:
        raise read_error(path, exc) from exc


@contextmanager
def transaction(db: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction; any error rolls it back whole."""
    try:
        db.execute("BEGIN IMMEDIATE")
        yield
        db.execute("COMMIT")
    except sqlite3.Error as exc:
        _rollback(db)
        raise write_error(path, exc) from exc
    except BaseException:
        _rollback(db)
        raise


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        with suppress(sqlite3.Error):  # SQLite may have rolled back already (a full disk)
            db.execute("ROLLBACK")


# ------------------------------------------------------------------ opening


def _refuse(path: Path, message: str, reason: str) -> IndexFileError:
    return IndexFileError(f"{path}: {message}", path=path, reason=reason)


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


def _check_path(path: Path, create: bool, readonly: bool) -> None:
    """Refuse, before SQLite sees it, a path that cannot be an index for this use."""
    folder = path.resolve().parent
    if path.is_dir():
        raise _refuse(path, "is a directory; give the path of an index file", "not-an-index")
    if not path.exists():
        if not create or readonly:
            raise IndexFileError(
                f"{path}: no such index; create one", path=path, reason="missing", remedy="create"
            )
        if not folder.is_dir():
            raise _refuse(path, f"cannot create the index: no folder {folder}", "missing")
        if not _writable(folder):
            raise _refuse(
                path, "cannot create the index here (the folder is read-only)", "read-only"
            )
        return
    if not path.is_file():  # a FIFO would block SQLite's open until someone wrote to it
        raise _refuse(
            path,
            "is not a regular file (a FIFO, a device or a socket); give an index file",
            "not-an-index",
        )
    if not os.access(path, os.R_OK):
        raise _refuse(path, "cannot read the index (permission denied)", "unreadable")
    if not readonly and not (_writable(path) and _writable(folder)):
        raise _refuse(
            path,
            "cannot write the index (the file or its folder is read-only); "
            "only reading it is possible here",
            "read-only",
        )


def _uri(path: Path, readonly: bool) -> str:
    resolved = path.resolve()
    if not readonly:
        return f"{resolved.as_uri()}?mode=rwc"
    stuck = not _writable(resolved.parent) and not Path(f"{resolved}-wal").exists()
    return f"{resolved.as_uri()}?mode=ro" + ("&immutable=1" if stuck else "")


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(
            _uri(path, readonly), uri=True, isolation_level=None, timeout=BUSY_TIMEOUT
        )
    except sqlite3.Error as exc:
        raise read_error(path, exc) from exc
    return db


def use_wal(db: sqlite3.Connection) -> None:
    """Switch to WAL mode (kept in the file).  The switch needs the file to itself and SQLite
    does not wait for that, so when several writers open a new index at once, wait here."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if _kind(exc) != "busy" or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _tune(db: sqlite3.Connection, readonly: bool) -> None:
    # WAL: readers go on while a batch is written.  synchronous=NORMAL keeps every committed
    # batch through a crash or kill of the process (only a power cut can lose the last ones).
    # A large page cache keeps the inverted table's upper levels in memory.
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA trusted_schema = OFF")  # a crafted file's schema runs no functions
    if not readonly:
        use_wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA cache_size = -262144")


def _prepare(db: sqlite3.Connection, path: Path, create: bool, readonly: bool) -> None:
    with reading(path):
        if create and not readonly and is_blank(db):
            try:
                create_schema(db)
            except sqlite3.Error as exc:
                raise write_error(path, exc) from exc
        check_schema(db, path)
        _tune(db, readonly)


def open_file(path: Path, *, create: bool = False, readonly: bool = False) -> sqlite3.Connection:
    """A connection to the SQLite file at ``path``, the path checked for this use but not the
    schema (the upgrade opens files of an older one so)."""
    _check_path(path, create, readonly)
    return _connect(path, readonly)


def open_index(path: Path, *, create: bool = False, readonly: bool = False) -> sqlite3.Connection:
    """A connection to the canon index at ``path``, its schema checked (and created if asked).

    Raises :class:`IndexFileError` for anything that keeps ``path`` from being used so.
    """
    db = open_file(path, create=create, readonly=readonly)
    try:
        _prepare(db, path, create, readonly)
    except BaseException:
        db.close()
        raise
    return db
