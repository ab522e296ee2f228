"""A draft against the web: phrase queries to a search provider, the pages found compared
under the same rules as an index check.

:func:`web_check` is the entry point; :mod:`.queries` picks the phrases, :mod:`.candidates`
asks the provider and fetches the pages, :mod:`.run` checks the draft against them, and
:mod:`.result` holds the record.  The providers themselves live in
:mod:`canon.sources.search`.
"""

from ...sources.search import PROVIDERS, Hit, Provider, provider_of
from .candidates import Asked, PageRecord, normalized_url
from .queries import MAX_BUDGET, Query, default_budget, pick_queries
from .result import WebCheck, WebSource
from .run import MAX_PAGES, RESULTS_PER_QUERY, web_check

__all__ = [
    "MAX_BUDGET",
    "MAX_PAGES",
    "PROVIDERS",
    "RESULTS_PER_QUERY",
    "Asked",
    "Hit",
    "PageRecord",
    "Provider",
    "Query",
    "WebCheck",
    "WebSource",
    "default_budget",
    "normalized_url",
    "pick_queries",
    "provider_of",
    "web_check",
]
