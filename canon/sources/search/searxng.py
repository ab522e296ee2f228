"""A SearXNG instance's JSON API → hits.

``GET {instance}/search?q=…&format=json`` answers ``{"query": …, "number_of_results": …,
"results": [{"url", "title", "content", "engine", "engines", "score", …}], "answers",
"corrections", "infoboxes", "suggestions", "unresponsive_engines": [[engine, reason], …]}``.
An instance answers 403 when the JSON format is not among the ``search.formats`` of its
``settings.yml``, and 429 when its limiter (bot detection) refuses the client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .hits import Answer, Hit, Provider
from .secrets import shown_url, url_secrets

if TYPE_CHECKING:
    import httpx

__all__ = ["SearXNG"]


@dataclass(frozen=True)
class SearXNG(Provider):
    """A SearXNG instance at ``url`` (its base address, without ``/search``)."""

    url: str
    language: str = "ru"
    name: str = "searxng"

    @property
    def identity(self) -> str:
        return f"searxng:{shown_url(self.url).rstrip('/')}"

    @property
    def secrets(self) -> tuple[str, ...]:
        return url_secrets(self.url)

    def request(self, query: str, count: int) -> httpx.Request:
        import httpx

        params = {"q": query, "format": "json", "language": self.language, "pageno": "1"}
        return httpx.Request("GET", self.url.rstrip("/") + "/search", params=params)

    def hits(self, answer: Answer) -> list[Hit]:
        self._check_status(answer)
        data = self.json_of(answer)
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise self.error(
                "the answer has no list of results; check that the address is a SearXNG instance",
                "bad-answer",
            )
        return [
            Hit(r["url"], str(r.get("title") or ""), str(r.get("content") or ""))
            for r in results
            if isinstance(r, dict) and isinstance(r.get("url"), str)
        ]

    def _check_status(self, answer: Answer) -> None:
        status, url = answer.status, shown_url(self.url)
        if status == 403:
            raise self.error(
                f"{url} refuses format=json (HTTP 403); add json to search.formats in "
                "the instance's settings.yml and restart it",
                "refused",
            )
        if status == 429:
            raise self.error(
                f"{url} limits this client (HTTP 429); wait, or turn off server.limiter "
                "in the instance's settings.yml",
                "rate-limit",
            )
        if status == 404:
            raise self.error(
                f"{url} has no /search (HTTP 404); give the instance's base address",
                "bad-answer",
            )
        if status >= 400:
            raise self.error(
                f"{url} answered HTTP {status}; check the instance's log",
                "unreachable" if status >= 500 else "refused",
            )
