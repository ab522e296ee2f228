"""Two texts → shared shingles and the metrics that name what they measure; the side-by-side table.

The measures are those of :mod:`canon.fingerprints.measures`; a :class:`Table` holds one
:class:`Comparison` per profile and k, and keeps each text's :class:`Canonical` per profile so
that reports draw their highlights without canonicalizing again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .canonical import Canonical, Fragment, canonicalize
from .errors import ProfileError, TextTooShort
from .fingerprints.measures import compare_sets
from .fingerprints.shingles import shingles, window_count
from .profile import Profile, get_profile
from .records import plain, record_dict
from .text.tokenize import Fold

__all__ = [
    "Comparison",
    "Table",
    "TooShort",
    "compare",
    "compare_table",
    "shared_fragments",
]


@dataclass(frozen=True)
class Comparison:
    """The metrics of two shingle sets, and the rules that produced them."""

    profile: str
    fingerprint: str
    k: int
    step: int
    first_words: int
    second_words: int
    first_shingles: int
    second_shingles: int
    common: int
    jaccard: float
    dice: float
    containment_first: float
    containment_second: float
    first_folds: tuple[Fold, ...] = ()
    second_folds: tuple[Fold, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class TooShort:
    """A table cell for a k larger than one of the texts."""

    profile: str
    k: int
    first_words: int
    second_words: int
    message: str
    side: str = ""  # which text is too short

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self, exclude=["side"], too_short=True)


def shared_fragments(
    first: Canonical, second: Canonical, k: int, step: int = 1
) -> tuple[tuple[Fragment, ...], tuple[Fragment, ...]]:
    """Where each text holds the shingles the two share, as character ranges of each text."""
    windows = [
        [tuple(c.tokens[i : i + k]) for i in range(0, window_count(len(c), k, step) * step, step)]
        for c in (first, second)
    ]
    common = set(windows[0]) & set(windows[1])
    own, theirs = (
        c.fragments([n * step for n, w in enumerate(ws) if w in common], k)
        for c, ws in zip((first, second), windows)
    )
    return own, theirs


def _pair(
    first: str | Canonical, second: str | Canonical, profile: Profile
) -> tuple[Canonical, Canonical]:
    sides = []
    for text in (first, second):
        if isinstance(text, Canonical):
            if text.fingerprint != profile.fingerprint:
                raise ProfileError(
                    f"a text canonicalized under profile {text.profile.name} "
                    f"({text.fingerprint}) cannot be compared under {profile.name} "
                    f"({profile.fingerprint}): canonicalize both with one profile"
                )
            sides.append(text)
        else:
            sides.append(canonicalize(text, profile))
    return sides[0], sides[1]


_LABELS = ("first text", "second text")


def _measure(
    a: Canonical, b: Canonical, k: int, step: int, labels: tuple[str, str] = _LABELS
) -> Comparison:
    for label, side in zip(labels, (a, b)):
        if len(side) < k:
            raise TextTooShort(len(side), k, label)
    first, second = shingles(a.tokens, k, step), shingles(b.tokens, k, step)
    common, jaccard, dice, cont_a, cont_b = compare_sets(first, second)
    return Comparison(
        profile=a.profile.name,
        fingerprint=a.fingerprint,
        k=k,
        step=step,
        first_words=len(a),
        second_words=len(b),
        first_shingles=len(first),
        second_shingles=len(second),
        common=common,
        jaccard=jaccard,
        dice=dice,
        containment_first=cont_a,
        containment_second=cont_b,
        first_folds=a.folds,
        second_folds=b.folds,
    )


def compare(
    first: str | Canonical,
    second: str | Canonical,
    *,
    k: int = 3,
    profile: str | Profile = "lemma",
    step: int = 1,
) -> Comparison:
    """Compare two texts by their k-word shingles, both under the same ``profile``.

    Raises :class:`canon.TextTooShort` when either text has fewer than ``k`` canonical words.
    """
    chosen = get_profile(profile)
    a, b = _pair(first, second, chosen)
    return _measure(a, b, k, step)


@dataclass(frozen=True)
class Table:
    """Comparisons for every profile × k: ``cells[(profile_name, k)]``."""

    ks: tuple[int, ...]
    profiles: tuple[Profile, ...]
    cells: dict[tuple[str, int], Comparison | TooShort]
    words: dict[str, tuple[int, int]]
    folds: dict[str, tuple[tuple[Fold, ...], tuple[Fold, ...]]]
    canonicals: dict[str, tuple[Canonical, Canonical]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def cell(self, profile: str, k: int) -> Comparison | TooShort:
        return self.cells[(profile, k)]

    def require_measurable(self) -> Table:
        """This table, or :class:`TextTooShort` when no cell could be measured."""
        cells = list(self.cells.values())
        if any(isinstance(c, Comparison) for c in cells):
            return self
        short = cells[0]
        assert isinstance(short, TooShort)
        words = short.first_words if short.first_words < short.k else short.second_words
        raise TextTooShort(words, short.k, short.side, short.message)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ks": list(self.ks),
            "profiles": [
                {
                    "profile": p.name,
                    "fingerprint": p.fingerprint,
                    "settings": p.settings(),
                    "first_words": self.words[p.name][0],
                    "second_words": self.words[p.name][1],
                    "first_folds": plain(self.folds[p.name][0]),
                    "second_folds": plain(self.folds[p.name][1]),
                }
                for p in self.profiles
            ],
            "rows": [
                {
                    "k": k,
                    **{
                        p.name: {
                            key: value
                            for key, value in self.cells[(p.name, k)].to_dict().items()
                            if key not in ("first_folds", "second_folds")
                        }
                        for p in self.profiles
                    },
                }
                for k in self.ks
            ],
        }


def compare_table(
    first: str | Canonical,
    second: str | Canonical,
    ks: Iterable[int] = (3, 4, 5),
    profiles: Iterable[str | Profile] = ("raw", "lemma"),
    *,
    step: int = 1,
    labels: tuple[str, str] = _LABELS,
) -> Table:
    """Raw vs lemmatized (or any profiles) side by side for several k; each text is
    canonicalized once per profile.  A k longer than a text gives a :class:`TooShort` cell
    whose message names the text by ``labels``."""
    ks = tuple(ks)
    chosen = tuple(get_profile(p) for p in profiles)
    names = [p.name for p in chosen]
    if len(set(names)) != len(names):
        raise ProfileError(f"profile names repeat in {names}: give each profile its own name")
    cells: dict[tuple[str, int], Comparison | TooShort] = {}
    words: dict[str, tuple[int, int]] = {}
    folds: dict[str, tuple[tuple[Fold, ...], tuple[Fold, ...]]] = {}
    canonicals: dict[str, tuple[Canonical, Canonical]] = {}
    for profile in chosen:
        a, b = _pair(first, second, profile)
        canonicals[profile.name] = (a, b)
        words[profile.name] = (len(a), len(b))
        folds[profile.name] = (a.folds, b.folds)
        for k in ks:
            try:
                cells[(profile.name, k)] = _measure(a, b, k, step, labels)
            except TextTooShort as short:
                cell = TooShort(profile.name, k, len(a), len(b), str(short), short.side)
                cells[(profile.name, k)] = cell
    return Table(ks, chosen, cells, words, folds, canonicals)
