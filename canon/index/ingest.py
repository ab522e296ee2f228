"""Many sources → documents prepared for the index, in worker processes.

A SOURCE argument may be a URL, a file, a folder (searched recursively for text, HTML and
.docx files), ``@list.txt`` (one URL or path a line) or a ``.jsonl`` file whose lines are
``{"id": ..., "text": ...}`` or ``{"url": ..., "html": ...}``.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..canonical import canonicalize
from ..dedup.local import Entry
from ..errors import CanonError, InputError
from ..profile import Profile
from ..shingle import shingle_hashes
from ..sources.documents import Document, read_source
from ..sources.extract import extract_html
from ..sources.fetch import FetchOptions, is_url
from .store import Index, Prepared, keep_sampled

__all__ = [
    "AddReport",
    "Failure",
    "Item",
    "Skipped",
    "add_sources",
    "expand",
    "prepare_all",
    "read_entries",
]

FOLDER_SUFFIXES = frozenset({".txt", ".md", ".html", ".htm", ".docx"})


@dataclass(frozen=True)
class Item:
    """One document to read: a URL or path, or a record of a JSON Lines file."""

    source: str
    text: str | None = None
    html: str | None = None


@dataclass(frozen=True)
class Failure:
    source: str
    reason: str


@dataclass(frozen=True)
class Skipped:
    """A source whose content is unchanged since it was indexed."""

    source: str


def _list_file(path: Path) -> Iterator[Item | Failure]:
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        yield Failure(f"@{path}", f"cannot read the list ({exc})")
        return
    for line in lines:
        entry = line.strip()
        if entry and not entry.startswith("#"):
            yield Item(entry)


def _jsonl(path: Path) -> Iterator[Item | Failure]:
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        yield Failure(str(path), f"cannot read ({exc})")
        return
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield Failure(where, f"not valid JSON ({exc.msg})")
            continue
        if isinstance(record, dict) and isinstance(record.get("text"), str) and "id" in record:
            yield Item(str(record["id"]), text=record["text"])
        elif isinstance(record, dict) and isinstance(record.get("html"), str) and "url" in record:
            yield Item(str(record["url"]), html=record["html"])
        else:
            yield Failure(where, 'expected {"id": ..., "text": ...} or {"url": ..., "html": ...}')


def expand(sources: Iterable[str]) -> Iterator[Item | Failure]:
    """Every document the SOURCE arguments name, in order."""
    for source in sources:
        path = Path(source[1:] if source.startswith("@") else source)
        if source.startswith("@"):
            yield from _list_file(path)
        elif is_url(source) or source == "-":
            yield Item(source)
        elif path.is_dir():
            for found in sorted(p for p in path.rglob("*") if p.is_file()):
                if found.suffix.lower() in FOLDER_SUFFIXES:
                    yield Item(str(found))
        elif path.suffix.lower() == ".jsonl" and path.is_file():
            yield from _jsonl(path)
        else:
            yield Item(source)


@dataclass(frozen=True)
class _Job:
    profiles: tuple[Profile, ...]
    k: int
    step: int
    whole_page: bool
    fetch_options: FetchOptions
    known: dict[str, str]
    sample: int = 1


def _document(item: Item, job: _Job) -> Document:
    if item.text is not None:
        return Document(item.source, item.text, method="text", encoding=None)
    if item.html is not None:
        page = extract_html(item.html, item.source, whole_page=job.whole_page)
        return Document(item.source, page.text, page.title, page.method, None, page.language)
    return read_source(item.source, whole_page=job.whole_page, fetch_options=job.fetch_options)


def _prepare(item: Item, job: _Job) -> Prepared | Failure | Skipped:
    try:
        doc = _document(item, job)
        digest = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()[:32]
        if job.known.get(item.source) == digest:
            return Skipped(item.source)
        shingles = {}
        for profile in job.profiles:
            tokens = canonicalize(doc.text, profile).tokens
            everything = shingle_hashes(tokens, job.k, job.step)
            if len(everything) == 0:
                raise InputError(
                    f"{item.source}: has {len(tokens)} canonical words under {profile.name}, "
                    f"fewer than k={job.k}"
                )
            hashes = keep_sampled(everything, job.sample)
            if len(hashes) == 0:
                raise InputError(
                    f"{item.source}: none of its {len(everything)} shingles under "
                    f"{profile.name} is kept by 1/{job.sample} sampling"
                )
            shingles[profile.fingerprint] = (len(tokens), hashes)
        return Prepared(
            item.source, doc.title, doc.method, doc.chars, digest, doc.final_url, shingles
        )
    except CanonError as exc:
        return Failure(item.source, str(exc))


_job: _Job | None = None


def _init(job: _Job) -> None:
    global _job
    _job = job


def _work(item: Item) -> Prepared | Failure | Skipped:
    assert _job is not None
    return _prepare(item, _job)


def prepare_all(
    items: Sequence[Item],
    profiles: Sequence[Profile],
    *,
    k: int,
    step: int = 1,
    whole_page: bool = False,
    fetch_options: FetchOptions | None = None,
    known: dict[str, str] | None = None,
    workers: int = 1,
    sample: int = 1,
) -> Iterator[Prepared | Failure | Skipped]:
    """Read and canonicalize ``items``, in ``workers`` processes, yielding results in order.

    ``known`` maps sources to the content hash already indexed: those are :class:`Skipped`.
    """
    job = _Job(
        tuple(profiles), k, step, whole_page, fetch_options or FetchOptions(), known or {}, sample
    )
    if workers <= 1 or len(items) < 2 * workers:
        for item in items:
            yield _prepare(item, job)
        return
    with multiprocessing.get_context("fork").Pool(workers, _init, (job,)) as pool:
        yield from pool.imap(_work, items, chunksize=4)


@dataclass(frozen=True)
class AddReport:
    added: int
    replaced: int
    skipped: int
    failures: tuple[Failure, ...]
    seconds: float


def _progress(total: int) -> Any:
    """A progress bar on a terminal (documents/s, ETA); nothing when stderr is piped."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn("indexing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:.0f} docs/s"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    progress.add_task("add", total=total, rate=0.0)
    return progress


def add_sources(
    index: Index,
    sources: Sequence[str],
    profiles: Sequence[Profile],
    *,
    k: int,
    step: int = 1,
    whole_page: bool = False,
    fetch_options: FetchOptions | None = None,
    workers: int = 1,
    batch: int = 500,
    sample: int = 1,
) -> AddReport:
    """Add every document the SOURCE arguments name, ``batch`` documents a transaction.

    A failing source is reported and the others still go in; a crash loses at most the batch
    being written, and running the same command again finishes the rest.
    """
    start = time.perf_counter()
    indexed = index.use_profiles(profiles, k, step, sample)
    known = index.content_hashes()
    failures: list[Failure] = []
    unique: dict[str, Item] = {}
    for entry in expand(sources):
        if isinstance(entry, Failure):
            failures.append(entry)
        else:
            unique.setdefault(entry.source, entry)  # a source named twice is read once
    items = list(unique.values())
    added = replaced = skipped = 0
    pending: list[Prepared] = []

    def flush() -> None:
        nonlocal added, replaced
        index.write_batch(pending, indexed)
        replaced += sum(1 for doc in pending if doc.source in known)
        added += sum(1 for doc in pending if doc.source not in known)
        pending.clear()

    progress = _progress(len(items))
    results = prepare_all(
        items,
        profiles,
        k=k,
        step=step,
        whole_page=whole_page,
        fetch_options=fetch_options,
        known=known,
        workers=workers,
        sample=indexed[0].sample,
    )
    with progress or nullcontext():
        for done, result in enumerate(results, 1):
            if isinstance(result, Failure):
                failures.append(result)
            elif isinstance(result, Skipped):
                skipped += 1
            else:
                pending.append(result)
                if len(pending) >= batch:
                    flush()
            if progress is not None:
                rate = done / max(time.perf_counter() - start, 1e-9)
                progress.update(progress.task_ids[0], completed=done, rate=rate)
        if pending:
            flush()
    return AddReport(added, replaced, skipped, tuple(failures), time.perf_counter() - start)


def read_entries(
    inputs: Sequence[Item | Entry],
    *,
    profile: Profile,
    k: int,
    whole_page: bool = False,
    fetch_options: FetchOptions | None = None,
    workers: int = 1,
) -> list[Entry | Failure]:
    """Shingle sets for dedup, one per input in order: items are read and canonicalized,
    entries pass through, and an item that cannot be read becomes a Failure."""
    items = [x for x in inputs if isinstance(x, Item)]
    results = iter(
        prepare_all(
            items,
            [profile],
            k=k,
            whole_page=whole_page,
            fetch_options=fetch_options,
            workers=workers,
        )
    )
    ready: list[Entry | Failure] = []
    for x in inputs:
        result = x if isinstance(x, Entry) else next(results)
        if isinstance(result, Prepared):
            ((_, hashes),) = result.shingles.values()
            result = Entry(result.source, hashes, result.chars)
        ready.append(result)  # type: ignore[arg-type]
    return ready
