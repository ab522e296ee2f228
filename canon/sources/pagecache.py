"""A fetched response → a :class:`Page`, and pages kept on disk between runs.

A cache entry remembers whether the page came from a private address, so a run that refuses
private addresses is never handed a page that a run allowing them fetched.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import OutputError

__all__ = ["Page", "PageCache"]


@dataclass(frozen=True)
class Page:
    """A fetched response: where it ended up, what it declared, and its (decoded) body.

    ``private`` tells whether any hop of the fetch connected to a private address.
    """

    url: str
    final_url: str
    status: int
    media_type: str
    charset: str | None
    date: str
    body: bytes = field(repr=False)
    from_cache: bool = False
    private: bool = False


class PageCache:
    """Fetched pages on disk, keyed by URL; each entry keeps the response's date.

    An entry is a body file and a JSON file, each written to a temporary name and renamed, so
    a crash mid-write never leaves a half-written entry behind.
    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    def _paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:40]
        return self.folder / f"{key}.json", self.folder / f"{key}.body"

    def get(
        self, url: str, allow_private: bool = True, max_bytes: int | None = None
    ) -> Page | None:
        """The cached page of ``url``, or None: none kept, damaged, fetched from a private
        address when ``allow_private`` is off (entries that do not say count as private), or
        larger than ``max_bytes``."""
        meta_path, body_path = self._paths(url)
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            if not allow_private and meta.get("private", True) is not False:
                return None
            if max_bytes is not None and meta.get("size", 0) > max_bytes:
                return None
            body = body_path.read_bytes()
            if meta.get("url") != url or len(body) != meta.get("size"):
                return None
            fields = {k: meta[k] for k in ("url", "final_url", "status", "media_type", "charset")}
            return Page(
                **fields,
                date=meta["date"],
                body=body,
                from_cache=True,
                private=meta.get("private", True) is not False,
            )
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None

    def put(self, page: Page) -> None:
        meta_path, body_path = self._paths(page.url)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _write_atomic(body_path, page.body)
            meta = {k: v for k, v in asdict(page).items() if k not in ("body", "from_cache")}
            meta["size"] = len(page.body)
            _write_atomic(meta_path, json.dumps(meta, ensure_ascii=False).encode("utf-8"))
        except OSError as exc:
            raise OutputError(
                self.folder, f"cannot write the page cache ({exc.strerror or exc})"
            ) from exc


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
