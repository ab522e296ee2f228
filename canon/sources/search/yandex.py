"""Yandex Search API v2 (Yandex Cloud), text search in synchronous mode → hits.

``POST {endpoint}/v2/web/search`` with the header ``Authorization: Api-Key <key>`` and the
body ``{"query": {"searchType": "SEARCH_TYPE_RU", "queryText": …, "page": "0"},
"groupSpec": {…}, "maxPassages": …, "l10n": …, "folderId": …, "responseFormat":
"FORMAT_XML"}`` answers ``{"rawData": "<base64>"}``: the Yandex XML document
(``yandexsearch/response/results/grouping/group/doc/url``), whose ``response/error`` carries a
code when the search itself failed (15: nothing found).  A refused call answers an HTTP error
with a gRPC-style body ``{"code": …, "message": …, "details": […]}``: 401 (UNAUTHENTICATED,
a bad key), 403 (PERMISSION_DENIED: no ``search-api.webSearch.user`` role in the folder),
429 (RESOURCE_EXHAUSTED: a quota or the rate), 400 (INVALID_ARGUMENT).  API v1 (the XML
GET/POST interface) was discontinued on 30 September 2025; this is API v2.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import CanonError
from .bounded import TooDeep, load_xml
from .hits import Answer, Hit, Provider
from .secrets import url_secrets

if TYPE_CHECKING:
    import httpx

__all__ = ["ENDPOINT", "Yandex"]

ENDPOINT = "https://searchapi.api.cloud.yandex.net"
MAX_QUERY_CHARS = 400  # queryText's documented limit
_NOTHING_FOUND = "15"
_QUOTA = {"32"}  # the daily limit of queries is spent
_RATE = {"55"}  # too many queries a second


@dataclass(frozen=True)
class Yandex(Provider):
    """The Yandex Search API v2 of one folder, with a service account's API key."""

    folder_id: str
    api_key: str = field(repr=False)
    endpoint: str = ENDPOINT
    search_type: str = "SEARCH_TYPE_RU"
    name: str = "yandex"

    @property
    def secrets(self) -> tuple[str, ...]:
        return (self.api_key, *url_secrets(self.endpoint))

    @property
    def identity(self) -> str:
        return f"yandex:{self.folder_id}:{self.search_type}"

    def request(self, query: str, count: int) -> httpx.Request:
        body = {
            "query": {
                "searchType": self.search_type,
                "queryText": query[:MAX_QUERY_CHARS],
                "familyMode": "FAMILY_MODE_NONE",
                "page": "0",
            },
            "groupSpec": {
                "groupMode": "GROUP_MODE_DEEP",
                "groupsOnPage": str(max(1, min(count, 100))),
                "docsInGroup": "1",
            },
            "maxPassages": "1",
            "l10n": "LOCALIZATION_RU",
            "folderId": self.folder_id,
            "responseFormat": "FORMAT_XML",
        }
        import httpx

        headers = {"Authorization": f"Api-Key {self.api_key}"}
        url = self.endpoint.rstrip("/") + "/v2/web/search"
        return httpx.Request("POST", url, json=body, headers=headers)

    def hits(self, answer: Answer) -> list[Hit]:
        if answer.status >= 400:
            raise self._refusal(answer)
        data = self.json_of(answer)
        raw = data.get("rawData") if isinstance(data, dict) else None
        if not isinstance(raw, str):
            raise self.error("the answer has no rawData; check the endpoint", "bad-answer")
        try:
            xml = base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            raise self.error("rawData is not base64; check the endpoint", "bad-answer") from None
        return self._from_xml(xml)

    def _from_xml(self, xml: bytes) -> list[Hit]:
        from lxml import etree

        try:
            root = load_xml(xml)
        except TooDeep as exc:
            raise self.too_deep(exc) from None
        except etree.XMLSyntaxError:
            raise self.error("rawData is not an XML document", "bad-answer") from None
        error = root.find("response/error")
        if error is not None:
            code = error.get("code", "")
            if code == _NOTHING_FOUND:
                return []
            said = " ".join("".join(error.itertext()).split())[:200]
            if code in _QUOTA:
                raise self.error(f"the daily quota is spent ({said}); wait or raise it", "quota")
            if code in _RATE:
                raise self.error(f"too many queries a second ({said}); retry later", "rate-limit")
            raise self.error(f"the search failed with code {code}: {said}", "refused")
        return [
            Hit(url, _text(doc.find("title")), _text(doc.find("passages")))
            for doc in root.iterfind("response/results/grouping/group/doc")
            if (url := _text(doc.find("url")))
        ]

    def _refusal(self, answer: Answer) -> Exception:
        status = answer.status
        try:
            data = self.json_of(answer)
            said = str(data.get("message", ""))[:200] if isinstance(data, dict) else ""
        except CanonError:
            said = ""
        note = f" ({said})" if said else ""
        if status == 401:
            return self.error(
                f"the API key is refused{note}; set a valid service-account key", "bad-key"
            )
        if status == 403:
            return self.error(
                f"permission denied{note}; give the key's service account the "
                "search-api.webSearch.user role in the folder, and check the folder id",
                "bad-key",
            )
        if status == 429:
            return self.error(
                f"quota or rate limit exhausted{note}; wait, or raise the folder's quotas",
                "quota",
            )
        return self.error(f"answered HTTP {status}{note}", "refused")


def _text(element: Any) -> str:
    return "" if element is None else " ".join("".join(element.itertext()).split())
