"""canon: how much Russian texts share, by word shingles over one canonical form."""

from .canonical import Canonical, canonicalize
from .check import CheckResult, check
from .compare import Comparison, Table, TooShort, compare, compare_sets, compare_table
from .corpus import AddReport, add_sources
from .errors import (
    CanonError,
    EmptyText,
    FetchError,
    IndexFileError,
    InputError,
    MissingResource,
    ProfileError,
    TextTooShort,
)
from .fetch import FetchOptions
from .index import Index
from .profile import BUILTIN_PROFILES, Profile, get_profile
from .shingle import shingle_hashes, shingles, token_hashes
from .sources import Document, read_source
from .stats import TextStats
from .stats import text_stats as stats
from .tokenize import Fold

__version__ = "0.1.0"

__all__ = [
    "BUILTIN_PROFILES",
    "AddReport",
    "CanonError",
    "Canonical",
    "CheckResult",
    "Comparison",
    "Document",
    "EmptyText",
    "FetchError",
    "FetchOptions",
    "Fold",
    "Index",
    "IndexFileError",
    "InputError",
    "MissingResource",
    "Profile",
    "ProfileError",
    "Table",
    "TextStats",
    "TextTooShort",
    "TooShort",
    "__version__",
    "add_sources",
    "canonicalize",
    "check",
    "compare",
    "compare_sets",
    "compare_table",
    "get_profile",
    "read_source",
    "shingle_hashes",
    "shingles",
    "stats",
    "token_hashes",
]
