"""An index → every problem it has, each in one line: the whole check behind ``index verify``.

What a lookup checks only where it reads (:mod:`canon.index.mapping`,
:func:`canon.index.manifest.inconsistencies`), this checks everywhere, and goes on after the
first problem to list them all:

- the SQLite file: SQLite's own ``integrity_check`` (nothing else is read from a file that
  fails it);
- the manifest: its rows add up to the postings the writers counted, their document ranges lie
  within the ids given out;
- the files: a row whose file is missing, a segment file that no row lists (and no writer is
  writing), a file that is not a regular file;
- each listed segment: its files' digests against the checksum, then (if they match) their
  dtype and length, its keys sorted, its document ids within its row's range and each one a
  document of the index or one removed from it (tombstoned);
- each stream: its segments hold, for every document, as many postings as the document's rows
  say (its shingle count; a band key per band; its sentences' distinct content lemmas), so a
  lost segment shows even where no total is left to compare.

The check reads every segment file and every document's row once, in one read transaction,
holding the segments it reads (so a merge running meanwhile deletes nothing under it).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import CanonError
from ..fingerprints.sentences import SentenceSets
from .checksums import DIGITS, digest_of, split
from .connection import open_index, reading
from .manifest import inconsistencies, read_manifest, stream_name
from .rules import read_profiles
from .schema import PROFILE_SLOTS
from .segments import (
    BANDS,
    DOCS,
    HASHES,
    LEMMAS,
    SHINGLES,
    SegmentInfo,
    folder_lock,
    folder_of,
    open_regular,
    segment_names,
)

__all__ = ["Problem", "Verification", "verify"]

_CHUNK = 4_000_000  # postings read at a time


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an index: where (a file, or the manifest) and what."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` checked, and every problem it found."""

    path: Path
    segments: int
    documents: int
    problems: tuple[Problem, ...]

    @property
    def sound(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        return {
            "path": str(self.path),
            "sound": self.sound,
            "segments": self.segments,
            "documents": self.documents,
            "problems": [{"where": p.where, "what": p.what} for p in self.problems],
        }


@dataclass(frozen=True)
class _Segment:
    """A listed segment whose files are open (the hashes file held), to be checked."""

    info: SegmentInfo
    hashes_fd: int
    docs_fd: int


def _describe(exc: BaseException) -> str:
    return str(exc).split(": ", 1)[-1] if isinstance(exc, CanonError) else str(exc)


def _open(folder: Path, path: Path, info: SegmentInfo, problems: list[Problem]) -> _Segment | None:
    fds: list[int] = []
    for suffix in (HASHES, DOCS):
        file = folder / f"{info.name}{suffix}"
        try:
            fds.append(open_regular(path, file))
        except FileNotFoundError:
            problems.append(Problem(str(file), "listed in the manifest, and missing"))
        except (OSError, CanonError) as exc:
            problems.append(Problem(str(file), _describe(exc)))
    if len(fds) < 2:
        for fd in fds:
            os.close(fd)
        return None
    fcntl.flock(fds[0], fcntl.LOCK_SH)  # no merge deletes it while it is checked
    return _Segment(info, fds[0], fds[1])


def _unlisted(folder: Path, listed: set[str]) -> Iterator[Problem]:
    """The segment files no row lists, but those a writer holds (it is writing them)."""
    for name in sorted(segment_names(folder) - listed):
        file = folder / f"{name}{HASHES}"
        with suppress(FileNotFoundError):
            fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # being written: listed once its transaction commits
            finally:
                os.close(fd)
        yield Problem(
            str(folder / name),
            "a segment no manifest row lists: its row was lost (its postings are missing from "
            "every answer), or a write was interrupted (the next command that writes the index "
            "deletes it)",
        )


def _load(file: str, dtype: str, rows: int) -> np.ndarray:
    """The array of a segment file, mapped; ValueError if it is not one."""
    array: np.ndarray = np.load(file, mmap_mode="r", allow_pickle=False)
    if array.dtype != np.dtype(dtype) or array.shape != (rows,):
        raise ValueError(f"it holds {array.dtype} {array.shape}, not {rows} postings")
    return array


def _pieces(array: np.ndarray) -> Iterator[np.ndarray]:
    for start in range(0, len(array), _CHUNK):
        yield np.asarray(array[start : start + _CHUNK])


def _sorted(hashes: np.ndarray) -> bool:
    """Each key no smaller than the one before it, read a chunk at a time."""
    last = len(hashes) - 1
    for start in range(0, max(last, 0), _CHUNK):
        end = min(start + _CHUNK, last)
        if not np.all(hashes[start + 1 : end + 1] >= hashes[start:end]):
            return False
    return True


def _digests(seg: _Segment, files: tuple[str, str]) -> list[Problem]:
    if len(seg.info.checksum) != 2 * DIGITS:
        return [Problem(files[0], "its manifest row has no checksum")]
    fds = (seg.hashes_fd, seg.docs_fd)
    return [
        Problem(file, "does not match its checksum (it was changed after it was written)")
        for file, fd, expected in zip(files, fds, split(seg.info.checksum), strict=True)
        if digest_of(fd) != expected
    ]


@dataclass(frozen=True)
class _Known:
    """The documents a segment may hold postings of: the live ones and the stream's removed
    ones, as flags by id up to the highest id given out."""

    top: int
    live: np.ndarray  # int64 ids of the documents table

    def strangers(self, counts: np.ndarray, dead: np.ndarray) -> np.ndarray:
        """The ids with postings in ``counts`` that are neither live nor removed."""
        held = counts > 0
        held[self.live] = False
        held[dead[dead <= self.top]] = False
        return np.flatnonzero(held)


def _check_segment(
    folder: Path, seg: _Segment, known: _Known, dead: np.ndarray
) -> tuple[list[Problem], np.ndarray | None]:
    """The problems of one segment, and if it has none its postings per document id."""
    info = seg.info
    files = (str(folder / f"{info.name}{HASHES}"), str(folder / f"{info.name}{DOCS}"))
    found = _digests(seg, files)
    if found:
        return found, None  # what else it holds is not worth telling
    try:
        hashes = _load(files[0], "<u8", info.rows)
        docs = _load(files[1], "<u4", info.rows)
    except (ValueError, EOFError, OSError) as exc:
        return [*found, Problem(files[0], f"cannot be read as a segment ({exc})")], None
    if not _sorted(hashes):
        found.append(Problem(files[0], "its keys are not sorted"))
    low, high = (int(docs.min()), int(docs.max())) if len(docs) else (info.first_doc, 0)
    beyond = low < 1 or high > known.top
    if beyond or low < info.first_doc or high > info.last_doc:
        what = f"outside the {info.first_doc}..{info.last_doc} of its manifest row"
        if beyond:
            what += f" and the 1..{known.top} the index has given out"
        found.append(Problem(files[1], f"holds document ids {low}..{high}, {what}"))
    if beyond:
        return found, None
    counts = np.zeros(known.top + 1, dtype=np.int64)
    for piece in _pieces(docs):
        counts += np.bincount(piece, minlength=known.top + 1)
    strangers = known.strangers(counts, dead)
    if len(strangers):
        what = f"documents the index neither has nor removed (the first: {int(strangers[0])})"
        found.append(Problem(files[1], f"holds postings of {len(strangers)} {what}"))
    return found, None if found else counts


def _expected(db: sqlite3.Connection, stream: tuple[int, int], bands: int, top: int) -> np.ndarray:
    """How many postings each live document has in ``stream``, as its rows say, by id."""
    profile_id, kind = stream
    expected = np.zeros(top + 1, dtype=np.int64)
    if kind == LEMMAS:
        rows = db.execute(
            "SELECT id / ?, sentences FROM doc_sentences WHERE id % ? = ?",
            (PROFILE_SLOTS, PROFILE_SLOTS, profile_id),
        )
        for doc, data in rows:
            expected[doc] = len(SentenceSets.from_bytes(data).distinct())
        return expected
    rows = db.execute(
        "SELECT doc_id, shingles FROM doc_profiles WHERE profile_id = ?", (profile_id,)
    )
    for doc, shingles in rows:
        expected[doc] = shingles if kind == SHINGLES else bands
    return expected


def _coverage(
    db: sqlite3.Connection, stream: tuple[int, int], bands: int, held: np.ndarray, dead: np.ndarray
) -> Problem | None:
    """Whether the sound segments of ``stream`` hold each live document's postings (``held``:
    their postings by document id)."""
    expected = _expected(db, stream, bands, len(held) - 1)
    held = held.copy()
    held[dead[dead < len(held)]] = 0  # a removed document's postings wait for a merge
    wrong = np.flatnonzero(held != expected)
    if not len(wrong):
        return None
    first = int(wrong[0])
    return Problem(
        "manifest",
        f"the segments of {stream_name(stream)} do not hold the postings of {len(wrong)} "
        f"documents (the first: document {first}, {held[first]} postings where its rows say "
        f"{expected[first]})",
    )


def _check(db: sqlite3.Connection, path: Path, stack: ExitStack) -> tuple[int, list[Problem]]:
    """The checks, inside the caller's read transaction; ``(documents, problems)``."""
    folder = folder_of(path)
    problems: list[Problem] = []
    with folder_lock(folder, exclusive=False):
        manifest = read_manifest(db)
        opened = [_open(folder, path, info, problems) for info in manifest.segments]
        if folder.is_dir():
            problems += _unlisted(folder, {s.name for s in manifest.segments})
    segments = [s for s in opened if s is not None]
    broken = {i.stream for i, s in zip(manifest.segments, opened, strict=True) if s is None}
    for seg in segments:
        stack.callback(os.close, seg.docs_fd)
        stack.callback(os.close, seg.hashes_fd)
    problems += [Problem("manifest", what) for what in inconsistencies(manifest)]
    live = np.array([d for (d,) in db.execute("SELECT id FROM documents")], dtype=np.int64)
    known = _Known(manifest.top_doc, live)
    held: dict[tuple[int, int], np.ndarray] = {}
    for seg in segments:
        stream = seg.info.stream
        found, counts = _check_segment(folder, seg, known, manifest.dead_of(stream))
        problems += found
        if counts is None:
            broken.add(stream)
        elif stream in held:
            held[stream] += counts
        else:
            held[stream] = counts
    for profile in read_profiles(db):
        for kind in (SHINGLES, BANDS, LEMMAS):
            stream = (profile.id, kind)
            if stream in broken:
                continue  # its damaged segment is named above
            counts = held.get(stream, np.zeros(known.top + 1, dtype=np.int64))
            problem = _coverage(db, stream, profile.bands, counts, manifest.dead_of(stream))
            if problem is not None:
                problems.append(problem)
    return len(live), problems


def verify(path: str | Path) -> Verification:
    """Check the whole index at ``path``: every problem it has, each in one line.

    An index that cannot be opened at all (no index, another schema) raises
    :class:`~canon.errors.IndexFileError`, as any opening does.
    """
    path = Path(path)
    db = open_index(path, readonly=True)
    try:
        with reading(path):
            failures = [r for (r,) in db.execute("PRAGMA integrity_check(20)")]
            if failures != ["ok"]:
                return Verification(path, 0, 0, tuple(Problem(str(path), f) for f in failures))
            with ExitStack() as stack:
                db.execute("BEGIN")
                stack.callback(db.execute, "COMMIT")
                documents, problems = _check(db, path, stack)
                segments = len(read_manifest(db).segments)
    finally:
        db.close()
    return Verification(path, segments, documents, tuple(problems))
