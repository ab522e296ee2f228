"""The settings of a dedup run, each validated once: MinHash and LSH, how sources are read, and
the memory the shingle sets may take."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OptionError
from ..fingerprints.lsh import optimal_bands
from ..profile import Profile, get_profile
from ..sources.fetch import FetchOptions

__all__ = ["DEFAULT_MEMORY", "Budget", "MinHashSettings", "Reading", "parse_size"]


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


_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}  # fmt: skip
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*")
DEFAULT_MEMORY = 4 * 10**9  # 4GB


def parse_size(text: str) -> int:
    """Bytes from a size such as ``4GB``, ``500MB``, ``1.5GiB`` or ``0`` (decimal units KB, MB,
    GB, TB; binary KiB, MiB, GiB, TiB; a bare number is bytes)."""
    match = _SIZE.fullmatch(text)
    unit = match.group(2).upper() if match else ""
    if match is None or unit not in _UNITS:
        raise OptionError(
            "memory",
            f"must be a size such as 4GB, 500MB or 0, got {text!r}",
            value=text,
        )
    return int(float(match.group(1)) * _UNITS[unit])


@dataclass(frozen=True)
class Budget:
    """How much memory the run's shingle sets may take (``memory`` bytes; 0: all on disk), and
    where the rest spills (``spill_dir``; default: the system's temporary directory)."""

    memory: int = DEFAULT_MEMORY
    spill_dir: Path | None = None

    def __post_init__(self) -> None:
        if type(self.memory) is not int or self.memory < 0:
            raise OptionError(
                "memory", f"must be a number of bytes, 0 or more, got {self.memory!r}",
                value=self.memory,
            )  # fmt: skip
        if self.spill_dir is not None:
            folder = Path(self.spill_dir)
            if not folder.is_dir():
                raise OptionError(
                    "spill_dir", f"must be an existing directory, got {str(folder)!r}",
                    value=self.spill_dir,
                )  # fmt: skip
            if not os.access(folder, os.W_OK | os.X_OK):
                raise OptionError(
                    "spill_dir",
                    f"must be a directory this process can write to, got {str(folder)!r}",
                    value=self.spill_dir,
                )
