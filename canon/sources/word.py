"""A ``.docx`` file → its text and title, bounded before and while it is parsed.

A ``.docx`` is a zip archive of XML parts.  Before a byte is inflated, the archive's directory
is checked against :class:`ReadLimits`: the file's size, the declared size and compression
ratio of each part canon reads, and their total.  Each part is then inflated as a stream into
an XML parser that builds no tree, resolves no entity, loads no DTD (a part that declares one
is refused) and reaches no network; memory holds only the text found so far, and parsing stops
as soon as that passes ``max_text``.  (python-docx builds the whole tree first: 15 s and
350 MB for a 45 KB file of a million empty paragraphs.)

The text is the one python-docx gives — the body's paragraphs, then each table's cells row by
row, blank ones left out — read the same way: runs directly in a paragraph or in a hyperlink;
``w:t`` as its text, ``w:tab`` and ``w:ptab`` as tabs, ``w:br`` (line breaks, not page or
column breaks) and ``w:cr`` as newlines, ``w:noBreakHyphen`` as ``-``.  A merged cell is read
once (python-docx repeats it for every grid column and row it spans).  A run a reader of the
document never sees is left out: hidden (``w:vanish``, ``w:specVanish``), set in 1.5 pt or less,
or white on the default white page (a copywriter's way to add words that no reader reads, so
that a copied text checks as new); its words are kept apart, for the check to report.  Hidden
character styles are not looked up.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from ..errors import ExtractionError
from .limits import ReadLimits

if TYPE_CHECKING:
    from lxml import etree

__all__ = ["WordText", "docx_text"]

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_RELATIONSHIPS = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_DOCUMENT_TYPE = "/officeDocument"
_CORE_TYPE = "/metadata/core-properties"
_TITLE = "{http://purl.org/dc/elements/1.1/}title"
_RUN_CHARACTERS = {f"{W}tab": "\t", f"{W}ptab": "\t", f"{W}cr": "\n", f"{W}noBreakHyphen": "-"}
_CHUNK = 1 << 16
_RATIO_FLOOR = 1 << 20  # parts smaller than this are not judged by their ratio
_MAX_TITLE = 1_000


def _refuse(source: str, message: str, reason: str) -> ExtractionError:
    return ExtractionError(f"{source}: {message}", source=source, reason=reason)


def _not_docx(source: str, why: str = "not a Word zip archive") -> ExtractionError:
    return _refuse(source, f"not a valid .docx file ({why})", "not-docx")


_DOCUMENT, _BODY, _P, _T = f"{W}document", f"{W}body", f"{W}p", f"{W}t"
_CELL_PATH = [_BODY, f"{W}tbl", f"{W}tr", f"{W}tc"]  # below the document
# Levels whose tags matter: a cell's paragraph (6), a hyperlink, a run, its properties, theirs.
_KEPT = 10
_R, _RPR = f"{W}r", f"{W}rPr"
_OFF = frozenset({"0", "false", "off"})
_MIN_SIZE = 4  # half-points: a run set in 1.5 pt or less is no text a reader reads
_PAGE_COLOURS = frozenset({"FFFFFF", "ffffff"})  # the default page, on which white is unseen


class _Body:
    """Parser target: the paragraphs of the body and of its tables' cells.

    Levels of the element stack: 1 ``w:document``, 2 ``w:body``, 3 a body paragraph or a
    table, 4 its row, 5 a cell, 6 a cell's paragraph.  Only the tags of the first
    :data:`_KEPT` levels are kept (nesting deeper holds no text canon reads), so a deep
    document costs no memory.
    """

    def __init__(self, source: str, max_text: int) -> None:
        self.source, self.max_text = source, max_text
        self.stack: list[str] = []  # the tags of the open elements, down to _KEPT
        self.level = 0  # how many elements are open
        self.paragraphs: list[str] = []  # the body's, in order
        self.cells: list[str] = []  # each table's cells, row by row
        self.parts: io.StringIO | None = None  # the paragraph being read (one buffer, not
        # a list of pieces: a character reference is a piece of its own)
        self.depth = 0  # the index of that paragraph's element in the stack
        self.cell: list[str] | None = None  # the paragraphs of the cell being read
        self.in_text = False
        self.hidden = False  # the run being read is one a reader never sees
        self.unseen: list[str] = []  # the words of unseen runs, a piece per stretch of them
        self.unseen_piece: list[str] = []
        self.chars = 0

    def doctype(self, *_: object) -> None:
        raise _refuse(self.source, "the document declares a DTD (entity expansion)", "bad-xml")

    def _count(self, text: str) -> None:
        self.chars += len(text)
        if self.chars > self.max_text:
            raise _refuse(
                self.source,
                f"the document holds more than {self.max_text:,} characters of text",
                "too-large",
            )

    def _add(self, text: str) -> None:
        self._count(text)
        self._end_unseen()
        assert self.parts is not None  # text is added inside a paragraph
        self.parts.write(text)

    def _end_unseen(self) -> None:
        words = " ".join("".join(self.unseen_piece).split())
        if words:
            self.unseen.append(words)
        self.unseen_piece.clear()

    def _in_run(self) -> bool:
        """Whether the element on top of the stack is a child of one of the paragraph's runs
        (a run of the paragraph itself or of one of its hyperlinks)."""
        run = self.level - 2
        if run >= _KEPT or self.stack[run] != f"{W}r":
            return False
        return run == self.depth + 1 or (
            run == self.depth + 2 and self.stack[run - 1] == f"{W}hyperlink"
        )

    def _run_content(self, tag: str, attrib: dict[str, str]) -> None:
        if not self._in_run():
            return
        if tag == _T:
            self.in_text = True
        elif tag in _RUN_CHARACTERS:
            self._add(_RUN_CHARACTERS[tag])
        elif tag == f"{W}br" and attrib.get(f"{W}type", "textWrapping") == "textWrapping":
            self._add("\n")

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.level = level = self.level + 1
        if level <= _KEPT:
            self.stack.append(tag)
        if tag == _R:
            self.hidden = False
        elif level >= 3 and level - 2 < _KEPT and self.stack[level - 2] == _RPR:
            self.hidden = self.hidden or _hides(tag, attrib)
        if self.parts is not None:
            self._run_content(tag, attrib)
        elif tag == _P and (
            (level == 3 and self.stack[1] == _BODY) or (level == 6 and self.cell is not None)
        ):
            self.parts, self.depth = io.StringIO(), level - 1
        elif level == 5 and self.stack[1:] == _CELL_PATH:
            self.cell = []
        elif level == 1 and tag != _DOCUMENT:
            raise _not_docx(self.source, "its main part is not a Word document")

    def data(self, text: str) -> None:
        if self.in_text and not self.hidden:
            self._add(text)
        elif self.in_text:
            self._count(text)
            self.unseen_piece.append(text)

    def end(self, tag: str) -> None:
        level, self.level = self.level, self.level - 1
        if level <= _KEPT:
            self.stack.pop()
        if self.in_text and tag == _T:
            self.in_text = False
        elif self.parts is not None and level == self.depth + 1:
            self._end_unseen()
            text = self.parts.getvalue()
            self.parts = None
            if self.cell is not None:
                self.cell.append(text)
            elif text.strip():
                self.paragraphs.append(text)
        elif self.cell is not None and level == 5:
            text = "\n".join(self.cell)
            self.cell = None
            if text.strip():
                self.cells.append(text)

    def close(self) -> tuple[str, tuple[str, ...]]:
        return "\n".join(self.paragraphs + self.cells), tuple(self.unseen)


def _hides(tag: str, attrib: dict[str, str]) -> bool:
    """Whether a run property makes the run's text one a reader of the page never sees: hidden
    (``w:vanish``, ``w:specVanish``), set in a size too small to read, or white on the page."""
    value = attrib.get(f"{W}val", "")
    if tag in (f"{W}vanish", f"{W}specVanish"):
        return value not in _OFF
    if tag == f"{W}sz":
        return value.isdigit() and int(value) < _MIN_SIZE
    if tag == f"{W}color":
        return value in _PAGE_COLOURS
    return False


class _Relationships:
    """Parser target: where the package's main document and core properties are."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag != _RELATIONSHIPS or attrib.get("TargetMode") == "External":
            return
        kind, target = attrib.get("Type", ""), attrib.get("Target", "")
        for wanted in (_DOCUMENT_TYPE, _CORE_TYPE):
            if kind.endswith(wanted) and target:
                self.found.setdefault(wanted, posixpath.normpath(target.lstrip("/")))

    def close(self) -> dict[str, str]:
        return self.found


class _Title:
    """Parser target: the ``dc:title`` of the core properties, if any."""

    def __init__(self) -> None:
        self.depth, self.inside, self.chars = 0, False, 0
        self.parts: list[str] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.depth += 1
        self.inside = self.depth == 2 and tag == _TITLE

    def data(self, text: str) -> None:
        if self.inside and self.chars < _MAX_TITLE:
            self.parts.append(text)
            self.chars += len(text)

    def end(self, tag: str) -> None:
        self.depth -= 1
        self.inside = False

    def close(self) -> str | None:
        return " ".join("".join(self.parts).split())[:_MAX_TITLE] or None


_Result = TypeVar("_Result", covariant=True)
_Value = TypeVar("_Value")


class _Target(Protocol[_Result]):
    """What a parser target gives back; lxml calls whichever of its other methods it has."""

    def close(self) -> _Result: ...


def _parse(archive: zipfile.ZipFile, name: str, target: _Target[_Value], source: str) -> _Value:
    """Stream one part into ``target`` through a parser that cannot expand or fetch."""
    from lxml import etree  # loaded for a .docx only

    # The stubs ask for every method of the target interface; lxml calls only those it finds.
    parser = etree.XMLParser(
        target=cast("etree.ParserTarget[_Value]", target),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
    )
    try:
        with archive.open(name) as stream:
            while chunk := stream.read(_CHUNK):
                parser.feed(chunk)
        return parser.close()
    except etree.XMLSyntaxError as exc:
        reason = str(exc).split(",")[0] or "malformed"
        raise _refuse(source, f"{name} is not well-formed XML ({reason})", "bad-xml") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as exc:
        raise _not_docx(source, f"{name} is damaged or encoded unreadably: {exc}") from None
    except RuntimeError:  # zipfile's word for an encrypted part
        raise _not_docx(source, f"{name} is encrypted") from None


def _check_parts(
    archive: zipfile.ZipFile, names: list[str], source: str, limits: ReadLimits
) -> None:
    """Refuse before inflating: declared sizes, compression ratios, the total."""
    total = 0
    for name in names:
        info = archive.getinfo(name)
        size = info.file_size
        if size > _RATIO_FLOOR and size > limits.max_ratio * max(info.compress_size, 1):
            ratio = size / max(info.compress_size, 1)
            raise _refuse(
                source,
                f"{name} expands {ratio:,.0f} times ({size:,} bytes from {info.compress_size:,}),"
                f" more than {limits.max_ratio:,}: a decompression bomb",
                "bomb",
            )
        total += size
    if total > limits.max_unpacked:
        raise _refuse(
            source,
            f"the document unpacks to {total:,} bytes of XML, more than {limits.max_unpacked:,}",
            "too-large",
        )


def _open(path: Path, source: str, limits: ReadLimits) -> zipfile.ZipFile:
    size = path.stat().st_size
    if size > limits.max_docx_bytes:
        raise _refuse(
            source,
            f"the file has {size:,} bytes, more than the limit {limits.max_docx_bytes:,}",
            "too-large",
        )
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError):
        raise _not_docx(source) from None


def _locate(
    archive: zipfile.ZipFile, present: set[str], source: str, limits: ReadLimits
) -> tuple[str, str | None]:
    """The parts to read, ``(main document, core properties or None)``, found through the
    package relationships (checked and parsed first) or where Word puts them."""
    rels = "_rels/.rels"
    found: dict[str, str] = {}
    if rels in present:
        _check_parts(archive, [rels], source, limits)
        found = _parse(archive, rels, _Relationships(), source)
    main = found.get(_DOCUMENT_TYPE, "word/document.xml")
    if main not in present:
        raise _not_docx(source, "it has no main document part")
    core = found.get(_CORE_TYPE, "docProps/core.xml")
    _check_parts(archive, [n for n in (rels, main, core) if n in present], source, limits)
    return main, core if core in present else None


@dataclass(frozen=True)
class WordText:
    """What a ``.docx`` holds: its ``text`` (may be blank), ``title``, and the words of the
    runs no reader sees (``unseen``), left out of the text."""

    text: str
    title: str | None
    unseen: tuple[str, ...] = ()


def docx_text(path: Path, source: str, limits: ReadLimits) -> WordText:
    """The text, title and unseen words of a ``.docx`` file."""
    with _open(path, source, limits) as archive:
        main, core = _locate(archive, set(archive.namelist()), source, limits)
        text, unseen = _parse(archive, main, _Body(source, limits.max_text), source)
        title = _parse(archive, core, _Title(), source) if core else None
    return WordText(text, title, unseen)
