"""SOURCE arguments → the documents they name: URLs, files, folders, lists and JSON Lines.

A SOURCE may be a URL, a file, a folder (searched recursively for text, HTML and .docx files),
``@list.txt`` (one URL or path a line) or a ``.jsonl`` file whose lines are
``{"id": ..., "text": ...}`` or ``{"url": ..., "html": ...}``.  Nothing is read yet: each
named document becomes an :class:`Item`, and what cannot even be listed a :class:`Failure`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .fetch import is_url

__all__ = ["FOLDER_SUFFIXES", "Failure", "Item", "expand"]

FOLDER_SUFFIXES = frozenset({".txt", ".md", ".html", ".htm", ".docx"})


@dataclass(frozen=True)
class Item:
    """One document to read: a URL or path, or a record of a JSON Lines file."""

    source: str
    text: str | None = None
    html: str | None = None


@dataclass(frozen=True)
class Failure:
    source: str
    reason: str


def _list_file(path: Path) -> Iterator[Item | Failure]:
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        yield Failure(f"@{path}", f"cannot read the list ({exc})")
        return
    for line in lines:
        entry = line.strip()
        if entry and not entry.startswith("#"):
            yield Item(entry)


def _lines(path: Path) -> Iterator[str | Failure]:
    """The file's lines, read one at a time (a corpus file may not fit in memory); a read or
    decoding error ends them with a Failure of the file."""
    try:
        with path.open("rb") as file:
            for raw in file:
                yield raw.decode("utf-8").rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as exc:
        yield Failure(str(path), f"cannot read ({exc})")


def _jsonl(path: Path) -> Iterator[Item | Failure]:
    for number, line in enumerate(_lines(path), 1):
        if isinstance(line, Failure):
            yield line
            return
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield Failure(where, f"not valid JSON ({exc.msg})")
            continue
        if isinstance(record, dict) and isinstance(record.get("text"), str) and "id" in record:
            yield Item(str(record["id"]), text=record["text"])
        elif isinstance(record, dict) and isinstance(record.get("html"), str) and "url" in record:
            yield Item(str(record["url"]), html=record["html"])
        else:
            yield Failure(where, 'expected {"id": ..., "text": ...} or {"url": ..., "html": ...}')


def expand(sources: Iterable[str]) -> Iterator[Item | Failure]:
    """Every document the SOURCE arguments name, in order."""
    for source in sources:
        path = Path(source[1:] if source.startswith("@") else source)
        if source.startswith("@"):
            yield from _list_file(path)
        elif is_url(source) or source == "-":
            yield Item(source)
        elif path.is_dir():
            for found in sorted(p for p in path.rglob("*") if p.is_file()):
                if found.suffix.lower() in FOLDER_SUFFIXES:
                    yield Item(str(found))
        elif path.suffix.lower() == ".jsonl" and path.is_file():
            yield from _jsonl(path)
        else:
            yield Item(source)
