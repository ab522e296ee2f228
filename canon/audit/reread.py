"""An audit's stored pages → read again with another content area, without fetching them.

Every page keeps its HTML (compressed) in ``audit_pages``; reading it again gives new facts,
word counts and main text, which replace the page's row and its document in the index (a
page left without a main text of k words leaves the index).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from ..index.rules import profile_of
from ..index.store import Index
from ..sources.crawl.page import ContentArea
from .pages import Read, Reading, read_fields, read_page
from .records import crawl_failure, judged
from .state import PageRow, State

__all__ = ["area_of", "reread"]

_BATCH = 200


def area_of(stored: object) -> ContentArea:
    """The content area an audit recorded (none recorded: the whole page)."""
    if not isinstance(stored, dict):
        return ContentArea()
    return ContentArea(tuple(stored.get("keep", ())), tuple(stored.get("drop", ())))


def _read_stored(html: bytes, charset: str | None, url: str, reading: Reading) -> Read:
    import zstandard

    body = zstandard.ZstdDecompressor().decompress(html, max_output_size=64 * len(html) + 2**20)
    return read_page(body, charset, url, reading)


def _batches(rows: Iterable[PageRow]) -> Iterator[list[PageRow]]:
    batch: list[PageRow] = []
    for row in rows:
        batch.append(row)
        if len(batch) == _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _each(reads: Iterator[Read]) -> Iterator[Read]:
    """The reads as they come back; a worker process that died stops the whole reading."""
    try:
        yield from reads
    except BrokenProcessPool as exc:
        raise crawl_failure(exc) from exc


def reread(index: Index, state: State, area: ContentArea, executor: Executor) -> int:
    """Read every stored page again under ``area``; how many were read."""
    built = index.profiles()
    reading = Reading(area, tuple(profile_of(p) for p in built), built[0].k)
    done = 0
    stored = (r for r in state.pages(with_html=True) if r.html and r.status == 200)
    for batch in _batches(stored):
        reads = executor.map(
            _read_stored,
            [r.html for r in batch],
            [r.charset for r in batch],
            [r.url for r in batch],
            [reading] * len(batch),
        )
        rows, docs, gone = [], [], []
        for row, read in zip(batch, _each(reads)):
            rows.append(judged(replace(row, **read_fields(row.url, row.x_robots, read))))
            if read.document is not None:
                docs.append(read.document)
            else:
                gone.append(row.url)
        if docs:
            index.write_batch(docs, built)
        index.remove(gone)
        state.update_texts(rows)
        done += len(batch)
    state.put("area", {"keep": list(area.keep), "drop": list(area.drop)})
    return done
