"""A normalized text and its words → the Latin words in it that are Russian words transliterated.

A Latin word is read as Russian (:func:`canon.text.translit.read_back`) only where that is
what it is:

- in Russian text: at least half of the text's words are Cyrillic or Latin words that read as
  Russian ones;
- not an English word (``online``, ``google``, ``moment``), except a short one (up to three
  letters: ``na``, ``v``, ``po``, ``let``) with no English word beside it: ``pogodu na
  vyhodnyh`` is Russian, ``vitamin c`` and ``just do it`` are not;
- not a name or an acronym: capitals after the first letter (``SEO``, ``iPhone``) keep a word
  as written, and a capitalized word (``Moskva``, ``Lada``) is read only in a text with a fair
  share of lower-case transliterated words, where it is a sentence's first word or a name
  transliterated with the rest;
- not part of an address (``znak.com``, ``/novosti/``), and not a character that only
  normalization made Latin (``№`` is ``no``);
- a one-letter word only as a Russian one (``v``, ``s``, ``k``, ``i``...).

A text whose Latin letters often stand beside the digits volapuk writes for letters
(``M0skBe``, ``6ygem``: three times at least, once in fifty Latin letters) is read as volapuk,
whose spellings then come first (``n0`` is ``по``, not ``но``; :func:`read_back`).

The common case costs little: only the text's distinct words in plain ASCII letters are looked
at (a letter with a mark, ``č``, is one once the profile strips marks, as ``lemma`` does),
each reading is remembered, and the text is searched for places only when one of them reads
as Russian, or when Latin words stand beside a sign for ``ь`` (``mal'chik``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .normalize import IGNORABLE, Normalized, drop_marks
from .translit import LATIN_LETTERS, ONE_LETTER_WORDS, VOLAPUK_DIGITS, is_english, read_back

__all__ = [
    "LatinMode",
    "LatinWord",
    "clear_caches",
    "in_volapuk",
    "latin_mode",
    "read_spaced",
    "russian_words",
]

_LETTERS = f"{LATIN_LETTERS}{VOLAPUK_DIGITS}"  # volapuk writes a few digits for letters
_LATIN_WORD = re.compile(f"[{_LETTERS}]+(?:-[{_LETTERS}]+)*")
_SIGNS = "'\u2019`"
_CORE = f"[{_LETTERS}]+(?:[{_SIGNS}]+[{_LETTERS}]+)*[{_SIGNS}]*"
# A run of Latin letters (with the signs for ь and ъ) that is a whole word; with hyphens kept,
# a whole hyphenated word.
_SITE = {
    False: re.compile(f"(?<![^\\W_]){_CORE}(?![^\\W_])"),
    True: re.compile(f"(?<![^\\W_])(?<![^\\W_]-){_CORE}(?:-{_CORE})*(?![^\\W_])(?!-[^\\W_])"),
}
_WORD_BEFORE = re.compile(r"([^\W_]+)[\W_]*\Z")
_WORD = re.compile(r"[^\W_]+")
_ADDRESS_SIGNS = "./@_:"
_WORD_SIGNS = f"{_SIGNS}\u02b9\u02ba"  # signs for ь and ъ, as punctuation or as letters
_LETTERS_AND_SIGNS = f"{_SIGNS}\u02b9\u02ba-\u2010\u2011"
_SHORT = 3  # letters of a short word: English-looking, but Russian among Russian words
# Capitalized words are read only among this many lower-case ones (and this share of words).
_MIN_LOWER = 2
_LOWER_SHARE = 0.05
_CACHE_LIMIT = 1_000_000
# A volapuk text: a Latin letter beside a volapuk digit this often, and for this share of
# its Latin letters.
_MIN_VOLAPUK = 3
_VOLAPUK_SHARE = 0.02
_MIXED = re.compile(
    f"[a-zA-Z](?=[{VOLAPUK_DIGITS}])|[{VOLAPUK_DIGITS}](?=[a-zA-Z])"
    # or, among letters spaced apart, a digit alone before a letter alone
    f"|(?<=\\s)[{VOLAPUK_DIGITS}](?=\\s[a-zA-Z]\\s)"
)
_LATIN_SHARE = 4  # a volapuk text: one letter in this many Latin at least
_LATIN_PER_RUSSIAN = 2  # Latin letters a Russian one may stand beside in a Russian text
_NO_LATIN = dict.fromkeys(map(ord, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
_NO_RUSSIAN = dict.fromkeys([*range(0x0410, 0x0450), ord("ё"), ord("Ё")])

# Every word form looked at, and those among them that some text could read as Russian: a
# text's forms are sorted by two set operations, at C speed.
_seen: set[str] = set()
_candidates: set[str] = set()
_latin_forms: set[str] = set()


@dataclass(frozen=True, slots=True)
class LatinWord:
    """Characters ``[start, end)`` of the normalized text: a Latin word that spells
    ``russian``."""

    start: int
    end: int
    latin: str
    russian: str


def _latin(word: str) -> bool:
    return (
        (word.isascii() or word[0] < "\u0400")
        and _LATIN_WORD.fullmatch(word) is not None
        and not word.isdigit()
    )


def _may_be_russian(word: str) -> bool:
    """A Latin word some text could read as Russian: it spells a dictionary word, and is no
    longer English word."""
    if read_back(word) is None:
        return False
    return len(word) <= _SHORT or not is_english(word)


def _sort(distinct: set[str]) -> None:
    """Remember which of the new forms are Latin, and which could read as Russian."""
    new = distinct.difference(_seen)
    if not new:
        return
    if len(_seen) + len(new) > _CACHE_LIMIT:
        clear_caches()
    latin = {w for w in new if _latin(w)}
    _latin_forms.update(latin)
    _candidates.update(filter(_may_be_russian, latin))
    _seen.update(new)


def clear_caches() -> None:
    """Forget every form sorted (benchmarks use this for cold runs)."""
    for forms in (_seen, _candidates, _latin_forms):
        forms.clear()


def _stays_english(word: str) -> bool:
    """An English word no rule reads as Russian."""
    if not (_latin(word) and is_english(word)):
        return False
    return len(word) > _SHORT or read_back(word) is None


def _beside(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """The words just before and just after ``[start, end)``, with their starts."""
    beside = []
    before = _WORD_BEFORE.search(text, max(start - 50, 0), start)
    if before:
        beside.append((before.start(1), before.group(1)))
    after = _WORD.search(text, end, end + 50)
    if after:
        beside.append((after.start(), after.group()))
    return beside


def _staying(text: str, short: list[LatinWord]) -> set[int]:
    """The starts of the short English words that stay English: those beside an English word
    that stays, or beside one of them (``just do it``: ``do`` beside ``just``, then ``it``)."""
    staying: set[int] = set()
    changed = True
    while changed:
        changed = False
        for word in short:
            if word.start in staying:
                continue
            beside = _beside(text, word.start, word.end)
            if any(at in staying or _stays_english(other) for at, other in beside):
                staying.add(word.start)
                changed = True
    return staying


def _in_address(text: str, start: int, end: int) -> bool:
    """Part of an address: ``znak.com``, ``mail@ya``, ``/novosti/``."""
    before, after = text[max(start - 2, 0) : start], text[end : end + 2]
    return (len(before) == 2 and before[1] in _ADDRESS_SIGNS and before[0].isalnum()) or (
        len(after) == 2 and after[0] in _ADDRESS_SIGNS and after[1].isalnum()
    )


def _letter_like(char: str) -> bool:
    """A letter, a digit volapuk writes, a sign for ь or ъ, a hyphen, a mark or an invisible
    character."""
    return (
        char.isalpha()
        or char in _LETTERS_AND_SIGNS
        or char in VOLAPUK_DIGITS
        or unicodedata.category(char)[0] in "MC"
    )


def _case(original: str) -> str:
    """``lower``, ``title`` (``Moskva``, ``V``) or ``name`` for an original that must stay as
    written: capitals after the first letter, or characters that are no letters (``№``)."""
    if not all(_letter_like(c) for c in original):
        return "name"
    letters = [c for c in original if c.isalpha()]
    if not any(c.isupper() for c in letters):
        return "lower"
    return "name" if any(c.isupper() for c in letters[1:]) else "title"


def _sites(text: str, forms: set[str], keep_hyphens: bool) -> list[re.Match[str]]:
    """The places of Latin words: with signs for ь between Latin letters every Latin word
    (one word may then stand for several as tokenized), otherwise each whole occurrence of one
    of ``forms`` (found by ``str.find``)."""
    pattern = _SITE[keep_hyphens]
    if any(sign in text for sign in _WORD_SIGNS):
        return list(pattern.finditer(text))
    sites = []
    for form in forms:
        at = text.find(form)
        while at != -1:
            found = pattern.match(text, at)
            if found and found.end() == at + len(form):
                sites.append(found)
            at = text.find(form, at + len(form))
    return sorted(sites, key=lambda m: m.start())


# Capitals that volapuk writes for the Cyrillic capitals they look like, inside a word
# (``cTapblu``, ``cmoJIe``), and the three whose lower-case letter reads otherwise even first
# (``Ha`` is на, ``Ba3a`` ваза): H, B and JI.
_VISUAL = (("JI", "л"), ("H", "н"), ("B", "в"))
_VISUAL_INSIDE = str.maketrans("TMKPCAEOXY", "тмкрсаеоху")


def _visual(original: str) -> str | None:
    """The word with the capitals volapuk writes for Cyrillic letters read as those letters,
    in lower case but for a capital first letter; None when it has none."""
    original = drop_marks(IGNORABLE.sub("", original), True)
    if original.isupper():  # an acronym (BBC, HTML), or a word in capitals: as written
        return None
    inside = original[:1] + original[1:].translate(_VISUAL_INSIDE)
    for latin, cyrillic in _VISUAL:
        inside = inside.replace(latin, cyrillic)
    if inside == original:
        return None
    return inside[:1] + inside[1:].lower()


def _reading(
    norm: Normalized, text: str, site: re.Match[str], volapuk: bool
) -> tuple[str, LatinWord] | None:
    """The case of a Latin word that may be Russian, and its reading; None when it is not:
    no reading, an address, a name, a one-letter word that is no Russian one, or a longer
    English word."""
    start, end = site.span()
    latin = site.group()
    original = norm.original[slice(*norm.span(start, end))]
    hinted = _visual(original)
    visual = hinted and read_back(hinted.lower(), volapuk=volapuk)
    russian = visual or read_back(latin, volapuk=volapuk)
    if russian is None or _in_address(text, start, end):
        return None
    case = _case(original if hinted is None or russian != visual else hinted)
    letters = sum(c.isalpha() or c in VOLAPUK_DIGITS for c in latin)
    if case == "name" or (letters == 1 and russian not in ONE_LETTER_WORDS):
        return None
    if letters > _SHORT and is_english(latin):
        return None
    return case, LatinWord(start, end, latin, russian)


def in_volapuk(text: str) -> bool:
    """Whether ``text`` is written in volapuk: a quarter of its letters Latin at least, and at
    least three times, and for one Latin letter in fifty, a Latin letter beside a digit
    volapuk writes for a letter (``m0ct``, ``6ygem``, letters spaced apart or not)."""
    mixed = len(_MIXED.findall(text))
    if mixed < _MIN_VOLAPUK:
        return False
    letters = len(text) - len(text.translate(_NO_LATIN))
    russian = len(text) - len(text.translate(_NO_RUSSIAN))
    return mixed >= _VOLAPUK_SHARE * letters and letters * _LATIN_SHARE >= letters + russian


@dataclass(frozen=True, slots=True)
class LatinMode:
    """How a text's Latin letters are read: as possibly Russian (``latin``), and with
    volapuk's spellings first (``volapuk``)."""

    latin: bool = False
    volapuk: bool = False


def latin_mode(text: str) -> LatinMode:
    """How to read ``text``'s Latin letters: as Russian ones too where a third of its letters
    at least are Russian (transliteration spells a Russian letter with one or two Latin
    ones), or where it is volapuk (:func:`in_volapuk`), whose spellings then come first."""
    latin = len(text) - len(text.translate(_NO_LATIN))
    if not latin:
        return LatinMode()
    volapuk = in_volapuk(text)
    russian = len(text) - len(text.translate(_NO_RUSSIAN))
    return LatinMode(latin=volapuk or russian * _LATIN_PER_RUSSIAN >= latin, volapuk=volapuk)


def read_spaced(forms: tuple[str, ...], mode: LatinMode) -> tuple[str, ...]:
    """Words joined from letters spaced apart, each Latin one that spells a Russian word (and
    is no longer English word) read as it, where ``mode.latin``."""
    if not mode.latin:
        return forms
    out = []
    for form in forms:
        word = form.lower()
        russian = _latin(word) and _may_be_russian(word) and read_back(word, volapuk=mode.volapuk)
        out.append(russian or form)
    return tuple(out)


def _readings(
    norm: Normalized, text: str, sites: list[re.Match[str]], volapuk: bool
) -> list[tuple[str, LatinWord]]:
    found = [r for r in (_reading(norm, text, s, volapuk) for s in sites) if r]
    short = [w for _, w in found if is_english(w.latin)]
    staying = _staying(text, short) if short else set()
    return [(case, word) for case, word in found if word.start not in staying]


def russian_words(
    norm: Normalized,
    text: str,
    words: list[str],
    *,
    keep_hyphens: bool,
    distinct: set[str] | None = None,
) -> list[LatinWord]:
    """The Latin words of ``text`` (the normalized text, hyphens written ``-``) to write in
    Cyrillic; ``words`` are its words as tokenized (``distinct`` their set, when known)."""
    distinct = set(words) if distinct is None else distinct
    plain = set(filter(str.isascii, distinct))  # Latin letters without marks, and numbers
    _sort(plain)
    forms = plain.intersection(_candidates)
    # Without a word that reads as Russian, Latin words may still do joined by a sign for ь.
    signs = not plain.isdisjoint(_latin_forms) and any(s in text for s in _WORD_SIGNS)
    if not forms and not signs:
        return []
    sites = _sites(text, forms, keep_hyphens)
    found = _readings(norm, text, sites, in_volapuk(text))
    if not found:
        return []
    lettered = len(words) - sum(map(str.isdigit, words))
    cyrillic = len(words) - sum(map(str.isascii, words))
    if 2 * (cyrillic + len(found)) < lettered:
        return []
    lower = sum(1 for case, _ in found if case == "lower")
    titles = lower >= max(_MIN_LOWER, lettered * _LOWER_SHARE)
    return [word for case, word in found if titles or case == "lower"]
