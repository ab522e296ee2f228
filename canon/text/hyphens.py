"""A hyphenated word → the words it stands for: compounds kept, joined words split, broken words
joined.

Copywriters join neighbouring words with a hyphen (``выбор-зимних``) or break a long word with
one (``начин-ается``), so that a copy's shingles differ from the original's.  pymorphy3's
dictionary tells these apart from real compounds:

- a word the dictionary has (``из-за``, ``кто-то``, ``йошкар-ола``, ``северо-запад``) stays;
- otherwise, parts whose joined spelling is a dictionary word are joined (``начинается``);
- otherwise the word is split at each hyphen whose two sides are known words (``выбор зимних``),
  or where one side is a word no compound is made of: a verb, a preposition, a conjunction or
  a particle (``всу-сообщили``, ``хубэй-в``); a side the dictionary does not know beside a
  noun or an adjective (``seo-специалист``, ``пцр-тестов``, ``covid-19``) keeps its hyphen;
- two Cyrillic pieces neither of which is a word are a word broken in two (``гао-као``,
  ``губберн-атор``): they are joined, a guess the caller drops for names (``Касым-Жомарт``,
  a capital after the hyphen).

Joining wins over splitting because a word broken at random often falls into two known pieces
(``за-бота``), while two neighbouring words rarely join into a known word.  Splitting also
reads productive compounds the dictionary lacks as their words (``детей-сирот``,
``онлайн-школа``); that keeps both texts of a comparison alike, and such a split is not
reported as a trick when the two words look like a compound (see :func:`looks_compound`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, pairwise

from .lemmatize import is_known, known_prefix, readings

__all__ = [
    "HyphenRepair",
    "Piece",
    "clear_caches",
    "hyphen_sites",
    "looks_compound",
    "repair_hyphenated",
]

_MAX_PARTS = 8  # longer chains are left alone: bounded work per word
_MIXED_PARTS = 4  # runs up to this long are tried with every choice of hyphens removed
_FUNCTION = frozenset({"PREP", "CONJ", "PRCL", "INTJ", "NPRO"})
_SHORT_FUNCTION = frozenset({"PREP", "CONJ", "PRCL"})
_PARTICLES = frozenset({"то", "ка", "таки", "де", "либо", "нибудь", "тка", "тко"})
_ADJECTIVES = frozenset({"ADJF", "PRTF"})
# Parts of speech no compound is made of: a hyphen beside them joined two words.
_NEVER_COMPOUNDED = frozenset({"PREP", "CONJ", "PRCL", "VERB", "INFN"})
_CYRILLIC = re.compile("[а-яё]{2,}")
_DIGIT = re.compile(r"\d")
# Left parts of names (``аль-Багдади``, ``ибн-Сина``, ``фон-Браун``) and right parts of set
# phrases (``месяц-другой``, ``Буш-старший``): such pairs look like compounds.
_NAME_PARTICLES = frozenset(
    "аль эль ал ад ас аш ат ан ар ут ба бен бин ибн абу фон ле ла де ди дель дер ван".split()
)
_SET_PHRASE_LEMMAS = frozenset({"другой", "младший", "старший"})
_HYPHENATED = re.compile(r"[^\W_]+(?:-[^\W_]+)+")
_CACHE_LIMIT = 200_000

_decisions: dict[str, HyphenRepair | None] = {}


@dataclass(frozen=True, slots=True)
class Piece:
    """Parts ``[first, last)`` of a hyphenated word read as one word ``form``; ``joined`` when
    a hyphen inside it was removed."""

    first: int
    last: int
    form: str
    joined: bool = False


@dataclass(frozen=True, slots=True)
class HyphenRepair:
    """The words a hyphenated word stands for.

    ``reported`` when the repair is a trick (a join, or a split of words that do not look like
    a compound); ``guessed`` when two pieces that are no words were joined (the caller makes
    no such guess in a name).
    """

    pieces: tuple[Piece, ...]
    reported: bool
    guessed: bool = False


def _word(part: str) -> bool:
    """A part that can stand as a word of its own (a one-letter part only as ``в``, ``и``...)."""
    if not is_known(part):
        return False
    return len(part) > 1 or _short_function(part)


def _short_function(part: str) -> bool:
    return len(part) <= 2 and readings(part)[0].pos in _SHORT_FUNCTION


def _joins(parts: list[str]) -> bool:
    """Whether parts join into a dictionary word, unless they are words and one of them is a
    short preposition, conjunction or particle: ``во-время`` is ``во время``, not ``вовремя``
    (words are broken in the middle, not after two letters)."""
    if not is_known("".join(parts)):
        return False
    return not (all(map(_word, parts)) and any(map(_short_function, parts)))


def _spellings(parts: list[str]) -> Iterator[tuple[str, bool]]:
    """The run written with some of its hyphens removed, fewest removed first: ``(spelling,
    whether a hyphen was removed)``.  Runs of more than ``_MIXED_PARTS`` parts are tried only
    with every hyphen or none."""
    gaps = len(parts) - 1
    counts = range(gaps + 1) if len(parts) <= _MIXED_PARTS else (0, gaps)
    for removed in counts:
        for gone in combinations(range(gaps), removed):
            glue = ["" if g in gone else "-" for g in range(gaps)]
            yield parts[0] + "".join(g + p for g, p in zip(glue, parts[1:])), removed > 0


def _group(parts: list[str], i: int) -> Piece:
    """The longest run of parts from ``i`` that is a dictionary word with some of its hyphens
    (``из-за``, ``сев-еро-запад`` → ``северо-запад``), else the one part."""
    for j in range(len(parts), i + 1, -1):
        for spelling, joined in _spellings(parts[i:j]):
            whole = not joined or "-" in spelling or _joins(parts[i:j])
            if whole and is_known(spelling):
                return Piece(i, j, spelling, joined)
    return Piece(i, i + 1, parts[i])


def _groups(parts: list[str]) -> list[Piece]:
    """Greedy from the left: the longest run of parts that is a dictionary word, written with
    or without some of its hyphens, else one part."""
    pieces: list[Piece] = []
    i = 0
    while i < len(parts):
        pieces.append(_group(parts, i))
        i = pieces[-1].last
    return pieces


def _never_compounded(piece: Piece) -> bool:
    return _word(piece.form) and readings(piece.form)[0].pos in _NEVER_COMPOUNDED


def _splits(left: Piece, right: Piece, left_known: bool, right_known: bool) -> bool:
    """Whether the hyphen between two pieces goes: both are words, or one is a word no
    compound is made of and the other no number (``с-300`` and ``ту-154`` stay)."""
    if left_known and right_known:
        return True
    if _DIGIT.search(left.form) or _DIGIT.search(right.form):
        return False
    return _never_compounded(left) or _never_compounded(right)


def _merge(pieces: list[Piece]) -> list[Piece]:
    """Keep the hyphen next to a piece that is no known word (``seo-специалист`` stays whole),
    unless the other side is a word no compound is made of."""
    known = [p.last - p.first > 1 or _word(p.form) for p in pieces]
    merged, merged_known = [pieces[0]], [known[0]]
    for piece, is_word in zip(pieces[1:], known[1:]):
        if _splits(merged[-1], piece, merged_known[-1], is_word):
            merged.append(piece)
            merged_known.append(is_word)
        else:
            last = merged[-1]
            joined = last.joined or piece.joined
            merged[-1] = Piece(last.first, piece.last, f"{last.form}-{piece.form}", joined)
            merged_known[-1] = False
    return merged


def looks_compound(left: str, right: str) -> bool:
    """Whether two words joined by a hyphen look like a compound the dictionary lacks: a word
    and a particle (``сказал-то``), a name's particle (``аль-багдади``), a set phrase
    (``месяц-другой``, ``буша-старшего``), a left part that starts dictionary compounds
    (``онлайн-школа``, ``экс-нардепа``), an adverb-like stem and an adjective
    (``оперативно-тактической``), a noun in the nominative and a noun (``гей-браков``,
    ``хот-доги``), or two nouns or numerals that agree (``детей-сирот``, ``два-три``)."""
    if right in _PARTICLES or left in _NAME_PARTICLES:
        return True
    left_readings, right_readings = readings(left), readings(right)
    first, second = left_readings[0], right_readings[0]
    if second.lemma in _SET_PHRASE_LEMMAS:
        return True
    if (
        second.pos == "NOUN"
        and not second.pronoun
        and any(
            r.pos == "NOUN" and not r.pronoun and (r.case, r.number) == ("nomn", "sing")
            for r in left_readings
        )
    ):
        return True
    if {first.pos, second.pos} & _FUNCTION or first.pronoun or second.pronoun:
        return False
    if known_prefix(f"{left}-"):
        return True
    if left[-1] in "ое" and second.pos in _ADJECTIVES:
        return True
    if first.pos != second.pos or first.pos not in ("NOUN", "NUMR"):
        return False
    agree = {(r.case, r.number) for r in left_readings if r.pos == first.pos}
    return any((r.case, r.number) in agree for r in right_readings if r.pos == first.pos)


def _decide(word: str) -> HyphenRepair | None:
    parts = word.split("-")
    if len(parts) < 2 or len(parts) > _MAX_PARTS or not all(parts) or is_known(word):
        return None
    pieces = _merge(_groups(parts))
    if len(pieces) == 1 and pieces[0].form == word:
        return _broken(parts)
    reported = any(p.joined for p in pieces) or any(
        not looks_compound(a.form, b.form) for a, b in pairwise(pieces)
    )
    return HyphenRepair(tuple(pieces), reported)


def _broken(parts: list[str]) -> HyphenRepair | None:
    """Two Cyrillic pieces of which neither is a word, joined."""
    if len(parts) != 2 or not all(map(_CYRILLIC.fullmatch, parts)) or any(map(is_known, parts)):
        return None
    return HyphenRepair((Piece(0, 2, "".join(parts), joined=True),), reported=True, guessed=True)


def repair_hyphenated(word: str) -> HyphenRepair | None:
    """What a lower-case hyphenated word (``-`` between runs of letters or digits) stands for,
    or None when it stays as it is."""
    if word in _decisions:
        return _decisions[word]
    if len(_decisions) >= _CACHE_LIMIT:
        _decisions.clear()
    decision = _decisions[word] = _decide(word)
    return decision


def clear_caches() -> None:
    """Forget every decision (benchmarks use this for cold runs)."""
    _decisions.clear()


def _word_start(text: str, at: int) -> int:
    """The start of the hyphenated word whose hyphen is at ``at`` (``str.isalnum`` is
    the tokenizer's word character)."""
    start = at - 1
    while start > 0 and (
        text[start - 1].isalnum()
        or (text[start - 1] == "-" and start > 1 and text[start - 2].isalnum())
    ):
        start -= 1
    return start


def hyphen_sites(text: str) -> list[tuple[int, int]]:
    """The span of each hyphenated word of ``text`` (hyphens written ``-``): a text's few
    hyphens are found by ``str.find``, which costs less than a regex pass over all of it."""
    sites: list[tuple[int, int]] = []
    at = text.find("-", 1)
    end = len(text) - 1
    while at != -1:
        if at < end and text[at - 1].isalnum() and text[at + 1].isalnum():
            found = _HYPHENATED.match(text, _word_start(text, at))
            if found:
                sites.append(found.span())
                at = found.end()
        at = text.find("-", at + 1)
    return sites
