"""Concurrent fetching (canon.sources.client) on a real loopback server: requests overlap,
results come back in order, retries wait as asked, index add over many URLs goes through it;
robots.txt rules and Crawl-delay; URL normalization."""

from __future__ import annotations

import asyncio
import time
from itertools import pairwise
from pathlib import Path

import pytest
from audit_site import Page, paragraphs, sentences, serve
from click.testing import CliRunner

from canon.cli import cli
from canon.errors import FetchError, OptionError
from canon.sources.client import Fetcher, Politeness
from canon.sources.crawl.addresses import Scope, normalize
from canon.sources.crawl.robots import Robots
from canon.sources.fetch import FetchOptions
from canon.sources.fetch import Page as Fetched
from canon.sources.fetchall import fetch_all
from canon.sources.headers import retry_after

pytestmark = pytest.mark.network


def _site(count: int) -> dict[str, Page]:
    return {
        f"/p/{n}": Page(f"Страница {n}", paragraphs(sentences(n, 20)), template=False)
        for n in range(count)
    }


def test_fetch_all_keeps_the_order_and_overlaps_requests(tmp_path: Path) -> None:
    with serve(delay=0.05, site=_site(20)) as site:
        urls = [site.url(f"/p/{n}") for n in range(20)] + [site.url("/missing"), site.url("/p/3")]
        started = time.monotonic()
        results = list(fetch_all(urls, FetchOptions(), Politeness(concurrency=8)))
        seconds = time.monotonic() - started
        assert [url for url, _ in results] == urls
        assert all(isinstance(page, Fetched) for _, page in results[:20])
        assert isinstance(results[20][1], FetchError) and results[20][1].reason == "status"
        assert results[21][1].url == site.url("/p/3")  # named twice: given twice
        assert site.log.requests.count("/p/3") == 1  # and fetched once
        assert site.log.most >= 4
        assert seconds < 20 * 0.05  # one at a time would take a second at least
        # the page cache is read and written as a single fetch does
        options = FetchOptions(cache_dir=tmp_path)
        list(fetch_all(urls[:5], options))
        before = len(site.log.requests)
        cached = list(fetch_all(urls[:5], options))
        assert len(site.log.requests) == before
        assert all(page.from_cache for _, page in cached)


def test_fetch_all_refuses_private_addresses_unless_allowed() -> None:
    with serve(delay=0.0, site=_site(3)) as site:
        urls = [site.url(f"/p/{n}") for n in range(3)]
        results = list(fetch_all(urls, FetchOptions(allow_private=False)))
        assert {page.reason for _, page in results} == {"private-address"}
        assert site.log.requests == []


def test_index_add_fetches_many_urls_at_once(tmp_path: Path) -> None:
    with serve(delay=0.05, site=_site(24)) as site:
        listing = tmp_path / "urls.txt"
        urls = [site.url(f"/p/{n}") for n in range(24)] + [site.url("/missing")]
        listing.write_text("\n".join(urls), "utf-8")
        db = tmp_path / "i.db"
        result = CliRunner().invoke(cli, ["index", "add", str(db), f"@{listing}", "--workers", "2"])
        assert site.log.most >= 4, site.log.most
        assert sorted(site.log.requests) == sorted(u.removeprefix(site.base) for u in urls)
    assert result.exit_code == 3, result.output  # one source failed
    assert "added 24" in result.output and "failed 1" in result.output
    assert "HTTP 404" in result.output


def test_retries_wait_as_the_server_asks() -> None:
    with serve(delay=0.0) as site:

        async def run() -> tuple[int, int]:
            async with Fetcher(FetchOptions(), Politeness(retries=2, backoff=0.01)) as fetcher:
                busy = await fetcher.get(site.url("/busy"))
                flaky = await fetcher.get(site.url("/flaky"))
                return busy.tries, flaky.tries

        assert asyncio.run(run()) == (2, 2)
        first, second = site.log.times["/busy"]
        assert second - first >= 0.95


def test_retry_after_values() -> None:
    assert retry_after("3", 1.0, 30.0) == 3.0
    assert retry_after("", 1.5, 30.0) == 1.5
    assert retry_after("garbage", 1.5, 30.0) == 1.5
    assert retry_after("99999", 1.0, 30.0) == 30.0  # bounded
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1.0, 30.0) == 0.0  # in the past


def test_politeness_is_checked() -> None:
    with pytest.raises(OptionError) as caught:
        Politeness(concurrency=0)
    assert caught.value.option == "concurrency"
    assert Politeness(concurrency=8, per_host=2).host_limit == 2
    assert Politeness(concurrency=4, per_host=16).host_limit == 4


def test_robots_rules() -> None:
    robots = Robots("User-agent: *\nDisallow: /private/\nCrawl-delay: 0.5\n", 200)
    assert robots.allowed("http://a.ru/page")
    assert not robots.allowed("http://a.ru/private/x")
    assert robots.crawl_delay() == 0.5
    own = Robots("User-agent: *\nDisallow: /\n\nUser-agent: canon\nAllow: /\n", 200)
    assert own.allowed("http://a.ru/x")  # canon's own group wins over *
    assert Robots("", 404).allowed("http://a.ru/x")  # no robots.txt: everything
    assert not Robots("", 503).allowed("http://a.ru/x")  # a site in trouble: nothing
    assert not Robots("", 0).allowed("http://a.ru/x")


def test_crawl_delay_spaces_the_requests(tmp_path: Path) -> None:
    site_pages = _site(4)
    site_pages["/"] = Page(
        "Главная", paragraphs(sentences(99, 20)), tuple(site_pages), template=False
    )
    with serve(delay=0.0, site=site_pages) as site:
        import audit_site

        robots = b"User-agent: *\nCrawl-delay: 0.25\n"
        original, audit_site.ROBOTS = audit_site.ROBOTS, robots
        try:
            result = CliRunner().invoke(
                cli, ["audit", site.url("/"), "--out", str(tmp_path), "--allow-private"]
            )
        finally:
            audit_site.ROBOTS = original
        assert result.exit_code == 0, result.output
        starts = sorted(t for path, times in site.log.times.items() for t in times)
        asked = list(site.log.requests)
    gaps = [b - a for a, b in pairwise(starts[1:])]  # after robots.txt
    assert sorted(asked) == ["/", "/p/0", "/p/1", "/p/2", "/p/3", "/robots.txt"], asked
    assert min(gaps) >= 0.2  # 0.25 s apart when sent; the server may see them a little closer


def test_normalization() -> None:
    base = "http://127.0.0.1:8000/catalog/x"
    assert normalize("/a/?utm_source=x&id=3&fbclid=1#top", base) == "http://127.0.0.1:8000/a/?id=3"
    assert normalize("?b=2&a=1&yclid=5&_openstat=z", base) == (
        "http://127.0.0.1:8000/catalog/x?a=1&b=2"
    )
    assert normalize("HTTP://Example.RU:80/Path") == "http://example.ru/Path"
    assert normalize("/a", base) != normalize("/a/", base)  # a trailing slash is kept
    for link in ("mailto:a@b.ru", "javascript:void(0)", "tel:+7000", "http://[::1"):
        assert normalize(link, base) is None
    scope = Scope.of(["http://www.a.ru/"], include=["/shop/"], exclude=["print"])
    assert scope.wanted("http://a.ru/shop/1")
    assert not scope.wanted("http://a.ru/shop/1/print")
    assert not scope.wanted("http://a.ru/blog/1")
    assert not scope.wanted("http://b.ru/shop/1")
