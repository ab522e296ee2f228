"""Near-duplicate clusters of a corpus: MinHash signatures, LSH candidates, exact verification.

``dedup_corpus`` is one run; the engines (local, Dask) take the same inputs and give the same
clusters.  Each cluster keeps one member by the rules of :mod:`~canon.dedup.keep`;
:mod:`~canon.dedup.outputs` writes the clusters as JSON Lines, or as a keep/remove list in
CSV or XLSX.
"""

from .keep import RULES
from .local import LocalEngine, dedup
from .origin import Origin
from .outputs import FORMATS, write_clusters
from .run import DedupRun, dedup_corpus
from .settings import Budget, MinHashSettings, Reading, parse_size
from .stages import Cluster, DedupResult, Entry

__all__ = [
    "FORMATS",
    "RULES",
    "Budget",
    "Cluster",
    "DedupResult",
    "DedupRun",
    "Entry",
    "LocalEngine",
    "MinHashSettings",
    "Origin",
    "Reading",
    "dedup",
    "dedup_corpus",
    "parse_size",
    "write_clusters",
]
