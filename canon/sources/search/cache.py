"""A provider's answers kept on disk: one JSON file a query, with the date it was asked.

An entry is keyed by the provider's identity (never its key) and the query, and written to
a temporary name and renamed, so a crash never leaves half an entry.  A damaged entry is
asked again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ...errors import OutputError
from .hits import Hit

__all__ = ["CachedAnswer", "QueryCache"]


@dataclass(frozen=True)
class CachedAnswer:
    hits: tuple[Hit, ...]
    date: str  # when the provider was asked (ISO 8601, UTC)


class QueryCache:
    """Answers of search providers under ``folder`` (its ``queries/`` subfolder)."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder) / "queries"

    def _path(self, identity: str, query: str, count: int) -> Path:
        key = f"{identity}\n{count}\n{query}".encode("utf-8", "surrogatepass")
        return self.folder / f"{hashlib.sha256(key).hexdigest()[:40]}.json"

    def get(self, identity: str, query: str, count: int) -> CachedAnswer | None:
        try:
            data = json.loads(self._path(identity, query, count).read_text("utf-8"))
            if data["provider"] != identity or data["query"] != query:
                return None
            hits = tuple(
                Hit(h["url"], h.get("title", ""), h.get("snippet", "")) for h in data["hits"]
            )
            return CachedAnswer(hits, str(data["date"]))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None

    def put(self, identity: str, query: str, count: int, hits: list[Hit]) -> str:
        """Keep an answer; its date."""
        date = datetime.now(UTC).isoformat(timespec="seconds")
        entry = {"provider": identity, "query": query, "count": count, "date": date}
        entry["hits"] = [h.to_dict() for h in hits]
        path = self._path(identity, query, count)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            temporary.write_text(json.dumps(entry, ensure_ascii=False), "utf-8")
            os.replace(temporary, path)
        except OSError as exc:
            raise OutputError(
                self.folder, f"cannot write the query cache ({exc.strerror or exc})"
            ) from None
        return date
