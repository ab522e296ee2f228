"""Words written with several tricks at once → the dictionary words a reader reads in them.

Each single trick has a rule of its own (:mod:`.lookalikes`, :mod:`.normalize`,
:mod:`.spacing`, :mod:`.translit`), and each rule reads a word the other tricks left alone.  A
copywriter who stacks tricks leaves no such word: ``оʲбнː𝐚рʺужи}лиʰ`` carries modifier letters,
a mathematical ``𝐚`` and a bracket at once, ``с0з д а л и`` is spaced apart with a digit for a
letter, ``pροgοlzhαyuτ`` mixes volapuk with Greek look-alikes.  This module reads such text as
a noisy channel, by one search in which every trick is an edit with a cost:

- inside a piece of text between spaces, every character is read as what it may stand for: a
  Russian letter as itself, a look-alike (the Unicode confusables data, :func:`.twins` and
  :func:`.sequences`) as its letter, a Latin letter or a digit as the Cyrillic letters the
  transliteration schemas and volapuk spell with it (:mod:`.translit`), any other sign between
  letters as any letter, and any character but a Russian letter as nothing (invisible
  characters, marks and private use characters for free, modifier letters, signs, digits and
  letters of other scripts at a growing cost); in a text written in volapuk its spellings
  cost nothing (``n`` is п, ``m`` т).  pymorphy3's dictionary prunes the search: a
  beginning no dictionary word has is dropped at once.  The reading is the dictionary word of
  least cost, the likelier word (wordfreq) among equals;
- where the pieces are short (letters spaced apart, whatever else is done to them) or parted by
  invisible characters that may be spaces, the pieces are grouped into words by the most
  likely segmentation (Viterbi over the places that may part words, each word costing its
  reading and its unigram improbability), so ``Г л̣а в̇а`` is one word and ``я и ты`` three.

Only the pieces the other rules cannot read are looked at: a piece of Russian letters (with
hyphens and the punctuation around it), of digits, or of ASCII alone is never a candidate (but
for signs between Latin letters, ``g@nHym``, ``tak>|<e``, in a text whose Latin letters may be
Russian: :func:`.latin.latin_mode`), nor one whose plain reading is already a dictionary
word; one mixing Russian letters with Latin letters or digits (``ГолосUA``, ``30км``,
``с0бака``) is theirs too, unless it stands among letters spaced apart.  The text is
rewritten one character for one, as :func:`.fold_lookalikes` does: a character read as a
letter becomes that letter, one read as nothing (and a space inside a word) the combining mark
U+0334, which normalization removes, and an invisible character read as a space a space.
Each word so read is reported as a :class:`.Folded` segment.
"""

from __future__ import annotations

import heapq
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

import regex

from .frequency import zipf
from .latin import LatinMode, latin_mode
from .lemmatize import is_known, known_prefix
from .lookalikes import RUSSIAN, Folded, sequence_letter, twins
from .normalize import IGNORABLE, typed_for_spaces
from .tokenize import twin_letter
from .translit import is_english, spellings

__all__ = ["GONE", "read_garbled"]

GONE = "\u0334"  # COMBINING TILDE OVERLAY: composes with nothing, removed with every mark
_LOWER = RUSSIAN[:33]
_PLAIN = LatinMode()  # Latin letters read as typed
_RUSSIAN = frozenset(RUSSIAN)
# A piece the other rules read: Russian words (hyphenated or not), numbers, Latin words, with
# punctuation around them and between them.
_WORD = r"(?:[а-яёА-ЯЁ]+|\d+|\p{Latin}+)"
_CLEAN = regex.compile(
    rf"[\p{{P}}\p{{S}}]*{_WORD}(?:[-\u2010\u2011'’.,:/]+{_WORD})*[\p{{P}}\p{{S}}]*"
)
_MIXED = regex.compile(r"[\p{P}\p{S}]*[а-яёА-ЯЁA-Za-z0-9\-\u2010\u2011]+[\p{P}\p{S}]*")
_PIECE = regex.compile(r"[^\s\p{Z}]+")
# Lines, a line that ends inside a word with a hyphen or a soft hyphen running on.
_LINES = regex.compile(r"(?:[^\n]*[-\u00ad\u2010][^\S\n]*\n)*[^\n]+")
_RUNS_ON = regex.compile(r"[^\S\n]*\n")  # after a line's last piece
_PUNCTUATION = r"[\p{P}\p{S}--[@#&]]"  # around a word; @, # and & may stand for letters
_LEAD = regex.compile(f"{_PUNCTUATION}*", regex.V1)
_TRAIL = regex.compile(f"{_PUNCTUATION}*$", regex.V1)
_QUIET_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc", "Co", "Cs", "Cn"})
_GAP = regex.compile(r"\p{Default_Ignorable_Code_Point}+")
_KEPT_ON = {"и": "\u0306", "И": "\u0306", "е": "\u0308", "Е": "\u0308"}  # й and ё
_HYPHENS = frozenset("-\u2010\u2011")
_SEPARATORS = frozenset(".,;:!?…/\\")
# Costs of reading a character: the cheaper a reading, the likelier the trick.
_TWIN, _SPELLING_WEIGHT, _ANY_LETTER, _EXTRA_LETTER = 0.3, 0.5, 2.0, 3.0
_DROP = {"L": 2.0, "N": 1.5, "P": 1.0, "S": 1.0, "M": 0.0, "C": 0.0, "Z": 0.0}
_DROP_MODIFIER = 0.25
_MAX_STEPS = 4_000  # states a word's search may visit: bounded time whatever the input
_MAX_CHARS = 48  # the longest piece read
_MAX_UNITS = 24  # the most pieces one word is made of
_UNKNOWN = 15.0  # the cost of a piece that reads as no word (a Zipf scale: 9 − zipf)
_UNLISTED = 1.5  # the Zipf frequency of a dictionary word missing from wordfreq's short list
_SPACE_ODDS = 2.0  # log10 odds for one word against two where an invisible gap is a space
_INSIDE_ODDS = 8.0  # the cost of a word boundary at an invisible character put in words
_SPACED_JOIN = 0.5  # the cost of joining across a space between letters spaced apart
_BLANK = regex.compile(r"[\p{Zs}\t]+")  # a gap of spaces alone, no line break
_MIN_SEPARATED = 5  # the fewest characters of a word a sentence sign or slash may be read in
_MIN_PART = 2  # the fewest letters of each part of a hyphenated word read
_MIN_LATIN = 4  # the fewest letters of a word read from Latin letters spaced apart (not volapuk)
_MIN_SIGNED = 4  # the fewest letters and digits of a Latin piece read with signs inside
_SHORT_ENGLISH = 3  # letters of a short word: English-looking, but Russian among Russian ones
_DOMAIN = regex.compile(r"\.(?:[A-Za-z]{2,3}|info|онлайн|рф)$", regex.IGNORECASE)
_PUT_IN = regex.compile(r"[а-яё]['’][а-яё]|[а-яё]{2}\d[а-яё]|[а-яё]\d[а-яё]{2}")
_POINTS = regex.compile(r"[.,:]+")  # inside a piece, no space after: may stand for a letter
_JOINERS = frozenset("'’-\u2010\u2011")  # inside a Latin word: ь, ъ, a hyphen
_EARLY = 0.5  # what a beginning may cost beyond its share: a sign for its first letters
_SHORT = 2  # pieces of this many letters or fewer may be letters spaced apart


@dataclass(frozen=True, slots=True)
class _Reading:
    """A piece's reading: the word and, for each of its characters, what it became."""

    word: str
    cost: float
    chars: tuple[str, ...]  # per character of the piece: a letter, GONE or itself


@dataclass(frozen=True, slots=True)
class _Unit:
    """A piece of text between spaces or invisible characters, and the gap after it."""

    start: int
    end: int
    gap_end: int  # where the next unit starts
    gap: str  # the characters between this unit and the next
    hyphen: bool = False  # the unit ends with a hyphen or a soft hyphen
    scripts: bool = False  # the gap parts a Russian letter from a Latin letter or a digit


def _category(char: str) -> str:
    return unicodedata.category(char)


def _quiet(char: str) -> bool:
    return _category(char) in _QUIET_CATEGORIES or IGNORABLE.match(char) is not None


@cache
def _options(volapuk: bool = False) -> tuple[dict[str, tuple[tuple[str, float], ...]], int]:
    """Every character or sequence that may stand for Russian letters (lower case), with the
    cost of reading it so (volapuk's spellings first in a text in volapuk); and the longest
    such sequence."""
    table: dict[str, dict[str, float]] = {}

    def add(spelt: str, letter: str, cost: float) -> None:
        row = table.setdefault(spelt, {})
        row[letter] = min(cost, row.get(letter, cost))

    for char, letter in twins().items():
        add(char, letter.lower(), _TWIN)
    for code in range(0x0041, 0x1E00):  # Latin, Greek and small capitals, case-folded
        folded = twin_letter(chr(code))
        if folded:
            add(chr(code), folded, _TWIN)
    for latin, readings in spellings(volapuk).items():
        for cyrillic, cost in readings:
            if cyrillic:  # the spelling most schemas give costs nothing, volapuk's one
                add(latin, cyrillic, max(0.0, cost - 1.0) * _SPELLING_WEIGHT)
    options = {k: tuple(sorted(v.items(), key=lambda i: i[1])) for k, v in table.items()}
    return options, max(map(len, options))


def _drop_cost(char: str, twin: bool) -> float:
    """What reading ``char`` as nothing costs: a character that looks like a letter is more
    likely that letter."""
    category = _category(char)
    if category == "Lm" and not twin:
        return _DROP_MODIFIER
    cost = _DROP.get(category[0], 2.0) if category != "Mc" else 1.0
    return max(cost, 1.0) if twin else cost


def _edges(core: str, pos: int, volapuk: bool) -> Iterator[tuple[int, str, float]]:
    """Every way to read the characters from ``pos`` on: (next position, letters, cost)."""
    char = core[pos]
    lower = char.lower()
    nxt = core[pos + 1 : pos + 2]
    if lower in _RUSSIAN:
        if lower == "и" and nxt == "\u0306":
            yield pos + 2, "й", 0.0
        if lower == "е" and nxt == "\u0308":
            yield pos + 2, "ё", 0.0
        yield pos + 1, lower, 0.0
        if 0 < pos < len(core) - 1:
            yield pos + 1, "", _EXTRA_LETTER
        return
    if _quiet(char):
        yield pos + 1, "", 0.0
        return
    base = unicodedata.normalize("NFD", char)[0]
    if base != char and base.lower() in _RUSSIAN:  # a letter with a mark: ѐ, ӧ
        yield pos + 1, base.lower(), 0.0
    options, longest = _options(volapuk)
    for size in range(1, min(longest, len(core) - pos) + 1):
        spelt = core[pos : pos + size]
        for key in {spelt, spelt.lower()}:
            for letter, cost in options.get(key, ()):
                yield pos + size, letter, cost
    for size in (2, 3):
        posing = sequence_letter(core[pos : pos + size]) if pos + size <= len(core) else None
        if posing:
            yield pos + size, posing.lower(), _TWIN
    category = _category(char)
    inside = 0 < pos < len(core) - 1
    if char in _SEPARATORS:  # т.е., м/с: only inside a longer word
        inside = inside and len(core) >= _MIN_SEPARATED
    if category[0] == "P" and _capital_after(core, pos):  # конец.Начало, «Подольск».В
        inside = False
    if category[0] in "PSN" and inside:
        for letter in _LOWER:
            yield pos + 1, letter, _ANY_LETTER
    if inside or category[0] not in "N":  # a digit at the edge is part of a number
        yield pos + 1, "", _drop_cost(char, char in twins() or twin_letter(char) is not None)


def _capital_after(core: str, pos: int) -> bool:
    """Whether a capital follows the signs from ``pos`` on, after a small letter."""
    after = next((c for c in core[pos + 1 :] if c.isalpha()), "")
    before = next((c for c in reversed(core[:pos]) if c.isalpha()), "")
    return after.isupper() and before.islower()


def _search(
    core: str, goals: dict[int, int], limit: float, volapuk: bool = False
) -> dict[int, tuple[str, float, tuple[str, ...]]]:
    """For each goal (a position of ``core`` → the key to report it by), the cheapest
    dictionary word ``core[:position]`` may be read as (the likelier among words within one
    unit of cost), its cost and each character's reading.  Hyphens part words, each of which
    must be one; no reading may cost more than ``limit``."""
    queue: list[tuple[float, int, str, tuple[str, ...]]] = [(0.0, 0, "", ())]
    seen: dict[tuple[int, str], float] = {}
    found: dict[int, list[tuple[float, str, tuple[str, ...]]]] = {}
    last = max(goals)
    for _ in range(_MAX_STEPS):
        if not queue:
            break
        cost, pos, prefix, chars = heapq.heappop(queue)
        if seen.get((pos, prefix), float("inf")) <= cost:
            continue
        seen[pos, prefix] = cost
        part = prefix.rpartition("-")[2]
        if pos in goals and part and is_known(part):
            found.setdefault(goals[pos], []).append((cost, prefix, chars))
        if pos >= last:
            continue
        if core[pos] in _HYPHENS and part and is_known(part):
            heapq.heappush(queue, (cost, pos + 1, prefix + "-", (*chars, core[pos])))
        for end, letters, extra in _edges(core, pos, volapuk):
            if cost + extra > min(limit, _limit(end) + _EARLY):  # costs grow with the letters
                continue
            read = (letters or GONE,) + (GONE,) * (end - pos - 1)
            for spelt in (letters, "ё") if letters == "е" else (letters,):  # ё as written
                if not spelt or known_prefix(part + spelt):
                    heapq.heappush(queue, (cost + extra, end, prefix + spelt, chars + read))
    best: dict[int, tuple[str, float, tuple[str, ...]]] = {}
    for key, options in found.items():
        least = min(o[0] for o in options)
        near = [o for o in options if o[0] <= least + 1.0]
        cost, word, chars = min(near, key=lambda o: o[0] - 0.5 * zipf(o[1].rpartition("-")[2]))
        best[key] = (word, cost, chars)
    return best


def _improbability(word: str) -> float:
    """−log10 of a word's unigram probability (of its last part, hyphenated)."""
    return 9.0 - (zipf(word.rpartition("-")[2]) or _UNLISTED)


def _limit(letters: int) -> float:
    """The most a reading of a word of so many characters may cost."""
    return 1.0 + 0.4 * letters


@lru_cache(maxsize=50_000)
def _read(piece: str, volapuk: bool = False) -> _Reading | None:
    """The reading of a piece (its edge punctuation kept as typed), or None when it reads as
    no word at an acceptable cost."""
    return _read_joined((piece,), volapuk).get(1)


def _read_joined(pieces: tuple[str, ...], volapuk: bool = False) -> dict[int, _Reading]:
    """The readings of ``pieces[:n]`` joined into one word, by ``n`` (where there is one)."""
    start = _core(pieces[0])[0]
    core, goals, tails = "", {}, {}
    for n, piece in enumerate(pieces, 1):
        head = start if n == 1 else 0
        end = _core(piece[head:])[1] + head if piece[head:] else head
        goals[len(core) + end - head] = n
        tails[n] = piece[end:]
        core += piece[head:]
        if len(core) > _MAX_CHARS:
            break
    goals = {pos: n for pos, n in goals.items() if pos > 0}
    if not goals or not any(_letterish(c) for c in core):
        return {}
    found = _search(core, goals, _limit(len(core)), volapuk)
    out = {}
    for n, (word, cost, chars) in found.items():
        width = sum(len(p) for p in pieces[:n]) - start - len(tails[n])
        parts = word.split("-")
        if cost > _limit(width) or min(map(len, parts)) < _MIN_PART:
            continue
        read = (*pieces[0][:start], *chars, *tails[n])
        out[n] = _Reading(word, cost, read)
    return out


def _core(piece: str) -> tuple[int, int]:
    """Where the piece's word starts and ends: the punctuation around it left out."""
    lead = _LEAD.match(piece)
    start = lead.end() if lead else 0
    trail = _TRAIL.search(piece, start)
    return start, trail.start() if trail else len(piece)


def _letterish(char: str) -> bool:
    """A letter, a digit or a look-alike of a letter; no invisible character (the Hangul
    fillers are letters to Unicode)."""
    if IGNORABLE.match(char) is not None:
        return False
    return char.isalpha() or char.isdigit() or char in twins()


def _seen(text: str, piece: regex.Match[str], typed_for_spaces: bool) -> str:
    """What a reader sees of a piece: the piece without the invisible characters put inside
    its words, or as typed where the text types them for its spaces (there they part words).
    A soft hyphen that ends a line stays: a word runs on to the next."""
    typed = piece.group()
    if typed_for_spaces:
        return typed
    if typed.endswith("\u00ad") and _RUNS_ON.match(text, piece.end()) is not None:
        return _GAP.sub("", typed[:-1]) + typed[-1]
    return _GAP.sub("", typed) or typed


def _plain(piece: str) -> str:
    """The piece as the other rules would look it up: no marks, no invisible characters."""
    decomposed = unicodedata.normalize("NFD", piece)
    kept = "".join(
        c
        for i, c in enumerate(decomposed)
        if not _quiet(c) or (i and _KEPT_ON.get(decomposed[i - 1]) == c)
    )
    text = unicodedata.normalize("NFKC", kept)
    start, end = _core(text)
    return text[start:end].casefold()


def _suspect(piece: str, mode: LatinMode = _PLAIN) -> int:
    """2 for a piece the other rules cannot read (no clean word, no dictionary word, with
    characters they do not read together), 1 for a piece mixing Russian letters with Latin
    letters or digits (theirs, unless letters spaced apart are around it), 0 otherwise.  A
    piece of ASCII alone is theirs too, unless ``latin`` (Latin words of the text may be
    Russian ones) and signs stand between its letters (``g@nHym``, ``tak>|<e``)."""
    if _PUT_IN.search(piece):  # до'ма, до0ма: an apostrophe or a digit put in a Russian word
        return 2
    if _CLEAN.fullmatch(piece):
        return 2 if mode.latin and _point_inside(piece) else 0
    if piece.isascii():
        return 2 if mode.latin and _signs_inside(piece) else 0
    plain = _plain(piece)
    if not plain or is_known(plain) or is_known(plain.replace("ё", "е")):
        return 0
    if plain.isascii():  # Latin letters and digits, with other characters put in or for them
        latin = sum(c.isalpha() for c in plain) >= 2 and not is_english(plain)
        put_in = any(_quiet(c) or (not c.isascii() and c.isalpha()) for c in piece)
        return 2 if latin and put_in else 0
    if _MIXED.fullmatch(piece):
        return 1
    return 2 if any(c.isalpha() for c in plain) else 0


def _point_inside(piece: str) -> bool:
    """Whether a piece of words joined by points, commas or colons (no space after them) is
    one word with a sign for a letter: Latin parts among them, none an English word, and
    enough letters (``so:rudniki``, ``naris.vannyy``, ``Io,ифа``; not ``lenta.ru`` once read
    as no word, nor ``т.е.`` or ``конец.Начало``)."""
    start, end = _core(piece)
    core = piece[start:end]
    parts = _POINTS.split(core)
    if len(parts) < 2 or len(core) < _MIN_SEPARATED or not any(map(_ascii_word, parts)):
        return False
    if min(map(len, parts)) < _MIN_PART:  # initials: R.I.P, A.S.Pushkin
        return False
    if _DOMAIN.search(core):  # an address: znak.com, URA.RU, tut.by
        return False
    english = (p for p in parts if _ascii_word(p) and len(p) > _SHORT_ENGLISH)
    return not any(is_english(p.lower()) for p in english)


def _ascii_word(part: str) -> bool:
    return part.isascii() and any(c.isalpha() for c in part)


def _signs_inside(piece: str) -> bool:
    """Whether an ASCII piece has signs between its letters, enough letters to be a word read
    from them, and is no English word."""
    start, end = _core(piece)
    core = piece[start:end]
    if _letters(core) < _MIN_SIGNED or not any(c.isalpha() for c in core):
        return False
    signs = any(not (c.isalnum() or c in _JOINERS) for c in core)
    return signs and not is_english(core.lower())


def _digit_in(piece: str) -> bool:
    return any(c.isdigit() for c in piece) and any(c.isalpha() for c in piece)


def _letters(piece: str) -> int:
    return sum(1 for c in piece if _letterish(c))


def _units(text: str, start: int, end: int) -> list[_Unit]:
    """The pieces of ``text[start:end]``, parted by spaces and by runs of invisible
    characters between two visible ones."""
    cuts: list[tuple[int, int]] = []
    for piece in _PIECE.finditer(text, start, end):
        pos = piece.start()
        for gap in _GAP.finditer(text, piece.start(), piece.end()):
            if gap.start() > pos and gap.end() < piece.end():
                cuts.append((pos, gap.start()))
                pos = gap.end()
        cuts.append((pos, piece.end()))
    units = []
    for (a, b), (c, _) in zip(cuts, [*cuts[1:], (end, end)]):
        change = b > a and c < end and _script(text[b - 1]) * _script(text[c]) < 0
        units.append(_Unit(a, b, c, text[b:c], text[b - 1] in "-\u00ad\u2010", change))
    return units


def _script(char: str) -> int:
    """1 for a Russian letter, −1 for a digit or a Latin letter that looks like none, 0 for
    anything else."""
    if char in _RUSSIAN:
        return 1
    if char.isdigit() or (char.isascii() and char.isalpha() and twin_letter(char) is None):
        return -1
    return 0


def _mark(piece: str, visible: str, mode: LatinMode) -> int:
    """3 for a suspect piece; 2 for a piece mixing Russian letters with Latin letters or
    digits, a short one of invisible characters alone, or a short one with marks or invisible
    characters that is no word without them (or with Latin letters and
    digits, in volapuk); 1 for a short piece; else 0.  The piece is marked as ``visible``
    (:func:`_seen`) shows it: marks and invisible characters put in a word are the other
    rules' (:mod:`.normalize`), and never make the words around it read as letters spaced
    apart (``н́а на до``, ``н␣а на до`` are no ``надо``)."""
    suspect = _suspect(visible, mode)
    if suspect:
        return suspect + 1
    short = _letters(visible) <= _SHORT + 1
    if mode.volapuk and visible.isascii() and short and _digit_in(visible):
        return 2  # a spaced letter and a digit spelling the next one: a6i
    if _letters(visible) > _SHORT:
        return 0
    if all(_quiet(c) for c in visible):
        return 2
    if _letters(visible) == 0:
        return 0
    if visible != piece or not (visible.isascii() or _CLEAN.fullmatch(visible)):
        # Invisible characters or marks in a short piece: the other rules' (:mod:`.normalize`)
        # in a word they leave a word (``н́а``, ``н͏а``); else letters
        # spaced apart with them among them (``с о б͏а к а``, ``с о б́ а к а``).
        return 1 if is_known(_plain(visible)) else 2
    return 1


def _zones(text: str, mode: LatinMode, typed_for_spaces: bool) -> list[tuple[int, int]]:
    """Stretches of text, line by line, holding a suspect piece and the short pieces beside
    it (letters spaced apart), with one piece more either side; ``typed_for_spaces`` tells
    that the text types invisible characters for its spaces."""
    spans: list[tuple[int, int]] = []
    for line in _LINES.finditer(text):
        pieces = list(_PIECE.finditer(text, line.start(), line.end()))
        marks = [_mark(p.group(), _seen(text, p, typed_for_spaces), mode) for p in pieces]
        i = 0
        while i < len(marks):
            if not marks[i]:
                i += 1
                continue
            j = i
            while j < len(marks) and marks[j]:
                j += 1
            run = marks[i:j]
            if 3 in run or (2 in run and len(run) >= 3):  # junk, or spaced with mixed words
                first, last = max(0, i - 1), min(len(pieces) - 1, j)
                spans.append((pieces[first].start(), pieces[last].end()))
            i = j
    merged: list[tuple[int, int]] = []
    for start, end in spans:  # a piece either side: zones may overlap
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _joinable(unit: _Unit, narrow: int, invisible: int, spaced: bool) -> bool:
    """Whether the gap after ``unit`` may lie inside a word."""
    if not unit.gap:
        return False
    if _GAP.fullmatch(unit.gap):
        return len(unit.gap) <= invisible
    if "\n" in unit.gap:  # a line that ends inside a word
        return unit.gap.count("\n") == 1 and unit.hyphen
    return spaced and len(unit.gap) <= narrow


def _single_cost(piece: str, mode: LatinMode) -> tuple[float, _Reading | None]:
    """The cost of a piece as one word, and its reading (None: as typed)."""
    plain = _plain(piece)
    if not any(c.isalpha() for c in plain):
        return (1.0 if plain else 0.0), None
    if is_known(plain) or _suspect(piece, mode) < 2:  # mixed words: only when spaced apart
        return (_improbability(plain) if is_known(plain) else _UNKNOWN), None
    reading = _read(piece, mode.volapuk)
    if reading is None:
        return _UNKNOWN, None
    return _improbability(reading.word) + reading.cost, reading


def _costs_from(
    text: str,
    units: list[_Unit],
    i: int,
    narrow: tuple[int, int],
    spaced: bool,
    invisible_spaces: bool,
    mode: LatinMode,
) -> dict[int, tuple[float, _Reading | None]]:
    """The cost of each word ``units[i:j]`` may make (by ``j``) and its reading."""
    out = {i + 1: _single_cost(text[units[i].start : units[i].end], mode)}
    j = i + 1
    while j < len(units) and j - i < _MAX_UNITS and _joinable(units[j - 1], *narrow, spaced):
        if _abbreviation(text[units[j - 1].start : units[j - 1].end]):
            break  # ст. л.: an abbreviation ends where its point is
        j += 1
    if j == i + 1:
        return out
    pieces = tuple(text[u.start : u.end] for u in units[i:j])
    if _latin_spaced(pieces, mode):
        # A word in Latin letters spaced apart, an invisible character or a mark among them
        # (``O n ㅤ l y``): left as typed, one word, for the spacing rule, which reads it whole
        # and as Russian only where it spells a Russian word.
        out[i + len(pieces)] = (_UNKNOWN, None)
        return out
    for n, reading in _read_joined(pieces, mode.volapuk).items():
        if not _spaced_join(pieces[:n], units[i : i + n]):
            continue
        latin = all(p.isascii() for p in pieces[:n])  # a b c: Latin letters, likely English
        plain = "".join(map(_plain, pieces[:n]))
        english = is_english(plain) and not (mode.volapuk and len(plain) <= _SHORT_ENGLISH)
        if plain.isascii() and english:  # in volapuk, na is на
            continue
        too_short = latin and len(reading.word) < _MIN_LATIN and not mode.volapuk
        if n > 1 and not too_short:
            out[i + n] = (_improbability(reading.word) + reading.cost, reading)
    # A word the dictionary lacks, parted by invisible characters put inside it (where they
    # are typed for spaces, they part words unless a word is read).
    for n in range(2, 1 if invisible_spaces else len(pieces) + 1):
        gap = units[i + n - 2]
        if gap.scripts or not _GAP.fullmatch(gap.gap):
            break
        out.setdefault(i + n, (_UNKNOWN, None))
    short = 0
    for n, piece in enumerate(pieces, 1):  # spaced letters of a word the dictionary lacks
        russian = 0 < _letters(piece) <= _SHORT and not piece.isascii()
        short = short + 1 if russian else -len(pieces)
        if n > 1 and short == n and i + n not in out:
            out[i + n] = (_UNKNOWN + 1.0, None)
    return out


def _latin_spaced(pieces: tuple[str, ...], mode: LatinMode) -> bool:
    """Whether ``pieces`` are single Latin letters, with nothing but invisible characters and
    marks between them, in a text that is not written in volapuk."""
    if mode.volapuk:
        return False
    letters = 0
    for piece in pieces:  # the first piece that is no Latin letter ends the look
        if not (len(piece) == 1 and piece.isascii() and piece.isalpha()):
            plain = _plain(piece)
            if len(plain) > 1 or (plain and not (plain.isascii() and plain.isalpha())):
                return False
            if not plain:
                continue
        letters += 1
    return letters >= _MIN_LATIN


def _abbreviation(piece: str) -> bool:
    """A piece of letters that ends with a point: a word cut short (``ст.``, ``ч.``)."""
    return piece.endswith(".") and any(c.isalpha() for c in piece)


def _gap_costs(unit: _Unit, invisible_spaces: bool, spaced_letters: bool) -> tuple[float, float]:
    """What a word pays to run on across the gap after ``unit``, and what a word boundary
    there costs: an invisible character typed for spaces parts words unless one word is far
    likelier than two (as :mod:`.normalize` reads it), one put inside words joins them unless
    parting makes two words of one that is none; a space between letters spaced apart, or a
    line-end hyphen, parts little."""
    if _GAP.fullmatch(unit.gap or " "):
        if unit.scripts:  # between a Russian letter and a Latin one or a digit: a space
            return _SPACE_ODDS, 0.0
        if spaced_letters:  # narrow gaps between letters, wider ones between words
            return _SPACED_JOIN, 0.0
        return (_SPACE_ODDS, 0.0) if invisible_spaces else (0.0, _INSIDE_ODDS)
    if "\n" in unit.gap:
        return 0.0, 1.0
    return _SPACED_JOIN, 0.0


def _spaced_join(pieces: tuple[str, ...], units: list[_Unit]) -> bool:
    """Whether pieces joined across spaces are letters spaced apart: two short pieces at
    least, and no more long ones than short ones (``Ветер З`` stays two words)."""
    if all(_GAP.fullmatch(u.gap) or "\n" in u.gap for u in units[:-1]):
        return True
    short = sum(1 for p in pieces if _letters(p) <= _SHORT)
    return short >= 2 and len(pieces) - short <= short


def _segment(
    text: str, units: list[_Unit], invisible_spaces: bool, mode: LatinMode
) -> list[tuple[int, int, _Reading | None]]:
    """The likeliest grouping of ``units`` into words: (first, last + 1, reading)."""
    gaps = [len(u.gap) for u in units[:-1] if _BLANK.fullmatch(u.gap)]
    hidden = [len(u.gap) for u in units[:-1] if _GAP.fullmatch(u.gap)]
    narrow = (min(gaps, default=0), min(hidden, default=0))  # wider gaps part words
    pieces = _PIECE.findall(text, units[0].start, units[-1].end)
    short = sum(1 for p in pieces if 0 < _letters(p) <= _SHORT)
    spaced = short >= 3 and short * 2 >= len(pieces)
    n = len(units)
    two_widths = bool(hidden) and max(hidden) > min(hidden)
    costs = [_gap_costs(u, invisible_spaces, two_widths) for u in units]
    join, split = zip(*costs, strict=True)
    best: list[float] = [0.0] + [float("inf")] * n
    back: list[tuple[int, _Reading | None]] = [(0, None)] * (n + 1)
    for i in range(n):
        if best[i] == float("inf"):
            continue
        for j, (cost, reading) in _costs_from(
            text, units, i, narrow, spaced, invisible_spaces, mode
        ).items():
            total = best[i] + cost + sum(join[i : j - 1]) + (split[j - 1] if j < n else 0.0)
            if total < best[j]:
                best[j], back[j] = total, (i, reading)
    out = []
    j = n
    while j > 0:
        i, reading = back[j]
        out.append((i, j, reading))
        j = i
    return out[::-1]


def read_garbled(text: str) -> tuple[str, tuple[Folded, ...]]:
    """``text`` with the words that stacked tricks hide read back (one character for one),
    and each such word as a :class:`.Folded` segment."""
    chars: list[str] | None = None
    found: list[Folded] = []
    invisible_spaces = _GAP.search(text) is not None and _typed_for_spaces(text)
    mode = latin_mode(text)
    for start, end in _zones(text, mode, invisible_spaces):
        units = _units(text, start, end)
        for i, j, reading in _segment(text, units, invisible_spaces, mode):
            group, after = units[i:j], units[j - 1]
            chars = chars or list(text)
            if j < len(units) and _GAP.fullmatch(after.gap):  # a boundary: a space
                chars[after.end : after.gap_end] = " " * (after.gap_end - after.end)
            if _as_the_rules_read(text, group, reading):
                _join(text, group, chars)  # joined as decided, read by the other rules
                continue
            _write(text, group, reading, chars)
            first = group[0].start + _core(text[group[0].start : group[0].end])[0]
            last = group[-1].start + _core(text[group[-1].start : group[-1].end])[1]
            word = reading.word if reading else _plain(text[first:last])
            found.append(Folded(first, last, text[first:last], word))
    if chars is None:
        return text, ()
    return "".join(chars), tuple(found)


def _as_the_rules_read(text: str, group: list[_Unit], reading: _Reading | None) -> bool:
    """Whether the other rules read ``group`` as this word anyway: a piece or pieces parted
    by invisible characters, read with every character as typed but the invisible ones and
    the marks (or not read)."""
    if any(not _GAP.fullmatch(u.gap) for u in group[:-1]):
        return False  # spaces inside the word: only this module joins them
    if reading is None:
        return True
    plain = "".join(_plain(text[u.start : u.end]) for u in group)
    return reading.word.replace("ё", "е") == plain.replace("ё", "е")


_BETWEEN_LETTERS = regex.compile(r"(?<=\w)\p{Default_Ignorable_Code_Point}+(?=\w)")


def _typed_for_spaces(text: str) -> bool:
    """Whether the text types invisible characters for its spaces (:func:`typed_for_spaces`
    over the runs of them between letters)."""
    return typed_for_spaces(text, len(_BETWEEN_LETTERS.findall(text)))


def _write(text: str, group: list[_Unit], reading: _Reading | None, chars: list[str]) -> None:
    """Write a word read from ``group`` into ``chars``: each character as read, every gap
    inside the word as nothing."""
    places = [at for unit in group for at in range(unit.start, unit.end)]
    for at, letter in zip(places, reading.chars if reading else ()):
        if letter == GONE and _quiet(text[at]):
            continue  # invisible characters and marks: the other rules remove them
        if letter != text[at] and letter != text[at].lower():
            chars[at] = letter.upper() if text[at].isupper() and letter != GONE else letter
    _join(text, group, chars)


def _join(text: str, group: list[_Unit], chars: list[str]) -> None:
    """Every gap inside the word of ``group`` as nothing, and a piece of invisible characters
    alone between its letters too (between Latin letters, the other rules would read it as a
    space)."""
    for unit in group[:-1]:
        chars[unit.end : unit.gap_end] = GONE * (unit.gap_end - unit.end)
    for unit in group[1:-1]:
        if _GAP.fullmatch(text, unit.start, unit.end):
            chars[unit.start : unit.end] = GONE * (unit.end - unit.start)
