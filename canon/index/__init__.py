"""The corpus index: a SQLite file of documents and postings segments beside it; writing into it.

Rooms, in the order a document goes through them:

- ``schema``: the tables, the application id and schema version; creating and checking a file.
- ``connection``: a path opened for writing, reading, or reading on read-only storage; every
  SQLite error turned into one ``IndexFileError``; write transactions.
- ``rules``: the profile registry (profiles, k, step, sampling, MinHash/LSH settings),
  registered atomically on a new index and checked on every later add.
- ``prepare``: sources read, canonicalized and hashed in worker processes (under a profile
  with morphology, their sentences' lemma sets too).
- ``writes``: prepared documents → rows (documents, hash blobs, signatures, sentence blobs)
  and a segment per postings stream (a profile's shingles, band keys and content lemmas).
- ``lemmas``: what the sentence measure reads (sentence blobs; the common-lemma rule).
- ``lookups``: LSH neighbours, listings and statistics.
- ``store``: :class:`Index`, the open file, tying the rooms together.
- ``settings``: the rules of an add (``IndexRules``) and how it reads and writes
  (``AddSettings``).
- ``ingest``: SOURCE arguments → documents in an index, a batch a transaction.

On disk an index is the SQLite file (metadata: documents, profiles, signatures, stored texts,
sentence blobs, the segment manifest) and, beside it, the folder ``NAME-segments`` of immutable
postings segments:

- ``segments``: a segment's files (sorted NumPy arrays of hashes and document ids), written,
  fsynced and locked; orphans deleted when nobody holds them.
- ``checksums``: the xxh3 digests of a segment's files, taken as they are written.
- ``mapping``: a listed segment checked (checksums, document ids) the first time a process
  opens it, then mapped and held.
- ``damage``: the one error a damaged segment or manifest is refused with.
- ``manifest``: the SQLite side: which segments and tombstones make the index, document ids,
  the generation counter, each stream's postings counted.
- ``snapshot``: a reader's view: one manifest's segments checked, mapped and held; lookups.
- ``merging``: the tiered merge policy, merges, the background merger, ``optimize``.
- ``verify``: the whole index checked, every problem listed.
- ``hashsets``: a document's sorted hashes as compact bytes (Elias–Fano coding).
- ``upgrade``: a version-3 to 6 file (postings, bands or lemma tables in SQLite; segments
  without checksums; hash sets as plain arrays) migrated in place.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

# Each name, by the module of this package that defines it: imported on first use, so opening an
# index to check a draft (``canon.index.store``) loads neither the adding (``ingest``, its
# worker processes and source collection) nor anything else it does not use.
_LAZY = {
    "AddReport": "ingest",
    "AddSettings": "settings",
    "Index": "store",
    "IndexRules": "settings",
    "IndexStats": "store",
    "IndexedProfile": "store",
    "Prepared": "store",
    "add_sources": "ingest",
}

if TYPE_CHECKING:  # the same names, for type checkers and editors
    from .ingest import AddReport, add_sources
    from .settings import AddSettings, IndexRules
    from .store import Index, IndexedProfile, IndexStats, Prepared

__all__ = [
    "AddReport",
    "AddSettings",
    "Index",
    "IndexRules",
    "IndexStats",
    "IndexedProfile",
    "Prepared",
    "add_sources",
]


def __getattr__(name: str) -> object:
    """A name of ``_LAZY``, imported from its module on first use (then kept)."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
