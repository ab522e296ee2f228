"""The rules of a watch that need no network: whose pages are never copies, how a budget is
shared among pages, and how a check's findings become a page's history."""

from __future__ import annotations

from pathlib import Path

import pytest

from canon.canonical import Fragment
from canon.errors import OptionError
from canon.uniqueness.exclusion import Exclusion
from canon.watch.findings import Found, merged
from canon.watch.history import Seen, updated
from canon.watch.own import Ownership, site_name, site_of
from canon.watch.plan import plan_run
from canon.watch.records import Copy, WatchedPage
from canon.watch.store import WatchStore


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://www.Example.ru/a", "example.ru"),
        ("https://example.ru:443/a", "example.ru"),
        ("http://127.0.0.1:8080/x", "127.0.0.1:8080"),
        ("ftp://example.ru/", None),
        ("not a url", None),
    ],
)
def test_site_of(url: str, site: str | None) -> None:
    assert site_of(url) == site


def test_own_sites_canonicals_and_partners() -> None:
    own = Ownership.of(
        ["https://blog.example.ru/tea", "http://127.0.0.1:8080/a"],
        ["https://original.example.com/tea/"],
        [site_name("www.partner.ru")],
    )
    never = [
        "https://blog.example.ru/other",
        "https://m.blog.example.ru/tea",
        "http://127.0.0.1:8080/b",
        "https://original.example.com/tea?utm_source=x",
        "https://news.partner.ru/tea",
    ]
    copies = [
        "http://127.0.0.1:9090/a",
        "https://example.ru/tea",
        "https://original.example.com/other",
        "https://my-partner.ru/tea",
        "https://evil.com/blog.example.ru/tea",
    ]
    exclusion = Exclusion(own.exclusions())
    for url in never:
        assert own.excludes(url), url
    for url in copies:
        assert not own.excludes(url) and not exclusion(url), url
    for url in never[:3] + never[4:]:
        assert exclusion(url), url  # left out before anything is fetched


def test_a_bad_partner_is_refused() -> None:
    with pytest.raises(OptionError, match="allow"):
        site_name("not a domain!")


def _page(chars: int, checked: str | None = None) -> WatchedPage:
    return WatchedPage("https://e.ru/", None, None, None, "я" * chars, "2026-01-01", checked)


def test_the_budget_is_shared_in_order_and_never_exceeded() -> None:
    pages = [(1, _page(900)), (2, _page(300)), (3, _page(6000))]
    assert plan_run(pages, 5) == [(1, 3), (2, 1), (3, 1)]
    assert plan_run(pages, 2) == [(1, 2)]
    assert sum(q for _, q in plan_run(pages, 100)) == 3 + 1 + 20


def _copy(url: str, share: float, gone: str | None = None) -> Copy:
    return Copy("https://e.ru/p", url, share, "copied", "d1", "d1", gone)


def test_history_new_grown_back_gone_and_unreached() -> None:
    before = [_copy("a", 0.3), _copy("b", 0.5), _copy("c", 0.4, gone="d1"), _copy("d", 0.2)]
    found = {
        "a": Found("a", 0.6, "copied"),
        "b": Found("b", 0.52, "rewritten"),
        "c": Found("c", 0.4, "copied"),
        "e": Found("e", 0.1, "copied"),
    }
    copies, changes = updated(before, found, {"d"}, Seen(2, "https://e.ru/p", "d2"), 0.05)
    assert [(c.url, c.change) for c in changes] == [("a", "grown"), ("c", "back"), ("e", "new")]
    by_url = {c.url: c for c in copies}
    assert by_url["a"].first_seen == "d1" and by_url["a"].last_seen == "d2"
    assert by_url["b"].share == 0.52 and by_url["b"].kind == "rewritten"
    assert by_url["c"].gone is None and by_url["e"].first_seen == "d2"
    assert "d" not in by_url  # not fetched this time: neither seen nor gone
    copies, changes = updated(copies, {}, set(), Seen(3, "https://e.ru/p", "d3"), 0.05)
    assert {c.url for c in changes if c.change == "gone"} == {"a", "b", "c", "e"}
    assert all(c.gone == "d3" for c in copies)


@pytest.mark.parametrize(
    ("runs", "expected"),
    [
        ([], ()),
        ([(5, 9), (0, 3)], ((0, 3), (5, 9))),
        ([(0, 4), (2, 6), (6, 8), (10, 10)], ((0, 8),)),
        ([(3, 9), (4, 5), (12, 14)], ((3, 9), (12, 14))),
    ],
)
def test_fragments_merged_into_runs(runs: list[tuple[int, int]], expected: tuple) -> None:
    assert merged(Fragment(start, end) for start, end in runs) == expected


def test_a_copy_keeps_the_spans_it_was_last_seen_holding() -> None:
    before = [_copy("a", 0.3)]
    found = {"a": Found("a", 0.6, "copied", ((0, 10),)), "b": Found("b", 0.1, "copied", ((4, 6),))}
    copies, _ = updated(before, found, set(), Seen(2, "https://e.ru/p", "d2"), 0.05)
    assert {c.url: c.spans for c in copies} == {"a": ((0, 10),), "b": ((4, 6),)}


def test_a_watch_of_the_first_format_is_upgraded(tmp_path: Path) -> None:
    folder = tmp_path / "watch"
    with WatchStore(folder, create=True) as store:  # made as the first format made it
        store.db.execute("DROP TABLE copies")
        store.db.execute(
            "CREATE TABLE copies (page INTEGER NOT NULL, url TEXT NOT NULL, share REAL NOT "
            "NULL, kind TEXT NOT NULL, first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, "
            "gone TEXT, PRIMARY KEY (page, url))"
        )
        store.db.execute("UPDATE meta SET value='1' WHERE key='format'")
        store.put_page(WatchedPage("https://e.ru/p", None, None, None, "текст", "d0"))
        store.db.execute(
            "INSERT INTO copies VALUES (1, 'https://x.ru/', 0.5, 'copied', 'd1', 'd1', NULL)"
        )
    with WatchStore(folder) as store:
        assert store.setting("format") == "2"
        assert store.copies() == [
            Copy("https://e.ru/p", "https://x.ru/", 0.5, "copied", "d1", "d1")
        ]
