"""SOURCE arguments → the documents they name: URLs, files, folders, lists and JSON Lines.

A SOURCE may be a URL, a file, a folder (searched recursively for text, HTML and .docx files,
and text or HTML files packed with gzip), ``@list.txt`` (one URL or path a line) or a
``.jsonl`` file whose lines are ``{"id": ..., "text": ...}`` or ``{"url": ..., "html": ...}``.
Nothing is read yet: each named document becomes an :class:`Item`, what cannot even be listed
a :class:`Failure`, and a file of a folder that canon does not read (its type) a
:class:`LeftOut`, reported but no failure.  Hidden files and folders (a name starting with a
point) are passed over in silence.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .fetch import is_url

__all__ = [
    "FOLDER_SUFFIXES",
    "LEFT_OUT_REASONS",
    "Failure",
    "Item",
    "LeftOut",
    "count_entries",
    "expand",
    "readable_in_folder",
]

FOLDER_SUFFIXES = frozenset({".txt", ".md", ".html", ".htm", ".docx"})
_PACKED = frozenset({".txt", ".md", ".html", ".htm"})  # read inside a .gz
LEFT_OUT_REASONS = {
    "unsupported-type": "not a text, HTML or .docx file",
    "too-short": "fewer words than k",
}


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


@dataclass(frozen=True)
class LeftOut:
    """A document not read, and no failure: a folder's file of a type canon does not read
    (``unsupported-type``), or a text with fewer words than k (``too-short``)."""

    source: str
    reason: str

    @property
    def said(self) -> str:
        return LEFT_OUT_REASONS.get(self.reason, self.reason)


def readable_in_folder(path: Path) -> bool:
    """Whether a folder's file is read: by its suffix (``page.html.gz`` by the one inside)."""
    suffix = path.suffix.lower()
    if suffix == ".gz":
        return path.with_suffix("").suffix.lower() in _PACKED
    return suffix in FOLDER_SUFFIXES


def _folder(path: Path) -> Iterator[Item | LeftOut]:
    for found in sorted(p for p in path.rglob("*") if p.is_file()):
        if any(part.startswith(".") for part in found.relative_to(path).parts):
            continue  # .git, .DS_Store and the like
        yield (
            Item(str(found))
            if readable_in_folder(found)
            else LeftOut(str(found), "unsupported-type")
        )


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


def _is_jsonl(source: str) -> bool:
    """Whether :func:`expand` reads ``source`` as a JSON Lines file."""
    if source.startswith("@") or is_url(source) or source == "-":
        return False
    path = Path(source)
    return path.suffix.lower() == ".jsonl" and path.is_file()


def expand(sources: Iterable[str]) -> Iterator[Item | Failure | LeftOut]:
    """Every document the SOURCE arguments name, in order, one at a time: a JSON Lines file is
    read a line at a time, so only the entry being taken is held."""
    for source in sources:
        path = Path(source[1:] if source.startswith("@") else source)
        if source.startswith("@"):
            yield from _list_file(path)
        elif is_url(source) or source == "-":
            yield Item(source)
        elif path.is_dir():
            yield from _folder(path)
        elif _is_jsonl(source):
            yield from _jsonl(path)
        else:
            yield Item(source)


def _blank(raw: bytes) -> bool:
    """Whether :func:`_jsonl` skips a line, decoding only a line that is not a record's."""
    stripped = raw.strip()
    if stripped[:1] == b"{" or not stripped:
        return not stripped
    return not raw.decode("utf-8", "replace").strip()


def _records(path: Path) -> int:
    """The entries :func:`_jsonl` makes of a file: its lines but the blank ones, counted
    without parsing them (a line that cannot be decoded counts as one, and so do the lines
    after it, which :func:`_jsonl` never reaches)."""
    count = 0
    try:
        with path.open("rb") as file:
            for raw in file:
                count += not _blank(raw)
    except OSError:
        return count + 1  # expand ends the file with a Failure
    return count


def count_entries(sources: Iterable[str]) -> int:
    """How many entries (Items, Failures and LeftOuts) :func:`expand` yields for ``sources``, found
    without holding a text: a JSON Lines file's non-blank lines are counted, not parsed (a
    file that cannot be decoded to its end makes the count larger than what :func:`expand`
    yields); a folder or a list is listed."""
    total = 0
    for source in sources:
        if _is_jsonl(source):
            total += _records(Path(source))
        else:
            total += sum(1 for _ in expand([source]))
    return total
