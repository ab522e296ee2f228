"""Find and read word lists: the stop lists shipped in ``stopwords/``, NLTK's, and the user's own.

A list is a UTF-8 text file, one word a line; ``#`` starts a comment (a whole line, or a reason
after an entry).  A synonym file has one group a line, words separated by commas or spaces, the
first word standing for the rest.  Entries are returned as written: the caller puts them through
the same normalization as the text, so a list matches lemmas in the ``lemma`` profile and stems
in the ``stem`` profile.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from ..errors import MissingResource, ProfileError

__all__ = [
    "NEGATION_LIST",
    "builtin_lists",
    "list_words",
    "read_synonyms",
    "resolve_list",
]

NEGATION_LIST = "ru-negation"
_NLTK_PREFIX = "nltk:"
_SPLIT = re.compile(r"[,\s]+")


@cache
def _folder() -> Path:
    """``stopwords/`` at the top of the source tree, shipped in the wheel as ``canon/wordlists``."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "wordlists"
    return installed if installed.is_dir() else package.parent / "stopwords"


@cache
def builtin_lists() -> tuple[str, ...]:
    """Names of the lists shipped with canon (``ru``, ``ru-negation``, ``en``, ...)."""
    return tuple(sorted(p.name[:-4] for p in _folder().iterdir() if p.name.endswith(".txt")))


def resolve_list(name: str) -> str:
    """Turn a list name or path into a stable key: a built-in name, ``nltk:LANG`` or a path."""
    name = name.strip()
    if name.startswith(_NLTK_PREFIX) or name in builtin_lists():
        return name
    path = Path(name).expanduser()
    if path.is_file():
        return str(path.resolve())
    known = ", ".join([*builtin_lists(), "nltk:russian"])
    raise ProfileError(
        f"unknown word list {name!r}: name one of {known}, or give the path of a UTF-8 file",
        option="stopwords",
        value=name,
    )


def _lines(key: str) -> list[str]:
    if key.startswith(_NLTK_PREFIX):
        return _nltk_words(key[len(_NLTK_PREFIX) :])
    if key in builtin_lists():
        return _folder().joinpath(f"{key}.txt").read_text("utf-8").splitlines()
    try:
        return Path(key).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(
            f"cannot read word list {key}: {exc}; save it as UTF-8 text",
            option="stopwords",
            value=key,
        ) from exc


def _entry_of(line: str) -> str:
    return line.split("#", 1)[0].strip()


@cache
def list_words(key: str) -> tuple[str, ...]:
    """The entries of one resolved list, in file order, comments removed."""
    words: list[str] = []
    for line in _lines(key):
        entry = _entry_of(line)
        if entry:
            words.extend(w for w in _SPLIT.split(entry) if w)
    return tuple(words)


@cache
def read_synonyms(key: str) -> tuple[tuple[str, ...], ...]:
    """Synonym groups of one resolved file; the first word of each group is its representative."""
    groups: list[tuple[str, ...]] = []
    for line in _lines(key):
        words = tuple(w for w in _SPLIT.split(_entry_of(line)) if w)
        if len(words) > 1:
            groups.append(words)
    return tuple(groups)


def _nltk_words(language: str) -> list[str]:
    try:
        from nltk.corpus import stopwords
    except ImportError as exc:  # pragma: no cover - nltk is a dependency
        raise MissingResource("nltk is not installed: pip install nltk", package="nltk") from exc
    try:
        return list(stopwords.words(language))
    except (LookupError, OSError) as exc:
        raise MissingResource(
            f"NLTK's {language!r} stop list is not installed: run "
            "python -m nltk.downloader stopwords, or use the built-in list 'ru'",
            package="nltk-data",
        ) from exc
