"""canon watch add --crawl and canon watch remove.

The crawl is the audit's, over the audit's fixture site on 127.0.0.1 (tests/audit_site.py,
whose every request is logged): which pages a watch keeps (pages of text, not noindex, not
canonicalized to another page of the site, one of those with the same text), that each is
fetched once, and that the crawl keeps to robots.txt, its limits and two requests at once.
Removing pages goes with their copies and changes, found by a run against the search
stand-in (tests/search_server.py).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from audit_site import Page, Site, paragraphs, sentences, serve
from command import run_cli
from search_server import StandIn
from search_server import serve as serve_search

from canon.sources.fetch import FetchOptions
from canon.sources.search.searxng import SearXNG
from canon.watch import RunSettings, WatchStore, add_pages, run_watch
from canon.watch.lock import locked
from canon.watch.pages import PER_HOST

KEPT = {
    "/", "/about", "/blog/", "/blog/digest", "/catalog/", "/contacts", "/new-page", "/flaky",
    "/busy", "/landing-1", "/landing-2",
    *(f"/blog/post-{n}" for n in range(1, 21)),
    *(f"/catalog/product-{n}" for n in range(1, 6)),
    *(f"/catalog/variant-{n}" for n in range(1, 4)),
    *(f"/catalog/item-{n}" for n in range(1, 8)),
}  # fmt: skip
SKIPPED = {
    "/about/": "duplicate",  # the same page as /about, found after it
    "/print/post-1": "duplicate",  # print versions: the text of their posts
    "/print/post-2": "duplicate",
    "/print/post-3": "duplicate",
    "/catalog/product-1-red": "canonicalized",  # its canonical link names /catalog/product-1
    "/search": "noindex",  # a robots meta tag
    "/tag/news": "noindex",  # an X-Robots-Tag header
    "/private/secret": "blocked",  # robots.txt
    "/old-page": "redirect",  # to /new-page, kept as itself
    "/missing": "status",  # 404
}
SITEMAPS = {"/robots.txt", "/sitemap_index.xml", "/sitemap-pages.xml", "/sitemap-blog.xml.gz"}


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with serve(delay=0.02) as served:
        yield served


def _paths(site: Site, urls: list[str]) -> set[str]:
    return {url.removeprefix(site.base) for url in urls}


def _fetched(site: Site) -> Counter[str]:
    """The pages asked for (robots.txt and the sitemaps left out), by path."""
    return Counter(r.split("?", 1)[0] for r in site.log.requests if r not in SITEMAPS)


def test_a_crawl_keeps_the_pages_of_text(tmp_path: Path, site: Site) -> None:
    site.log.requests.clear()
    site.log.times.clear()
    site.log.most = 0
    folder = tmp_path / "watch"
    ran = run_cli("watch", "add", folder, "--crawl", site.url("/"), "--json")
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert _paths(site, report["added"]) == KEPT
    assert {s["url"].removeprefix(site.base): s["reason"] for s in report["skipped"]} == SKIPPED
    assert report["failed"] == []
    fetched = _fetched(site)
    assert "/private/secret" not in fetched  # robots.txt is obeyed
    assert site.log.requests.count("/robots.txt") == 1
    once = {path: n for path, n in fetched.items() if path not in ("/flaky", "/busy")}
    assert set(once.values()) == {1}  # every page fetched once: the crawl's pages are kept
    assert fetched["/flaky"] == fetched["/busy"] == 2  # a 500 and a 503, then the page
    assert site.log.most <= PER_HOST  # two requests to the site at once, as any watch add
    with WatchStore(folder) as store:
        watched = {page.url.removeprefix(site.base): page for _, page in store.pages()}
    assert set(watched) == KEPT and all(page.checked is None for page in watched.values())
    post = watched["/blog/post-5"]
    assert post.title == "Запись 5: заметки садовника"
    assert site.site["/blog/post-5"].text[0][:80] in post.text
    assert "Все права защищены" not in post.text  # the main text, not the template

    again = add_pages(tmp_path / "by-url", [site.url("/blog/post-5")])  # added by its URL
    with WatchStore(tmp_path / "by-url") as store:
        assert [page.text for _, page in store.pages()] == [post.text]
    assert again.added


def test_a_crawl_keeps_to_its_limits(tmp_path: Path, site: Site) -> None:
    site.log.requests.clear()
    ran = run_cli("watch", "add", tmp_path / "deep", "--crawl", site.url("/"),
                  "--max-depth", "0", "--json")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    sitemapped = {"/", "/about", "/landing-1", "/catalog/", "/landing-2", "/blog/"}
    assert _paths(site, json.loads(ran.stdout)["added"]) == sitemapped
    assert not any(path.startswith("/blog/post-") for path in _fetched(site))

    site.log.requests.clear()
    ran = run_cli("watch", "add", tmp_path / "few", "--crawl", site.url("/"),
                  "--max-pages", "5")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert sum(_fetched(site).values()) <= 5 + 2  # five pages (and a retry or two)
    assert "page(s) added" in ran.stdout and "past --max-pages" in ran.stderr
    with WatchStore(tmp_path / "few") as store:
        assert 1 <= len(store.pages()) <= 5


def test_a_canonical_link_off_the_site_keeps_the_page(tmp_path: Path) -> None:
    text = paragraphs(sentences(900, 30))
    off = '<link rel="canonical" href="http://partner.example.com/original">'
    own = Page("Своя", paragraphs(sentences(901, 30)), ("/syndicated", "/variant"))
    small = {
        "/": own,
        "/syndicated": Page("Перепечатка", text, head=off),  # published first elsewhere
        "/variant": Page("Вариант", own.text, head='<link rel="canonical" href="/">'),
    }  # (its sitemaps name pages it does not have: 404)
    with serve(delay=0.0, site=small) as served:
        ran = run_cli("watch", "add", tmp_path / "w", "--crawl", served.url("/"), "--json")
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert _paths(served, report["added"]) == {"/", "/syndicated"}
    skipped = {s["url"].removeprefix(served.base): s["reason"] for s in report["skipped"]}
    assert skipped["/variant"] == "canonicalized"  # the home page is kept in its place
    with WatchStore(tmp_path / "w") as store:
        kept = {p.url.removeprefix(served.base): p.canonical for _, p in store.pages()}
    assert kept["/syndicated"] == "http://partner.example.com/original"  # never a copy


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--crawl", "not-a-site"], "--crawl"),
        (["--crawl", "ftp://example.ru/"], "--crawl"),
        (["http://127.0.0.1:9/a", "--max-pages", "5"], "--max-pages"),
        (["http://127.0.0.1:9/a", "--max-depth", "1"], "--max-depth"),
    ],
)
def test_bad_crawls_are_refused_in_one_line(tmp_path: Path, args: list[str], named: str) -> None:
    ran = run_cli("watch", "add", tmp_path / "w", *args)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1, ran.stderr
    assert named in ran.stderr and not (tmp_path / "w").exists()


# ---------------------------------------------------------------- removing pages

MUSHROOMS = [
    "Грибники с опытом выходят в ельник затемно, пока роса не сошла с мха: шляпки белых "
    "грибов тогда блестят в косом свете, и заметить их среди хвои гораздо проще, чем днём.",
    "Срезанный гриб кладут в корзину шляпкой вниз, чтобы ножка не гнулась и споры не "
    "сыпались на соседей, а червивые экземпляры оставляют на пне для белок и птиц.",
]
CLOCK = [
    "Мастер по ремонту часов разбирает механизм на бархатной подушке, чтобы крошечные винты "
    "не отскакивали на пол, и раскладывает детали по порядку, в каком снимал их.",
    "Балансовое колесо смазывают каплей масла не толще булавочной головки: лишняя смазка "
    "собирает пыль, густеет на морозе и останавливает ход надёжнее сухих камней.",
]


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Path, StandIn, StandIn]]:
    """A watch of two pages, each found copied once."""
    with serve_search() as own, serve_search() as web:
        web.extras = False
        own.served["/mushrooms.html"] = ("Грибы", MUSHROOMS, "")
        own.served["/clock.html"] = ("Часы", CLOCK, "")
        web.served["/thief/mushrooms.html"] = ("Грибы", MUSHROOMS, "")
        web.served["/thief/clock.html"] = ("Часы", CLOCK, "")
        folder = tmp_path / "watch"
        add_pages(folder, [own.url("/mushrooms.html"), own.url("/clock.html")])
        settings = RunSettings(queries=20, allow_private_results=True,
                               fetch=FetchOptions(deadline=10))  # fmt: skip
        report = run_watch(folder, SearXNG(web.base), settings)
        assert report.counts()["new"] == 2
        yield folder, own, web


def test_remove_takes_pages_with_their_copies_and_changes(
    watched: tuple[Path, StandIn, StandIn],
) -> None:
    folder, own, _ = watched
    missing = own.url("/never-added.html")
    ran = run_cli("watch", "remove", folder, own.url("/mushrooms.html"), missing)
    assert ran.returncode == 3
    assert ran.stdout == f"1 page(s) removed from {folder} (1 watched).\n"
    assert ran.stderr == f"canon: {missing}: not in the watch\n"
    with WatchStore(folder) as store:
        assert [p.url for _, p in store.pages()] == [own.url("/clock.html")]
        assert [c.page for c in store.copies()] == [own.url("/clock.html")]
        assert [c.page for c in store.changes(1)] == [own.url("/clock.html")]
        assert [e.page_id for e in store.plan(1)] == [2]
    ran = run_cli("watch", "remove", folder, own.url("/clock.html"), "--json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {"removed": [own.url("/clock.html")], "missing": []}
    with WatchStore(folder) as store:
        assert store.pages() == [] and store.copies() == [] and store.changes(1) == []


def test_remove_waits_for_no_run_and_a_stopped_run_goes_on_without_the_page(
    watched: tuple[Path, StandIn, StandIn],
) -> None:
    folder, own, web = watched
    with locked(folder):  # a run going on
        ran = run_cli("watch", "remove", folder, own.url("/mushrooms.html"))
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1
    assert "another run of this watch" in ran.stderr
    with WatchStore(folder) as store:
        assert len(store.pages()) == 2
        store.start_run("2026-06-01T06:00:00+00:00", 20, [(1, 5), (2, 5)])  # stopped at once
    assert run_cli("watch", "remove", folder, own.url("/mushrooms.html")).returncode == 0
    web.queries.clear()
    report = run_watch(folder, SearXNG(web.base), RunSettings(allow_private_results=True))
    assert report.resumed and report.planned == report.checked == 1
    assert 1 <= len(web.queries) <= 5


def test_remove_needs_a_watch(tmp_path: Path) -> None:
    ran = run_cli("watch", "remove", tmp_path / "nowhere", "https://blog.example.ru/a")
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1
    assert "is not a watch" in ran.stderr
