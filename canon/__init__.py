"""canon: how much Russian texts share, by word shingles over one canonical form."""

from .canonical import Canonical, canonicalize
from .compare import Comparison, Table, TooShort, compare, compare_sets, compare_table
from .errors import (
    CanonError,
    FetchError,
    InputError,
    MissingResource,
    ProfileError,
    TextTooShort,
)
from .fetch import FetchOptions
from .profile import BUILTIN_PROFILES, Profile, get_profile
from .shingle import shingle_hashes, shingles, token_hashes
from .sources import Document, read_source
from .tokenize import Fold

__version__ = "0.1.0"

__all__ = [
    "BUILTIN_PROFILES",
    "CanonError",
    "Canonical",
    "Comparison",
    "Document",
    "FetchError",
    "FetchOptions",
    "Fold",
    "InputError",
    "MissingResource",
    "Profile",
    "ProfileError",
    "Table",
    "TextTooShort",
    "TooShort",
    "__version__",
    "canonicalize",
    "compare",
    "compare_sets",
    "compare_table",
    "get_profile",
    "read_source",
    "shingle_hashes",
    "shingles",
    "token_hashes",
]
