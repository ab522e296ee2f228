"""Shared fragments → runs of one level over the text as the user wrote it, with twin ids.

``EXACT`` where a word-for-word profile (:attr:`canon.Profile.word_for_word`) found shared
shingles, ``REWRITE`` where only a normalizing one (lemmas, stems) did.  On a comparison each
marked run may also carry *twin ids*: one id per shared shingle and profile, equal in both
texts, so a page can point from a fragment to its twin on the other side.  Both come from
sweeps over sorted boundaries, O((text + marks) log marks), never a scan of every window for
every mark.  Fragments come from the :class:`~canon.Canonical` forms that
:func:`~canon.compare_table` kept (``table.canonicals``): nothing is canonicalized again.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from ...canonical import Canonical, Fragment
from ...comparison import Comparison, Table, shared_fragments
from ...profile import Profile
from ...uniqueness.against_index import CheckResult

__all__ = [
    "EXACT",
    "REWRITE",
    "Groups",
    "Level",
    "Run",
    "Window",
    "check_runs",
    "compare_runs",
    "fragment_groups",
    "fragment_k",
    "level_runs",
    "runs_of",
    "shared_windows",
    "twin_ids",
]


class Level(IntEnum):
    """How a character of a text is shared; a higher level wins where marks overlap."""

    PLAIN = 0
    REWRITE = 1
    EXACT = 2


EXACT, REWRITE = Level.EXACT, Level.REWRITE
_KINDS = {Level.EXACT: "exact", Level.REWRITE: "rewrite"}

Groups = Sequence[tuple[bool, Sequence[Fragment]]]
"""``(word_for_word, fragments)`` per profile: the marks of one text."""

Window = tuple[int, int, str]
"""``(start, end, id)``: the characters of one shared shingle and its twin id."""


@dataclass(frozen=True)
class Run:
    """Characters ``[start, end)`` of a text at one level; ``twins`` are the ids of the
    shared shingles that overlap it (a comparison's marks only)."""

    start: int
    end: int
    level: Level
    text: str
    twins: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        """``exact``, ``rewrite`` or ``""`` (not marked): the CSS class of a mark."""
        return _KINDS.get(self.level, "")


def _extend(runs: list[tuple[int, int, Level]], start: int, end: int, level: Level) -> None:
    if start >= end:
        return
    if runs and runs[-1][2] == level and runs[-1][1] == start:
        runs[-1] = (runs[-1][0], end, level)
    else:
        runs.append((start, end, level))


def level_runs(length: int, groups: Groups) -> list[tuple[int, int, Level]]:
    """Maximal ``(start, end, level)`` runs that tile ``[0, length)``: ``EXACT`` where a
    word-for-word group covers a character, else ``REWRITE`` where any group does, else
    ``PLAIN``.  A sweep over the sorted fragment boundaries."""
    events: list[tuple[int, Level, int]] = []
    for exact, fragments in groups:
        level = EXACT if exact else REWRITE
        for fragment in fragments:
            start, end = max(fragment.start, 0), min(fragment.end, length)
            if start < end:
                events += [(start, level, 1), (end, level, -1)]
    events.sort()
    cover = {EXACT: 0, REWRITE: 0}
    runs: list[tuple[int, int, Level]] = []
    position, current = 0, Level.PLAIN
    for at, level, delta in events:
        _extend(runs, position, at, current)
        position = max(position, at)
        cover[level] += delta
        current = EXACT if cover[EXACT] else REWRITE if cover[REWRITE] else Level.PLAIN
    _extend(runs, position, length, current)
    return runs


def twin_ids(bounds: Sequence[tuple[int, int]], windows: Iterable[Window]) -> list[tuple[str, ...]]:
    """For each of the ascending, disjoint ranges ``bounds``, the sorted distinct ids of the
    windows ``(start, end, id)`` that overlap it (``start < range end`` and ``end > range
    start``).  Each window finds its first range by bisection and walks only the ranges it
    overlaps: O(windows · log ranges + output)."""
    ends = [end for _, end in bounds]
    found: list[set[str]] = [set() for _ in bounds]
    for start, end, name in windows:
        i = bisect_right(ends, start)
        while i < len(bounds) and bounds[i][0] < end:
            found[i].add(name)
            i += 1
    return [tuple(sorted(names)) for names in found]


def runs_of(text: str, groups: Groups, windows: Iterable[Window] | None = None) -> tuple[Run, ...]:
    """``text`` cut into runs of one level; with ``windows``, each mark carries twin ids."""
    runs = level_runs(len(text), groups)
    marked = [(start, end) for start, end, level in runs if level]
    twins = iter(twin_ids(marked, windows) if windows is not None else ())
    return tuple(
        Run(start, end, level, text[start:end], next(twins, ()) if level else ())
        for start, end, level in runs
    )


def check_runs(result: CheckResult, windows: Iterable[Window] | None = None) -> tuple[Run, ...]:
    """The draft of a check cut into runs: copied word for word, rewritten, or unique, as
    the verdict counted them; with ``windows``, each mark carries their ids."""
    verdict = result.verdict
    if verdict is None:
        groups: Groups = [(p.word_for_word, p.fragments) for p in result.profiles]
    else:
        groups = [(True, verdict.copied_fragments), (False, verdict.rewritten_fragments)]
    return runs_of(result.text, groups, windows)


def fragment_k(table: Table) -> int:
    """The smallest k every profile of ``table`` could measure (else its first k)."""
    return next(
        (
            k
            for k in table.ks
            if all(isinstance(table.cell(p.name, k), Comparison) for p in table.profiles)
        ),
        table.ks[0],
    )


def _sides(table: Table, k: int) -> list[tuple[Profile, Canonical, Canonical]]:
    """The profiles whose two canonical forms both have ``k`` words, with those forms."""
    sides = []
    for profile in table.profiles:
        first, second = table.canonicals[profile.name]
        if len(first) >= k and len(second) >= k:
            sides.append((profile, first, second))
    return sides


def fragment_groups(table: Table, k: int) -> tuple[list[tuple[bool, tuple[Fragment, ...]]], ...]:
    """The shared fragments of each text at ``k``, one ``(word_for_word, fragments)`` group
    per profile, from the canonical forms the table kept."""
    groups: tuple[list[tuple[bool, tuple[Fragment, ...]]], ...] = ([], [])
    for profile, first, second in _sides(table, k):
        for side, fragments in zip(groups, shared_fragments(first, second, k)):
            side.append((profile.word_for_word, fragments))
    return groups


def shared_windows(
    first: Canonical, second: Canonical, k: int, prefix: str
) -> tuple[list[Window], list[Window]]:
    """The k-word windows the two texts share, as ``(start, end, id)`` character ranges of
    each text; a shingle's id is ``prefix-n`` (n its rank among the shared shingles), the same
    on both sides."""
    keys = [[tuple(c.tokens[i : i + k]) for i in range(len(c) - k + 1)] for c in (first, second)]
    common = sorted(set(keys[0]) & set(keys[1]))
    ids = {window: f"{prefix}-{n}" for n, window in enumerate(common)}
    own, theirs = (
        [(c.spans[i][0], c.spans[i + k - 1][1], ids[w]) for i, w in enumerate(ws) if w in ids]
        for c, ws in zip((first, second), keys)
    )
    return own, theirs


def compare_runs(
    table: Table, texts: Sequence[str], k: int, *, twins: bool = False
) -> tuple[tuple[Run, ...], tuple[Run, ...]]:
    """Both texts of a comparison cut into runs at ``k``; with ``twins``, every mark carries
    the ids of the shared shingles it covers."""
    groups = fragment_groups(table, k)
    if not twins:
        return runs_of(texts[0], groups[0]), runs_of(texts[1], groups[1])
    windows: tuple[list[Window], list[Window]] = ([], [])
    for profile, first, second in _sides(table, k):
        for side, found in zip(windows, shared_windows(first, second, k, profile.name)):
            side.extend(found)
    return runs_of(texts[0], groups[0], windows[0]), runs_of(texts[1], groups[1], windows[1])
