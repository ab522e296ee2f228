"""The rules an index was built with: its stored profiles, read back and checked."""

from __future__ import annotations

import json

from ..errors import IndexFileError
from ..profile import Profile
from .store import IndexedProfile

__all__ = ["profile_of"]


def profile_of(indexed: IndexedProfile) -> Profile:
    """The Profile an index stored, checked against its fingerprint."""
    profile = Profile(name=indexed.name, **json.loads(indexed.settings))
    if profile.fingerprint != indexed.fingerprint:
        raise IndexFileError(
            f"the index's profile {indexed.name} has fingerprint {indexed.fingerprint}, but the "
            f"same rules give {profile.fingerprint} here (another dictionary or word list "
            "version): rebuild the index",
            reason="rules",
        )
    return profile
