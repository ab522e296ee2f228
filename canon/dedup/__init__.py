"""Near-duplicate clusters of a corpus: MinHash signatures, LSH candidates, exact verification.

``dedup_corpus`` is one run; the engines (local, Dask) take the same inputs and give the same
clusters.
"""

from .local import LocalEngine, dedup
from .run import DedupRun, dedup_corpus
from .settings import Budget, MinHashSettings, Reading, parse_size
from .stages import Cluster, DedupResult, Entry

__all__ = [
    "Budget",
    "Cluster",
    "DedupResult",
    "DedupRun",
    "Entry",
    "LocalEngine",
    "MinHashSettings",
    "Reading",
    "dedup",
    "dedup_corpus",
    "parse_size",
]
