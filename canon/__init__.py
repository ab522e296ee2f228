"""canon: how much Russian texts share, by word shingles over one canonical form.

The stages, their rooms and their types::

    source ─────────► Document ──────────► Canonical ──────────► shingle hashes
    (sources/:         (text, title,        (canonical.py:        (fingerprints/shingles.py:
     read_source)       method)              tokens, spans,        stable uint64 per k-word
                                              one Profile)          window; hashing.py)
        ┌───────────────────────────────────────────────────────────────┘
        ├─► comparison.py: compare, compare_table ──► Comparison, Table     (two texts)
        ├─► uniqueness/: check(text, Index) ───────► CheckResult           (a draft vs an index)
        ├─► uniqueness/web/: web_check(text, provider) ─► WebCheck         (a draft vs the web)
        │     attribution.py (sources ↔ fragments), verdict.py (copied, rewritten, unique)
        └─► fingerprints/ (minhash, lsh) ─► dedup/: dedup_corpus ─► DedupResult  (a corpus)
              audit/: audit_site (crawl, findings, CSV/XLSX/HTML) ─► AuditResult (a site)

Around them: ``profile.py`` (the rules, ``Profile``), ``text/`` (normalization, tokens, lemmas, word
lists, quotations), ``index/`` (the SQLite index and ``add_sources``), ``fingerprints/measures.py``
(set measures), ``textstats.py`` (water, nausea, Zipf), ``errors.py`` (the ``CanonError`` tree),
``report/`` (terminal, HTML, plot), ``cli/`` and ``web/``.

``import canon`` loads only the errors; every other name here is imported on first use.  The
site audit, the web service, plots and the Dask engine need extras (``pip install
'canon[audit]'``, ``[web]``, ``[plot]``, ``[dask]``, or ``[all]``); without one, the feature
raises :class:`MissingExtra` naming it (``canon.extras``).
"""

import typing as _typing

from ._version import __version__
from .errors import (
    AccountError,
    CanonError,
    EmptyText,
    ExtractionError,
    FetchError,
    IndexFileError,
    InputError,
    MissingExtra,
    MissingResource,
    OptionError,
    OutputError,
    ProfileError,
    SearchError,
    TextTooShort,
)

# Every other public name, by the module that defines it ("module:attribute" where the name
# differs): imported on first use, so ``import canon`` loads neither the audit, the dedup,
# the web service nor any optional extra.
_LAZY: dict[str, str] = {
    "BUILTIN_PROFILES": "canon.profile",
    "AddReport": "canon.index.ingest",
    "AddSettings": "canon.index.settings",
    "AuditResult": "canon.audit",
    "Canonical": "canon.canonical",
    "CheckResult": "canon.uniqueness.against_index",
    "CheckSettings": "canon.uniqueness.settings",
    "Comparison": "canon.comparison",
    "CrawlSettings": "canon.audit",
    "Document": "canon.sources.documents",
    "FetchOptions": "canon.sources.fetch",
    "Fold": "canon.text.tokenize",
    "Fragment": "canon.canonical",
    "Index": "canon.index.store",
    "IndexRules": "canon.index.settings",
    "Profile": "canon.profile",
    "SearchSettings": "canon.uniqueness.settings",
    "SourceMatch": "canon.uniqueness.against_index",
    "Table": "canon.comparison",
    "TextStats": "canon.textstats",
    "TooShort": "canon.comparison",
    "Trick": "canon.text.tricks",
    "Verdict": "canon.uniqueness.verdict",
    "WebCheck": "canon.uniqueness.web",
    "WebSource": "canon.uniqueness.web",
    "add_sources": "canon.index.ingest",
    "audit_site": "canon.audit",
    "canonicalize": "canon.canonical",
    "check": "canon.uniqueness.against_index",
    "compare": "canon.comparison",
    "compare_sets": "canon.fingerprints.measures",
    "compare_table": "canon.comparison",
    "get_profile": "canon.profile",
    "provider_of": "canon.uniqueness.web",
    "read_source": "canon.sources.documents",
    "shingle_hashes": "canon.fingerprints.shingles",
    "shingles": "canon.fingerprints.shingles",
    "stats": "canon.textstats:text_stats",
    "token_hashes": "canon.hashing",
    "web_check": "canon.uniqueness.web",
}

if _typing.TYPE_CHECKING:  # the same names, for type checkers and editors
    from .audit import AuditResult, CrawlSettings, audit_site
    from .canonical import Canonical, Fragment, canonicalize
    from .comparison import Comparison, Table, TooShort, compare, compare_table
    from .fingerprints.measures import compare_sets
    from .fingerprints.shingles import shingle_hashes, shingles
    from .hashing import token_hashes
    from .index.ingest import AddReport, add_sources
    from .index.settings import AddSettings, IndexRules
    from .index.store import Index
    from .profile import BUILTIN_PROFILES, Profile, get_profile
    from .sources.documents import Document, read_source
    from .sources.fetch import FetchOptions
    from .text.tokenize import Fold
    from .text.tricks import Trick
    from .textstats import TextStats
    from .textstats import text_stats as stats
    from .uniqueness.against_index import CheckResult, SourceMatch, check
    from .uniqueness.settings import CheckSettings, SearchSettings
    from .uniqueness.verdict import Verdict
    from .uniqueness.web import WebCheck, WebSource, provider_of, web_check

__all__ = [
    "BUILTIN_PROFILES",
    "AccountError",
    "AddReport",
    "AddSettings",
    "AuditResult",
    "CanonError",
    "Canonical",
    "CheckResult",
    "CheckSettings",
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
    "IndexRules",
    "InputError",
    "MissingExtra",
    "MissingResource",
    "OptionError",
    "OutputError",
    "Profile",
    "ProfileError",
    "SearchError",
    "SearchSettings",
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


def __getattr__(name: str) -> object:
    """A name of ``_LAZY`` imported on first use (then kept), or a submodule of canon."""
    import importlib
    import importlib.util

    if name in _LAZY:
        module, _, attribute = _LAZY[name].partition(":")
        value = getattr(importlib.import_module(module), attribute or name)
        globals()[name] = value
        return value
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
