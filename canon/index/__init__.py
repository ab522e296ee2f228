"""The corpus index: one SQLite file of documents and their shingle hashes, and writing into it."""

from .ingest import AddReport, add_sources
from .store import Index, IndexedProfile, IndexStats, Prepared

__all__ = ["AddReport", "Index", "IndexStats", "IndexedProfile", "Prepared", "add_sources"]
