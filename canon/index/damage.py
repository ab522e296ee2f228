"""A damaged index → one IndexFileError that says what is damaged and what to do about it.

Every refusal of a segment or a manifest that does not hold what it should (a checksum that
does not match, a document id out of range, a segment's row lost) goes through
:func:`damaged`, so each says it alike: the index file, the damage, and what to do — build a
new index from its sources, and list every other problem by verifying the index (``remedy``
``verify``, which the command line names).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import IndexFileError

__all__ = ["REMEDY", "damaged"]

REMEDY = "verify"  # the index is to be verified whole: IndexFileError.remedy


def damaged(path: Path, what: str) -> IndexFileError:
    """The error for an index at ``path`` whose segments or manifest are damaged as ``what``
    says (one line, naming the file at fault)."""
    return IndexFileError(
        f"{path}: is damaged: {what}; build a new index from its sources, and list all that "
        "is damaged",
        path=path,
        reason="corrupt",
        remedy=REMEDY,
    )
