"""A dictionary version → the lemma cache file of that version: form → lemma, kept between runs.

pymorphy3's analysis of a form it has not seen is most of a cold lemmatization.  Every form a
process analyses is therefore remembered in a file, one per analyzer version: the versions of
pymorphy3 and of its dictionary package, the dictionary's own revision and canon's canonical
form version all go into the file's key, so a new dictionary starts a new file and never reads
lemmas made by another.  Worker processes and later runs load the file at their first lemma and
start warm.

The file holds the forms, their lemmas and each lemma's token hash (xxh3_64, as
:mod:`canon.hashing` defines it), behind a header with the key, the counts and a checksum.  It
is written whole to a temporary file beside it and moved into place (``os.replace``), merged
with what is on disk at that moment under a lock (``flock`` on a ``.lock`` file beside it), so
readers never see half a file and concurrent writers lose none of each other's forms.  A
process writes when it has learned many new forms and once more when it exits.  A file that
cannot be read (damaged, truncated, another layout) is ignored with one warning and replaced by
the next write; a directory that cannot be written leaves the cache in memory only.

A profile's whole surface → canonical table (folded, lemmatized, stop words dropped: ``""``) is
kept the same way, in a file per profile fingerprint, so a later run skips those rules too.

The directory is ``$CANON_CACHE_DIR`` if set, else the user cache directory (``platformdirs``:
``$XDG_CACHE_HOME/canon`` or ``~/.cache/canon`` on Linux); ``CANON_CACHE_DIR=off`` turns the
file off.  A file's place is worked out once per process for each value of these variables
(not at every form learned), so a changed variable is still followed.  Deleting the directory
(or the ``canon-lemmas-*.bin`` and ``canon-table-*.bin`` files in it) clears the cache.
"""

from __future__ import annotations

import atexit
import hashlib
import itertools
import logging
import os
import struct
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path

import numpy as np
import xxhash

from ..hashing import token_hashes
from .form import CANONICAL_FORM_VERSION

__all__ = ["CACHE_ENV", "LemmaFile", "cache_dir", "lemma_file", "locked", "table_file"]

CACHE_ENV = "CANON_CACHE_DIR"
LAYOUT = 1  # bumped when the file layout changes
_MAGIC = b"CNLM"
_HEADER = struct.Struct("<4sIQQQQI")  # magic, layout, forms, forms bytes, lemmas bytes, xxh3, key
MAX_FORMS = 2_000_000  # forms a file keeps at most (the first ones learned)
_FLUSH_AT = 10_000  # new forms that make a process write the file (or as many as it read)

_log = logging.getLogger("canon.lemma_cache")
_warned = False  # whether this process has warned about a cache file


def cache_dir() -> Path | None:
    """Where the cache files live (``None`` when ``CANON_CACHE_DIR=off``)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None and chosen.strip().lower() in ("off", "0", "none", ""):
        return None
    if chosen:
        return Path(chosen).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("canon", appauthor=False))


@cache
def _key() -> str:
    """The versions that make a lemma: a change in any of them starts a new file."""
    from .lemmatize import analyzer_version

    return (
        f"{analyzer_version('lemma')}; pymorphy3-dicts-ru {metadata.version('pymorphy3-dicts-ru')}"
        f"; canonical form {CANONICAL_FORM_VERSION}; layout {LAYOUT}"
    )


def _encode(key: str, lemmas: Mapping[str, str]) -> bytes:
    forms = "\n".join(lemmas).encode("utf-8")
    bases = "\n".join(lemmas.values()).encode("utf-8")
    digests = token_hashes(list(lemmas.values())).astype("<u8").tobytes()
    named = key.encode("utf-8")
    payload = named + forms + bases + digests
    check = xxhash.xxh3_64_intdigest(payload)
    header = _HEADER.pack(_MAGIC, LAYOUT, len(lemmas), len(forms), len(bases), check, len(named))
    return header + payload


def _decode(data: bytes, key: str) -> tuple[list[str], list[str], np.ndarray]:
    """Forms, lemmas and lemma hashes; ValueError when the bytes are not a whole file of ``key``."""
    if len(data) < _HEADER.size:
        raise ValueError("shorter than its header")
    magic, layout, count, nforms, nbases, check, nkey = _HEADER.unpack_from(data)
    payload = memoryview(data)[_HEADER.size :]
    if magic != _MAGIC or layout != LAYOUT:
        raise ValueError("not a lemma cache of this layout")
    if len(payload) != nkey + nforms + nbases + 8 * count:
        raise ValueError("truncated or padded")
    if xxhash.xxh3_64_intdigest(payload) != check:
        raise ValueError("checksum mismatch")
    if bytes(payload[:nkey]) != key.encode("utf-8"):
        raise ValueError("made by another analyzer version")
    forms = str(payload[nkey : nkey + nforms], "utf-8").split("\n") if count else []
    bases = str(payload[nkey + nforms : nkey + nforms + nbases], "utf-8").split("\n")
    bases = bases if count else []
    if len(forms) != count or len(bases) != count:
        raise ValueError("counts disagree")
    hashes = np.frombuffer(payload, dtype="<u8", offset=nkey + nforms + nbases, count=count)
    return forms, bases, hashes.astype(np.uint64)


@dataclass
class LemmaFile:
    """The cache file of one analyzer version, and the forms this process learned since it
    last read or wrote it."""

    path: Path
    key: str
    new: dict[str, str] = field(default_factory=dict)
    read_size: int = 0
    warned: bool = False

    def load(self) -> tuple[list[str], list[str], np.ndarray]:
        """What the file holds (nothing when it is absent or cannot be read: one warning)."""
        empty: tuple[list[str], list[str], np.ndarray] = ([], [], np.empty(0, np.uint64))
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return empty
        except OSError as exc:
            self._warn(f"cannot be read ({exc.strerror or exc})")
            return empty
        try:
            found = _decode(data, self.key)
        except (ValueError, UnicodeDecodeError, struct.error) as exc:
            self._warn(f"is damaged ({exc}); it is ignored and will be rewritten")
            return empty
        self.read_size = max(self.read_size, len(found[0]))
        return found

    def _warn(self, what: str) -> None:
        """One warning a process (the files of a directory tend to fail together)."""
        global _warned
        if not self.warned:
            self.warned = True
            level = logging.DEBUG if _warned else logging.WARNING
            _warned = True
            _log.log(level, "canon: the lemma cache %s %s", self.path, what)

    def learn(self, lemmas: Mapping[str, str]) -> None:
        """Forms analysed here; the file is written once enough of them are new."""
        self.new.update(lemmas)
        if len(self.new) >= max(_FLUSH_AT, self.read_size):
            self.flush()

    def flush(self) -> None:
        """Merge the new forms into the file (written whole, then moved into place), one
        process at a time."""
        if not self.new:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with locked(self.path.with_name(self.path.name + ".lock")):
                self._merge()
        except OSError as exc:
            self._warn(f"cannot be written ({exc.strerror or exc}); lemmas stay in memory")
            self.new.clear()

    def _merge(self) -> None:
        forms, bases, _ = self.load()
        merged = dict(zip(forms, bases))
        merged.update(self.new)
        if len(merged) > MAX_FORMS:
            merged = dict(itertools.islice(merged.items(), MAX_FORMS))
        handle, temporary = tempfile.mkstemp(
            prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent
        )
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(_encode(self.key, merged))
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.new.clear()
        self.read_size = len(merged)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (POSIX ``flock``; elsewhere writers are not serialized and
    the last one wins)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_files: dict[tuple[Path, int], LemmaFile] = {}


def _flush_all() -> None:
    for lemma_cache in list(_files.values()):
        if lemma_cache is _files.get((lemma_cache.path, os.getpid())):
            lemma_cache.flush()


atexit.register(_flush_all)


def _register_in_worker() -> None:
    """A forked worker process runs no atexit handlers: it flushes through multiprocessing's
    own exit hook (run when a pool closes its workers normally).  A process that has not
    loaded multiprocessing is no worker of it, and its atexit handler flushes: it is spared
    importing multiprocessing (a check's start-up)."""
    if "multiprocessing" not in sys.modules:
        return
    from multiprocessing import util

    util.Finalize(None, _flush_all, exitpriority=10)


# The environment variables :func:`cache_dir` depends on: ``CANON_CACHE_DIR``, and what the user
# cache directory is made of (platformdirs: ``$XDG_CACHE_HOME``, else ``~/.cache``; ``~`` is
# ``$HOME``).
_DIR_ENV = (CACHE_ENV, "XDG_CACHE_HOME", "HOME")


def _setting() -> tuple[str | None, ...]:
    """The values of ``_DIR_ENV`` now."""
    return tuple(map(os.environ.get, _DIR_ENV))


@lru_cache(maxsize=256)
def _path(kind: str, key: str, setting: tuple[str | None, ...]) -> Path | None:
    """The cache file of ``kind`` and ``key`` under the environment ``setting`` summarizes
    (``None``: turned off): the directory and the digest of the key are computed once per
    setting, not at every lemma learned."""
    folder = cache_dir()
    if folder is None:
        return None
    return folder / f"canon-{kind}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:16]}.bin"


def _file(kind: str, key: str) -> LemmaFile | None:
    path = _path(kind, key, _setting())
    if path is None:
        return None
    pid = os.getpid()
    found = _files.get((path, pid))
    if found is None:
        found = _files[(path, pid)] = LemmaFile(path, key)
        _register_in_worker()
    return found


def lemma_file() -> LemmaFile | None:
    """This process's cache file of the installed analyzer (``None`` when it is turned off)."""
    return _file("lemmas", _key())


def table_file(fingerprint: str) -> LemmaFile | None:
    """This process's cache file of one profile's surface → canonical table (the profile's
    ``fingerprint`` covers its rules and word lists; the analyzer's versions are added)."""
    return _file("table", f"profile {fingerprint}; {_key()}")
