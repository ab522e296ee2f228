"""Characters that pose as Russian letters inside Russian words, put back before normalization.

A copywriter makes a copied text look new by writing some letters of its words in characters
that look the same: Latin ``o``, Greek ``ο``, Armenian ``օ``, a small capital ``ᴏ``, a
mathematical ``𝐨``, the digit ``0``, Bengali ``০``, two letters for one (``bl`` for ``Ы``); by
putting a sign where a letter goes (``с@бака``, ``соб)ка``); or by putting a character inside
a word that a font draws as nothing or almost nothing (a private use character, a modifier
letter ``ʰ``).  Which characters look like which Russian letter is not a table of ours: it is
the Unicode confusables data (UTS #39) as the ``confusable-homoglyphs`` package ships it, read
as classes of characters that look alike; every character in the class of a Russian letter
(case kept: ``B`` is ``В``, ``b`` is ``Ь``) is its *twin*, and a sequence whose characters are
in the classes of a letter's multi-character prototype (``bl``, ``Ьl``, ``b|`` for ``Ы``;
``lO`` for ``Ю``) stands for that letter.

The fold looks at the original text, before NFKC and casefold can turn a twin into some other
letter (a lunate sigma ``ϲ`` would become ``σ``).  It replaces one character by one character,
so every offset of the text still holds: a character read as nothing becomes U+2060 WORD
JOINER, which normalization then removes inside the word.  In a segment of a word (between
spaces, hyphens, apostrophes, and the dashes, brackets, quotes and sentence punctuation that
do not sit between two Russian letters) with at least one Russian letter:

- letters of other scripts (or other Cyrillic letters) that have twins are folded to them,
  when every such letter in the segment has one (``сoбака``, ``ϲобака``; ``seo``, a segment
  with no Russian letter, and ``Ⓐбв``, with a letter that has none, stay);
- private use characters (no letter of any alphabet; most fonts draw none) are read as
  nothing;
- everything else is read by the dictionary: a digit or sign with a twin (``0`` for ``о``, ``3``
  for ``з``, ``6`` for ``б``, ``×`` for ``х``) anywhere in the segment, any other character
  between two Russian letters (``4`` in ``с4ёт``, ``@`` in ``с@бака``, a bracket, a dash, a
  letter of another script), and a modifier letter at the segment's edge, are each
  tried as every Russian letter and as nothing; the word they make must be a word of pymorphy3's
  dictionary, of three letters or more when a sign was read or a letter put in (the fewest
  letters put in, then the likeliest by wordfreq). Sentence punctuation and slashes between
  letters are read so only between three letters, before one only after three, and punctuation
  never before a capital (``м/с``, ``т.е.``, ``ул.Мира``, ``конец.Начало`` stay); a sign between
  two dictionary words stays unless the one word is much likelier than the two
  (``кошка+собака``). ``3d`` or ``5го`` stay as typed.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from itertools import product

import regex

from .frequency import one_word_likelier, zipf
from .lemmatize import is_known
from .normalize import IGNORABLE, drop_marks

__all__ = [
    "GONE",
    "Folded",
    "fold_lookalikes",
    "sequence_letter",
    "sequences",
    "twins",
    "version",
]

RUSSIAN = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
_RUSSIAN = frozenset(RUSSIAN)
_LOWER = RUSSIAN[:33]
# What ends a segment: white space, dashes, brackets, quotation marks, apostrophes, slashes
# and sentence punctuation (each has rules of its own, or ends a word).
_BREAKS = r"\s\p{Z}\p{Cc}\p{Pd}\p{Ps}\p{Pe}\p{Pi}\p{Pf}.,;:!?…/\\'\"’ʼ`"
_SEGMENT = regex.compile(f"[^{_BREAKS}]+")
# Of those, what may still stand inside a word when it sits between two Russian letters: all
# but spaces, controls, hyphens and apostrophes (the hyphen and transliteration rules read them).
_JOINABLE = regex.compile(r"[^\s\p{Z}\p{Cc}\-\u2010\u2011'’ʼ`]")
_SENTENCE_SIGNS = frozenset(".,;:!?…")
_SEPARATORS = _SENTENCE_SIGNS | frozenset("/\\")  # what abbreviations are built with: м/с, т.е.
_ANY_SIGNS = 2  # with more characters to read than this, each is read as nothing (34² tries)
_MIN_READING = 3  # letters of a word read by the dictionary
# Marks and format characters: other rules.  A spacing mark (Mc) is visible and read here.
_IGNORED = frozenset({"Mn", "Me", "Cf"})
_QUIET = r"[\p{Mn}\p{Me}\p{Cf}]*"
_LETTER_BEFORE = regex.compile(f"[{RUSSIAN}]{_QUIET}\\Z")
_LETTER_AFTER = regex.compile(f"{_QUIET}[{RUSSIAN}]")
# A Russian letter and then anything but a Russian letter, a space, a hyphen or an apostrophe
# before the next Russian letter: the place of a sign, a bracket, an invisible or foreign
# character inside a word.
_BETWEEN = regex.compile(
    f"[{RUSSIAN}]{_QUIET}(?=[^{RUSSIAN}\\s\\p{{Z}}\\p{{Cc}}\\-\u2010\u2011'’ʼ`]{_QUIET}[{RUSSIAN}])"
)
GONE = "\u2060"  # what a character read as nothing becomes: WORD JOINER, dropped in words


@dataclass(frozen=True, slots=True)
class Folded:
    """Characters ``[start, end)`` of the text: a segment written with characters posing as
    Russian letters, ``original`` as typed and ``folded`` as read (lower case)."""

    start: int
    end: int
    original: str
    folded: str


def _confusables() -> dict[str, list[dict[str, str]]]:
    return json.loads(  # type: ignore[no-any-return]
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )


@cache
def _classes() -> dict[str, str]:
    """Every character and character sequence of the confusables data → its class (a
    representative): characters that look alike share one."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, homoglyphs in _confusables().items():
        for homoglyph in homoglyphs:
            # Right-to-left characters come wrapped in left-to-right marks: the mark is no part
            # of the look (Arabic ہ, Hebrew ס for о).
            parent[root(homoglyph["c"].strip("\u200e\u200f"))] = root(char.strip("\u200e\u200f"))
    return {char: root(char) for char in parent}


@cache
def twins() -> dict[str, str]:
    """Every single character that looks like a Russian letter (by the Unicode confusables
    data), and that letter; Russian letters themselves are not listed."""
    classes = _classes()
    letter_of = {classes[letter]: letter for letter in RUSSIAN if letter in classes}
    return {
        char: letter_of[root]
        for char, root in classes.items()
        if len(char) == 1 and char not in _RUSSIAN and root in letter_of
    }


@cache
def sequences() -> dict[tuple[str, ...], str]:
    """The classes of the characters of each multi-character sequence that looks like one
    Russian letter (``bl`` for ``Ы``, ``lO`` for ``Ю``), and that letter."""
    classes = _classes()
    found: dict[tuple[str, ...], str] = {}
    for char, root in classes.items():
        letter = char if char in _RUSSIAN else None
        if letter is None:
            continue
        for other, other_root in classes.items():
            if other_root == root and len(other) > 1:
                found[tuple(classes.get(c, c) for c in other)] = letter
    return found


def sequence_letter(chars: str) -> str | None:
    """The Russian letter the characters ``chars`` pose as together (``bl`` → ``Ы``), or
    None."""
    classes = _classes()
    key = tuple(classes.get(c.upper() if c in _RUSSIAN else c, c) for c in chars)
    return sequences().get(key)


def version() -> str:
    """The confusables data the twins come from, for the profiles' fingerprints."""
    return f"confusable-homoglyphs {metadata.version('confusable-homoglyphs')}"


@cache
def _other_runs() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Runs of letters or digits of another kind than Russian letters, and of the few twins
    that are no word characters (``×``, ``∏``): few in a Russian text, each looked at."""
    symbols = "".join(sorted(c for c in twins() if not re.match(r"\w", c)))
    for special in "\\]-[^":
        symbols = symbols.replace(special, "\\" + special)
    return re.compile(f"[^\\W_{RUSSIAN}]+"), re.compile(f"[{symbols}]+")


def _suspects(text: str) -> list[int]:
    """Where a Russian letter stands beside a letter, digit or twin of another kind, or
    another character between two Russian letters: the places a segment may need a look."""
    places = [m.start() for m in _BETWEEN.finditer(text)]
    last = len(text)
    for pattern in _other_runs():
        for run in pattern.finditer(text):
            start, end = run.span()
            if (start and text[start - 1] in _RUSSIAN) or (end < last and text[end] in _RUSSIAN):
                places.append(start)
    return sorted(places)


def fold_lookalikes(text: str) -> tuple[str, tuple[Folded, ...]]:
    """``text`` with every character posing as a Russian letter put back (as many characters
    as before), and each segment folded.  Only the segments around a suspect place are read."""
    suspects = _suspects(text)
    if not suspects:
        return text, ()
    chars = list(text)
    found = []
    done = -1
    for at in suspects:
        if at < done:
            continue
        span = _word_span(text, at)
        if span is None:
            continue
        start, done = span
        word = text[start:done]
        folded = _fold_segment(word)
        if folded is not None and folded != word:
            chars[start:done] = folded
            found.append(Folded(start, done, word, _reading(folded)))
    return "".join(chars), tuple(found)


def _segment_start(text: str, at: int) -> int:
    """Where the segment holding the character at ``at`` starts."""
    while at > 0 and _SEGMENT.match(text, at - 1, at) is not None:
        at -= 1
    return at


def _joins(text: str, at: int) -> bool:
    """Whether the character at ``at`` ends no segment: it sits between two Russian letters
    (marks and format characters aside) and is no space, hyphen or apostrophe."""
    return (
        _JOINABLE.match(text, at) is not None
        and _LETTER_BEFORE.search(text, max(0, at - 8), at) is not None
        and _LETTER_AFTER.match(text, at + 1, at + 9) is not None
    )


def _word_span(text: str, at: int) -> tuple[int, int] | None:
    """The segment holding ``at``, with up to _ANY_SIGNS more segments joined across signs
    that sit between Russian letters (``соб)ака``)."""
    start = _segment_start(text, at)
    if _joins(text, at) and start == at:  # the suspect is the sign itself
        start = _segment_start(text, at - 1) if at else at
    segment = _SEGMENT.match(text, start)
    if segment is None:
        return None
    end = segment.end()
    for _ in range(_ANY_SIGNS):
        following = _SEGMENT.match(text, end + 1) if end < len(text) else None
        if following is None or not _joins(text, end):
            break
        end = following.end()
    for _ in range(_ANY_SIGNS):
        if start < 2 or not _joins(text, start - 1):
            break
        start = _segment_start(text, start - 1)
    return start, end


def _reading(word: str) -> str:
    """The word as the dictionary would look it up: no marks, no invisible characters."""
    return drop_marks(IGNORABLE.sub("", unicodedata.normalize("NFKC", word)), True).casefold()


def _sequence_folds(word: str) -> dict[int, str]:
    """Each sequence of characters posing as one Russian letter (with a character that is no
    Russian letter): its first position → the letter, the others → nothing.  Russian letters
    in a sequence count as their capitals (``ьI`` is ``ЬI``, so ``ы``), and the letter takes
    the case of the sequence's first character."""
    table = sequences()
    classes = _classes()
    folds: dict[int, str] = {}
    i = 0
    while i < len(word):
        for size in (2, 3):
            piece = word[i : i + size]
            if len(piece) < size or all(c in _RUSSIAN for c in piece):
                continue
            key = tuple(classes.get(c.upper() if c in _RUSSIAN else c, c) for c in piece)
            letter = table.get(key)
            if letter:
                letter = letter.lower() if piece[0].islower() else letter
                folds.update({i: letter, **{j: GONE for j in range(i + 1, i + size)}})
                i += size - 1
                break
        i += 1
    return folds


def _fold_segment(word: str) -> str | None:
    """The segment with its posing characters folded, or None when it is not such a word;
    sequences posing as one letter only where that makes a dictionary word."""
    if not any(c in _RUSSIAN for c in word):
        return None
    sequence = _sequence_folds(word)
    folded = _folded(word, sequence) if sequence else None
    if folded is not None and is_known(_reading(folded)):
        return folded
    folded = _folded(word, {})
    if folded is None and "Co" in map(unicodedata.category, word):  # private use goes anyway
        return "".join(GONE if unicodedata.category(c) == "Co" else c for c in word)
    return folded


def _folded(word: str, letters: dict[int, str]) -> str | None:
    """The segment folded, ``letters`` given (position → letter: the sequences)."""
    table = twins()
    letters = dict(letters)  # position → its twin: letters of other scripts
    signs: dict[int, str] = {}  # position → its twin: digits and signs
    inside: list[int] = []  # other characters between Russian letters: any letter, or none
    edges: list[int] = []  # modifier letters at the edge: none, or stay
    foreign = False  # a letter of another script among them: a real word unless read
    for i, char in enumerate(word):
        if char in _RUSSIAN or i in letters:
            continue
        category = unicodedata.category(char)
        if char in table:  # a letter, or a spacing mark that looks like one (Telugu ం)
            (letters if category[0] in "LM" else signs)[i] = table[char]
        elif _quiet(char) or "\u0400" <= char <= "\u052f":  # marks, another alphabet's letter
            continue
        elif category == "Co":  # private use: no letter of any alphabet, often drawn as none
            letters[i] = GONE
        elif _between_letters(word, i):
            inside.append(i)
            foreign |= category[0] == "L"
        elif category == "Lm" and _beside_letter(word, i):
            edges.append(i)
            foreign = True
        else:  # a letter of another alphabet, or a number or sign at the edge: a real word
            return None
    if not signs and not inside and not edges:
        return _one_too_many(word, letters)
    read = _by_dictionary(word, {**letters, **signs}, inside, edges)
    if read is None and foreign:
        return None
    return read or _with(word, letters)


def _one_too_many(word: str, letters: dict[int, str]) -> str:
    """The segment with its twins folded; where that is no dictionary word, one twin or
    letter of another Cyrillic alphabet put into it read as nothing, when that makes one
    (``соГбака``, ``соЀбака`` with a letter too many)."""
    folded = _with(word, letters)
    if is_known(_reading(folded)):
        return folded
    extra = [i for i, c in enumerate(word) if i in letters or "\u0400" <= c <= "\u052f"]
    extra = [i for i in extra if word[i] not in _RUSSIAN and _between_letters(word, i)]
    best, best_zipf = folded, -1.0
    for i in extra[: _ANY_SIGNS * 2]:
        candidate = _with(word, {**letters, i: GONE})
        reading = _reading(candidate)
        if len(reading) >= _MIN_READING and is_known(reading) and zipf(reading) > best_zipf:
            best, best_zipf = candidate, zipf(reading)
    return best


def _quiet(char: str) -> bool:
    return unicodedata.category(char) in _IGNORED or IGNORABLE.match(char) is not None


def _neighbour(word: str, i: int, step: int) -> str:
    """The first character from ``i`` on (by ``step``) that is no mark or invisible one."""
    while 0 <= i < len(word) and _quiet(word[i]):
        i += step
    return word[i] if 0 <= i < len(word) else ""


def _between_letters(word: str, i: int) -> bool:
    return _neighbour(word, i + 1, 1) in _RUSSIAN and _neighbour(word, i - 1, -1) in _RUSSIAN


def _beside_letter(word: str, i: int) -> bool:
    """A character at either end of the segment with a Russian letter beside it."""
    return (i == len(word) - 1 and word[i - 1 : i] in _RUSSIAN and i > 0) or (
        i == 0 and word[1:2] in _RUSSIAN and len(word) > 1
    )


def _with(word: str, folds: dict[int, str]) -> str:
    return "".join(folds.get(i, c) for i, c in enumerate(word))


def _by_dictionary(
    word: str, fixed: dict[int, str], inside: list[int], edges: list[int]
) -> str | None:
    """The segment with the characters at ``inside`` read as Russian letters or as nothing,
    those at ``edges`` as nothing, and ``fixed`` as given, when that makes a word of the
    dictionary: the likeliest such word, or None.  Readings with fewer letters put for
    characters other than signs come first: such a character put into a word explains it
    better than one put for a letter (``настʹой`` is ``настой``, not ``настрой``), where a
    sign is as often either (``по!учает`` is ``получает``)."""
    places = inside + edges
    options = [(GONE, *_LOWER)] * len(inside) + [(GONE,)] * len(edges)
    if len(places) > _ANY_SIGNS:  # too many to try each letter: only all read as nothing
        options = [(GONE,)] * len(places)
    is_sign = [unicodedata.category(word[i])[0] in "PS" for i in places]
    found: dict[int, tuple[float, str]] = {}  # letters put in → the likeliest reading
    for choice in product(*options):
        put = sum(c != GONE and not sign for c, sign in zip(choice, is_sign))
        candidate = _with(word, {**fixed, **dict(zip(places, choice))})
        reading = _reading(candidate)
        short = len(reading) < _MIN_READING and (put or any(is_sign))
        if short or not is_known(reading):
            continue
        frequency = zipf(reading)
        if frequency > found.get(put, (-1.0, ""))[0] and _signs_read(word, candidate, inside):
            found[put] = (frequency, candidate)
    return found[min(found)][1] if found else None


def _signs_read(word: str, candidate: str, inside: list[int]) -> bool:
    """Whether each sign between letters may be read as ``candidate`` reads it: sentence
    punctuation and slashes only between three letters, before one only after three, and
    sentence punctuation not before a capital; no sign between two dictionary words that make
    a less likely word together."""
    bounds = [-1, *inside, len(word)]
    for before, i, after in zip(bounds, bounds[1:], bounds[2:]):
        if unicodedata.category(word[i])[0] not in "PS":
            continue
        left, right = _reading(candidate[before + 1 : i]), _reading(candidate[i + 1 : after])
        reading = _reading(candidate)
        capital = candidate[i + 1 : after].lstrip(GONE)[:1].isupper()
        short = len(left + right) < 3 or (len(right) < 2 and len(left) < 3)
        if word[i] in _SEPARATORS and (short or (capital and word[i] in _SENTENCE_SIGNS)):
            return False
        if (
            min(len(left), len(right)) >= 2
            and is_known(left)
            and is_known(right)
            and not one_word_likelier(reading, left, right)
        ):
            return False
    return True
