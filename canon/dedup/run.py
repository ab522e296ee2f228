"""One dedup run: an index's documents and SOURCE arguments in, clusters and failures out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..errors import OptionError
from ..sources.collection import Failure, Item, LeftOut, expand
from .local import LocalEngine
from .origin import Named
from .reading import TOO_SHORT
from .settings import MinHashSettings, Reading
from .stages import DedupResult, Entry

if TYPE_CHECKING:
    from .indexed import IndexDocuments

__all__ = ["DedupRun", "Engine", "dedup_corpus"]


class Engine(Protocol):
    """What runs the stages: :class:`~canon.dedup.local.LocalEngine` or
    :class:`~canon.dedup.dask.DaskEngine`."""

    def run(
        self,
        inputs: Iterable[Item | Entry],
        settings: MinHashSettings,
        reading: Reading,
        on_stage: Callable[[str], None],
    ) -> tuple[DedupResult, list[Failure]]: ...


@dataclass(frozen=True)
class DedupRun:
    result: DedupResult
    failures: tuple[Failure, ...]
    left_out: tuple[LeftOut, ...] = ()


def _named(
    sources: Sequence[str], failures: list[Failure], left_out: list[LeftOut]
) -> Iterator[Item]:
    """The items the SOURCE arguments name, each with its argument's number (from 1), read
    lazily: texts stream through the engine; what cannot be listed goes to ``failures``, a
    folder's file of a type canon does not read to ``left_out``."""
    for number, source in enumerate(sources, 1):
        for found in expand([source]):
            if isinstance(found, Failure):
                failures.append(found)
            elif isinstance(found, LeftOut):
                left_out.append(found)
            else:
                yield Named(found.source, found.text, found.html, number)


def dedup_corpus(
    sources: Sequence[str] = (),
    *,
    index: Path | None = None,
    settings: MinHashSettings | None = None,
    reading: Reading | None = None,
    engine: Engine | None = None,
    on_stage: Callable[[str], None] = lambda stage: None,
) -> DedupRun:
    """Near-duplicate clusters among the documents of ``index`` and those ``sources`` name.

    An index's documents come with their stored shingle sets, signatures and band keys (its
    profile of the reading's name, else its last); sources are read and shingled under
    ``reading``.  ``engine`` defaults to the local one.  Each cluster's representative is
    chosen by the rules of :mod:`canon.dedup.keep`.
    """
    if not sources and index is None:
        raise OptionError("sources", "are missing: give sources to deduplicate, or an index")
    settings = settings or MinHashSettings()
    reading = reading or Reading()
    failures: list[Failure] = []
    left_out: list[LeftOut] = []
    named = _named(sources, failures, left_out)
    engine = engine or LocalEngine()
    stored: IndexDocuments | None = None
    if index is not None:
        from .indexed import IndexDocuments  # the index package only when there is an index

        stored = IndexDocuments.choose(Path(index), reading.profile.name)
    if isinstance(engine, LocalEngine):
        result, failed = engine.run(named, settings, reading, on_stage, index=stored)
    else:
        inputs: Iterable[Item | Entry] = chain(stored.entries() if stored else (), named)
        result, failed = engine.run(inputs, settings, reading, on_stage)
    on_stage("")
    short = [LeftOut(f.source, TOO_SHORT) for f in failed if f.reason == TOO_SHORT]
    failed = [f for f in failed if f.reason != TOO_SHORT]
    return DedupRun(result, tuple(failures + failed), tuple(left_out + short))
