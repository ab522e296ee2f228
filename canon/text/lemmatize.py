"""Word form → lemma (pymorphy3) or stem (NLTK Snowball), and what pymorphy3's dictionary knows
of a word: the only importer of either library.

Word frequencies follow Zipf's law, so most tokens of a text are forms already seen: every
distinct form is analysed once per process and remembered, and a batch of tokens is mapped
through that cache at C speed.  The dictionary questions the repairs ask (is this a known word,
does any known word start so, which readings has it) are remembered the same way.  The
analyzer and stemmers are built on first use, so importing canon (and ``canon --help``) stays
fast.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import MissingResource

__all__ = [
    "Reading",
    "analyzer_version",
    "base_forms",
    "clear_caches",
    "is_known",
    "known_prefix",
    "parts_of_speech",
    "readings",
]

_HAS_CYRILLIC = re.compile(r"[а-яё]")
_LATIN_ONLY = re.compile(r"[a-z]+")
_CACHE_LIMIT = 2_000_000  # distinct forms per method; a real corpus stays far below

_forms: dict[tuple[str, bool], dict[str, str]] = {}
_pos: dict[str, str] = {}
_known: dict[str, bool] = {}
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


def _lemma(form: str) -> str:
    if form.isascii():
        return form  # numbers and Latin words: pymorphy3 would return them unchanged
    return _analyzer().parse(form)[0].normal_form


def _stem_part(part: str) -> str:
    russian, english = _stemmers()
    if _HAS_CYRILLIC.search(part):
        return russian(part)
    if _LATIN_ONLY.fullmatch(part):
        return english(part)
    return part


def _stem(form: str) -> str:
    return "-".join(_stem_part(p) for p in form.split("-"))


_ANALYSERS: dict[str, Callable[[str], str]] = {"lemma": _lemma, "stem": _stem}


def base_forms(tokens: list[str], method: str, yo_fold: bool = False) -> list[str]:
    """Replace each token by its lemma (``method="lemma"``) or stem (``"stem"``).

    pymorphy3 restores ``ё`` in lemmas (``котенок`` → ``котёнок``); ``yo_fold`` writes it as
    ``е`` again.
    """
    known = _forms.setdefault((method, yo_fold), {})
    missing = set(tokens).difference(known)
    if missing:
        if len(known) + len(missing) > _CACHE_LIMIT:
            clear_caches()
            missing = set(tokens)
        analyse = _ANALYSERS[method]
        for form in missing:
            base = analyse(form)
            known[form] = base.replace("ё", "е") if yo_fold and "ё" in base else base
    return list(map(known.__getitem__, tokens))


def clear_caches() -> None:
    """Forget every analysed form (memory is bounded anyway; benchmarks use this for cold runs)."""
    for known in _forms.values():
        known.clear()
    for remembered in (_pos, _known, _prefixes, _readings):
        remembered.clear()


def _remembered(cache: dict[str, Any], key: str, compute: Callable[[str], Any]) -> Any:
    value = cache.get(key)
    if value is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        value = cache[key] = compute(key)
    return value


def is_known(word: str) -> bool:
    """Whether pymorphy3's dictionary has ``word`` (a lower-case form; ``е`` may stand for
    ``ё``), not merely a guess of its predictors."""
    return bool(_remembered(_known, word, _analyzer().word_is_known))


def _has_prefix(prefix: str) -> bool:
    return next(iter(_analyzer().iter_known_word_parses(prefix)), None) is not None


def known_prefix(prefix: str) -> bool:
    """Whether some word of pymorphy3's dictionary starts with ``prefix``."""
    return bool(_remembered(_prefixes, prefix, _has_prefix))


_PRONOUN_LIKE = frozenset({"Apro", "Abbr", "Anph"})


def _read(word: str) -> tuple[Reading, ...]:
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


def readings(word: str) -> tuple[Reading, ...]:
    """pymorphy3's readings of ``word``, the likeliest first."""
    return _remembered(_readings, word, _read)  # type: ignore[no-any-return]


def parts_of_speech(tokens: Iterable[str]) -> list[str]:
    """pymorphy3's part-of-speech tag (``PREP``, ``CONJ``, ...) of each token's first parse."""
    for token in set(tokens).difference(_pos):
        _pos[token] = "" if token.isascii() else str(_analyzer().parse(token)[0].tag.POS or "")
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
