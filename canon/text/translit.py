"""A Latin word → the Russian word it transliterates, when it is one.

The Latin spellings of each Cyrillic letter come from iuliia's schemas, read backwards: GOST
7.79 (ISO 9) systems A and B, GOST 16876, GOST R 7.0.34, ISO/R 9, BGN/PCGN, ALA-LC, BS 2979,
the passport and road-sign standards, Wikipedia's, Telegram's and Yandex's.  Together they hold
the informal spellings too: ``zh``, ``kh``/``h``/``x``, ``ts``/``c``/``cz``, ``ch``, ``sh``,
``shch``/``sch``/``shh``, ``ya``/``ja``/``ia``, ``yu``/``ju``/``iu``, ``yo``/``jo``,
``y``/``j``/``i`` for ``й``, ``'`` or a backtick for ``ь``; a soft sign may also be left out
(``dvigatel``).  A spelling costs more the fewer schemas use it.  Volapuk, the writing of early
Russian e-mail and of copywriters hiding a copy, adds Latin letters and digits that look or
sound like a Cyrillic letter (``4`` for ``ч``, ``6`` for ``б``, ``w`` for ``ш``, ``u`` for
``и``, ``m`` for ``т``, ``n`` for ``п``, ``bl`` for ``ы``, ``9`` for ``я``: ``4to``, ``xopowo``);
those cost more than any schema's, except in a text written in volapuk (``volapuk=True``:
the caller tells, :mod:`canon.text.latin`), where they cost less than any schema's: there
``n0`` is ``по``, ``rog`` is ``год`` and ``uz`` is ``из``.

A word is read back by a search over these spellings that pymorphy3's dictionary prunes: a
Cyrillic beginning that no dictionary word has is dropped at once, so the many readings of a
Latin word (``e`` is ``е``, ``э`` or ``ё``) cost little.  Of the dictionary words found, the
cheapest wins, common words (wordfreq's Russian frequencies) before rare ones: ``ochen`` is
``очень``, not the rare short adjective ``очен``.  :func:`is_english` tells the words English
uses at least once per million words (wordfreq's English list: ``online``, ``google``,
``seo``); the caller decides what to do with them.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections import defaultdict
from functools import cache
from importlib import metadata
from pathlib import Path

from ..errors import MissingResource
from .frequency import frequent_words
from .frequency import version as wordfreq_version
from .lemmatize import is_known, known_prefix

__all__ = [
    "LATIN_LETTERS",
    "ONE_LETTER_WORDS",
    "VOLAPUK_DIGITS",
    "clear_caches",
    "is_english",
    "read_back",
    "spellings",
    "versions",
]

# Latin letters (with or without marks) and the signs schemas use for ь and ъ.
LATIN_LETTERS = "a-z\u00e0-\u024f\u02b9\u02ba"
_SIGNS = "'\u2019`\u02b9\u02ba"
# Digits that volapuk writes for letters, and its spellings (by look or by sound).
VOLAPUK_DIGITS = "03469"
_VOLAPUK = {
    "0": "о", "3": "з", "4": "ч", "6": "б", "9": "я", "9l": "я", "bl": "ы", "bi": "ы",
    "w": "шщ", "u": "ий", "m": "т", "n": "п", "r": "г", "g": "д", "h": "н", "b": "вь",
    "p": "р", "c": "с", "y": "у", "x": "х", "jl": "л", "ji": "л", "e": "э", "sch": "щ",
    "@": "а", ">|<": "ж", "}|{": "ж", "|-|": "н",
}  # fmt: skip
_VOLAPUK_COST = 3.0
_VOLAPUK_TEXT_COST = 0.75  # in a text written in volapuk: below a schema's best spelling
ONE_LETTER_WORDS = frozenset("авиксуоя")  # the Russian words of one letter
_SPELLING = re.compile(f'[{LATIN_LETTERS}{_SIGNS}"\u201d]+')
_LATIN_PART = re.compile(f"[{LATIN_LETTERS}{_SIGNS}{VOLAPUK_DIGITS}а-яё]+")
# Not Russian: Uzbek, and a French rendering whose ``ch`` is ш.
_SKIPPED_SCHEMAS = frozenset({"uz", "mvd_310_fr"})
_VOWELS = frozenset("аеёиоуыэюяьъй")
_OMITTED_SIGN = (("ь", 2.0), ("ъ", 3.0))  # many schemas write no ь or ъ at all
_DROPPED_APOSTROPHE = 1.5
_FREQUENCY_WEIGHT = 0.5  # cost taken off per Zipf unit (a tenfold frequency)
_MAX_LENGTH = 40
_MAX_STEPS = 5_000
_CACHE_LIMIT = 200_000

Spellings = dict[str, tuple[tuple[str, float], ...]]

_words: dict[tuple[str, bool], str] = {}  # "" = not a transliteration


def _bare(text: str) -> str:
    """Casefolded, marks removed: how the lemma profile's normalization leaves a spelling."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


def _schema_files() -> list[Path]:
    try:
        import iuliia
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise MissingResource(
            "iuliia is not installed: pip install iuliia", package="iuliia"
        ) from exc
    # iuliia's repository holds FileSchema objects (with a path) but declares them as Schema.
    return [
        Path(schema.path)  # pyright: ignore[reportAttributeAccessIssue]
        for name, schema in iuliia.schemas.items()
        if name not in _SKIPPED_SCHEMAS
    ]


def _count(counts: dict[str, dict[str, int]], latin: str | None, cyrillic: str) -> None:
    if not latin:
        return
    for spelling in {latin.casefold(), _bare(latin)}:
        if _SPELLING.fullmatch(spelling):
            counts[spelling][cyrillic] = counts[spelling].get(cyrillic, 0) + 1


def _costs(counts: dict[str, dict[str, int]]) -> Spellings:
    """Each Latin spelling's Cyrillic readings, cheapest first: 1 for the reading most schemas
    give it, more for readings fewer schemas give."""
    table: Spellings = {}
    for latin, readings_of in counts.items():
        top = max(readings_of.values())
        costs = [(cyr, 1 + math.log2(top / n)) for cyr, n in readings_of.items()]
        table[latin] = tuple(sorted(costs, key=lambda item: item[1]))
    return table


@cache
def _spellings(volapuk: bool = False) -> tuple[Spellings, Spellings, int]:
    """Latin spelling → Cyrillic readings with costs, the same for word endings only, and the
    longest spelling; with ``volapuk``, volapuk's spellings cheapest."""
    letters: dict[str, dict[str, int]] = defaultdict(dict)
    endings: dict[str, dict[str, int]] = defaultdict(dict)
    for path in _schema_files():
        schema = json.loads(path.read_text("utf-8"))
        for cyr, latin in schema["mapping"].items():
            _count(letters, latin, cyr)
        for pair, latin in (schema.get("next_mapping") or {}).items():
            _count(letters, latin, pair[0])  # a letter spelt so before a given one
        for pair, latin in (schema.get("prev_mapping") or {}).items():
            _count(letters, latin, pair[-1])  # a letter spelt so after a given one
        for ending, latin in (schema.get("ending_mapping") or {}).items():
            _count(endings, latin, ending)
    table, ending_table = _costs(letters), _costs(endings)
    for latin, cyrillic in _VOLAPUK.items():
        if volapuk and latin != "e":  # е is e's reading in volapuk too
            kept = [(c, cost) for c, cost in table.get(latin, ()) if c not in cyrillic]
            table[latin] = (*((c, _VOLAPUK_TEXT_COST) for c in cyrillic), *kept)
            continue
        known = dict(table.get(latin, ()))
        extra = [(c, _VOLAPUK_COST) for c in cyrillic if c not in known]
        table[latin] = (*table.get(latin, ()), *extra)
    return table, ending_table, max(map(len, table))


def spellings(volapuk: bool = False) -> Spellings:
    """Each Latin spelling (and volapuk digit or sign) → the Cyrillic letters it spells, with
    costs (volapuk's spellings cheapest with ``volapuk``)."""
    return _spellings(volapuk)[0]


def is_english(word: str) -> bool:
    """Whether English uses ``word`` (lower case; every part of a hyphenated word) at least
    once per million words."""
    english = frequent_words("en")
    return all(p in english or p.replace("\u2019", "'") in english for p in word.split("-"))


def _steps(
    word: str, pos: int, prefix: str, table: Spellings, endings: Spellings, longest: int
) -> list[tuple[int, str, float]]:
    """Every way to spell the next letter or two: (new position, new prefix, cost)."""
    out: list[tuple[int, str, float]] = []
    for size in range(1, min(longest, len(word) - pos) + 1):
        latin = word[pos : pos + size]
        options = list(table.get(latin, ()))
        if pos + size == len(word):
            options += endings.get(latin, ())
        if latin in _SIGNS:
            options.append(("", _DROPPED_APOSTROPHE))
        if (size == 1 and "а" <= latin <= "я") or latin == "ё":  # a letter already Cyrillic
            options.append((latin, 0.0))
        for cyr, cost in options:
            if not cyr or known_prefix(prefix + cyr):
                out.append((pos + size, prefix + cyr, cost))
    return out


def _candidates(word: str, volapuk: bool = False) -> dict[str, float]:
    """Dictionary words that ``word`` spells, each with its cheapest cost."""
    table, endings, longest = _spellings(volapuk)
    found: dict[str, float] = {}
    seen: dict[tuple[int, str], float] = {}
    stack: list[tuple[int, str, float, bool]] = [(0, "", 0.0, False)]
    for _ in range(_MAX_STEPS):
        if not stack:
            break
        pos, prefix, cost, signed = stack.pop()
        if seen.get((pos, prefix), math.inf) <= cost:
            continue
        seen[pos, prefix] = cost
        if pos == len(word) and prefix and cost < found.get(prefix, math.inf) and is_known(prefix):
            found[prefix] = cost
        if not signed and prefix and prefix[-1] not in _VOWELS:
            for sign, extra in _OMITTED_SIGN:
                if known_prefix(prefix + sign):
                    stack.append((pos, prefix + sign, cost + extra, True))
        for new_pos, new_prefix, extra in _steps(word, pos, prefix, table, endings, longest):
            stack.append((new_pos, new_prefix, cost + extra, False))
    return found


def _best(found: dict[str, float]) -> str:
    if not found:
        return ""
    russian = frequent_words("ru")

    def cost(item: tuple[str, float]) -> float:
        word = item[0]
        zipf = russian.get(word) or russian.get(word.replace("ё", "е"), 0.0)
        return item[1] - _FREQUENCY_WEIGHT * zipf

    return min(found.items(), key=cost)[0]


def _read(word: str, volapuk: bool) -> str:
    parts = word.split("-")
    if len(word) > _MAX_LENGTH or not all(map(_LATIN_PART.fullmatch, parts)):
        return ""
    if not all(_volapuk_ok(p) for p in parts):
        return ""
    if len(word) == 1:  # a one-letter word is one of the Russian ones, if it spells one
        found = _candidates(word, volapuk)
        words = {w: cost for w, cost in found.items() if w in ONE_LETTER_WORDS}
        return _best(words or found)
    cyrillic = [_best(_candidates(p, volapuk)) for p in parts]
    if all(cyrillic):
        return "-".join(cyrillic)
    if len(parts) > 1 and len(word) <= _MAX_LENGTH:  # a hyphen put inside one word
        return _best(_candidates("".join(parts), volapuk))
    return ""


def _volapuk_ok(part: str) -> bool:
    """A part with digits is read only with a Latin letter (``4to``, ``H0``)."""
    return part.isalpha() or any(c.isalpha() for c in part)


def read_back(word: str, *, volapuk: bool = False) -> str | None:
    """The Russian dictionary word a lower-case Latin word (apostrophes and hyphens allowed)
    spells, or None when it spells none; ``volapuk`` for a word of a text in volapuk."""
    result = _words.get((word, volapuk))
    if result is None:
        if len(_words) >= _CACHE_LIMIT:
            _words.clear()
        result = _words[word, volapuk] = _read(word, volapuk)
    return result or None


def clear_caches() -> None:
    """Forget every word read (benchmarks use this for cold runs)."""
    _words.clear()


@cache
def versions() -> str:
    """What the readings depend on, for the profile's fingerprint."""
    return f"iuliia {metadata.version('iuliia')}; {wordfreq_version()}"
