"""The shared asynchronous pool of a crawl (canon.sources.client) against a hostile server:
the same bounds as a single fetch — total deadline, byte cap while decoding, checked
addresses on every hop — and a gzipped sitemap that unpacks without bound."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from hostile_server import Hostile, Reply, gzip_bomb, serve

from canon.errors import FetchError
from canon.sources.client import Fetcher, Politeness
from canon.sources.crawl.sitemaps import read_sitemap
from canon.sources.fetch import FetchOptions

pytestmark = [pytest.mark.timeout(60), pytest.mark.network]

BOMB = gzip_bomb(64 << 20)


@pytest.fixture(scope="module")
def hostile() -> Iterator[Hostile]:
    replies = {
        "/bomb": Reply(BOMB, (("Content-Type", "text/html"), ("Content-Encoding", "gzip"))),
        "/sitemap.xml.gz": Reply(BOMB, (("Content-Type", "application/gzip"),)),
    }
    with serve(replies) as running:
        yield running


def _get(url: str, **options: object) -> FetchError:
    async def run() -> FetchError:
        settings = FetchOptions(**options)  # type: ignore[arg-type]
        async with Fetcher(settings, Politeness(retries=0)) as fetcher:
            with pytest.raises(FetchError) as caught:
                await fetcher.get(url)
            return caught.value

    return asyncio.run(run())


@pytest.mark.parametrize("path", ["/trickle", "/slow-headers", "/redirect?to=/trickle"])
def test_a_trickling_server_meets_the_deadline(hostile: Hostile, path: str) -> None:
    started = time.monotonic()
    error = _get(hostile.url(path), deadline=1.5, read_timeout=5.0)
    assert error.reason == "deadline"
    assert time.monotonic() - started < 3.5


def test_a_bomb_is_refused_at_the_cap(hostile: Hostile) -> None:
    error = _get(hostile.url("/bomb"), max_bytes=1_000_000)
    assert error.reason == "too-large"


def test_a_lying_content_length_is_refused(hostile: Hostile) -> None:
    assert _get(hostile.url("/length-lie")).reason == "too-large"


def test_loopback_is_refused_on_every_hop_unless_allowed(hostile: Hostile) -> None:
    assert _get(hostile.url("/page"), allow_private=False).reason == "private-address"
    assert _get(hostile.url("/page", "localhost"), allow_private=False).reason == (
        "private-address"
    )
    assert hostile.url("/page").startswith("http://127.0.0.1")
    assert not hostile.reached("/internal-admin")
    error = _get(hostile.url(f"/redirect-loopback?port={hostile.port}"), allow_private=False)
    assert error.reason == "private-address"
    assert not hostile.reached("/internal-admin")


def test_redirects_past_the_limit_are_refused(hostile: Hostile) -> None:
    error = _get(hostile.url("/slow-redirect?n=10&delay=0"), max_redirects=3)
    assert error.reason == "redirect"
    assert "more than 3 redirects" in error.message


def test_a_gzipped_sitemap_bomb_is_refused_in_bounded_memory(hostile: Hostile) -> None:
    with pytest.raises(FetchError) as caught:
        read_sitemap(hostile.url("/sitemap.xml.gz"), BOMB, 1_000_000)
    assert caught.value.reason == "too-large"
