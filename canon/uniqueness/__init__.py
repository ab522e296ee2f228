"""A draft against an index or the web: one uniqueness verdict, its sources with their fragments.

:mod:`.against_index` checks a draft against an :class:`~canon.index.store.Index`;
:mod:`.attribution` ties fragments to sources, :mod:`.exclusion` leaves sources out,
:mod:`.rewrites` finds rewritten sentences, :mod:`.verdict` weighs copied, rewritten and unique
text over the draft's characters; :mod:`.web` extends the check to search results.
:class:`~.settings.CheckSettings` holds every option of a check, validated once.
"""

from .against_index import CheckResult, ProfileCheck, SourceMatch, check
from .settings import CheckSettings, SearchSettings
from .verdict import Verdict

__all__ = [
    "CheckResult",
    "CheckSettings",
    "ProfileCheck",
    "SearchSettings",
    "SourceMatch",
    "Verdict",
    "check",
]
