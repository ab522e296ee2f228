"""A fixture site for ``canon audit``: about 60 pages generated here, served on 127.0.0.1.

Texts are Russian words drawn by a seeded generator, a sentence of six words at a time, so
that two pages share a 4-word shingle only where the site plants it.  The server answers
after ``delay`` seconds, logs every request (path and query, in order) and records the most
requests it had in flight at once.  What the site plants, by path:

- ``/robots.txt`` disallows ``/private/`` and names ``/sitemap_index.xml``, an index of
  ``/sitemap-pages.xml`` and the gzipped ``/sitemap-blog.xml.gz``;
- ``/landing-1``, ``/landing-2`` are only in the sitemaps; ``/blog/post-*`` only linked;
- the home page links ``/blog/post-1?utm_source=...`` (a tracking duplicate, never fetched as
  such), ``/about`` and ``/about/`` (the same page twice), ``/private/secret`` (disallowed),
  a ``rel=nofollow`` link, an off-site link, ``/old-page`` (301 → 302 → ``/new-page``),
  ``/missing`` (404), ``/flaky`` (500 once, then 200) and ``/busy`` (503 with Retry-After
  once, then 200);
- ``/print/post-1..3``: print versions, the same text as their posts;
- ``/catalog/product-1..5``: near duplicates of one description (one sentence each their
  own, Jaccard about 0.93), ``/catalog/variant-1..3``: a looser family (about 0.6),
  ``/catalog/item-1..7``: distinct; ``/catalog/product-1-red`` is product 1 canonicalized to it;
- ``/search`` (meta noindex), ``/tag/news`` (X-Robots-Tag: noindex);
- ``/contacts``: a thin page; ``/blog/digest``: the whole of post 3 and as much again;
- ``/blog/post-18..20``: one title, H1 and description between them; ``/catalog/item-7``
  a title that is markup if a report fails to escape it.
"""

from __future__ import annotations

import contextlib
import gzip
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# How often the serving thread looks for shutdown(): a stop takes at most this long.
POLL = 0.05

NOUNS = (
    "дом сад город река лес поле море берег мост завод рынок школа книга письмо окно дорога "
    "улица площадь башня сосна береза гора долина озеро остров вокзал поезд корабль самолет "
    "мастер учитель врач повар художник музыкант писатель инженер садовник рыбак охотник "
    "пекарь столяр кузнец пастух сторож ученик студент соседка бабушка дедушка племянник "
    "товарищ капитан лодка корзина лампа скамейка калитка колодец мельница амбар сарай"
).split()
ADJECTIVES = (
    "старый новый большой маленький зеленый синий красный тихий шумный светлый темный "
    "теплый холодный высокий низкий широкий узкий далекий близкий дальний северный южный "
    "весенний летний осенний зимний ранний поздний густой прозрачный мягкий твердый "
    "веселый грустный добрый строгий быстрый медленный крепкий легкий"
).split()
VERBS = (
    "видит строит находит открывает закрывает рисует читает пишет любит помнит ждет зовет "
    "несет везет красит чинит моет ищет слышит знает хвалит ругает встречает провожает "
    "покупает продает меняет бережет охраняет украшает"
).split()
ADVERBS = (
    "утром вечером днем ночью зимой летом осенью весной всегда иногда часто редко снова "
    "опять долго быстро медленно тихо громко рядом далеко"
).split()


def sentences(seed: int, count: int) -> list[str]:
    """``count`` sentences of six words, the same for the same seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        words = [
            rng.choice(ADJECTIVES),
            rng.choice(NOUNS),
            rng.choice(VERBS),
            rng.choice(ADJECTIVES),
            rng.choice(NOUNS),
            rng.choice(ADVERBS),
        ]
        out.append(" ".join(words).capitalize() + ".")
    return out


def paragraphs(lines: list[str], size: int = 5) -> list[str]:
    return [" ".join(lines[i : i + size]) for i in range(0, len(lines), size)]


MENU = (
    '<nav><ul><li><a href="/">Главная</a></li><li><a href="/blog/">Блог</a></li>'
    '<li><a href="/catalog/">Каталог</a></li><li><a href="/about">О нас</a></li>'
    '<li><a href="/contacts">Контакты</a></li></ul></nav>'
)
FOOTER = (
    "<footer><p>Все права защищены. Наш магазин работает каждый день без выходных, "
    "доставка по всему городу, звоните нам в любое время.</p></footer>"
)


@dataclass(frozen=True)
class Page:
    title: str
    text: list[str]  # paragraphs of the main text
    links: tuple[str, ...] = ()
    h1: str | None = None
    description: str | None = None
    head: str = ""  # more of <head> (canonical, robots)
    template: bool = True  # the site's menu and footer around the text
    headers: tuple[tuple[str, str], ...] = ()


def html_of(page: Page) -> bytes:
    description = page.description or page.title
    links = "".join(f'<li><a href="{escape(u)}">{escape(u)}</a></li>' for u in page.links)
    body = "".join(f"<p>{escape(p)}</p>" for p in page.text)
    article = (
        f"<article><h1>{escape(page.h1 or page.title)}</h1>{body}</article>"
        f"<aside><ul>{links}</ul></aside>"
    )
    around = (MENU, FOOTER) if page.template else ("", "")
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        f"<title>{escape(page.title)}</title>"
        f'<meta name="description" content="{escape(description)}">{page.head}</head>'
        f"<body>{around[0]}<main>{article}</main>{around[1]}</body></html>"
    ).encode()


def _blog() -> dict[str, Page]:
    pages: dict[str, Page] = {}
    for n in range(1, 21):
        lines = sentences(100 + n, 45)
        title, h1, desc = f"Запись {n}: заметки садовника", None, f"Заметка номер {n}"
        if n >= 18:
            title, h1, desc = "Блог компании", "Новости блога", "Новости нашего блога"
        links = (f"/print/post-{n}",) if n <= 3 else ()
        pages[f"/blog/post-{n}"] = Page(title, paragraphs(lines), links, h1, desc)
        if n <= 3:
            print_title = f"Версия для печати: запись {n}"
            pages[f"/print/post-{n}"] = Page(
                print_title, paragraphs(lines), h1=title, template=False
            )
    digest = sentences(103, 45) + sentences(300, 45)
    pages["/blog/digest"] = Page("Дайджест блога", paragraphs(digest))
    posts = (*(f"/blog/post-{n}" for n in range(1, 21)), "/blog/digest")
    pages["/blog/"] = Page("Блог", paragraphs(sentences(99, 40)), posts)
    return pages


def _catalog() -> dict[str, Page]:
    pages: dict[str, Page] = {}
    base = sentences(500, 80)
    for n in range(1, 6):
        lines = list(base)
        lines[n * 12] = sentences(510 + n, 1)[0]  # one sentence of its own
        pages[f"/catalog/product-{n}"] = Page(
            f"Товар {n}", paragraphs(lines), h1="Товар для сада", description="Товары для сада"
        )
    canonical = '<link rel="canonical" href="/catalog/product-1">'
    first = pages["/catalog/product-1"]
    pages["/catalog/product-1-red"] = Page(
        "Товар 1, красный", first.text, h1=first.h1, head=canonical
    )
    loose = sentences(600, 40)
    for n in range(1, 4):
        lines = list(loose)
        for i in range(4):  # four sentences of its own
            lines[n + 9 * i] = sentences(610 + 10 * n + i, 1)[0]
        pages[f"/catalog/variant-{n}"] = Page(f"Вариант {n}", paragraphs(lines))
    for n in range(1, 8):
        title = f"Изделие {n}" + (" <script>alert(1)</script>" if n == 7 else "")  # escaped?
        pages[f"/catalog/item-{n}"] = Page(title, paragraphs(sentences(700 + n, 40)))
    products = tuple(p for p in pages if p.startswith("/catalog/"))
    pages["/catalog/"] = Page("Каталог", paragraphs(sentences(499, 40)), products)
    return pages


HOME_LINKS = (
    "/blog/",
    "/catalog/",
    "/blog/post-1?utm_source=newsletter&utm_medium=email",
    "/about",
    "/about/",
    "/contacts",
    "/private/secret",
    "/search",
    "/tag/news",
    "/old-page",
    "/missing",
    "/flaky",
    "/busy",
    "http://example.invalid/elsewhere",
)


def pages() -> dict[str, Page]:
    site = {**_blog(), **_catalog()}
    about = Page("О компании", paragraphs(sentences(800, 40)))
    site["/about"] = site["/about/"] = about
    site["/contacts"] = Page("Контакты", ["Звоните нам или пишите письма, мы всегда рады."])
    site["/search"] = Page(
        "Поиск", paragraphs(sentences(810, 40)), head='<meta name="robots" content="noindex">'
    )
    site["/tag/news"] = Page(
        "Метка: новости", paragraphs(sentences(820, 40)), headers=(("X-Robots-Tag", "noindex"),)
    )
    site["/new-page"] = Page("Новая страница", paragraphs(sentences(830, 40)))
    site["/flaky"] = Page("Иногда падает", paragraphs(sentences(840, 40)))
    site["/busy"] = Page("Иногда занята", paragraphs(sentences(850, 40)))
    site["/private/secret"] = Page("Секрет", paragraphs(sentences(860, 40)))
    site["/nofollow-target"] = Page("Не ходи сюда", paragraphs(sentences(870, 40)))
    for n in (1, 2):
        site[f"/landing-{n}"] = Page(f"Промо {n}", paragraphs(sentences(880 + n, 40)))
    home_text = paragraphs(sentences(1, 40))
    site["/"] = Page("Садовый магазин", home_text, HOME_LINKS)
    return site


ROBOTS = b"User-agent: *\nDisallow: /private/\n\nSitemap: /sitemap_index.xml\n"


def _urlset(base: str, paths: list[str]) -> bytes:
    entries = "".join(f"<url><loc>{base}{p}</loc></url>" for p in paths)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
    ).encode()


def _sitemaps(base: str) -> dict[str, tuple[str, bytes]]:
    index = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{base}/sitemap-pages.xml</loc></sitemap>"
        f"<sitemap><loc>{base}/sitemap-blog.xml.gz</loc></sitemap></sitemapindex>"
    ).encode()
    plain = _urlset(base, ["/", "/about", "/landing-1", "/catalog/"])
    packed = gzip.compress(_urlset(base, ["/landing-2", "/blog/"]))
    return {
        "/sitemap_index.xml": ("application/xml", index),
        "/sitemap-pages.xml": ("application/xml", plain),
        "/sitemap-blog.xml.gz": ("application/gzip", packed),
    }


@dataclass
class Log:
    """Every request (path with query), how many were in flight at most, and when each
    path was asked for."""

    requests: list[str] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    in_flight: int = 0
    most: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def paths(self) -> set[str]:
        return {r.split("?", 1)[0] for r in self.requests}


@dataclass
class Site:
    base: str
    log: Log
    site: dict[str, Page]

    def url(self, path: str) -> str:
        return self.base + path


_REDIRECTS = {"/old-page": (301, "/moved"), "/moved": (302, "/new-page")}
_ONCE = {"/flaky": (500, ()), "/busy": (503, (("Retry-After", "1"),))}


def _handler(site: dict[str, Page], log: Log, delay: float, base: list[str]) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body in two writes: no 40 ms stall

        def do_GET(self) -> None:
            with log.lock:
                log.requests.append(self.path)
                log.times.setdefault(self.path, []).append(time.monotonic())
                log.in_flight += 1
                log.most = max(log.most, log.in_flight)
                asked = len(log.times[self.path])
            try:
                time.sleep(delay)
                self._answer(self.path.split("?", 1)[0], asked)
            finally:
                with log.lock:
                    log.in_flight -= 1

        def _answer(self, path: str, asked: int) -> None:
            sitemaps = _sitemaps(base[0])
            if path == "/robots.txt":
                return self._send(200, ROBOTS, "text/plain")
            if path in sitemaps:
                return self._send(200, sitemaps[path][1], sitemaps[path][0])
            if path in _REDIRECTS:
                status, target = _REDIRECTS[path]
                return self._send(status, b"", "text/html", (("Location", target),))
            if path in _ONCE and asked == 1:
                status, headers = _ONCE[path]
                return self._send(status, b"<h1>try again</h1>", "text/html", headers)
            page = site.get(path)
            if page is None:
                return self._send(404, b"<h1>no such page</h1>", "text/html")
            html = html_of(page)
            self._send(200, html, "text/html; charset=utf-8", page.headers)

        def _send(
            self, status: int, body: bytes, kind: str, headers: tuple[tuple[str, str], ...] = ()
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # the default backlog of 5 drops a crawl's connections (1 s stalls)

    def handle_error(self, request: object, client_address: object) -> None:
        pass


@contextmanager
def serve(delay: float = 0.01, site: dict[str, Page] | None = None) -> Iterator[Site]:
    """The fixture site on a free loopback port, answering after ``delay`` seconds."""
    log = Log()
    chosen = site if site is not None else pages()
    base: list[str] = [""]
    server = _Server(("127.0.0.1", 0), _handler(chosen, log, delay, base))
    base[0] = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(POLL,), daemon=True)
    thread.start()
    try:
        yield Site(base[0], log, chosen)
    finally:
        server.shutdown()
        server.server_close()
