"""Items → documents prepared for the index: read, canonicalized and hashed in worker processes.

Under a profile with morphology, a document's sentences are also split and kept as lemma sets
(:func:`canon.fingerprints.sentences.sentence_sets`) for the sentence measure.
:func:`shingle_profiles` is that preparation of one text; the site audit prepares its pages with it
too.

Each worker process gets the job (profiles, k, step, sampling, how to read) once, at start;
items go out a few blocks per worker at a time (:func:`canon.workers.in_order`) and prepared
documents come back in order, so an input is read only as far ahead as those blocks: memory
follows the blocks in flight, not the input.  The URLs among the items are fetched first, a
block at a time, many at once, through one shared pool (:func:`canon.sources.fetchall.fetch_all`),
and the workers get their pages: fetching does not wait for reading, nor reading for fetching.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice

import numpy as np

from ..canonical import canonicalize
from ..errors import CanonError, InputError, TextTooShort
from ..fingerprints.sentences import SentenceSets, sentence_sets
from ..fingerprints.shingles import shingle_hashes, window_hashes
from ..profile import Profile
from ..sources.collection import Failure, Item, LeftOut
from ..sources.documents import Document
from ..sources.fetch import FetchOptions
from ..sources.items import Fetched, fetched_ahead, item_document
from ..workers import blocks, die_with_parent, in_order
from .rules import kept_windows
from .schema import pack_text
from .settings import AddSettings, IndexRules
from .writes import Prepared

__all__ = ["AHEAD", "BLOCK_ITEMS", "Shingled", "Skipped", "prepare_all", "shingle_profiles"]

BLOCK_ITEMS = 4  # items a worker prepares per job
AHEAD = 4  # jobs out per worker at least


@dataclass(frozen=True)
class Skipped:
    """A source whose content is unchanged since it was indexed."""

    source: str


@dataclass(frozen=True)
class _Job:
    profiles: tuple[Profile, ...]
    k: int
    step: int
    whole_page: bool
    fetch_options: FetchOptions
    known: dict[str, str]
    sample: int = 1
    store_text: bool = True
    winnow: int = 1
    strict: bool = False


def _document(item: Item | Fetched, job: _Job) -> Document:
    return item_document(item, whole_page=job.whole_page, fetch_options=job.fetch_options)


@dataclass(frozen=True)
class Shingled:
    """A text's shingles under each profile (``fingerprint → (words, kept hashes)``), its
    sentence sets under the profiles with morphology, and the first profile's tokens."""

    shingles: dict[str, tuple[int, np.ndarray]]
    sentences: dict[str, SentenceSets]
    tokens: tuple[str, ...]


def _kept(
    tokens: Sequence[str], k: int, step: int, sample: int, winnow: int
) -> tuple[int, np.ndarray]:
    """How many windows the tokens make, and the sorted distinct hashes the thinning keeps."""
    if sample == 1 and winnow == 1:
        hashes = shingle_hashes(tokens, k, step)
        return len(hashes), hashes
    windows = window_hashes(tokens, k, step)
    return len(windows), np.unique(windows[kept_windows(windows, sample, winnow)])


def shingle_profiles(
    text: str,
    profiles: Sequence[Profile],
    k: int,
    source: str,
    *,
    step: int = 1,
    sample: int = 1,
    winnow: int = 1,
) -> Shingled:
    """Canonicalize ``text`` once per profile, hash its shingles and keep those the index's
    thinning keeps (:func:`canon.index.rules.kept_windows`: mod-``sample`` sampling or
    winnowing with window ``winnow``); split its sentences under the profiles with
    morphology.  Raises :class:`TextTooShort` (fewer than ``k`` words) or
    :class:`InputError` (none kept)."""
    shingles = {}
    sentences = {}
    first: tuple[str, ...] | None = None
    for profile in profiles:
        canonical = canonicalize(text, profile)
        tokens = canonical.tokens
        first = tuple(tokens) if first is None else first
        count, hashes = _kept(tokens, k, step, sample, winnow)
        if count == 0:
            raise TextTooShort(
                len(tokens),
                k,
                source,
                f"{source}: has {len(tokens)} canonical words under {profile.name}, "
                f"fewer than k={k}",
            )
        if len(hashes) == 0:
            raise InputError(
                f"{source}: none of its {count} shingles under "
                f"{profile.name} is kept by 1/{sample} sampling",
                source=source,
                reason="sampling",
            )
        shingles[profile.fingerprint] = (len(tokens), hashes)
        if profile.morphology != "none":
            sentences[profile.fingerprint] = sentence_sets(canonical)
    return Shingled(shingles, sentences, first or ())


def _prepare_item(item: Item | Fetched, job: _Job) -> Prepared | Failure | Skipped | LeftOut:
    try:
        doc = _document(item, job)
        digest = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()[:32]
        if job.known.get(item.source) == digest:
            return Skipped(item.source)
        done = shingle_profiles(
            doc.text,
            job.profiles,
            job.k,
            item.source,
            step=job.step,
            sample=job.sample,
            winnow=job.winnow,
        )
        text = pack_text(doc.text) if job.store_text else None
        return Prepared(
            item.source, doc.title, doc.method, doc.chars, digest, doc.final_url, done.shingles,
            done.sentences, text,
        )  # fmt: skip
    except TextTooShort as exc:
        return Failure(item.source, str(exc)) if job.strict else LeftOut(item.source, "too-short")
    except CanonError as exc:
        return Failure(item.source, str(exc))


_job: _Job | None = None


def _init(job: _Job, parent: int) -> None:
    global _job
    die_with_parent(parent)
    _job = job


def _work(block: list[Item | Fetched]) -> list[Prepared | Failure | Skipped | LeftOut]:
    assert _job is not None
    return [_prepare_item(item, _job) for item in block]


def prepare_all(
    items: Iterable[Item],
    rules: IndexRules = IndexRules(),
    settings: AddSettings = AddSettings(),
    *,
    known: dict[str, str] | None = None,
    ahead: int = 0,
) -> Iterator[Prepared | Failure | Skipped | LeftOut]:
    """Read and canonicalize ``items`` under ``rules`` (those not given at their defaults), in
    ``settings.workers`` processes, yielding results in order.

    Items are taken from ``items`` only as results are taken back: at most ``ahead`` items
    (but ``AHEAD`` blocks of ``BLOCK_ITEMS`` per worker at least) are out at once, and a
    block of :func:`~canon.sources.items.fetched_ahead` before them, so an input of any length
    is prepared in bounded memory.  A consumer that stops to write a batch should ask for that
    many ahead, so the workers go on meanwhile.  An input of fewer than two items per worker
    is prepared here, in this process.
    ``known`` maps sources to the content hash already indexed: those are :class:`Skipped`;
    a text with fewer words than k is a :class:`~canon.sources.collection.LeftOut` (a
    :class:`Failure` with ``settings.strict``).
    With ``settings.store_text``, each document carries its text compressed, for the index to
    keep.
    """
    profiles, k, step, sample, winnow = rules.values()
    job = _Job(
        profiles,
        k,
        step,
        settings.whole_page,
        settings.fetch_options,
        known or {},
        sample,
        settings.store_text,
        winnow,
        settings.strict,
    )
    workers = settings.workers
    ready = fetched_ahead(items, job.fetch_options)
    first = list(islice(ready, 2 * workers))
    if workers <= 1 or len(first) < 2 * workers:
        for item in chain(first, ready):
            yield _prepare_item(item, job)
        return
    pool = multiprocessing.get_context("fork").Pool(workers, _init, (job, os.getpid()))
    try:
        jobs = max(AHEAD * workers, -(-ahead // BLOCK_ITEMS))
        for results in in_order(pool, _work, blocks(chain(first, ready), BLOCK_ITEMS), jobs):
            yield from results
        pool.close()  # a normal end: each worker writes the lemmas it learned to the cache
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
