"""A provider's answer → :class:`Hit` records; the HTTP exchange every provider shares.

A provider builds its request and reads its answer; :meth:`Provider.search` sends it with the
fetch options' timeouts, asks once more after a 429 or 503, and turns what goes wrong on the
way (no connection, a timeout, an answer too large or nested too deep) into one-line
:class:`~canon.errors.SearchError` messages that name the provider and never its key: every
message and every result's title and snippet has the configuration's secrets masked, and a
result whose URL carries one is dropped.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import FetchError, SearchError
from ...records import record_dict
from ..fetch import FetchOptions
from ..headers import retry_after
from .bounded import TooDeep, load_json
from .exchange import Answer, exchange
from .secrets import redacted

if TYPE_CHECKING:
    import httpx

    from ..transport import Deadline

__all__ = ["MAX_ANSWER_BYTES", "MAX_RETRY_WAIT", "Answer", "Hit", "Provider"]

MAX_ANSWER_BYTES = 2_000_000  # a search answer larger than this is refused (10 times the
# largest real one: a hundred Yandex results with their passages)
MAX_RETRY_WAIT = 10.0  # seconds waited at most before asking again after a 429 or 503
_RETRIED = frozenset({429, 503})


@dataclass(frozen=True)
class Hit:
    """One search result: the page's URL, its title and snippet as the provider gave them."""

    url: str
    title: str = ""
    snippet: str = ""

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


class Provider(ABC):
    """A search engine reached over HTTP.  ``name`` names it in messages; ``identity`` tells
    apart the caches of two configurations of it (an instance's URL, a folder, an engine id)
    and holds no secret."""

    name: str = ""

    @property
    @abstractmethod
    def identity(self) -> str: ...

    @property
    def secrets(self) -> tuple[str, ...]:
        """The credentials of its configuration, never shown (:mod:`.secrets`)."""
        return ()

    @abstractmethod
    def request(self, query: str, count: int) -> httpx.Request:
        """The HTTP request that asks for the top ``count`` results of ``query``."""

    @abstractmethod
    def hits(self, answer: Answer) -> list[Hit]:
        """The results of an answer, or a SearchError saying why there are none."""

    def search(self, query: str, count: int, options: FetchOptions) -> list[Hit]:
        """The top ``count`` results of ``query`` (fewer when the engine finds fewer), asked
        within ``options.deadline`` seconds (each wait within its timeouts as well).  An
        answer of 429 or 503 is asked once more, within the same deadline, after what
        ``Retry-After`` says (at most :data:`MAX_RETRY_WAIT` seconds) or a second."""
        from ..transport import Deadline

        deadline = Deadline(options.deadline)
        answer = self.send(self.request(query, count), options, deadline)
        if answer.status in _RETRIED:
            wait = retry_after(answer.headers.get("retry-after", ""), 1.0, MAX_RETRY_WAIT)
            if wait >= deadline.remaining():
                raise self._late(deadline)
            time.sleep(wait)
            answer = self.send(self.request(query, count), options, deadline)
        found = self.hits(answer)
        return [self._shown(h) for h in found if self._fetchable(h.url)][:count]

    def _fetchable(self, url: str) -> bool:
        """An http(s) URL that does not carry one of the secrets (fetching it would hand the
        secret to its site)."""
        url_ok = url.lower().startswith(("http://", "https://"))
        return url_ok and redacted(url, self.secrets) == url

    def _shown(self, hit: Hit) -> Hit:
        title, snippet = redacted(hit.title, self.secrets), redacted(hit.snippet, self.secrets)
        return Hit(hit.url, title, snippet)

    def send(self, request: httpx.Request, options: FetchOptions, deadline: Deadline) -> Answer:
        """``request``'s answer, all of it within ``deadline`` (:mod:`.exchange`); what goes
        wrong on the way is a one-line SearchError."""
        import httpcore

        from ..transport import DeadlinePassed, Refusal

        try:
            return exchange(request, options, deadline, MAX_ANSWER_BYTES)
        except (DeadlinePassed, TimeoutError):
            raise self._late(deadline) from None
        except FetchError as exc:
            if exc.reason == "too-large":
                raise self._too_large() from None
            raise self.error(
                f"sent an answer canon cannot read ({exc.reason})", "bad-answer"
            ) from None
        except httpcore.TimeoutException:
            raise self.error(
                "no answer in time; check that it runs, or allow more time", "unreachable"
            ) from None
        except Refusal as exc:  # no address for its host
            raise self.error(
                f"{exc.message}; check its address and that it runs", "unreachable"
            ) from None
        except (httpcore.NetworkError, httpcore.ProtocolError) as exc:
            raise self.error(
                f"cannot be reached ({type(exc).__name__}); check its address and that it runs",
                "unreachable",
            ) from None

    def _late(self, deadline: Deadline) -> SearchError:
        return self.error(
            f"no complete answer within the {deadline.seconds:g}-second deadline; "
            "check that it runs, or allow more time",
            "unreachable",
        )

    def _too_large(self) -> SearchError:
        return self.error(
            f"the answer is over {MAX_ANSWER_BYTES:,} bytes; "
            "check that the endpoint is the provider's",
            "bad-answer",
        )

    def too_deep(self, exc: TooDeep) -> SearchError:
        return self.error(
            f"the answer is nested deeper than {exc.limit} levels; "
            "check that the endpoint is the provider's",
            "bad-answer",
        )

    def error(self, message: str, reason: str) -> SearchError:
        """A SearchError naming the provider; whatever the message quotes, its secrets are
        ``***``."""
        return SearchError(self.name, redacted(message, self.secrets), reason=reason)

    def json_of(self, answer: Answer) -> Any:
        """The answer's JSON, its nesting bounded (:mod:`.bounded`) before it is parsed."""
        try:
            return load_json(answer.body)
        except TooDeep as exc:
            raise self.too_deep(exc) from None
        except ValueError:
            raise self.error(
                f"answered HTTP {answer.status} with something that is not JSON; "
                "check that the address is the provider's API",
                "bad-answer",
            ) from None
