"""The canonical form's version: what the text code makes of a text, as one number.

Bumped whenever the code changes what a profile produces, so stored fingerprints change too:
a profile's fingerprint and the persisted lemma cache both carry it.
"""

from __future__ import annotations

__all__ = ["CANONICAL_FORM_VERSION"]

CANONICAL_FORM_VERSION = 9  # 9: sentences split as read; spaced words parted by the dictionary
