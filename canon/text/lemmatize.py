"""Word form → lemma (pymorphy3) or stem (NLTK Snowball), and what pymorphy3's dictionary knows
of a word: the only importer of either library.

Word frequencies follow Zipf's law, so most tokens of a text are forms already seen: every
distinct form is analysed once and remembered, and a batch of tokens is mapped through that
cache at C speed.  The lemmas are also kept between processes and runs, in a file per analyzer
version (:mod:`canon.text.lemma_cache`): a worker or a later run starts warm.  The dictionary
questions the repairs ask (is this a known word, does any known word start so, which readings
has it) are remembered the same way, per process.  The analyzer and stemmers are built on
first use, so importing canon (and ``canon --help``) stays fast.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from ..errors import MissingResource
from ..hashing import remember_hashes
from .lemma_cache import lemma_file

__all__ = [
    "Reading",
    "analyzer_version",
    "base_forms",
    "clear_caches",
    "is_known",
    "known_prefix",
    "likeliest",
    "parts_of_speech",
    "readings",
]

_HAS_CYRILLIC = re.compile(r"[а-яё]")
_LATIN_ONLY = re.compile(r"[a-z]+")
_CACHE_LIMIT = 2_000_000  # distinct forms per method; a real corpus stays far below

_forms: dict[tuple[str, bool], dict[str, str]] = {}
_lemmas: dict[str, str] = {}  # form → pymorphy3's lemma, as the cache file keeps them
_file_read = False
_pos: dict[str, str] = {}
_known: dict[str, bool] = {}  # dictionary answers, kept in the cache file too
_prefixes: dict[str, bool] = {}
_readings: dict[str, tuple[Reading, ...]] = {}


class Reading(NamedTuple):
    """One pymorphy3 reading of a word: part of speech, case, number (``""`` when the tag has
    none), whether it is pronoun-like or an abbreviation (``pronoun``), and its lemma."""

    pos: str
    case: str
    number: str
    pronoun: bool
    lemma: str


_PLAIN_RUSSIAN = re.compile(r"[а-яё-]*")


def _nameless(word: str) -> bool:
    """Whether ``word`` has a letter that Python's Unicode data gives no name (Tangut and
    other ideographs of later versions): pymorphy3 asks every letter's name and fails on it,
    so such a word is left as it is."""
    if _PLAIN_RUSSIAN.fullmatch(word):
        return False
    return any(c.isalpha() and not unicodedata.name(c, "") for c in word)


@cache
def _analyzer() -> Any:
    try:
        import pymorphy3
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise MissingResource("pymorphy3 is not installed: pip install 'pymorphy3[fast]'") from exc
    try:
        return pymorphy3.MorphAnalyzer(lang="ru")
    except (ValueError, OSError) as exc:  # pragma: no cover - the dictionary is a dependency
        raise MissingResource(
            "pymorphy3's Russian dictionary is missing: pip install pymorphy3-dicts-ru"
        ) from exc


@cache
def _stemmers() -> tuple[Callable[[str], str], Callable[[str], str]]:
    from nltk.stem.snowball import SnowballStemmer

    return SnowballStemmer("russian").stem, SnowballStemmer("english").stem


def _persisted() -> dict[str, str]:
    """Every lemma known, the cache file's read at first use (and its token hashes noted)."""
    global _file_read
    if not _file_read:
        _file_read = True
        cache = lemma_file()
        if cache is not None:
            forms, bases, hashes = cache.load()
            _lemmas.update(zip(forms, bases))
            remember_hashes(bases, hashes.tolist())
            for asked in [f for f in forms if f.startswith("?")]:  # the dictionary's answers
                _QUESTIONS[asked[1]][asked[3:]] = _lemmas.pop(asked) == "1"
    return _lemmas


def _lemmas_of(forms: Iterable[str]) -> dict[str, str]:
    """The lemma of each form: from memory or the cache file, else from pymorphy3 (and then
    remembered, in the file too).  Numbers and Latin words stay as they are."""
    known = _persisted()
    found: dict[str, str] = {}
    new: dict[str, str] = {}
    for form in forms:
        lemma = form if form.isascii() else known.get(form)
        if lemma is None:
            lemma = new[form] = form if _nameless(form) else _analyzer().parse(form)[0].normal_form
        found[form] = lemma
    if new:
        known.update(new)
        cache = lemma_file()
        if cache is not None:
            cache.learn(new)
    return found


def _fold_yo(base: str) -> str:
    return base.replace("ё", "е") if "ё" in base else base


def _start_table(method: str, yo_fold: bool) -> dict[str, str]:
    """A new form → base table; lemma tables start with every persisted lemma."""
    if method != "lemma":
        return {}
    known = _persisted()
    return {f: _fold_yo(b) for f, b in known.items()} if yo_fold else dict(known)


def _stem_part(part: str) -> str:
    russian, english = _stemmers()
    if _HAS_CYRILLIC.search(part):
        return russian(part)
    if _LATIN_ONLY.fullmatch(part):
        return english(part)
    return part


def _stem(form: str) -> str:
    return "-".join(_stem_part(p) for p in form.split("-"))


def base_forms(tokens: list[str], method: str, yo_fold: bool = False) -> list[str]:
    """Replace each token by its lemma (``method="lemma"``) or stem (``"stem"``).

    pymorphy3 restores ``ё`` in lemmas (``котенок`` → ``котёнок``); ``yo_fold`` writes it as
    ``е`` again.
    """
    known = _forms.get((method, yo_fold))
    if known is None:
        known = _forms[(method, yo_fold)] = _start_table(method, yo_fold)
    try:
        return list(map(known.__getitem__, tokens))
    except KeyError:
        pass
    missing = set(tokens).difference(known)
    if len(known) + len(missing) > _CACHE_LIMIT:
        _forget()
        missing = set(tokens)
    bases = _lemmas_of(missing) if method == "lemma" else {f: _stem(f) for f in missing}
    known.update({f: _fold_yo(b) for f, b in bases.items()} if yo_fold else bases)
    return list(map(known.__getitem__, tokens))


def _forget() -> None:
    for known in _forms.values():
        known.clear()
    _lemmas.clear()
    for remembered in (_pos, _known, _prefixes, _readings):
        remembered.clear()


def clear_caches() -> None:
    """Forget every analysed form, as in a fresh process (the cache file is read again at the
    next lemma; benchmarks use this for cold runs)."""
    global _file_read
    _forget()
    _forms.clear()
    _file_read = False


_Kept = TypeVar("_Kept")


def _remembered(cache: dict[str, _Kept], key: str, compute: Callable[[str], _Kept]) -> _Kept:
    value = cache.get(key)
    if value is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        value = cache[key] = compute(key)
    return value


_QUESTIONS = {"w": _known, "p": _prefixes}  # answers kept in the cache file as "?w word": "1"


def _answer(kind: str, key: str, compute: Callable[[str], Any]) -> bool:
    """A yes/no question to the dictionary, remembered here and in the cache file."""
    _persisted()
    answers = _QUESTIONS[kind]
    value = answers.get(key)
    if value is None:
        if len(answers) >= _CACHE_LIMIT:
            answers.clear()
        value = answers[key] = bool(compute(key))
        cache = lemma_file()
        if cache is not None:
            cache.learn({f"?{kind} {key}": "1" if value else "0"})
    return value


def _is_known_word(word: str) -> bool:
    return not _nameless(word) and bool(_analyzer().word_is_known(word))


def is_known(word: str) -> bool:
    """Whether pymorphy3's dictionary has ``word`` (a lower-case form; ``е`` may stand for
    ``ё``), not merely a guess of its predictors."""
    return _answer("w", word, _is_known_word)


def _has_prefix(prefix: str) -> bool:
    if _nameless(prefix):
        return False
    return next(iter(_analyzer().iter_known_word_parses(prefix)), None) is not None


def known_prefix(prefix: str) -> bool:
    """Whether some word of pymorphy3's dictionary starts with ``prefix``."""
    return _answer("p", prefix, _has_prefix)


_PRONOUN_LIKE = frozenset({"Apro", "Abbr", "Anph"})


def _read(word: str) -> tuple[Reading, ...]:
    if _nameless(word):
        return ()
    return tuple(
        Reading(
            str(p.tag.POS or ""),
            str(p.tag.case or ""),
            str(p.tag.number or ""),
            bool(_PRONOUN_LIKE & p.tag.grammemes),
            p.normal_form,
        )
        for p in _analyzer().parse(word)
    )


def likeliest(word: str) -> tuple[str, str, frozenset[str]]:
    """pymorphy3's likeliest reading of ``word``: its lemma, part of speech and grammemes."""
    if _nameless(word):
        return word, "", frozenset()
    parse = _analyzer().parse(word)[0]
    return parse.normal_form, str(parse.tag.POS or ""), frozenset(parse.tag.grammemes)


def readings(word: str) -> tuple[Reading, ...]:
    """pymorphy3's readings of ``word``, the likeliest first."""
    return _remembered(_readings, word, _read)


def parts_of_speech(tokens: Iterable[str]) -> list[str]:
    """pymorphy3's part-of-speech tag (``PREP``, ``CONJ``, ...) of each token's first parse."""
    for token in set(tokens).difference(_pos):
        _pos[token] = (
            ""
            if token.isascii() or _nameless(token)
            else str(_analyzer().parse(token)[0].tag.POS or "")
        )
    return [_pos[token] for token in tokens]


@cache
def analyzer_version(method: str) -> str:
    """What produced the base forms, for the profile's fingerprint (no analyzer is loaded)."""
    if method == "stem":
        return f"nltk-snowball {metadata.version('nltk')}"
    if method != "lemma":
        return ""
    try:
        import pymorphy3_dicts_ru
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise MissingResource(
            "pymorphy3-dicts-ru is missing: pip install pymorphy3-dicts-ru"
        ) from exc
    meta = dict(json.loads(Path(pymorphy3_dicts_ru.get_path(), "meta.json").read_text("utf-8")))
    return (
        f"pymorphy3 {metadata.version('pymorphy3')}; opencorpora {meta.get('source_version')}"
        f" rev {meta.get('source_revision')}; format {meta.get('format_version')}"
    )
