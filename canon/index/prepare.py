"""Items → documents prepared for the index: read, canonicalized and hashed in worker processes.

Under a profile with morphology, a document's sentences are also split and kept as lemma sets
(:func:`canon.sentences.sentence_sets`) for the sentence measure.

Each worker process gets the job (profiles, k, step, sampling, how to read) once, at start;
items go out and prepared documents come back in order.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..canonical import canonicalize
from ..errors import CanonError, InputError, TextTooShort
from ..profile import Profile
from ..sentences import sentence_sets
from ..shingle import keep_sampled, shingle_hashes
from ..sources.collection import Failure, Item
from ..sources.documents import Document, read_source
from ..sources.extract import extract_html
from ..sources.fetch import FetchOptions
from .schema import pack_text
from .writes import Prepared

__all__ = ["Skipped", "prepare_all"]


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


def _document(item: Item, job: _Job) -> Document:
    if item.text is not None:
        return Document(item.source, item.text, method="text", encoding=None)
    if item.html is not None:
        page = extract_html(item.html, item.source, whole_page=job.whole_page)
        return Document(item.source, page.text, page.title, page.method, None, page.language)
    return read_source(item.source, whole_page=job.whole_page, fetch_options=job.fetch_options)


def _prepare_item(item: Item, job: _Job) -> Prepared | Failure | Skipped:
    try:
        doc = _document(item, job)
        digest = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()[:32]
        if job.known.get(item.source) == digest:
            return Skipped(item.source)
        shingles = {}
        sentences = {}
        for profile in job.profiles:
            canonical = canonicalize(doc.text, profile)
            tokens = canonical.tokens
            everything = shingle_hashes(tokens, job.k, job.step)
            if len(everything) == 0:
                raise TextTooShort(
                    len(tokens),
                    job.k,
                    item.source,
                    f"{item.source}: has {len(tokens)} canonical words under {profile.name}, "
                    f"fewer than k={job.k}",
                )
            hashes = keep_sampled(everything, job.sample)
            if len(hashes) == 0:
                raise InputError(
                    f"{item.source}: none of its {len(everything)} shingles under "
                    f"{profile.name} is kept by 1/{job.sample} sampling",
                    source=item.source,
                    reason="sampling",
                )
            shingles[profile.fingerprint] = (len(tokens), hashes)
            if profile.morphology != "none":
                sentences[profile.fingerprint] = sentence_sets(canonical)
        text = pack_text(doc.text) if job.store_text else None
        return Prepared(
            item.source, doc.title, doc.method, doc.chars, digest, doc.final_url, shingles,
            sentences, text,
        )  # fmt: skip
    except CanonError as exc:
        return Failure(item.source, str(exc))


_job: _Job | None = None


def _init(job: _Job) -> None:
    global _job
    _job = job


def _work(item: Item) -> Prepared | Failure | Skipped:
    assert _job is not None
    return _prepare_item(item, _job)


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
    store_text: bool = True,
) -> Iterator[Prepared | Failure | Skipped]:
    """Read and canonicalize ``items``, in ``workers`` processes, yielding results in order.

    ``known`` maps sources to the content hash already indexed: those are :class:`Skipped`.
    With ``store_text``, each document carries its text compressed, for the index to keep.
    """
    job = _Job(
        tuple(profiles),
        k,
        step,
        whole_page,
        fetch_options or FetchOptions(),
        known or {},
        sample,
        store_text,
    )
    if workers <= 1 or len(items) < 2 * workers:
        for item in items:
            yield _prepare_item(item, job)
        return
    with multiprocessing.get_context("fork").Pool(workers, _init, (job,)) as pool:
        yield from pool.imap(_work, items, chunksize=4)
