"""The corpus index: one SQLite file of documents and their shingle hashes, and writing into it.

Rooms, in the order a document goes through them:

- ``schema``: the tables, the application id and schema version; creating and checking a file.
- ``connection``: a path opened for writing, reading, or reading on read-only storage; every
  SQLite error turned into one ``IndexFileError``; write transactions.
- ``rules``: the profile registry (profiles, k, step, sampling, MinHash/LSH settings),
  registered atomically on a new index and checked on every later add.
- ``prepare``: sources read, canonicalized and hashed in worker processes (under a profile
  with morphology, their sentences' lemma sets too).
- ``writes``: prepared documents → rows (documents, hash blobs, signatures, postings, bands,
  sentence blobs).
- ``lemmas``: the sentence measure's tables (lemma frequencies, lemma postings below the
  common limit), kept in step on add and remove, and their probes.
- ``lookups``: postings of a draft's hashes, LSH neighbours, listings and statistics.
- ``store``: :class:`Index`, the open file, tying the rooms together.
- ``ingest``: SOURCE arguments → documents in an index, a batch a transaction.

Segmented postings (room reserved, not built): immutable sorted NumPy segments of
``(profile, hash, doc)`` beside the SQLite file, the index becoming a folder.  They would live in
``segments.py`` (writing a segment per batch, merging, memory-mapped reading); ``writes`` would
append a segment instead of inserting ``postings`` rows, ``lookups.postings`` would search the
segments (``np.searchsorted``) and leave documents, rules and bands to SQLite, and ``schema``
would record the segment list and bump the schema version.
"""

from .ingest import AddReport, add_sources
from .store import Index, IndexedProfile, IndexStats, Prepared

__all__ = ["AddReport", "Index", "IndexStats", "IndexedProfile", "Prepared", "add_sources"]
