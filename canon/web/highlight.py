"""Shared fragments as HTML marks that know their twins in the other text.

The marks are those of :func:`canon.report.html.highlighted` (the same levels and escaping);
each also carries ``data-shingles``: ids of the shared shingles it covers, one id per shingle
and profile, equal in both texts, so a click can find the twin fragment on the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..canonical import Canonical, Fragment, canonicalize
from ..comparison import Comparison, Table, shared_fragments
from ..report.html import highlighted
from ..sources.documents import Document

__all__ = ["fragment_k", "twin_marked"]

Groups = list[tuple[bool, Sequence[Fragment]]]
Windows = list[tuple[int, int, str]]


def fragment_k(table: Table) -> int:
    """The smallest k every profile could measure (as in the HTML report)."""
    return next(
        (
            k
            for k in table.ks
            if all(isinstance(table.cell(p.name, k), Comparison) for p in table.profiles)
        ),
        table.ks[0],
    )


def _windows(side: Canonical, k: int) -> list[tuple[tuple[str, ...], int, int]]:
    return [
        (tuple(side.tokens[i : i + k]), side.spans[i][0], side.spans[i + k - 1][1])
        for i in range(len(side) - k + 1)
    ]


def _render(text: str, groups: Groups, windows: Windows) -> str:
    def shingle_ids(start: int, end: int) -> str:
        ids = " ".join(sorted({n for s, e, n in windows if s < end and e > start}))
        return f' data-shingles="{escape(ids)}"'

    return highlighted(text, groups, shingle_ids)


def twin_marked(table: Table, docs: Sequence[Document]) -> tuple[int, str, str]:
    """``(k, first_html, second_html)``: both texts, escaped, shared fragments marked."""
    k = fragment_k(table)
    groups: tuple[Groups, Groups] = ([], [])
    windows: tuple[Windows, Windows] = ([], [])
    for profile in table.profiles:
        a, b = (canonicalize(d.text, profile) for d in docs)
        if len(a) < k or len(b) < k:
            continue
        exact = profile.word_for_word
        for side, fragments in zip(groups, shared_fragments(a, b, k)):
            side.append((exact, fragments))
        wa, wb = _windows(a, k), _windows(b, k)
        common = sorted({w for w, _, _ in wa} & {w for w, _, _ in wb})
        ids = {w: f"{profile.name}-{n}" for n, w in enumerate(common)}
        for side, found in zip(windows, (wa, wb)):
            side.extend((s, e, ids[w]) for w, s, e in found if w in ids)
    first, second = (_render(d.text, g, w) for d, g, w in zip(docs, groups, windows))
    return k, first, second
