"""Many URLs → their pages, in order, fetched concurrently for code that is not asynchronous.

:func:`fetch_all` runs the shared pool of :mod:`.client` in an event loop on a thread of its
own and hands pages back in the order the URLs were given, holding only a few ahead of the
consumer: ``index add``, ``dedup`` and ``check`` over many URLs fetch through it while their
worker processes read the pages already fetched.  Each result is a page or the
:class:`~canon.errors.FetchError` :func:`canon.sources.fetch.fetch` would have raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections import Counter
from collections.abc import Generator, Iterable, Sequence

from ..errors import FetchError
from .client import Fetched, Fetcher, Politeness
from .fetch import TEXT_TYPES, FetchOptions
from .headers import shown
from .pagecache import Page, PageCache

__all__ = ["fetch_all"]


def _as_page(fetched: Fetched) -> Page:
    """The page of a fetch, or the FetchError :func:`canon.sources.fetch.fetch` would raise."""
    page = fetched.page
    if page.status >= 400:
        raise FetchError(page.url, f"HTTP {page.status}", reason="status")
    if page.media_type and page.media_type not in TEXT_TYPES:
        raise FetchError(
            page.url,
            f"the content type is {shown(page.media_type)}, not a web page or plain text; "
            "canon compares HTML and text",
            reason="content-type",
        )
    return page


def _not_fetched(url: str) -> FetchError:
    """The answer for a URL the fetching thread stopped before reaching."""
    return FetchError(url, "not fetched", reason="not-fetched")


async def _fetch_into(
    urls: Iterable[str],
    options: FetchOptions,
    politeness: Politeness,
    out: queue.Queue[tuple[str, Page | FetchError] | None],
    stop: threading.Event,
) -> None:
    async with Fetcher(options, politeness) as fetcher:
        pending = iter(urls)

        async def worker() -> None:
            for url in pending:  # each worker takes the next URL; one iterator shared
                if stop.is_set():
                    return
                try:
                    result: Page | FetchError = _as_page(await fetcher.get(url))
                except FetchError as exc:
                    result = exc
                await asyncio.to_thread(out.put, (url, result))

        await asyncio.gather(*(worker() for _ in range(politeness.concurrency)))


def fetch_all(
    urls: Sequence[str], options: FetchOptions, politeness: Politeness | None = None
) -> Generator[tuple[str, Page | FetchError], None, None]:
    """``(url, page or FetchError)`` for each of ``urls``, in the order given, fetched
    ``politeness.concurrency`` at a time through one shared pool (an event loop in a thread of
    its own), at most a few times that many held ahead of the consumer.  The page cache of
    ``options`` is read first and written after, as :func:`~canon.sources.fetch.fetch` does."""
    politeness = politeness or Politeness()
    cache = PageCache(options.cache_dir) if options.cache_dir else None
    cached = {}
    if cache is not None:
        for url in urls:
            if page := cache.get(url, options.allow_private, options.max_bytes):
                cached[url] = page
    wanted = [u for u in dict.fromkeys(urls) if u not in cached]
    out: queue.Queue[tuple[str, Page | FetchError] | None] = queue.Queue(
        maxsize=4 * politeness.concurrency
    )
    stop = threading.Event()

    def run() -> None:
        try:
            asyncio.run(_fetch_into(wanted, options, politeness, out, stop))
        finally:
            out.put(None)

    thread = threading.Thread(target=run, name="canon-fetch", daemon=True)
    thread.start()
    arrived: dict[str, Page | FetchError] = dict(cached)
    left = Counter(urls)  # a URL named twice is fetched once, and given twice
    try:
        done = False
        for url in urls:
            while url not in arrived and not done:
                got = out.get()
                if got is None:
                    done = True
                else:
                    arrived[got[0]] = got[1]
                    if cache is not None and isinstance(got[1], Page):
                        cache.put(got[1])
            left[url] -= 1
            result = arrived.pop(url, None) if left[url] == 0 else arrived.get(url)
            yield url, result if result is not None else _not_fetched(url)
    finally:
        stop.set()
        while thread.is_alive():  # let the fetching thread put its last results and end
            with contextlib.suppress(queue.Empty):
                out.get(timeout=0.05)
        thread.join()
