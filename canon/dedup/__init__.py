"""Near-duplicate clusters of a corpus: MinHash signatures, LSH candidates, exact verification."""

from .local import Cluster, DedupResult, Entry, dedup

__all__ = ["Cluster", "DedupResult", "Entry", "dedup"]
