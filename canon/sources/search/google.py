"""Google Programmable Search (the Custom Search JSON API) → hits.

``GET {endpoint}/customsearch/v1?cx=…&q=…&num=…`` with the API key (the ``key`` parameter,
or here the ``X-goog-api-key`` header every Google API takes, which keeps it out of URLs that
logs show) answers ``{"kind":
"customsearch#search", "queries": {"request": […], "nextPage": […]}, "searchInformation":
{…}, "items": [{"title", "link", "displayLink", "snippet", …}]}``, without ``items`` when
nothing is found (``num`` is 1 to 10).  A refused call answers ``{"error": {"code", "message",
"errors": [{"message", "domain", "reason"}], "status"}}``: 400 (a bad key: ``API key not
valid``, or a bad argument), 403 (the API not enabled for the key's project, or the daily limit
spent: ``dailyLimitExceeded``), 429 (``rateLimitExceeded``, RESOURCE_EXHAUSTED: queries a
minute, or a day when the message says so).  100 queries a day are free; more are billed, up
to 10,000 a day.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...errors import CanonError
from .hits import Answer, Hit, Provider
from .secrets import url_secrets

if TYPE_CHECKING:
    import httpx

__all__ = ["ENDPOINT", "Google"]

ENDPOINT = "https://www.googleapis.com"


@dataclass(frozen=True)
class Google(Provider):
    """One Programmable Search Engine (``cx``) with an API key."""

    cx: str
    api_key: str = field(repr=False)
    endpoint: str = ENDPOINT
    name: str = "google"

    @property
    def secrets(self) -> tuple[str, ...]:
        return (self.api_key, *url_secrets(self.endpoint))

    @property
    def identity(self) -> str:
        return f"google:{self.cx}"

    def request(self, query: str, count: int) -> httpx.Request:
        import httpx

        num = str(max(1, min(count, 10)))
        params = {"cx": self.cx, "q": query, "num": num, "hl": "ru"}
        headers = {"X-goog-api-key": self.api_key}  # not in the URL, which logs may show
        url = self.endpoint.rstrip("/") + "/customsearch/v1"
        return httpx.Request("GET", url, params=params, headers=headers)

    def hits(self, answer: Answer) -> list[Hit]:
        if answer.status >= 400:
            raise self._refusal(answer)
        data = self.json_of(answer)
        if not isinstance(data, dict):
            raise self.error("the answer is not a search result; check the endpoint", "bad-answer")
        items = data.get("items", [])
        if not isinstance(items, list):
            raise self.error("the answer's items are not a list", "bad-answer")
        return [
            Hit(i["link"], str(i.get("title") or ""), str(i.get("snippet") or ""))
            for i in items
            if isinstance(i, dict) and isinstance(i.get("link"), str)
        ]

    def _refusal(self, answer: Answer) -> Exception:
        status = answer.status
        message, reasons = "", set()
        try:
            error = self.json_of(answer).get("error", {})
            message = str(error.get("message", ""))[:200]
            details = [e for e in error.get("errors", []) if isinstance(e, dict)]
            reasons = {str(e.get("reason", "")) for e in details}
        except (CanonError, AttributeError, TypeError):
            pass
        note = f" ({message})" if message else ""
        daily = "dailyLimitExceeded" in reasons or "per day" in message.lower()
        if status == 429 and not daily:
            return self.error(f"rate limited{note}; wait a minute and check again", "rate-limit")
        if daily or status == 429:
            return self.error(
                f"the daily quota is spent{note}; wait until it resets or enable billing",
                "quota",
            )
        if status == 400 and ("keyInvalid" in reasons or "api key" in message.lower()):
            return self.error(f"the API key is refused{note}; set a valid key", "bad-key")
        if status == 403:
            return self.error(
                f"access denied{note}; enable the Custom Search API for the key's project",
                "bad-key",
            )
        return self.error(f"answered HTTP {status}{note}", "refused")
