"""Postings → immutable segment files beside the index: written, locked, deleted.

A segment holds postings of one *stream* — a profile's shingle hashes, its LSH band keys or its
content lemmas (:data:`SHINGLES`, :data:`BANDS`, :data:`LEMMAS`) — as two NumPy arrays of one
length, sorted by key (a key's documents in id order): ``NAME.hashes.npy`` (little-endian uint64
keys) and ``NAME.docs.npy`` (little-endian uint32 document ids), 12 bytes a posting.  Readers
map both files (``np.load(mmap_mode="r")``) and find a draft's hashes with ``np.searchsorted``.
A file is never changed once written: merging writes a new segment and the manifest (the SQLite
``segments`` table) swaps the old ones for it in one transaction.  The manifest keeps the
checksum of both files, taken as they are written (:mod:`canon.index.checksums`); reading
them, checked, is :mod:`canon.index.mapping`'s.

A segment's files are written and fsynced, and the folder fsynced, before the transaction that
lists them commits; a file the manifest does not list is an *orphan* (left by a crash, a failed
batch or a merge that lost a race) and is deleted by the next writer that opens the index.

Who may delete what is settled with ``flock`` locks, which the kernel drops when a process dies
(a SIGKILL too), so no crash leaves one behind:

- the folder's ``lock`` file: *shared* while a writer creates a segment's first file and locks
  it, and while a reader goes from reading the manifest to locking the files it lists;
  *exclusive* while a cleaner lists, checks and deletes files.  So a cleaner never sees a file
  between its creation and its lock, nor a reader between its manifest and its files;
- each segment's ``.hashes.npy``: *exclusive* from its creation until the transaction that
  lists it has committed or rolled back; *shared* while a reader holds the segment.  A cleaner
  deletes a segment only when it gets the exclusive lock without waiting, and reads the
  manifest only after it holds the lock, so it deletes neither a segment still being written
  nor one a reader of an older snapshot still uses; such a file waits for a later cleaner.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ..errors import IndexFileError
from .checksums import Digesting, join
from .damage import damaged

__all__ = [
    "BANDS",
    "DOCS",
    "HASHES",
    "LEMMAS",
    "MAX_DOC",
    "SHINGLES",
    "SegmentInfo",
    "Staged",
    "clean",
    "ensure_folder",
    "folder_lock",
    "folder_of",
    "index_of",
    "open_regular",
    "os_error",
    "segment_names",
    "sort_postings",
]

HASHES = ".hashes.npy"
DOCS = ".docs.npy"
_LOCK = "lock"
MAX_DOC = 2**32 - 1  # document ids are stored as uint32

# What a segment's keys are (the manifest's ``kind``): each profile has a stream of each kind.
SHINGLES = 0  # shingle hashes
BANDS = 1  # LSH band keys of the documents' MinHash signatures (each band's keys its own)
LEMMAS = 2  # hashes of the content lemmas of the documents' sentences (profiles with morphology)


@dataclass(frozen=True)
class SegmentInfo:
    """A segment as the manifest lists it."""

    name: str
    profile_id: int
    rows: int
    first_doc: int
    last_doc: int
    kind: int = SHINGLES
    checksum: str = ""  # the digests of its two files (:mod:`canon.index.checksums`)

    @property
    def stream(self) -> tuple[int, int]:
        """The postings stream the segment belongs to: ``(profile id, kind)``."""
        return self.profile_id, self.kind


def folder_of(path: Path) -> Path:
    """The segment folder of the index file ``path``: ``corpus.db`` → ``corpus.db-segments``."""
    return Path(f"{path}-segments")


def index_of(folder: Path) -> Path:
    """The index file of the segment folder ``folder``: the inverse of :func:`folder_of`."""
    return Path(str(folder).removesuffix("-segments"))


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def os_error(path: Path, exc: OSError, writing: bool) -> IndexFileError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return IndexFileError(
            f"{path}: cannot write: the disk is full; free some space, then run the command "
            "again (documents already committed are intact)",
            path=path,
            reason="disk-full",
        )
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        verb = "write" if writing else "read"
        return IndexFileError(
            f"{path}: cannot {verb} its segment folder {folder_of(path)} "
            f"({exc.strerror or exc}); check the folder's permissions",
            path=path,
            reason="read-only" if writing else "unreadable",
        )
    what = "write" if writing else "read"
    return IndexFileError(
        f"{path}: cannot {what} a segment file ({exc.strerror or exc})", path=path, reason="io"
    )


def ensure_folder(path: Path) -> Path:
    """The segment folder of ``path``, made (with its lock file) if it is not there yet."""
    folder = folder_of(path)
    try:
        if not (folder / _LOCK).exists():
            folder.mkdir(exist_ok=True)
            (folder / _LOCK).touch()
            _fsync_dir(folder)
            _fsync_dir(folder.parent)
    except OSError as exc:
        raise os_error(path, exc, writing=True) from exc
    return folder


_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def _not_regular(path: Path, file: Path, mode: int) -> IndexFileError:
    kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
    if file.name == _LOCK:
        return IndexFileError(
            f"{path}: the lock file {file} is {kind}, not a regular file; delete it (the next "
            "command that writes the index makes a new one)",
            path=path,
            reason="unreadable",
        )
    return damaged(path, f"segment file {file} is {kind}, not a regular file")


def open_regular(path: Path, file: Path) -> int:
    """``file`` (of the index ``path``) open for reading, if it is a regular file: a FIFO, a
    device or a socket in its place is refused, never opened (a FIFO would block the open
    until someone writes to it).  ``FileNotFoundError`` if it is not there."""
    mode = os.stat(file).st_mode  # before the open: opening a device may do something
    if not stat.S_ISREG(mode):
        raise _not_regular(path, file, mode)
    fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    mode = os.fstat(fd).st_mode  # the file may have been replaced in between
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _not_regular(path, file, mode)
    return fd


@contextmanager
def folder_lock(folder: Path, exclusive: bool) -> Iterator[None]:
    """The folder's lock, held for the block; none if the folder has no lock file (an index
    on storage nobody can write: nothing there is deleted either).  A lock file that is no
    regular file (a FIFO) is refused: opening it could wait for ever."""
    try:
        fd = open_regular(index_of(folder), folder / _LOCK)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing drops the lock


def sort_postings(hashes: np.ndarray, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(hashes, docs)`` as a segment keeps them: sorted by hash, then document."""
    order = np.lexsort((docs, hashes))
    return hashes[order].astype("<u8"), docs[order].astype("<u4")


# ------------------------------------------------------------------ writing


def _header(out: Digesting, dtype: str, rows: int) -> None:
    header = {"descr": dtype, "fortran_order": False, "shape": (rows,)}
    np.lib.format.write_array_header_1_0(out, header)  # what np.save writes for such arrays


def _write_columns(
    rows: int, chunks: Iterable[tuple[np.ndarray, np.ndarray]], hashes: BinaryIO, docs: BinaryIO
) -> str:
    """The two ``.npy`` files of a segment, chunk after chunk, flushed and fsynced; their
    checksum, of the bytes written."""
    hashes_out, docs_out = Digesting(hashes), Digesting(docs)
    _header(hashes_out, "<u8", rows)
    _header(docs_out, "<u4", rows)
    written = 0
    for chunk_hashes, chunk_docs in chunks:
        hashes_out.write(np.ascontiguousarray(chunk_hashes, dtype="<u8").data)
        docs_out.write(np.ascontiguousarray(chunk_docs, dtype="<u4").data)
        written += len(chunk_hashes)
    if written != rows:
        raise ValueError(f"a segment of {rows} postings was given {written}")
    for out in (docs, hashes):
        out.flush()
        os.fsync(out.fileno())
    return join(hashes_out.hexdigest(), docs_out.hexdigest())


@dataclass
class Staged:
    """Segments written for one transaction.  Use as a context manager around it: leaving
    normally releases their locks (the transaction listed them), leaving by an error deletes
    them (it did not)."""

    path: Path
    folder: Path
    written: list[tuple[SegmentInfo, int]] = field(default_factory=list)

    def write(self, stream: tuple[int, int], hashes: np.ndarray, docs: np.ndarray) -> SegmentInfo:
        """A new segment of ``stream`` (profile id, kind) holding sorted ``(hashes, docs)``,
        fsynced with its folder, locked until the context ends."""
        first, last = (int(docs.min()), int(docs.max())) if len(docs) else (0, 0)
        return self.write_chunks(stream, len(hashes), (first, last), [(hashes, docs)])

    def write_chunks(
        self,
        stream: tuple[int, int],
        rows: int,
        doc_range: tuple[int, int],
        chunks: Iterable[tuple[np.ndarray, np.ndarray]],
    ) -> SegmentInfo:
        """A new segment of ``rows`` postings given in consecutive sorted ``(hashes, docs)``
        chunks (their documents within ``doc_range``), so a merge never holds all of them;
        fsynced with its folder, locked until the context ends."""
        if doc_range[1] > MAX_DOC:
            raise IndexFileError(
                f"{self.path}: the index has given out more than {MAX_DOC:,} document ids; "
                "build a new index from its sources",
                path=self.path,
                reason="full",
            )
        name = secrets.token_hex(8)
        try:
            with folder_lock(self.folder, exclusive=False):
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
                fd = os.open(self.folder / f"{name}{HASHES}", flags, 0o666)
                fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            raise os_error(self.path, exc, writing=True) from exc
        profile_id, kind = stream
        self.written.append((SegmentInfo(name, profile_id, rows, *doc_range, kind=kind), fd))
        try:
            with (
                open(self.folder / f"{name}{DOCS}", "xb") as docs_out,
                os.fdopen(os.dup(fd), "wb") as hashes_out,
            ):
                checksum = _write_columns(rows, chunks, hashes_out, docs_out)
            _fsync_dir(self.folder)
        except OSError as exc:
            raise os_error(self.path, exc, writing=True) from exc
        return SegmentInfo(name, profile_id, rows, *doc_range, kind=kind, checksum=checksum)

    def __enter__(self) -> Staged:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        for info, fd in self.written:
            if kind is not None:
                _unlink(self.folder, info.name)
            os.close(fd)
        self.written.clear()


def _unlink(folder: Path, name: str) -> None:
    for suffix in (DOCS, HASHES):  # the hashes file last: it carries the segment's lock
        with suppress(FileNotFoundError):
            (folder / f"{name}{suffix}").unlink()


# ------------------------------------------------------------------ deleting


def segment_names(folder: Path) -> set[str]:
    """The names of the segments whose files are in ``folder``, listed or not."""
    found = set()
    for entry in os.listdir(folder):
        for suffix in (HASHES, DOCS):
            if entry.endswith(suffix):
                found.add(entry[: -len(suffix)])
    return found


def _try_lock(folder: Path, name: str) -> int | None:
    """The segment's exclusive lock if nobody holds it (``-1``: it has no hashes file)."""
    try:
        fd = open_regular(index_of(folder), folder / f"{name}{HASHES}")
    except FileNotFoundError:
        return -1
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def clean(path: Path, listed: Callable[[], set[str]]) -> int:
    """Delete the segments the manifest does not list (``listed`` reads it) and nobody holds;
    how many were deleted."""
    folder = folder_of(path)
    if not (folder / _LOCK).exists():
        return 0
    deleted = 0
    try:
        with folder_lock(folder, exclusive=True):
            locked = {}
            for name in segment_names(folder):
                fd = _try_lock(folder, name)
                if fd is not None:
                    locked[name] = fd
            try:
                keep = listed()  # read only now: every locked file is committed or abandoned
                for name in set(locked) - keep:
                    _unlink(folder, name)
                    deleted += 1
            finally:
                for fd in locked.values():
                    if fd >= 0:
                        os.close(fd)
            if deleted:
                _fsync_dir(folder)
    except OSError as exc:
        raise os_error(path, exc, writing=True) from exc
    return deleted
