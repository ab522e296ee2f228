"""Stand-ins for the three search providers, on one real HTTP server on 127.0.0.1.

No test may reach the internet, so this server speaks each provider's documented format:

- SearXNG: ``GET /search?q=…&format=json`` → ``{"query", "number_of_results", "results":
  [{"url", "title", "content", "engine", …}], "answers", "suggestions",
  "unresponsive_engines"}``; 403 when the JSON format is off, 429 from its limiter;
- Yandex Search API v2: ``POST /v2/web/search`` with ``Authorization: Api-Key …`` and a JSON
  body (``query.queryText``, ``folderId``, ``responseFormat``) → ``{"rawData": base64 of the
  Yandex XML document}``; refusals as gRPC-style JSON (``{"code", "message", "details"}``)
  with 401, 403 and 429;
- Google Custom Search JSON API: ``GET /customsearch/v1?cx=…&q=…&num=…`` with the key as
  the ``key`` parameter or the ``X-goog-api-key`` header →
  ``{"kind", "queries", "searchInformation", "items": [{"title", "link", "snippet"}]}``;
  refusals as ``{"error": {"code", "message", "errors": [{"reason"}], "status"}}``.

Each provider searches the pages this server serves (a phrase query finds the pages that
hold the phrase) and also always returns the page that rewrites the draft, an unrelated page,
a missing one (404) and one too short to compare, plus the copying page again under another
form of its URL.  A test may serve pages of its own (``served``, changed between runs), add
results of its own (``also``) and leave the fixed extras out (``extras``).
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

# How often the serving thread looks for shutdown(): a stop takes at most this long.
POLL = 0.05

COPIED = (
    "Зелёный чай заваривают водой, которая не успела закипеть: крутой кипяток обваривает "
    "нежные листья, и настой начинает горчить. Опытные чайные мастера советуют дождаться, "
    "пока на дне чайника появятся мелкие пузырьки, похожие на рыбьи глаза, и только тогда "
    "снимать его с огня. Первую заварку часто сливают, чтобы раскрыть аромат и смыть пыль "
    "с листьев."
)
REWRITTEN = (
    "Фарфоровый чайник перед заваркой полезно согреть горячей водой, иначе холодные стенки "
    "заберут тепло у настоя. Листья кладут из расчёта одна ложка на чашку и ещё одна на "
    "чайник, а затем накрывают крышкой и полотенцем."
)
REWRITE = (  # the same lemmas in other forms: found under lemma, not word for word
    "Фарфоровые чайники перед заварками полезно согреть горячими водами, иначе холодная "
    "стенка заберёт тепла у настоев. Лист кладут из расчётов одной ложки на чашки и ещё "
    "одной на чайники, а затем накрывают крышками и полотенцами."
)
OWN = (
    "Мой дед держал на веранде самовар с медной трубой и по воскресеньям топил его сосновыми "
    "шишками, которые мы с сестрой собирали в роще за оврагом. Вкус того чая я не встречал "
    "больше нигде, хотя объехал полстраны в поисках похожего."
)
DRAFT = f"{COPIED}\n\n{REWRITTEN}\n\n{OWN}\n"
UNRELATED = (
    "Рассаду томатов высаживают в открытый грунт, когда минует угроза заморозков и земля "
    "прогреется. Лунки заранее проливают тёплой водой, а кусты подвязывают к колышкам, чтобы "
    "стебли не сломались под тяжестью плодов. Мульча из скошенной травы удерживает влагу."
)
FILLER = (
    "Наш магазин предлагает широкий выбор посуды для чайной церемонии и доставку по всей "
    "стране в течение трёх рабочих дней после оформления заказа."
)

YANDEX_KEY = "yandex-test-key"
YANDEX_FOLDER = "b1gtestfolder"
GOOGLE_KEY = "google-test-key"
GOOGLE_CX = "test-cx-123"


DEEP = 200_000  # levels of the nested answer of mode "deep"
DEEP_XML = 100  # levels of Yandex's XML in mode "deep-xml": over 64, under libxml2's 256
HUGE = 3_000_000  # bytes of the answer of mode "huge"
TRICKLE = 0.5  # seconds between the bytes of mode "trickle"
TRICKLE_FOR = 30.0  # ... for at most this long


def internal_urls(port: int) -> list[str]:
    """Results a provider may return that point inside the network canon runs in."""
    return [
        "http://10.0.0.1/admin",
        "http://169.254.169.254/latest/meta-data/",
        f"http://[::1]:{port}/pages/copy.html",
        f"http://localhost:{port}/pages/copy.html",
        f"http://[::ffff:127.0.0.1]:{port}/pages/rewrite.html",
    ]


def _html(title: str, *paragraphs: str, head: str = "") -> bytes:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f"<!doctype html><html lang='ru'><head><meta charset='utf-8'><title>{title}</title>"
        f"{head}</head><body><nav><a href='/'>Главная</a></nav><article><h1>{title}</h1>{body}"
        "</article><footer>© Чайный дом</footer></body></html>"
    ).encode()


PAGES = {
    "/pages/copy.html": ("Как заваривать зелёный чай", [FILLER, COPIED]),
    "/pages/rewrite.html": ("Секреты заварки", [REWRITE, FILLER]),
    "/pages/garden.html": ("Томаты в открытом грунте", [UNRELATED]),
    "/pages/short.html": ("Чай", ["Готов."]),  # fewer words than a shingle
}
MISSING = "/pages/gone.html"


@dataclass
class StandIn:
    """The running server: its base URL, what it was asked, and how it should answer.

    ``mode`` is ``ok``, or an error to answer every search with: ``quota``, ``rate``,
    ``bad-key``, ``forbidden``, ``no-json`` (SearXNG without the JSON format), ``garbage``,
    ``nothing`` and ``daily`` (Yandex's error codes 15 and 32), ``busy-once`` (one 429 with
    ``Retry-After: 0``, then answers).  Hostile answers: ``internal`` (results at internal
    addresses besides the usual ones), ``deep`` (JSON nested :data:`DEEP` levels, Yandex's
    too), ``deep-xml`` (Yandex's XML nested :data:`DEEP_XML` levels), ``huge`` (a valid answer
    of :data:`HUGE` bytes), ``echo`` (a 4xx whose body repeats the key the request carried),
    ``echo-results`` (Google's results carrying the key in a URL, a title and a snippet),
    ``trickle`` (an answer sent one byte every :data:`TRICKLE` seconds).
    """

    base: str = ""
    mode: str = "ok"
    queries: list[tuple[str, str]] = field(default_factory=list)  # (provider, query)
    hits: Counter[str] = field(default_factory=Counter)  # path → requests
    headers: list[dict[str, str]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)  # every request's path and query
    # Pages a test serves besides PAGES, searched as they are: path → (title, paragraphs, head
    # markup such as a canonical link); changed between requests, a copy appears, grows, goes.
    served: dict[str, tuple[str, list[str], str]] = field(default_factory=dict)
    extras: bool = True  # whether every answer also holds the fixed extra results
    also: list[tuple[str, str, str]] = field(default_factory=list)  # results of every answer
    slow: float = 0.0  # seconds SearXNG waits before it takes a query (and counts it)

    def url(self, path: str) -> str:
        return self.base + path

    def found_for(self, query: str) -> list[tuple[str, str, str]]:
        """(url, title, snippet): the pages holding the phrase, then the fixed extras."""
        phrase = " ".join(query.strip().strip('"').split())
        pages = {path: page[:2] for path, page in self.served.items()} | PAGES
        found = [
            (self.url(path), title, phrase)
            for path, (title, paragraphs) in pages.items()
            if phrase and phrase in " ".join(" ".join(paragraphs).split())
        ]
        found += self.also
        if not self.extras:
            return found
        extras = [
            (self.url("/pages/copy.html?utm_source=search"), "copy again", ""),
            (self.url("/pages/rewrite.html"), PAGES["/pages/rewrite.html"][0], ""),
            (self.url("/pages/garden.html"), PAGES["/pages/garden.html"][0], ""),
            (self.url(MISSING), "gone", ""),
            (self.url("/pages/short.html"), "short", ""),
        ]
        found += [e for e in extras if e[0] not in {f[0] for f in found}]
        if self.mode == "internal":
            inside = internal_urls(urlsplit(self.base).port or 80)
            found = [(url, "internal", "") for url in inside] + found
        if self.mode == "huge":
            found.insert(0, (self.url("/pages/huge.html"), "huge", "ч" * (HUGE // 2)))
        return found


def _yandex_xml(found: list[tuple[str, str, str]]) -> bytes:
    groups = "".join(
        f"<group><categ attr='d' name='{escape(urlsplit(url).netloc)}'/><doccount>1</doccount>"
        f"<doc id='{n}'><relevance/><url>{escape(url)}</url><domain>127.0.0.1</domain>"
        f"<title>{escape(title)}</title><mime-type>text/html</mime-type>"
        f"<passages><passage>{escape(snippet)}</passage></passages></doc></group>"
        for n, (url, title, snippet) in enumerate(found)
    )
    return (
        "<?xml version='1.0' encoding='utf-8'?><yandexsearch version='1.0'><request>"
        "<query>q</query><page>0</page></request><response date='20261201T120000'>"
        f"<reqid>1-2-3</reqid><found priority='all'>{len(found)}</found><results>"
        f"<grouping attr='d' mode='deep' groups-on-page='10' docs-in-group='1'>"
        f"{groups}</grouping></results></response></yandexsearch>"
    ).encode()


def _yandex_empty(code: str, text: str) -> bytes:
    return (
        "<?xml version='1.0' encoding='utf-8'?><yandexsearch version='1.0'><response>"
        f"<error code='{code}'>{text}</error><reqid>1</reqid></response></yandexsearch>"
    ).encode()


class _Handler(BaseHTTPRequestHandler):
    server: Any

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with suppress(BrokenPipeError, ConnectionResetError):  # a client refusing a huge answer
            self.wfile.write(body)

    def _json(self, status: int, data: object) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode())

    def _hostile(self, stand: StandIn, key: str) -> bool:
        """Answer as a hostile provider would in the modes that make one; whether it did."""
        if stand.mode == "deep":
            self._send(200, b"[" * DEEP + b"]" * DEEP)
        elif stand.mode == "echo":  # the key said back, as a careless proxy or API might
            message = f"API key not valid: {key}. Authorization: Api-Key {key}"
            self._json(400, {"code": 3, "message": message,
                             "error": {"code": 400, "message": message, "errors": []}})  # fmt: skip
        elif stand.mode == "trickle":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            ends = time.monotonic() + TRICKLE_FOR
            try:
                while time.monotonic() < ends:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(TRICKLE)
            except OSError:  # the client gave up
                pass
        else:
            return False
        return True

    def do_GET(self) -> None:
        stand: StandIn = self.server.stand
        parts = urlsplit(self.path)
        stand.hits[parts.path] += 1
        stand.paths.append(self.path)
        stand.headers.append(dict(self.headers))
        params = {k: v[0] for k, v in parse_qs(parts.query).items()}
        key = params.get("key") or self.headers.get("X-goog-api-key") or ""
        if parts.path in ("/search", "/customsearch/v1") and self._hostile(stand, key):
            return None
        if parts.path == "/search":
            return self._searxng(stand, params)
        if parts.path == "/customsearch/v1":
            return self._google(stand, params)
        if parts.path in stand.served:
            title, paragraphs, head = stand.served[parts.path]
            return self._send(200, _html(title, *paragraphs, head=head), "text/html; charset=utf-8")
        if parts.path in PAGES:
            title, paragraphs = PAGES[parts.path]
            return self._send(200, _html(title, *paragraphs), "text/html; charset=utf-8")
        self._send(404, b"<h1>Not found</h1>", "text/html")

    def do_POST(self) -> None:
        stand: StandIn = self.server.stand
        parts = urlsplit(self.path)
        stand.hits[parts.path] += 1
        stand.paths.append(self.path)
        stand.headers.append(dict(self.headers))
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        key = self.headers.get("Authorization", "").removeprefix("Api-Key ")
        if parts.path == "/v2/web/search" and self._hostile(stand, key):
            return None
        if parts.path == "/v2/web/search":
            return self._yandex(stand, body)
        self._send(404, b"{}")

    def _searxng(self, stand: StandIn, params: dict[str, str]) -> None:
        if stand.mode == "busy-once":  # the limiter asks to wait, once
            stand.mode = "ok"
            self.send_response(429)
            self.send_header("Retry-After", "0")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if stand.mode == "no-json" or params.get("format") != "json":
            return self._send(403, b"<h1>403 Forbidden</h1>", "text/html")
        if stand.mode == "rate":
            return self._send(429, b"Too Many Requests", "text/plain")
        if stand.mode == "garbage":
            return self._send(200, b"<html>not json</html>", "text/html")
        time.sleep(stand.slow)
        query = params.get("q", "")
        stand.queries.append(("searxng", query))
        results = [
            {"url": url, "title": title, "content": snippet, "engine": "yandex",
             "engines": ["yandex"], "positions": [n + 1], "score": 1.0, "category": "general",
             "parsed_url": list(urlsplit(url)), "template": "default.html"}
            for n, (url, title, snippet) in enumerate(stand.found_for(query))
        ]  # fmt: skip
        self._json(200, {
            "query": query, "number_of_results": len(results), "results": results,
            "answers": [], "corrections": [], "infoboxes": [], "suggestions": [],
            "unresponsive_engines": [],
        })  # fmt: skip

    def _yandex(self, stand: StandIn, body: dict[str, Any]) -> None:
        if self.headers.get("Authorization") != f"Api-Key {YANDEX_KEY}" or stand.mode == "bad-key":
            return self._json(401, {"code": 16, "message": "Unauthenticated", "details": []})
        if body.get("folderId") != YANDEX_FOLDER or stand.mode == "forbidden":
            return self._json(403, {"code": 7, "message": "Permission denied", "details": []})
        if stand.mode in ("quota", "rate"):
            return self._json(429, {"code": 8, "message": "Resource exhausted", "details": []})
        query = body["query"]["queryText"]
        stand.queries.append(("yandex", query))
        assert body["responseFormat"] == "FORMAT_XML"
        assert body["query"]["searchType"] == "SEARCH_TYPE_RU"
        if stand.mode == "nothing":
            xml = _yandex_empty("15", "Sorry, there are no results for this search")
        elif stand.mode == "daily":
            xml = _yandex_empty("32", "Limit of queries per day exceeded")
        elif stand.mode == "deep-xml":
            xml = _yandex_xml(stand.found_for(query)).replace(
                b"<reqid>", b"<x>" * DEEP_XML + b"</x>" * DEEP_XML + b"<reqid>"
            )
        else:
            xml = _yandex_xml(stand.found_for(query))
        self._json(200, {"rawData": base64.b64encode(xml).decode("ascii")})

    def _google(self, stand: StandIn, params: dict[str, str]) -> None:
        def refuse(code: int, reason: str, message: str, status: str) -> None:
            self._json(code, {"error": {
                "code": code, "message": message,
                "errors": [{"message": message, "domain": "global", "reason": reason}],
                "status": status,
            }})  # fmt: skip

        key = params.get("key") or self.headers.get("X-goog-api-key")  # either way, as Google
        if key != GOOGLE_KEY or stand.mode == "bad-key":
            return refuse(400, "badRequest", "API key not valid. Please pass a valid API key.",
                          "INVALID_ARGUMENT")  # fmt: skip
        if stand.mode == "quota":
            return refuse(429, "rateLimitExceeded", "Quota exceeded for quota metric "
                          "'Queries' and limit 'Queries per day' of service "
                          "'customsearch.googleapis.com'", "RESOURCE_EXHAUSTED")  # fmt: skip
        if stand.mode == "rate":
            message = "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'"
            return refuse(429, "rateLimitExceeded", message, "RESOURCE_EXHAUSTED")
        if stand.mode == "forbidden":
            return refuse(403, "forbidden", "Custom Search JSON API has not been used in "
                          "project 1 before or it is disabled.", "PERMISSION_DENIED")  # fmt: skip
        assert params.get("cx") == GOOGLE_CX and 1 <= int(params["num"]) <= 10
        query = params.get("q", "")
        stand.queries.append(("google", query))
        found = stand.found_for(query)[: int(params["num"])]
        if stand.mode == "echo-results":  # the key said back in results
            echoed = (stand.url(f"/pages/copy.html?key={key}"), f"key {key}", f"Api-Key {key}")
            found = [echoed, (stand.url("/pages/garden.html"), f"about {key}", key)]
        data: dict[str, Any] = {
            "kind": "customsearch#search",
            "queries": {"request": [{"searchTerms": query, "count": len(found), "startIndex": 1}]},
            "searchInformation": {"totalResults": str(len(found))},
        }
        if found:
            data["items"] = [
                {"kind": "customsearch#result", "title": t, "link": u, "displayLink": "127.0.0.1",
                 "snippet": s}
                for u, t, s in found
            ]  # fmt: skip
        self._json(200, data)


def reset(stand: StandIn) -> StandIn:
    """The stand-in as a test finds it: answering normally, nothing recorded."""
    stand.mode = "ok"
    stand.extras = True
    stand.slow = 0.0
    stand.served.clear()
    stand.also.clear()
    stand.queries.clear()
    stand.hits.clear()
    stand.headers.clear()
    stand.paths.clear()
    return stand


def provider_env(stand: StandIn, folder: Path) -> dict[str, str]:
    """An environment pointing Yandex and Google at the stand-in, with no config file (the
    path given in ``folder`` does not exist)."""
    return {
        "CANON_SEARCH_CONFIG": str(folder / "none.toml"),
        "CANON_YANDEX_API_KEY": YANDEX_KEY,
        "CANON_YANDEX_FOLDER_ID": YANDEX_FOLDER,
        "CANON_YANDEX_ENDPOINT": stand.base,
        "CANON_GOOGLE_API_KEY": GOOGLE_KEY,
        "CANON_GOOGLE_CX": GOOGLE_CX,
        "CANON_GOOGLE_ENDPOINT": stand.base,
    }


@contextmanager
def serve() -> Iterator[StandIn]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    stand = StandIn(f"http://127.0.0.1:{server.server_address[1]}")
    server.stand = stand  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, args=(POLL,), daemon=True)
    thread.start()
    try:
        yield stand
    finally:
        server.shutdown()
        server.server_close()
