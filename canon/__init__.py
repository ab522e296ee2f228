"""canon: how much Russian texts share, by word shingles over one canonical form.

The stages, their rooms and their types::

    source ─────────► Document ──────────► Canonical ──────────► shingle hashes
    (sources/:         (text, title,        (canonical.py:        (shingle.py: stable
     read_source)       method)              tokens, spans,        uint64 per k-word
                                              one Profile)          window)
        ┌───────────────────────────────────────────────────────────────┘
        ├─► comparison.py: compare, compare_table ──► Comparison, Table   (two texts)
        ├─► uniqueness.py: check(text, Index) ─────► CheckResult         (a draft vs an index)
        ├─► websearch/: web_check(text, provider) ─► WebCheck            (a draft vs the web)
        │     attribution.py (sources ↔ fragments), verdict.py (copied, rewritten, unique)
        └─► sketch.py, lsh.py ─► dedup/: dedup_corpus ─► DedupResult      (a corpus)
              audit/: audit_site (crawl, findings, CSV/XLSX/HTML) ─► AuditResult (a site)

Around them: ``profile.py`` (the rules, ``Profile``), ``text/`` (normalization, tokens,
lemmas, word lists, quotations), ``index/`` (the SQLite index and ``add_sources``),
``measures.py`` (set measures), ``textstats.py`` (water, nausea, Zipf), ``errors.py`` (the
``CanonError`` tree), ``report/`` (terminal, HTML, plot), ``cli/`` and ``web/``.
"""

from .audit import AuditResult, CrawlSettings, audit_site
from .canonical import Canonical, Fragment, canonicalize
from .comparison import Comparison, Table, TooShort, compare, compare_table
from .errors import (
    CanonError,
    EmptyText,
    ExtractionError,
    FetchError,
    IndexFileError,
    InputError,
    MissingResource,
    OptionError,
    OutputError,
    ProfileError,
    SearchError,
    TextTooShort,
)
from .fingerprints.measures import compare_sets
from .fingerprints.shingles import shingle_hashes, shingles
from .hashing import token_hashes
from .index.ingest import AddReport, add_sources
from .index.store import Index
from .profile import BUILTIN_PROFILES, Profile, get_profile
from .sources.documents import Document, read_source
from .sources.fetch import FetchOptions
from .text.tokenize import Fold
from .text.tricks import Trick
from .textstats import TextStats
from .textstats import text_stats as stats
from .uniqueness.against_index import CheckResult, SourceMatch, check
from .uniqueness.verdict import Verdict
from .uniqueness.web import WebCheck, WebSource, provider_of, web_check

__version__ = "0.1.0"

__all__ = [
    "BUILTIN_PROFILES",
    "AddReport",
    "AuditResult",
    "CanonError",
    "Canonical",
    "CheckResult",
    "Comparison",
    "CrawlSettings",
    "Document",
    "EmptyText",
    "ExtractionError",
    "FetchError",
    "FetchOptions",
    "Fold",
    "Fragment",
    "Index",
    "IndexFileError",
    "InputError",
    "MissingResource",
    "OptionError",
    "OutputError",
    "Profile",
    "ProfileError",
    "SearchError",
    "SourceMatch",
    "Table",
    "TextStats",
    "TextTooShort",
    "TooShort",
    "Trick",
    "Verdict",
    "WebCheck",
    "WebSource",
    "__version__",
    "add_sources",
    "audit_site",
    "canonicalize",
    "check",
    "compare",
    "compare_sets",
    "compare_table",
    "get_profile",
    "provider_of",
    "read_source",
    "shingle_hashes",
    "shingles",
    "stats",
    "token_hashes",
    "web_check",
]
