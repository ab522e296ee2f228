"""Start URLs → every page of the site fetched, read and kept in the audit's index, resumably.

One event loop runs the crawl: ``concurrency`` tasks take URLs from the frontier and fetch
them through one shared pool (:class:`~canon.sources.client.Fetcher`), hand each HTML page to
worker processes that read it (:func:`canon.audit.pages.read_page`), and queue the links it
holds.  robots.txt is read first for each site (its ``Crawl-delay`` sets the delay between two
requests to it, its ``Sitemap:`` lines are followed with the sitemaps given as starts), a
disallowed URL is recorded and never fetched.  A redirect is recorded for the URL asked for and
its target read as a page of its own (once); a redirect off the site is recorded, never
followed.  Results are written a batch at a time, documents
first, by a thread of their own (:mod:`.writer`), so a crawl killed at any point resumes where
it stopped, and fetching never waits for the disk.

A page that makes its reading fail is recorded against that page (reason ``error``) and the
crawl goes on; any other failure (a worker process that dies, the writer, the crawl's own
steps) stops every task at once and is raised as one :class:`~canon.errors.CanonError` line,
what was done being kept for a resume.  The crawl keeps at most ``settings.max_urls`` URLs:
links met past that are counted, not followed.  It stops after ``settings.max_time`` seconds
(the pages in flight are fetched again by the resume); its report says so, and which hosts
asked for a longer ``Crawl-delay`` than the politeness allows or failed too often to be asked
again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from urllib.parse import urlsplit

from ..errors import CanonError, FetchError
from ..index.rules import IndexedProfile
from ..sources.client import Fetched, Fetcher
from ..sources.crawl.addresses import Scope, normalize
from ..sources.crawl.robots import Robots
from ..sources.crawl.sitemaps import SITEMAP_TYPES, read_sitemap
from .pages import Reading, read_page
from .records import (
    HTML_TYPES,
    CrawlProgress,
    CrawlReport,
    crawl_failure,
    is_sitemap,
    one_line,
    page_row,
    read_row,
)
from .settings import CrawlSettings
from .state import Queued, State
from .writer import Batch, Writer

__all__ = ["CrawlProgress", "CrawlReport", "crawl", "is_sitemap"]

_FLUSH_PAGES = 25
_FLUSH_SECONDS = 1.0


class _Crawl:
    def __init__(
        self,
        settings: CrawlSettings,
        indexed: list[IndexedProfile],
        state: State,
        executor: Executor,
        reading: Reading,
        on_progress: Callable[[CrawlProgress], None] | None,
    ) -> None:
        self.settings = settings
        self.indexed = indexed
        self.state = state
        self.executor = executor
        self.how = reading
        self.on_progress = on_progress
        self.scope = Scope.of(settings.starts, settings.include, settings.exclude)
        self.robots: dict[str, Robots] = {}
        self.known = state.known()
        self.batch = Batch()
        self.since = time.monotonic()
        self.queue: asyncio.Queue[Queued] = asyncio.Queue()
        self.started = sum(1 for p in state.pages() if p.reason != "blocked")
        self.done = self.started
        self.errors = 0
        self.fetched = 0
        self.begin = time.perf_counter()
        self.fetcher: Fetcher | None = None
        self.writer: Writer | None = None
        self.reading: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(2 * settings.workers + settings.politeness.concurrency)
        self.failure: BaseException | None = None
        self.unfollowed = 0  # links met once the crawl held settings.max_urls URLs
        self.stopped = asyncio.Event()  # set on the first failure of the crawl's own
        self.out_of_time = False  # stopped at settings.max_time

    # ------------------------------------------------------------------ robots and seeds

    async def _robots_of(self, origin: str) -> Robots:
        if origin in self.robots:
            return self.robots[origin]
        kept = self.state.get(f"robots:{origin}")
        if kept is None:
            assert self.fetcher is not None
            try:
                got = await self.fetcher.get(origin + "/robots.txt", {"text/plain"})
                body = got.page.body.decode("utf-8", "replace")
                kept = {"status": got.status, "text": body if got.status < 400 else ""}
            except FetchError as exc:
                if exc.reason == "private-address":  # the whole site is out of bounds
                    raise
                kept = {"status": 0, "text": ""}
            self.state.put(f"robots:{origin}", kept)
        robots = Robots(kept["text"], kept["status"])
        self.robots[origin] = robots
        assert self.fetcher is not None
        self.fetcher.set_delay(urlsplit(origin).netloc, robots.crawl_delay())
        return robots

    @staticmethod
    def _origin(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}"

    async def _allowed(self, url: str) -> bool:
        return (await self._robots_of(self._origin(url))).allowed(url)

    async def _discover(self, q: Queued) -> None:
        """Queue a URL the crawl has not met (or record it as refused by robots.txt)."""
        if q.url in self.known or not self.scope.wanted(q.url):
            return
        if self.settings.max_depth is not None and q.depth > self.settings.max_depth:
            return
        if self._full():
            return
        self.known.add(q.url)
        self.batch.found.append(q)
        if await self._allowed(q.url):
            self.queue.put_nowait(q)
        else:
            self.batch.rows.append(page_row(q, None, reason="blocked"))

    def _full(self) -> bool:
        """Whether the crawl holds as many URLs as it may (the URL met is then counted)."""
        if len(self.known) < self.settings.max_urls:
            return False
        self.unfollowed += 1
        return True

    async def _sitemaps(self, first: Sequence[str]) -> None:
        assert self.fetcher is not None
        todo, seen = list(first), set(first)
        while todo and len(seen) <= self.settings.max_sitemaps:
            url = todo.pop(0)
            try:
                got = await self.fetcher.get(url, SITEMAP_TYPES)
                if got.status >= 400:
                    continue
                sitemap = read_sitemap(url, got.page.body, self.settings.fetch.max_bytes)
            except FetchError:
                continue
            for child in sitemap.sitemaps:
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
            for page in sitemap.pages:
                target = normalize(page)
                if target:
                    await self._discover(Queued(target, 0, "sitemap", url))

    async def _seed(self) -> None:
        starts = [normalize(s) or s for s in self.settings.starts]
        sitemaps = [s for s in starts if is_sitemap(s)]
        for origin in dict.fromkeys(self._origin(s) for s in starts):
            named = (await self._robots_of(origin)).sitemaps()
            sitemaps += [u for u in (normalize(s, origin + "/robots.txt") for s in named) if u]
        for start in starts:
            if not is_sitemap(start):
                await self._discover(Queued(start, 0, "start"))
        await self._sitemaps(list(dict.fromkeys(sitemaps)))
        self.batch.marks["seeded"] = True
        self._flush(force=True)
        assert self.writer is not None
        await asyncio.to_thread(self.writer.wait)  # the queue is read back from the file

    # ------------------------------------------------------------------ pages

    async def _read(self, q: Queued, fetched: Fetched) -> None:
        page = fetched.page
        if page.status >= 400:
            self.batch.rows.append(page_row(q, fetched, reason="status"))
            return
        if page.media_type not in HTML_TYPES or not page.body:
            self.batch.rows.append(page_row(q, fetched, reason="not-html"))
            return
        loop = asyncio.get_running_loop()
        try:
            read = await loop.run_in_executor(
                self.executor, read_page, page.body, page.charset, q.url, self.how
            )
        except BrokenProcessPool:
            raise
        except Exception as exc:  # the page's result could not come back: the page's failure
            self.errors += 1
            error = f"reading the page failed: {one_line(exc)}"
            self.batch.rows.append(page_row(q, fetched, reason="error", error=error))
            return
        if read.failed:
            self.errors += 1
        self.batch.rows.append(read_row(q, fetched, read))
        if read.document is not None:
            self.batch.docs.append(read.document)
        for link in read.facts.links:
            await self._discover(Queued(link, q.depth + 1, "link", q.url))

    async def _redirected(self, q: Queued, fetched: Fetched) -> Queued | None:
        """Record the redirect; the target, when it is a page of the crawl not met yet."""
        first_status = fetched.redirects[0][1]
        self.batch.rows.append(page_row(q, fetched, status=first_status, reason="redirect"))
        target = normalize(fetched.page.final_url)
        if target is None or target in self.known or not self.scope.on_site(target):
            return None
        if not await self._allowed(target) or self._full():
            return None
        self.known.add(target)
        moved = Queued(target, q.depth, "redirect", q.url)
        self.batch.found.append(moved)
        return moved

    async def _visit(self, q: Queued) -> tuple[Queued, Fetched] | None:
        """Fetch ``q``: the page to read (and the URL it is read as), or None when done."""
        assert self.fetcher is not None
        try:
            fetched = await self.fetcher.get(q.url, stay=self._stays)
        except FetchError as exc:
            self.errors += 1
            self.batch.rows.append(page_row(q, None, reason="error", error=str(exc)))
            return None
        self.fetched += 1
        if fetched.redirects:
            moved = await self._redirected(q, fetched)
            if moved is None:
                return None
            q = moved
        if fetched.page.status >= 500:
            self.errors += 1
        return q, fetched

    def _stays(self, url: str) -> bool:
        """Whether a redirect to ``url`` is followed: to a page of the site crawled."""
        target = normalize(url)
        return target is not None and self.scope.on_site(target)

    def _flush(self, force: bool = False) -> None:
        """Hand the batch to the writer when it is full or old enough (or ``force``)."""
        due = len(self.batch.rows) >= _FLUSH_PAGES or time.monotonic() - self.since > _FLUSH_SECONDS
        if not (force or due) or not self.batch:
            return
        assert self.writer is not None
        self.writer.put(self.batch)
        self.batch = Batch()
        self.since = time.monotonic()

    def _progress(self) -> None:
        if self.on_progress is not None:
            in_flight = self.fetcher.in_flight if self.fetcher else 0
            seconds = time.perf_counter() - self.begin
            self.on_progress(
                CrawlProgress(self.done, self.queue.qsize(), self.errors, seconds, in_flight)
            )

    def _finished(self) -> None:
        try:
            self.done += 1
            self._flush()
            self._progress()
        finally:
            self.queue.task_done()

    def _fail(self, exc: BaseException) -> None:
        """Stop the crawl: the first failure that is not one page's is raised by the crawl."""
        if self.failure is None:
            self.failure = exc
        self.stopped.set()

    async def _worker(self) -> None:
        """Take URLs from the queue until the crawl ends; a failure stops the whole crawl."""
        try:
            while True:
                await self._take(await self.queue.get())
        except Exception as exc:
            self._fail(exc)

    async def _take(self, q: Queued) -> None:
        """Fetch ``q`` and hand the page to the worker processes, going on to the next URL
        while they read it (at most ``slots`` pages wait to be read, so memory stays bounded).
        The queue hears that ``q`` is done exactly once, whatever fails."""
        if self.started >= self.settings.max_pages:
            self.queue.task_done()
            return
        self.started += 1
        try:
            visited = await self._visit(q)
        except BaseException:
            self.queue.task_done()
            raise
        if visited is None:
            self._finished()
            return
        await self.slots.acquire()
        task = asyncio.create_task(self._finish(*visited))
        self.reading.add(task)
        task.add_done_callback(self._read_done)

    async def _finish(self, q: Queued, fetched: Fetched) -> None:
        try:
            await self._read(q, fetched)
        finally:
            self.slots.release()
            self._finished()

    def _read_done(self, task: asyncio.Task[None]) -> None:
        self.reading.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            self._fail(error)

    async def run(self) -> CrawlReport:
        with Writer(self.state.path, self.indexed) as writer:
            self.writer = writer
            try:
                return await self._crawl()
            except CanonError:
                raise
            except Exception as exc:
                raise crawl_failure(exc) from exc

    def _remaining(self) -> float | None:
        """Seconds left before ``settings.max_time`` (None: no limit)."""
        if self.settings.max_time is None:
            return None
        return max(0.0, self.settings.max_time - (time.perf_counter() - self.begin))

    async def _until_done_or_failed(self) -> None:
        """Until every queued URL is done, the first failure, or the end of the time allowed."""
        joined = asyncio.ensure_future(self.queue.join())
        stopped = asyncio.ensure_future(self.stopped.wait())
        try:
            done, _ = await asyncio.wait(
                {joined, stopped}, timeout=self._remaining(), return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            joined.cancel()
            stopped.cancel()
        if self.failure is not None:
            raise self.failure
        self.out_of_time = not done

    async def _seeded(self) -> bool:
        """Seed the crawl unless it was; whether that ended within the time allowed."""
        if self.state.get("seeded"):
            return True
        try:
            async with asyncio.timeout(self._remaining()):
                await self._seed()
        except TimeoutError:
            self.out_of_time = True
            self._flush(force=True)
            return False
        return True

    async def _crawl(self) -> CrawlReport:
        async with Fetcher(self.settings.fetch, self.settings.politeness) as fetcher:
            self.fetcher = fetcher
            if await self._seeded():
                await self._pages()
        assert self.writer is not None
        await asyncio.to_thread(self.writer.wait)
        left = len(self.state.pending())
        return CrawlReport(
            self.fetched,
            self.state.done_count(),
            time.perf_counter() - self.begin,
            fetcher.most_in_flight,
            left,
            self.unfollowed,
            self.settings.max_urls,
            out_of_time=self.out_of_time,
            max_time=self.settings.max_time,
            capped=tuple(sorted(fetcher.capped.items())),
            max_crawl_delay=self.settings.politeness.max_crawl_delay,
            given_up=tuple(sorted(fetcher.given_up)),
        )

    async def _pages(self) -> None:
        """Fetch and read the queued pages until done, failed or out of time."""
        self.queue = asyncio.Queue()  # what seeding queued is in the state
        for q in self.state.pending():
            self.queue.put_nowait(q)
        workers = [
            asyncio.create_task(self._worker()) for _ in range(self.settings.politeness.concurrency)
        ]
        try:
            await self._until_done_or_failed()
        finally:
            for task in workers + list(self.reading):
                task.cancel()
            await asyncio.gather(*workers, *self.reading, return_exceptions=True)
            self._keep_what_is_done()

    def _keep_what_is_done(self) -> None:
        """Hand the last batch to the writer; after a failure, what cannot be written is lost
        quietly (the crawl's own failure is the one to tell)."""
        try:
            self._flush(force=True)
        except Exception:
            if self.failure is None:
                raise


def crawl(
    settings: CrawlSettings,
    indexed: list[IndexedProfile],
    state: State,
    executor: Executor,
    reading: Reading,
    on_progress: Callable[[CrawlProgress], None] | None = None,
) -> CrawlReport:
    """Crawl (or go on crawling) into the audit file of ``state`` (an index with ``indexed``
    profiles); pages are read in ``executor``."""
    job = _Crawl(settings, indexed, state, executor, reading, on_progress)
    return asyncio.run(job.run())
