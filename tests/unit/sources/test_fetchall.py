"""fetch_all when its fetching thread stops early: every URL still gets its answer, in order."""

from __future__ import annotations

import pytest

from canon.errors import FetchError
from canon.sources.client import Fetched, Fetcher, Politeness
from canon.sources.fetch import FetchOptions
from canon.sources.fetchall import fetch_all
from canon.sources.pagecache import Page

FIRST = "http://example.test/first"
BROKEN = "http://example.test/broken"
LAST = "http://example.test/last"


async def _get_until_broken(self: Fetcher, url: str, *args: object) -> Fetched:
    """A fetch that answers the first URL and fails, as a bug would, on the second."""
    if url == BROKEN:
        raise RuntimeError("not a network failure")
    page = Page(url, url, 200, "text/plain", "utf-8", "", "текст".encode())
    return Fetched(page, (), "")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_urls_left_when_the_fetching_stops_are_not_fetched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Fetcher, "get", _get_until_broken)
    results = list(fetch_all([FIRST, BROKEN, LAST, FIRST], FetchOptions(), Politeness(1)))
    assert [url for url, _ in results] == [FIRST, BROKEN, LAST, FIRST]
    assert all(isinstance(page, Page) for _, page in (results[0], results[3]))
    for url, failure in results[1:3]:
        assert isinstance(failure, FetchError)
        assert (failure.url, failure.reason) == (url, "not-fetched")
        assert str(failure) == f"{url}: not fetched"
