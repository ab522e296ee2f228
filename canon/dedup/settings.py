"""The settings of a dedup run, each validated once: MinHash and LSH, and how sources are read."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import OptionError
from ..lsh import optimal_bands
from ..profile import Profile, get_profile
from ..sources.fetch import FetchOptions

__all__ = ["MinHashSettings", "Reading"]


@dataclass(frozen=True)
class MinHashSettings:
    """Jaccard ``threshold`` in (0, 1], signature length ``num_perm`` and ``seed``; the LSH
    banding follows from the threshold."""

    threshold: float = 0.8
    num_perm: int = 128
    seed: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.threshold <= 1:
            raise OptionError(
                "threshold", f"must be in (0, 1], got {self.threshold}", value=self.threshold
            )
        if type(self.num_perm) is not int or self.num_perm < 1:
            raise OptionError(
                "num_perm",
                f"must be a positive integer, got {self.num_perm!r}",
                value=self.num_perm,
            )
        if type(self.seed) is not int or self.seed < 0:
            raise OptionError("seed", f"must be 0 or more, got {self.seed!r}", value=self.seed)

    @property
    def banding(self) -> tuple[int, int]:
        """``(bands, rows)`` for the threshold."""
        return optimal_bands(self.threshold, self.num_perm)


@dataclass(frozen=True)
class Reading:
    """How sources become shingle sets: one profile, shingles of ``k`` words."""

    profile: Profile = field(default_factory=lambda: get_profile("lemma"))
    k: int = 4
    whole_page: bool = False
    fetch_options: FetchOptions = field(default_factory=FetchOptions)
