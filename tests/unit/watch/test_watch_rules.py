"""The rules of a watch that need no network: whose pages are never copies, how a budget is
shared among pages, and how a check's findings become a page's history."""

from __future__ import annotations

import pytest

from canon.errors import OptionError
from canon.uniqueness.exclusion import Exclusion
from canon.watch.findings import Found
from canon.watch.history import Seen, updated
from canon.watch.own import Ownership, site_name, site_of
from canon.watch.plan import plan_run
from canon.watch.records import Copy, WatchedPage


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
