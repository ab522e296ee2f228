"""The rules an index is built with: its profile registry, registered once, read back and checked.

Every index keeps, for each of its profiles, the fingerprint, the settings, k, step, the rule that
thins its shingles and the MinHash/LSH settings of its signatures.  The thinning rule is one of:
every shingle; mod-m sampling (the shingles whose hash is 0 modulo m); winnowing with window w
(:mod:`canon.fingerprints.winnowing`).  Its column, ``profiles.sample``, holds m for sampling (1:
every shingle) and −w for winnowing.  :func:`kept_windows` applies the rule to a text's windows, the
same way for a document added and for a draft checked.

The first add registers them in one ``BEGIN IMMEDIATE`` transaction that reads the registry
again under the write lock, so two adds starting on a new index agree on one registry; every
later add must ask for the same rules, or it is refused with both sets of rules named.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import IndexFileError, OptionError
from ..fingerprints.lsh import optimal_bands
from ..fingerprints.winnowing import winnowed
from ..profile import Profile
from .connection import transaction

__all__ = [
    "LSH_THRESHOLD",
    "NUM_PERM",
    "SEED",
    "IndexedProfile",
    "check_thinning",
    "kept_windows",
    "mismatch",
    "profile_of",
    "read_profiles",
    "register_profiles",
]

# MinHash settings of every index: signatures of 128 values, and LSH bands chosen for Jaccard
# 0.5, so that a query for any threshold from 0.5 up finds its near-duplicates among the
# candidates with high probability (each is then verified exactly).
NUM_PERM = 128
SEED = 1
LSH_THRESHOLD = 0.5


@dataclass(frozen=True)
class IndexedProfile:
    id: int
    name: str
    fingerprint: str
    k: int
    step: int
    settings: str
    num_perm: int = NUM_PERM
    seed: int = SEED
    bands: int = 1
    rows: int = NUM_PERM
    sample: int = 1  # only shingles whose hash is 0 modulo this are kept
    winnow: int = 1  # only the smallest hash of every window of this many shingles is kept

    def kept(self, hashes: np.ndarray) -> np.ndarray:
        """Which of a text's window hashes (in text order) this profile's index keeps."""
        return kept_windows(hashes, self.sample, self.winnow)


def kept_windows(hashes: np.ndarray, sample: int = 1, winnow: int = 1) -> np.ndarray:
    """Which of a text's window hashes (in text order) an index thinned by mod-``sample``
    sampling or by winnowing with window ``winnow`` keeps, as a mask: every window whose hash
    is kept.  The one rule both sides apply: the document added and the draft checked."""
    if winnow > 1:
        return winnowed(hashes, winnow)
    if sample > 1:
        sampled: np.ndarray = hashes % np.uint64(sample) == 0
        return sampled
    return np.ones(len(hashes), dtype=bool)


def check_thinning(step: int, sample: int, winnow: int) -> None:
    """Refuse a sampling modulus or a winnowing window out of range, or the two together."""
    if type(sample) is not int or sample < 1:
        raise OptionError("sample", f"must be a positive integer, got {sample}", value=sample)
    if type(winnow) is not int or winnow < 1:
        raise OptionError("winnow", f"must be a positive integer, got {winnow}", value=winnow)
    if winnow > 1 and sample > 1:
        raise OptionError(
            "winnow",
            "cannot be combined with sampling: sampling would drop the minimums winnowing "
            "keeps, and with them its guarantee; choose one",
            value=winnow,
        )
    if winnow > 1 and step != 1:
        raise OptionError(
            "winnow",
            f"needs shingles at every word (step 1, got {step}): its guarantee holds for "
            "consecutive shingles",
            value=winnow,
        )


def _column(sample: int, winnow: int) -> int:
    return -winnow if winnow > 1 else sample


def read_profiles(db: sqlite3.Connection) -> list[IndexedProfile]:
    rows: list[tuple[int, str, str, int, int, str, int, int, int, int, int]] = db.execute(
        "SELECT id, name, fingerprint, k, step, settings, num_perm, seed, bands, rows, "
        "sample FROM profiles ORDER BY id"
    ).fetchall()
    return [
        IndexedProfile(*row[:-1], sample=max(row[-1], 1), winnow=max(-row[-1], 1)) for row in rows
    ]


def _rules(k: int, step: int, sample: int, winnow: int = 1) -> str:
    extra = (
        (f", step={step}" if step != 1 else "")
        + (f", sample 1/{sample}" if sample != 1 else "")
        + (f", winnow w={winnow}" if winnow != 1 else "")
    )
    return f"k={k}{extra}"


def mismatch(
    path: Path,
    built: Sequence[IndexedProfile],
    asked: Sequence[Profile],
    k: int,
    step: int,
    sample: int,
    winnow: int = 1,
) -> str:
    """The refusal of rules other than the index's: what it was built with, what was asked."""
    have = ", ".join(
        f"{p.name} ({p.fingerprint}, {_rules(p.k, p.step, p.sample, p.winnow)})" for p in built
    )
    wanted = ", ".join(
        f"{p.name} ({p.fingerprint}, {_rules(k, step, sample, winnow)})" for p in asked
    )
    return (
        f"{path}: the index was built with {have}; this asks for {wanted}: "
        "use the index's rules or a new index"
    )


def _matching(
    path: Path,
    built: list[IndexedProfile],
    profiles: Sequence[Profile],
    k: int,
    step: int,
    sample: int,
    winnow: int,
) -> list[IndexedProfile]:
    """The index's entries for ``profiles``, or a refusal if it was built otherwise."""
    known = {p.fingerprint: p for p in built}
    missing = [p for p in profiles if p.fingerprint not in known]
    rules = {
        (known[f].k, known[f].step, known[f].sample, known[f].winnow)
        for f in (p.fingerprint for p in profiles)
        if f in known
    }
    if missing or rules - {(k, step, sample, winnow)}:
        message = mismatch(path, built, missing or profiles, k, step, sample, winnow)
        raise IndexFileError(message, path=path, reason="rules")
    return [known[p.fingerprint] for p in profiles]


def _insert(
    db: sqlite3.Connection, profiles: Sequence[Profile], k: int, step: int, column: int
) -> None:
    bands, rows = optimal_bands(LSH_THRESHOLD, NUM_PERM)
    db.executemany(
        "INSERT INTO profiles (name, fingerprint, settings, k, step, num_perm, seed, "
        "bands, rows, sample) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [
            (
                p.name,
                p.fingerprint,
                json.dumps(p.settings()),
                k,
                step,
                NUM_PERM,
                SEED,
                bands,
                rows,
                column,
            )
            for p in profiles
        ],
    )


def register_profiles(
    db: sqlite3.Connection,
    path: Path,
    profiles: Sequence[Profile],
    k: int,
    step: int,
    sample: int = 1,
    winnow: int = 1,
) -> list[IndexedProfile]:
    """Register ``profiles`` in a new index, or check that an index was built with them.

    ``sample`` > 1 keeps only the shingles whose hash is 0 modulo ``sample`` (Broder's
    mod-m sampling); ``winnow`` > 1 only the smallest hash of every ``winnow`` consecutive
    shingles (robust winnowing), which still finds every shared run of ``winnow + k - 1``
    words.  Safe under concurrent writers: the registry is read again, and written only if
    still empty, inside one write transaction.
    """
    check_thinning(step, sample, winnow)
    built = read_profiles(db)
    if built:  # a registry never changes once written: no lock needed to check against it
        return _matching(path, built, profiles, k, step, sample, winnow)
    with transaction(db, path):
        built = read_profiles(db)
        if not built:
            _insert(db, profiles, k, step, _column(sample, winnow))
    if built:
        return _matching(path, built, profiles, k, step, sample, winnow)
    return read_profiles(db)


def profile_of(indexed: IndexedProfile) -> Profile:
    """The Profile an index stored, checked against its fingerprint."""
    try:
        profile = Profile(name=indexed.name, **json.loads(indexed.settings))
    except (ValueError, TypeError) as exc:  # a settings text no canon wrote
        raise IndexFileError(
            f"the index's profile {indexed.name} has settings this canon cannot read ({exc}): "
            "rebuild the index",
            reason="rules",
        ) from exc
    if profile.fingerprint != indexed.fingerprint:
        raise IndexFileError(
            f"the index's profile {indexed.name} has fingerprint {indexed.fingerprint}, but the "
            f"same rules give {profile.fingerprint} here (another dictionary or word list "
            "version): rebuild the index",
            reason="rules",
        )
    return profile
