"""The settings of a check, each validated once: how a draft is counted against an index, and
how the web is searched for it.

A :class:`CheckSettings` holds every option of a check that is neither the draft nor what it
is checked against (the index, the search provider); :func:`canon.uniqueness.check` and
:func:`canon.uniqueness.web.web_check` take one, and the command line and the web service each
build one from what they were given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..errors import OptionError
from ..fingerprints.sentences import THRESHOLD
from ..sources.fetch import FetchOptions
from .exclusion import Exclusion

__all__ = ["MAX_BUDGET", "MAX_PAGES", "RESULTS_PER_QUERY", "CheckSettings", "SearchSettings"]

RESULTS_PER_QUERY = 5  # the top results of each query that are compared
MAX_PAGES = 50  # pages compared at most in one check
MAX_BUDGET = 200  # the most queries one check may ask for


def _whole(value: object) -> bool:
    """Whether ``value`` is a whole number (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class SearchSettings:
    """How a check searches the web: at most ``queries`` phrase queries (None: one per 300
    characters of the draft, at most 20), the top ``results`` of each, at most ``max_pages``
    pages compared, fetched under ``fetch`` (queries and pages cached in its ``cache_dir``
    when it is set).

    The pages a provider names are third-party input: whatever ``fetch.allow_private`` says
    (it covers the draft and the provider, which may well run on this machine), a result at a
    loopback, private, link-local or reserved address is fetched only with
    ``allow_private_results``; without it, the page is recorded as failed with the reason.
    """

    queries: int | None = None
    results: int = RESULTS_PER_QUERY
    max_pages: int = MAX_PAGES
    fetch: FetchOptions = field(default_factory=FetchOptions)
    allow_private_results: bool = False

    def __post_init__(self) -> None:
        queries = self.queries
        if queries is not None and (not _whole(queries) or not 1 <= queries <= MAX_BUDGET):
            raise OptionError(
                "queries",
                f"must be a whole number of queries from 1 to {MAX_BUDGET}, got {queries}",
                value=queries,
            )
        for option in ("results", "max_pages"):
            value = getattr(self, option)
            if not _whole(value) or value < 1:
                raise OptionError(
                    option, f"must be a whole number, 1 or more, got {value}", value=value
                )
        if not isinstance(self.allow_private_results, bool):
            raise OptionError(
                "allow_private_results", "must be True or False", value=self.allow_private_results
            )

    @property
    def result_fetch(self) -> FetchOptions:
        """How the pages the provider names are fetched: ``fetch``, with private addresses
        allowed only when ``allow_private_results`` says so."""
        return replace(self.fetch, allow_private=self.allow_private_results)


@dataclass(frozen=True)
class CheckSettings:
    """How a draft is checked.

    ``profiles`` are the names of the index's profiles to check under (None: all of them).
    ``exclude`` leaves indexed sources out (:class:`~canon.uniqueness.exclusion.Exclusion`),
    ``skip_quotes`` leaves text in quotation marks out of the count.  A source counts when it
    holds at least ``min_shared`` of the draft's shingles; ``top`` of them are listed.  A
    shingle held by more than ``common`` indexed documents is a set phrase: it counts as
    borrowed in the per-profile shingle figures but is credited to no source and makes no
    fragment (None credits every shingle).  A draft sentence whose content lemmas match a
    source sentence's with IDF-weighted Dice at least ``sentence_threshold`` is rewritten from
    it (None turns the sentence measure off).  With ``similar``, the indexed documents whose
    whole shingle set has Jaccard at least ``similar`` with the draft's are listed too.
    ``search`` is how a check against the web searches it; a check against an index alone
    leaves it unused, and against the web ``common`` and ``similar`` count only in the index.
    """

    profiles: Sequence[str] | None = None
    exclude: Sequence[str] = ()
    skip_quotes: bool = False
    top: int = 10
    min_shared: int = 3
    common: int | None = 1000
    similar: float | None = None
    sentence_threshold: float | None = THRESHOLD
    search: SearchSettings = field(default_factory=SearchSettings)

    def __post_init__(self) -> None:
        if self.profiles is not None:
            object.__setattr__(self, "profiles", _names(self.profiles))
        object.__setattr__(self, "exclude", _names(self.exclude))
        threshold, similar, common = self.sentence_threshold, self.similar, self.common
        if threshold is not None and not 0 < threshold <= 1:
            raise OptionError(
                "sentence_threshold", f"must be a score in (0, 1], got {threshold}", value=threshold
            )
        if similar is not None and not 0 < similar <= 1:
            raise OptionError(
                "similar", f"must be a Jaccard in (0, 1], got {similar}", value=similar
            )
        if common is not None and common < 1:
            raise OptionError(
                "common", f"must be a number of documents, 1 or more, got {common}", value=common
            )
        if self.min_shared < 1:
            raise OptionError(
                "min_shared",
                f"must be 1 or more shingles, got {self.min_shared}",
                value=self.min_shared,
            )
        if not _whole(self.top) or self.top < 1:
            raise OptionError(
                "top", f"must be a whole number, 1 or more, got {self.top}", value=self.top
            )
        Exclusion(self.exclude)  # the entries are valid (refused here, before any check)


def _names(values: Sequence[str]) -> tuple[str, ...]:
    """A sequence of names as a tuple (one name given alone is not split into letters)."""
    return (values,) if isinstance(values, str) else tuple(values)
