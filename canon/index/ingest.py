"""SOURCE arguments → documents in an index, streamed, a batch a transaction, progress through a
callback."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..sources.collection import Failure, Item, LeftOut, count_entries, expand
from .merging import Merger
from .prepare import Skipped, prepare_all
from .rules import IndexedProfile, profile_of
from .settings import DEFAULT_K, DEFAULT_PROFILES, AddSettings, IndexRules
from .store import Index
from .writes import Prepared

__all__ = [
    "DEFAULT_K",
    "DEFAULT_PROFILES",
    "AddReport",
    "AddSettings",
    "IndexRules",
    "Progress",
    "add_sources",
    "index_rules",
]


@dataclass(frozen=True)
class AddReport:
    added: int
    replaced: int
    skipped: int
    failures: tuple[Failure, ...]
    seconds: float
    left_out: tuple[LeftOut, ...] = ()


@dataclass(frozen=True)
class Progress:
    """How far an add has come: ``done`` of the ``total`` entries the sources name, after
    ``seconds``.  An entry is a document, or a record that repeats a source or cannot be
    read; ``total`` is counted before the add without reading a text (a JSON Lines file's
    non-blank lines), and the last progress of an add has ``done == total``."""

    done: int
    total: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.done / max(self.seconds, 1e-9)


def index_rules(index: Index, rules: IndexRules) -> IndexRules:
    """The rules an add uses, every one set.  Without ``rules.profiles``, an existing index's
    own rules (a k, step, sample or winnow given still counts, and a mismatch is refused
    later); otherwise, and for a new index, the rules given, the rest defaulting to raw and
    lemma, k=4, step 1, every shingle kept.
    """
    built = index.profiles()
    k, step, sample, winnow = rules.k, rules.step, rules.sample, rules.winnow
    if built and rules.profiles is None:
        first = built[0]
        own = tuple(profile_of(p) for p in built)
        if sample is None and winnow is None:  # the index's own thinning
            sample, winnow = first.sample, first.winnow
        return IndexRules(own, k or first.k, step or first.step, sample or 1, _window(winnow))
    return IndexRules(rules.chosen, k or DEFAULT_K, step or 1, sample or 1, _window(winnow))


def _window(winnow: int | None) -> int:
    """Winnowing's window as given (0 or less is refused when the rules are registered)."""
    return 1 if winnow is None else winnow


@dataclass
class _Entries:
    """The items the SOURCE arguments name, taken one at a time as they are read: a source
    named again is dropped (its first entry is the one read), what cannot even be listed goes
    to ``failures``, a file of a type canon does not read to ``left_out``.  Only the names
    seen are kept, not the texts.  ``passed`` counts the entries taken so far that give no
    item (failures, files left out and repeats)."""

    sources: Sequence[str]
    failures: list[Failure]
    left_out: list[LeftOut] = field(default_factory=list)
    passed: int = 0

    def __iter__(self) -> Iterator[Item]:
        seen: set[str] = set()
        for entry in expand(self.sources):
            if isinstance(entry, Failure):
                self.failures.append(entry)
                self.passed += 1
            elif isinstance(entry, LeftOut):
                self.left_out.append(entry)
                self.passed += 1
            elif entry.source in seen:
                self.passed += 1  # a source named twice is read once
            else:
                seen.add(entry.source)
                yield entry


@dataclass
class _Counting:
    """What ``on_progress`` hears as results are written: the entries done (the results and
    the entries that give none) of those the sources name, counted first."""

    on_progress: Callable[[Progress], None] | None
    entries: _Entries
    start: float
    total: int = 0

    def __post_init__(self) -> None:
        if self.on_progress is not None:
            self.total = count_entries(self.entries.sources)

    def __call__(self, results: int, *, end: bool = False) -> None:
        if self.on_progress is None:
            return
        done = results + self.entries.passed
        total = done if end else max(self.total, done)  # at the end, what there was
        self.on_progress(Progress(done, total, time.perf_counter() - self.start))


@dataclass
class _Writer:
    """Prepared documents in, a batch a transaction out; counts what it took."""

    index: Index
    profiles: list[IndexedProfile]
    known: dict[str, str]
    batch: int
    failures: list[Failure]
    left_out: list[LeftOut]
    merger: Merger | None = None
    pending: list[Prepared] = field(default_factory=list)
    added: int = 0
    replaced: int = 0
    skipped: int = 0

    def take(self, result: Prepared | Failure | Skipped | LeftOut) -> None:
        if isinstance(result, Failure):
            self.failures.append(result)
        elif isinstance(result, LeftOut):
            self.left_out.append(result)
        elif isinstance(result, Skipped):
            self.skipped += 1
        else:
            self.pending.append(result)
            if len(self.pending) >= self.batch:
                self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        self.index.write_batch(self.pending, self.profiles)
        if self.merger is not None:
            self.merger.poke()
        self.replaced += sum(1 for doc in self.pending if doc.source in self.known)
        self.added += sum(1 for doc in self.pending if doc.source not in self.known)
        self.pending.clear()


def add_sources(
    index: Index,
    sources: Sequence[str],
    rules: IndexRules = IndexRules(),
    settings: AddSettings = AddSettings(),
    *,
    on_progress: Callable[[Progress], None] | None = None,
) -> AddReport:
    """Add every document the SOURCE arguments name, ``settings.batch`` documents a
    transaction.

    Rules not given are the index's own (see :func:`index_rules`).  A failing source is
    reported and the others still go in; a crash loses at most the batch being written, and
    running the same command again finishes the rest.  The sources are read as the add goes:
    only the documents in flight (about a batch, see :func:`~canon.index.prepare.prepare_all`),
    the batch being written and the names of the sources seen are held, so a corpus of any
    size is added in bounded memory; a source named twice is read once, at its first entry.
    ``on_progress`` is called after each item (its ``total`` counted first, see
    :class:`Progress`).  Several processes may add to one index at once, a new one too.
    ``rules.sample`` or ``rules.winnow`` thin a new index's postings.  With
    ``settings.store_text`` (the default) the index keeps each document's main text,
    compressed, so a check can show the source's passages beside the draft's.  With
    ``settings.merge`` (the default) the postings segments are merged in a background thread
    as batches come in (see :mod:`canon.index.merging`); the add returns once the merges due
    are done.
    """
    start = time.perf_counter()
    rules = index_rules(index, rules)
    indexed = index.use_profiles(*rules.values())
    failures: list[Failure] = []
    items = _Entries(sources, failures)
    merger = Merger(index.path) if settings.merge else None
    writer = _Writer(index, indexed, index.content_hashes(), settings.batch, failures,
                     items.left_out, merger)  # fmt: skip
    progress = _Counting(on_progress, items, start)

    try:
        _run(writer, items, rules, settings, progress)
    except BaseException:
        if merger is not None:
            merger.abandon()  # the error raised says more than a merge's would
        raise
    if merger is not None:
        merger.finish()
    seconds = time.perf_counter() - start
    return AddReport(writer.added, writer.replaced, writer.skipped, tuple(failures), seconds,
                     tuple(items.left_out))  # fmt: skip


def _run(
    writer: _Writer,
    items: Iterable[Item],
    rules: IndexRules,
    settings: AddSettings,
    progress: _Counting,
) -> None:
    first = writer.profiles[0]  # the thinning registered: the index's own, or the one given
    rules = IndexRules(rules.profiles, rules.k, rules.step, first.sample, first.winnow)
    # The workers go on while a batch is written.
    results = prepare_all(items, rules, settings, known=writer.known, ahead=writer.batch)
    done = 0
    for result in results:
        writer.take(result)
        done += 1
        progress(done)
    writer.flush()
    progress(done, end=True)
