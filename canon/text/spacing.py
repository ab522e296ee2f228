"""Words cut apart by spaces or line breaks → the words a reader sees, by the dictionary.

Two ways to cut words that a reader barely notices but that make every shingle new:

- **letters spaced apart** (``с о б а к а  л а е т``, with ordinary or typographic spaces,
  which NFKC makes ordinary): a run of three or more single letters or digits, separated by
  white space within a line, is read as the words it spells.  Where the gaps differ (one
  space between letters, two or a wider one between words), the wider gaps are the word
  boundaries, whatever the words (names and numbers too; a Russian group that is no word
  but a short word and a word is those two: ``в школе`` typed with a no-break space);
  where they are all alike, a Russian run is split into the fewest dictionary words (the
  likeliest by wordfreq when there are several ways), two letters or more on average and
  one word of four letters at least, or left alone (``в с у``, ``и в и в`` stay), and a run
  of four or more Latin letters is one word (``R e n a u l t``; digits, or Russian letters
  among digits, stay as typed).  Either way, a run that spells no word of four letters or
  more is left alone, unless some of its letters are spaced closer than the rest and spell a
  word.  A short run closer inside than to what is around it (``25   м а я.``, ``н е``
  between wider gaps) is the word it spells, when the dictionary has one not made of
  one-letter words; a hyphen kept inside a spaced word (``п р е с с-с л у ж б а``,
  ``C O V I D-19``) stays in the word;
- **line-end hyphenation** (``сло-`` at the end of a line, ``во`` on the next; or a soft hyphen
  there, which the rules remove): two pieces around a line break are one word when together
  they are a dictionary word, and, without a hyphen, when they are not both words already
  (``кот`` / ``матрос`` stay two).

Each repair is found in the normalized text (casefolded, invisible characters gone) and
reported: ``spacing`` for spaced letters, ``hyphen`` for line-end hyphenation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from .frequency import zipf
from .lemmatize import is_known, parts_of_speech
from .translit import ONE_LETTER_WORDS

__all__ = ["Joined", "line_break_joins", "spaced_letter_joins"]


_MIN_MEAN = 2.0  # letters per word the split must reach
_LONG = 3  # a spaced run must spell a word this long at least (four letters, alike gaps)
_MIN_FOREIGN = 4  # other letters and digits spaced alike: this many make a word
# Parts of speech of a short word that a no-break space binds to the next one.
_BOUND = frozenset({"PREP", "CONJ", "PRCL"})
_MAX_RUN = 400  # letters of one run split at most: bounded work
_MAX_WORD = 24  # letters of one word of the split at most
# A unit is one letter or digit, or one with a hyphen and the rest of the word after it
# (``с-с`` of a spaced ``п р е с с-с л у ж б а``, ``D-19`` of ``C O V I D-19``).
_UNIT = r"[^\W_](?:-[^\W_]+)?"
_SPACED = re.compile(rf"(?<![^\W_-]){_UNIT}(?:[^\S\n]+{_UNIT})+(?![^\W_-])")
_LETTER = re.compile(_UNIT)
_BLANK = re.compile(r"[^\S\n]*")
_RUSSIAN = re.compile(r"[а-яё]+")
_CYRILLIC = re.compile(r"[а-яё]")
_BROKEN = re.compile(r"(?<![^\W_])([а-яё]+)(-?)[^\S\n]*\n[^\S\n]*([а-яё]+)(?![^\W_])")


@dataclass(frozen=True, slots=True)
class Joined:
    """Characters ``[start, end)`` of the normalized text read as the words ``forms``, each at
    its span in ``spans``."""

    start: int
    end: int
    forms: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]


def spaced_letter_joins(text: str) -> list[Joined]:
    """Runs of spaced single letters in ``text`` (normalized) and the words they spell."""
    if _SPACED.search(text) is None:
        return []
    joins = []
    for run in _SPACED.finditer(text):
        letters = [(m.start(), m.group()) for m in _LETTER.finditer(run.group())]
        if len(letters) > _MAX_RUN:
            continue
        split = _bounded_word(text, run, letters)
        if split is None and len(letters) > 2:
            split = _split_run(run.group(), letters)
        if split is not None:
            start = run.start()
            spans = tuple((start + a, start + b) for a, b in split[1])
            joins.append(Joined(start, run.end(), split[0], spans))
    return joins


def _bounded_word(
    text: str, run: re.Match[str], letters: list[tuple[int, str]]
) -> tuple[tuple[str, ...], list[tuple[int, int]]] | None:
    """Single letters spaced alike: one word when they are closer to each other than to the
    words around them (``н е``, ``м а я`` between wider gaps, or a wider gap and a stop) and
    spell a dictionary word not made of one-letter words only."""
    if any(len(unit) > 1 for _, unit in letters):
        return None
    gaps = {b - a - 1 for (a, _), (b, _) in pairwise(letters)}
    word = _spelled(letters)
    if len(gaps) > 1 or set(word) <= ONE_LETTER_WORDS or not _known(word):
        return None  # gaps unlike, or one-letter words (``и я``), or no word
    (inner,) = gaps
    before = run.start() - _last_blank(text, run.start())
    after = len(_BLANK.match(text, run.end())[0])  # type: ignore[index]
    if any(0 < side <= inner for side in (before, after)) or max(before, after) == 0:
        return None  # spaced as the words around them are, or no gap around (``и т.``)
    return (word,), [(letters[0][0], letters[-1][0] + 1)]


def _last_blank(text: str, end: int) -> int:
    """Where the blanks (white space but line breaks) ending at ``end`` start."""
    start = end
    while start > 0 and text[start - 1].isspace() and text[start - 1] != "\n":
        start -= 1
    return start


def _split_run(
    run: str, letters: list[tuple[int, str]]
) -> tuple[tuple[str, ...], list[tuple[int, int]]] | None:
    """The words of one run and their spans within it; None when the letters spell none."""
    groups = _groups(run, letters)
    if len(groups) > 1:  # the wider gaps are the words
        pieces = [piece for group in groups for piece in _group_words(group)]
        words = (_spelled(g) for g in groups if len(g) > 1)  # letters spaced closer
        closer = any(_known(w) and not set(w) <= ONE_LETTER_WORDS for w in words)
        if not closer and not any(_spells_a_word(w) for w, _ in pieces):
            return None  # one-letter words and a double space, most likely
        return _as_words(pieces)
    # The gaps are all alike: the run is one group.
    spelled = "".join(c for _, c in letters)
    if "-" in spelled:
        return None  # a hyphen in letters spaced alike: no word boundary to go by
    if not _RUSSIAN.fullmatch(spelled):
        # Other letters spaced alike (``R e n a u l t``): one word, if long enough; Russian
        # letters among digits (``в 5 и 7``) or digits alone (``1 2 3``) are as typed
        if _CYRILLIC.search(spelled) or spelled.isdigit() or len(letters) < _MIN_FOREIGN:
            return None
        return _as_words(_pieces(letters, [len(letters)]))
    lengths = _fewest_words(spelled)
    if lengths is None or len(letters) / len(lengths) < _MIN_MEAN or max(lengths) < _LONG + 1:
        return None  # no split, or one-letter words in a row (``и в и в``): not a spaced word
    return _as_words(_pieces(letters, lengths))


def _spelled(letters: list[tuple[int, str]]) -> str:
    return "".join(c for _, c in letters)


def _as_words(
    pieces: list[tuple[str, tuple[int, int]]],
) -> tuple[tuple[str, ...], list[tuple[int, int]]]:
    return tuple(w for w, _ in pieces), [span for _, span in pieces]


def _group_words(group: list[tuple[int, str]]) -> list[tuple[str, tuple[int, int]]]:
    """A group of letters between wider gaps: one word, unless it is Russian, not in the
    dictionary, and the dictionary reads it as a short word and a word (the no-break space
    after a preposition: ``в школе``, ``на июль``); an unknown name stays whole."""
    spelled = "".join(c for _, c in group)
    lengths = None
    if _RUSSIAN.fullmatch(spelled) and len(spelled) > 1 and not is_known(spelled):
        if set(spelled) <= ONE_LETTER_WORDS:  # one-letter words, no word together: as typed
            return [(c, (at, at + 1)) for at, c in group]
        lengths = _fewest_words(spelled)
    if lengths is None or len(lengths) != 2 or not _function_word(spelled[: lengths[0]]):
        lengths = [len(group)]  # a name or a compound, kept whole
    return _pieces(group, lengths)


def _pieces(
    letters: list[tuple[int, str]], lengths: list[int]
) -> list[tuple[str, tuple[int, int]]]:
    """``letters`` cut into words of ``lengths``: each word and its span in the run."""
    pieces, at = [], 0
    for length in lengths:
        piece = letters[at : at + length]
        end = piece[-1][0] + len(piece[-1][1])
        pieces.append(("".join(c for _, c in piece), (piece[0][0], end)))
        at += length
    return pieces


def _spells_a_word(word: str) -> bool:
    """Four letters or digits or more, in the dictionary when they are Russian."""
    return len(word) > _LONG and (is_known(word) or not _RUSSIAN.fullmatch(word))


def _function_word(word: str) -> bool:
    return len(word) <= 3 and parts_of_speech([word])[0] in _BOUND


def _groups(run: str, letters: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """The letters grouped by the wider gaps, when the gaps differ; all in one group else.
    Where the gaps come in three widths or more (an invisible character put inside a spaced
    word leaves a gap wider than its letters' and narrower than the words'), the gaps that
    part words are those at least as wide as the width whose grouping puts the most letters
    in dictionary words (the wider one among equals: names read whole)."""
    gaps = [b - a - len(unit) for (a, unit), (b, _) in pairwise(letters)]
    widths = sorted(set(gaps))
    if len(widths) < 3:
        return _grouped(letters, gaps, widths[-1] if len(widths) > 1 else widths[0] + 1)
    by_width = {w: _grouped(letters, gaps, w) for w in widths[1:]}
    best = max(widths[1:], key=lambda w: (_in_words(by_width[w]), w))
    return by_width[best]


def _grouped(
    letters: list[tuple[int, str]], gaps: list[int], parting: int
) -> list[list[tuple[int, str]]]:
    """``letters`` in groups parted by the gaps at least ``parting`` wide."""
    groups: list[list[tuple[int, str]]] = [[letters[0]]]
    for gap, letter in zip(gaps, letters[1:]):
        if gap >= parting:
            groups.append([])
        groups[-1].append(letter)
    return groups


def _in_words(groups: list[list[tuple[int, str]]]) -> int:
    """How many letters of ``groups`` spell Russian dictionary words of three letters or
    more, one word a group."""
    spelled = (_spelled(g) for g in groups)
    return sum(len(w) for w in spelled if len(w) > 2 and _RUSSIAN.fullmatch(w) and _known(w))


def _known(word: str) -> bool:
    if len(word) == 1:
        return word in ONE_LETTER_WORDS
    return len(word) <= _MAX_WORD and is_known(word)


def _fewest_words(letters: str) -> list[int] | None:
    """The lengths of the fewest dictionary words that spell ``letters`` (the likeliest
    split among equals), or None."""
    n = len(letters)
    # best[i]: (words, -frequency) of the best split of letters[:i], and its last word's length
    best: list[tuple[int, float, int] | None] = [None] * (n + 1)
    best[0] = (0, 0.0, 0)
    for end in range(1, n + 1):
        for length in range(1, min(end, _MAX_WORD) + 1):
            before = best[end - length]
            word = letters[end - length : end]
            if before is None or not _known(word):
                continue
            score = (before[0] + 1, before[1] - zipf(word), length)
            current = best[end]
            if current is None or score[:2] < current[:2]:
                best[end] = score
    if best[n] is None:
        return None
    lengths = []
    at = n
    while at:
        step = best[at]
        assert step is not None
        lengths.append(step[2])
        at -= step[2]
    return lengths[::-1]


def line_break_joins(
    text: str,
    soft_hyphen: Callable[[int, int], bool] = lambda start, end: False,
    capital: Callable[[int], bool] = lambda at: False,
) -> list[Joined]:
    """Words of ``text`` (normalized) cut by a line break, with or without a hyphen, that
    the dictionary reads as one; ``soft_hyphen(start, end)`` tells whether the original text
    had a soft hyphen in the gap ``[start, end)`` of the normalized one (the rules removed it),
    ``capital(at)`` whether it had a capital at ``at``: a line that starts with one starts a
    sentence (:mod:`canon.text.sentences`), and no word runs into it."""
    if "\n" not in text:
        return []
    joins = []
    for found in _BROKEN.finditer(text):
        head, hyphen, tail = found.groups()
        word = head + tail
        if not is_known(word) or capital(found.start(3)):
            continue
        marked = hyphen or soft_hyphen(found.end(1), found.start(3))
        if not marked and _known(head) and _known(tail):
            continue
        joins.append(Joined(found.start(), found.end(), (word,), ((found.start(), found.end()),)))
    return joins
