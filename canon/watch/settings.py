"""The settings of a run of a watch, validated once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import OptionError
from ..report.language import LOCALES
from ..sources.fetch import FetchOptions
from ..uniqueness.settings import MAX_BUDGET
from .mail import MailSettings

__all__ = ["GROWTH", "MAX_RUN_BUDGET", "RunSettings"]

MAX_RUN_BUDGET = 100 * MAX_BUDGET  # queries one run may send at most, across its pages
GROWTH = 0.05  # a copy has grown when its share rose by at least this much (5 points)


@dataclass(frozen=True)
class RunSettings:
    """A run: at most ``queries`` queries across its pages, the pages found fetched under
    ``fetch`` (results at private addresses only with ``allow_private_results``); a copy
    whose share rose by ``growth`` or more has grown; ``notify``, when given, is the command
    (its words, no shell) told of the changes, and ``mail`` the mail sent of them.  The
    report and the tables speak ``locale``'s language (``ru`` or ``en``)."""

    queries: int = 20
    fetch: FetchOptions = field(default_factory=FetchOptions)
    allow_private_results: bool = False
    growth: float = GROWTH
    notify: Sequence[str] | None = None
    mail: MailSettings | None = None
    locale: str = "en"

    def __post_init__(self) -> None:
        q = self.queries
        if not isinstance(q, int) or isinstance(q, bool) or not 1 <= q <= MAX_RUN_BUDGET:
            raise OptionError(
                "queries", f"must be a whole number of queries from 1 to {MAX_RUN_BUDGET:,}, "
                f"got {q}", value=q,
            )  # fmt: skip
        if not 0 < self.growth <= 1:
            raise OptionError("growth", f"must be a share in (0, 1], got {self.growth}")
        if self.notify is not None:
            words = tuple(self.notify)
            if not words or not words[0]:
                raise OptionError("notify_cmd", "must name a command", value=self.notify)
            object.__setattr__(self, "notify", words)
        if self.locale not in LOCALES:
            raise OptionError("lang", f"must be one of {', '.join(LOCALES)}, got {self.locale!r}")
