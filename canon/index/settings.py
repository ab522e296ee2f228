"""The settings of an add: the rules of the index's postings, and how sources are read and
written.

The rules themselves (a k of 1 or more, a known sampling) are checked where they are
registered, against the index's own (:meth:`canon.index.store.Index.use_profiles`); how an add
runs is validated here, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import OptionError
from ..profile import Profile, get_profile
from ..sources.fetch import FetchOptions

__all__ = ["DEFAULT_K", "DEFAULT_PROFILES", "AddSettings", "IndexRules"]

DEFAULT_PROFILES = ("raw", "lemma")
DEFAULT_K = 4


@dataclass(frozen=True)
class IndexRules:
    """The rules of an index's postings: ``profiles``, shingles of ``k`` words every ``step``
    words, thinned by ``sample`` (mod-m sampling: a shingle kept when its hash is 0 modulo
    ``sample``) or ``winnow`` (winnowing's window).  A rule left None is the index's own
    (:func:`canon.index.ingest.index_rules`), or for a new index its default: raw and lemma,
    k=4, step 1, every shingle kept."""

    profiles: Sequence[Profile] | None = None
    k: int | None = None
    step: int | None = None
    sample: int | None = None
    winnow: int | None = None

    def __post_init__(self) -> None:
        if self.profiles is not None:
            object.__setattr__(self, "profiles", tuple(self.profiles))

    @property
    def chosen(self) -> tuple[Profile, ...]:
        """The profiles, or the defaults when none is given."""
        if self.profiles is not None:
            return tuple(self.profiles)
        return tuple(get_profile(name) for name in DEFAULT_PROFILES)

    def values(self) -> tuple[tuple[Profile, ...], int, int, int, int]:
        """``(profiles, k, step, sample, winnow)``, each rule not given at its default."""
        return (
            self.chosen,
            DEFAULT_K if self.k is None else self.k,
            1 if self.step is None else self.step,
            1 if self.sample is None else self.sample,
            1 if self.winnow is None else self.winnow,
        )


@dataclass(frozen=True)
class AddSettings:
    """How an add reads and writes: pages' main text (or the ``whole_page``) fetched under
    ``fetch_options``, in ``workers`` processes, ``batch`` documents a transaction; with
    ``store_text`` the index keeps each document's main text, compressed, so a check can show
    the source's passages beside the draft's; with ``merge`` the postings segments are merged
    in a background thread as batches come in (:mod:`canon.index.merging`).  A text with
    fewer words than k is left out and reported (a headline, a caption); with ``strict`` it
    is a failure."""

    whole_page: bool = False
    fetch_options: FetchOptions = field(default_factory=FetchOptions)
    workers: int = 1
    batch: int = 500
    store_text: bool = True
    merge: bool = True
    strict: bool = False

    def __post_init__(self) -> None:
        for option in ("workers", "batch"):
            value = getattr(self, option)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise OptionError(
                    option, f"must be a whole number, 1 or more, got {value}", value=value
                )
