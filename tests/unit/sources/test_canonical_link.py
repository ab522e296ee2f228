"""canon.sources.canonical_link: the address a page's canonical link names, and addresses
compared as a server receives them; a Document keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

from canon.sources.canonical_link import canonical_link, page_address
from canon.sources.collection import Item
from canon.sources.documents import page_document, read_source
from canon.sources.items import item_document
from canon.sources.pagecache import Page

BODY = "<body><p>Текст страницы о городской библиотеке и её новых залах.</p></body>"


@pytest.mark.parametrize(
    ("head", "base", "want"),
    [
        ('<link rel="canonical" href="/tea">', "https://shop.example/tea?print=1",
         "https://shop.example/tea"),
        ("<LINK REL='Canonical' HREF='https://Shop.Example:443/tea#top'>", None,
         "https://shop.example/tea"),
        ('<link href="https://a.example/x?page=2&amp;sort=1" rel="alternate canonical">', None,
         "https://a.example/x?page=2&sort=1"),
        ('<link rel="canonical" href="/tea">', None, None),  # a file: nothing to resolve against
        ('<!-- <link rel="canonical" href="https://old.example/"> -->', None, None),
        ('<script>var s = \'<link rel="canonical" href="https://js.example/">\';</script>', None,
         None),
        ('<link rel="canonical" href="mailto:shop@example.ru">', None, None),
        ('<link rel="stylesheet" href="/s.css"><link rel="canonical" href="https://b.example">',
         None, "https://b.example/"),
    ],
)  # fmt: skip
def test_the_canonical_link_of_the_head(head: str, base: str | None, want: str | None) -> None:
    page = f"<!doctype html><html><head><title>Т</title>{head}</head>{BODY}</html>"
    assert canonical_link(page, base) == want


def test_a_link_in_the_body_is_not_read() -> None:
    page = f'<html><head></head><body><link rel="canonical" href="https://x.example/">{BODY}'
    assert canonical_link(page) is None


def test_page_addresses() -> None:
    assert page_address("HTTP://Example.RU:80") == "http://example.ru/"
    assert page_address("https://example.ru:8443/a?b=1#c") == "https://example.ru:8443/a?b=1"
    assert page_address("https://user@example.ru/a") == "https://example.ru/a"
    assert page_address("https://[::1]:443/") == "https://[::1]/"
    assert page_address("ftp://example.ru/") is None
    assert page_address("https://example.ru:99999/") is None


def test_documents_keep_the_canonical_link(tmp_path: Path) -> None:
    html = (
        '<html><head><link rel="canonical" href="https://news.example/park"></head><body>'
        "<article><p>Осенью в парке высадили двести молодых лип и клёнов, а весной проверят, "
        "все ли прижились и не нужна ли деревьям новая опора.</p></article></body></html>"
    )
    saved = tmp_path / "park.html"
    saved.write_text(html, "utf-8")
    assert read_source(str(saved)).canonical == "https://news.example/park"
    relative = html.replace("https://news.example/park", "/park")
    record = Item("https://news.example/park?print=1", html=relative)
    doc = item_document(record, whole_page=False, fetch_options=None)
    assert doc.canonical == "https://news.example/park"
    assert read_source(str(saved), whole_page=True).canonical == "https://news.example/park"


def test_a_fetched_page_resolves_its_link_where_its_redirects_ended() -> None:
    html = (
        '<html><head><link rel="canonical" href="park"></head><body><article><p>Осенью в '
        "парке высадили двести молодых лип и клёнов, а весной проверят, все ли прижились и "
        "не нужна ли деревьям новая опора.</p></article></body></html>"
    )
    page = Page(
        "http://news.example/old/park",
        "https://news.example/2025/park-print",
        200,
        "text/html",
        "utf-8",
        "Mon, 01 Dec 2025 00:00:00 GMT",
        html.encode("utf-8"),
    )
    doc = page_document(page)
    assert doc.canonical == "https://news.example/2025/park"
    assert doc.final_url == "https://news.example/2025/park-print"
