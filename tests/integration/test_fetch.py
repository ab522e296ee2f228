"""Fetching real pages from a real local HTTP server: encodings, redirects, limits, errors."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from site_server import SLOW_SECONDS, article

import canon
from canon.sources.documents import read_source
from canon.sources.fetch import FetchOptions, PageCache, fetch

pytestmark = pytest.mark.network

TEA_TITLE, TEA_PARAGRAPHS = article("tea")


def read(site, path: str, **options: object):
    return read_source(site.url(path), fetch_options=FetchOptions(**options))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("path", "encoding"),
    [
        ("/utf8", "utf-8"),
        ("/utf8-undeclared", "utf-8"),
        ("/cp1251-header", "cp1251"),
        ("/cp1251-meta", "cp1251"),
        ("/cp1251-undeclared", "cp1251"),
        ("/cp1251-said-latin1", "cp1251"),
        ("/koi8-header", "koi8-r"),
        ("/koi8-meta", "koi8-r"),
        ("/koi8-undeclared", "koi8-r"),
        ("/gzip", "utf-8"),
        ("/brotli", "utf-8"),
    ],
)
def test_pages_in_every_encoding_decode_right(site, path: str, encoding: str) -> None:
    doc = read(site, path)
    assert doc.encoding.replace("_", "-") == encoding
    assert doc.method == "trafilatura"
    assert doc.title == TEA_TITLE
    for paragraph in TEA_PARAGRAPHS:
        assert paragraph in doc.text
    assert "Уютный дом" not in doc.text and "Городские вести" not in doc.text


def test_plain_text_page(site) -> None:
    doc = read(site, "/plain-koi8")
    assert doc.method == "text"
    assert doc.text == article("garden")[1][0]


@pytest.mark.parametrize("path", ["/redirect-one", "/redirect-chain"])
def test_redirects_are_followed(site, path: str) -> None:
    doc = read(site, path)
    assert doc.final_url == site.url("/utf8")
    assert doc.source == site.url(path)
    assert doc.title == TEA_TITLE


@pytest.mark.parametrize(
    ("path", "options", "message"),
    [
        ("/redirect-loop", {}, "redirect loop"),
        ("/many-1", {}, "more than 5 redirects"),
        ("/redirect-chain", {"max_redirects": 2}, "more than 2 redirects"),
        ("/slow", {"read_timeout": 0.5}, "no answer within 0.5 s"),
        ("/big", {"max_bytes": 100_000}, "over the 100,000-byte cap"),
        ("/big-unsized", {"max_bytes": 100_000}, "over the 100,000-byte cap"),
        ("/pdf", {}, "the content type is application/pdf"),
        ("/image", {}, "the content type is image/png"),
        ("/404", {}, "HTTP 404 Not Found"),
        ("/500", {}, "HTTP 500 Internal Server Error"),
        ("/empty-main", {}, "no main text found"),
        ("/utf8", {"allow_private": False}, "private or local address 127.0.0.1"),
    ],
)
def test_fetch_errors_name_the_url_and_the_reason(site, path, options, message) -> None:
    with pytest.raises(canon.InputError, match=message) as info:
        read(site, path, **options)
    assert str(info.value).startswith(site.url(path))
    assert "\n" not in str(info.value)


def test_slow_page_within_the_timeout_is_fine(site) -> None:
    assert read(site, "/slow", read_timeout=SLOW_SECONDS + 5).title == TEA_TITLE


def test_dns_failure() -> None:
    with pytest.raises(canon.FetchError, match=r"cannot resolve host canon-test\.invalid"):
        read_source("http://canon-test.invalid/page")


def test_connection_refused() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(canon.FetchError, match="connection refused"):
        read_source(f"http://127.0.0.1:{port}/")


def test_cache_keeps_pages_and_their_date(site, tmp_path: Path) -> None:
    options = {"cache_dir": tmp_path / "cache"}
    before = site.hits["/blog/garden"]
    first = read(site, "/blog/garden", **options)
    second = read(site, "/blog/garden", **options)
    assert site.hits["/blog/garden"] == before + 1  # the second read came from the cache
    assert (first.cached, second.cached) == (False, True)
    assert second.text == first.text
    assert second.fetched == first.fetched and first.fetched.endswith("GMT")
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1


def test_cache_ignores_a_damaged_entry(site, tmp_path: Path) -> None:
    cache = PageCache(tmp_path)
    page = fetch(site.url("/utf8"), FetchOptions(cache_dir=tmp_path))
    (body,) = tmp_path.glob("*.body")
    body.write_bytes(page.body[:100])  # as if a crash had cut it short
    assert cache.get(site.url("/utf8")) is None
    assert fetch(site.url("/utf8"), FetchOptions(cache_dir=tmp_path)).from_cache is False


def test_requests_say_who_they_are(site) -> None:
    read(site, "/news/tea")
    assert site.agents[-1].startswith("canon/")


def test_whole_page_keeps_the_template(site) -> None:
    whole = read_source(site.url("/blog/tea"), whole_page=True)
    main = read_source(site.url("/blog/tea"))
    assert whole.method == "whole-page"
    assert "Уютный дом" in whole.text
    assert len(whole.text) > 1.5 * len(main.text)
