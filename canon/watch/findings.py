"""A web check of a page → the copies it found: each source's share of the page and whether
it copies it word for word or rewrites it.

A source's share is the part of the page's characters its fragments cover, under the profile
where it covers most; it is ``copied`` when the word-for-word profile (``raw``) covers at least
half of that, else ``rewritten``.  Sources are keyed by their normalized URL, so one page
found under two forms of its address is one copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..canonical import Fragment
from ..uniqueness.web import WebCheck, normalized_url
from .own import Ownership

__all__ = ["WORD_FOR_WORD", "Found", "found_in", "merged", "unreached"]

WORD_FOR_WORD = "raw"  # the profile whose matches are copied word for word


@dataclass(frozen=True)
class Found:
    """A copy found by one check: its normalized URL, share of the page, kind, and the
    characters ``[start, end)`` of the page it holds (under any profile, merged)."""

    url: str
    share: float
    kind: str
    spans: tuple[tuple[int, int], ...] = ()


def merged(fragments: Iterable[Fragment]) -> tuple[tuple[int, int], ...]:
    """The characters the fragments cover, as ``[start, end)`` runs that neither overlap
    nor touch, in order."""
    runs: list[list[int]] = []
    for f in sorted(fragments, key=lambda f: f.start):
        if runs and f.start <= runs[-1][1]:
            runs[-1][1] = max(runs[-1][1], f.end)
        elif f.end > f.start:
            runs.append([f.start, f.end])
    return tuple((start, end) for start, end in runs)


def _covered(fragments: Iterable[Fragment]) -> int:
    """Characters covered by the fragments, overlaps counted once."""
    return sum(end - start for start, end in merged(fragments))


def found_in(check: WebCheck, chars: int, own: Ownership) -> dict[str, Found]:
    """The copies ``check`` found of a page of ``chars`` characters, never the page's own."""
    by_profile: dict[str, dict[str, list[Fragment]]] = {}
    for profile in check.result.profiles:
        name = profile.profile.removesuffix(" (web)")
        for match in profile.sources:
            if own.excludes(match.source):
                continue
            url = normalized_url(match.source)
            by_profile.setdefault(url, {}).setdefault(name, []).extend(match.fragments)
    found: dict[str, Found] = {}
    for url, profiles in by_profile.items():
        shares = {name: _covered(f) / max(1, chars) for name, f in profiles.items()}
        best = max(shares.values())
        if best <= 0:
            continue
        kind = "copied" if shares.get(WORD_FOR_WORD, 0.0) >= best / 2 else "rewritten"
        spans = merged(f for fragments in profiles.values() for f in fragments)
        found[url] = Found(url, round(best, 4), kind, spans)
    return found


def unreached(check: WebCheck) -> frozenset[str]:
    """The pages found whose fetch failed: a copy among them is not known to be gone."""
    return frozenset(normalized_url(p.url) for p in check.pages if p.status == "failed")
