"""Records → plain data: the one way every result's ``to_dict`` is written.

A record is a frozen dataclass.  Its ``to_dict`` is ``record_dict(self)``: the fields in their
order, nested records through their own ``to_dict``, tuples as lists; derived values (a
property such as ``uniqueness``) are added by name, and fields that are not data (a whole
text) left out by name.  The same names appear in the Python API and in every ``--json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

__all__ = ["plain", "record_dict"]


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def record_dict(record: Any, *, exclude: Iterable[str] = (), **extra: Any) -> dict[str, Any]:
    """The fields of ``record`` (a dataclass) but ``exclude``, then ``extra``, as plain data."""
    skipped = set(exclude)
    data = {
        f.name: plain(getattr(record, f.name))
        for f in dataclasses.fields(record)
        if f.name not in skipped
    }
    data.update({name: plain(value) for name, value in extra.items()})
    return data
