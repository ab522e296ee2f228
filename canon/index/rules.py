"""The rules an index is built with: its profile registry, registered once, read back and checked.

Every index keeps, for each of its profiles, the fingerprint, the settings, k, step, sampling
and the MinHash/LSH settings of its signatures.  The first add registers them in one
``BEGIN IMMEDIATE`` transaction that reads the registry again under the write lock, so two
adds starting on a new index agree on one registry; every later add must ask for the same
rules, or it is refused with both sets of rules named.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import IndexFileError, OptionError
from ..lsh import optimal_bands
from ..profile import Profile
from .connection import transaction

__all__ = [
    "LSH_THRESHOLD",
    "NUM_PERM",
    "SEED",
    "IndexedProfile",
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


def read_profiles(db: sqlite3.Connection) -> list[IndexedProfile]:
    rows = db.execute(
        "SELECT id, name, fingerprint, k, step, settings, num_perm, seed, bands, rows, "
        "sample FROM profiles ORDER BY id"
    ).fetchall()
    return [IndexedProfile(*row) for row in rows]


def _rules(k: int, step: int, sample: int) -> str:
    extra = (f", step={step}" if step != 1 else "") + (
        f", sample 1/{sample}" if sample != 1 else ""
    )
    return f"k={k}{extra}"


def mismatch(
    path: Path,
    built: Sequence[IndexedProfile],
    asked: Sequence[Profile],
    k: int,
    step: int,
    sample: int,
) -> str:
    """The refusal of rules other than the index's: what it was built with, what was asked."""
    have = ", ".join(f"{p.name} ({p.fingerprint}, {_rules(p.k, p.step, p.sample)})" for p in built)
    wanted = ", ".join(f"{p.name} ({p.fingerprint}, {_rules(k, step, sample)})" for p in asked)
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
) -> list[IndexedProfile]:
    """The index's entries for ``profiles``, or a refusal if it was built otherwise."""
    known = {p.fingerprint: p for p in built}
    missing = [p for p in profiles if p.fingerprint not in known]
    rules = {
        (known[p.fingerprint].k, known[p.fingerprint].step, known[p.fingerprint].sample)
        for p in profiles
        if p.fingerprint in known
    }
    if missing or rules - {(k, step, sample)}:
        message = mismatch(path, built, missing or profiles, k, step, sample)
        raise IndexFileError(message, path=path, reason="rules")
    return [known[p.fingerprint] for p in profiles]


def _insert(
    db: sqlite3.Connection, profiles: Sequence[Profile], k: int, step: int, sample: int
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
                sample,
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
) -> list[IndexedProfile]:
    """Register ``profiles`` in a new index, or check that an index was built with them.

    ``sample`` > 1 keeps only the shingles whose hash is 0 modulo ``sample`` (Broder's
    mod-m sampling).  Safe under concurrent writers: the registry is read again, and written
    only if still empty, inside one write transaction.
    """
    if type(sample) is not int or sample < 1:
        raise OptionError("sample", f"must be a positive integer, got {sample}", value=sample)
    built = read_profiles(db)
    if built:  # a registry never changes once written: no lock needed to check against it
        return _matching(path, built, profiles, k, step, sample)
    with transaction(db, path):
        built = read_profiles(db)
        if not built:
            _insert(db, profiles, k, step, sample)
    if built:
        return _matching(path, built, profiles, k, step, sample)
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
