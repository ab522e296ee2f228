"""Unicode normalization that remembers where every normalized character came from.

The reference rules (seed 000) normalize the whole text with NFKC and then casefold it.  Both
operations can change lengths (``…`` becomes ``...``, ``№`` becomes ``no``, a letter and a
combining mark become one letter), so a token found in the normalized text cannot be located
in the original by its offsets alone.  :func:`normalize` splits the text into units that
normalize independently, records where each unit's output starts, and checks that the
concatenation equals the whole-text normalization: the normalized text is therefore always
exactly the reference's, and spans are as fine as the text allows.

Most Russian text consists of characters that NFKC and casefold map one to one ("plain"
characters); only the rare others (``…``, no-break spaces, combining marks, soft hyphens) are
normalized unit by unit, so the common case costs two C-level passes.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

import numpy as np
import regex

from .frequency import one_word_likelier

__all__ = [
    "IGNORABLE",
    "Normalized",
    "drop_marks",
    "hidden_as_ignorable",
    "hidden_spans",
    "normalize",
    "typed_for_spaces",
]

_Form = Literal["NFKC", "NFC"]  # the Unicode forms a profile may ask for

# Blocks in which no starter composes with a preceding starter (unlike Hangul or some Indic
# vowel signs), so a run of plain characters from them never interacts with its neighbours.
_PLAIN_BLOCKS = ((0x0000, 0x024F), (0x0370, 0x03FF), (0x0400, 0x052F), (0x2000, 0x206F))
_UNSTABLE_CATEGORIES = {"Mn", "Mc", "Me", "Cf", "Cs", "Co", "Cn"}
# Characters removed by ``strip_marks``: stress accents and invisible format characters that
# copywriters insert inside words (soft hyphen, zero-width space and joiners, BOM).
_STRESS_MARKS = frozenset("\u0300\u0301")
# With ``all_marks`` every nonspacing mark goes except the two that make й and ё.
_KEPT_MARKS = {"\u0306": "иИ", "\u0308": "еЕ"}
_MARK_CATEGORIES = frozenset({"Mn", "Me"})
# Default_Ignorable_Code_Point (CGJ, variation selectors, Hangul fillers, zero-width and
# format characters, soft hyphen...): invisible, so copywriters hide them inside words.
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_IGNORABLE_RUN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}\p{Cf}]+")
_WORD_CHAR = re.compile(r"[^\W_]")


# Characters nobody sees that are no Default_Ignorable_Code_Point: the C0 and C1 controls other
# than the line and space separators, and U+0345 (a combining iota subscript, which casefold
# makes the letter ι).  Written as ignorable characters of their own kind, one for one.
_HIDDEN = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]|(\u0345)")
_HIDDEN_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]+")


def hidden_as_ignorable(text: str) -> str:
    """``text`` with each control character a reader never sees written as a soft hyphen and
    U+0345 as the combining grapheme joiner: the invisible-character rules then apply."""
    if _HIDDEN.search(text) is None:
        return text
    return _HIDDEN.sub(lambda m: "\u034f" if m.group(1) else "\u00ad", text)


def hidden_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` has the control characters :func:`hidden_as_ignorable` rewrites."""
    return [m.span() for m in _HIDDEN_CONTROLS.finditer(text)]


def _is_plain(char: str) -> bool:
    return (
        unicodedata.category(char) not in _UNSTABLE_CATEGORIES
        and unicodedata.combining(char) == 0
        and unicodedata.normalize("NFKC", char) == char
        and unicodedata.normalize("NFC", char) == char
        and len(char.casefold()) == 1
    )


@cache
def _non_plain_runs(form: _Form, marks: int = 0) -> re.Pattern[str]:
    """Runs of characters that need unit-by-unit work; with ``marks`` (1: stress marks, 2: all
    marks) letters that carry a mark to remove (``ѐ``, ``á``) are among them."""
    plain = [chr(c) for lo, hi in _PLAIN_BLOCKS for c in range(lo, hi + 1) if _is_plain(chr(c))]
    if form != "NFKC":
        plain = [c for c in plain if unicodedata.normalize(form, c) == c]
    if marks:
        plain = [c for c in plain if drop_marks(c, marks == 2) == c]
    klass = "".join(re.escape(c) for c in plain)
    return re.compile(f"[^{klass}]+")


@cache
def _risky() -> re.Pattern[str]:
    """Characters that may compose with a neighbour: combining marks, or outside the blocks."""
    safe = [
        chr(c)
        for lo, hi in _PLAIN_BLOCKS
        for c in range(lo, hi + 1)
        if unicodedata.combining(chr(c)) == 0 and unicodedata.category(chr(c))[0] != "M"
    ]
    return re.compile(f"[^{''.join(re.escape(c) for c in safe)}]")


def drop_marks(text: str, all_marks: bool) -> str:
    """Decompose, remove stress marks (or every mark but й's and ё's), recompose."""
    out: list[str] = []
    base = ""
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char) == 0 and unicodedata.category(char) not in _MARK_CATEGORIES:
            base = char
        elif all_marks:
            if unicodedata.category(char) not in _MARK_CATEGORIES:
                pass
            elif base and base in _KEPT_MARKS.get(char, ""):
                base = ""  # kept once: a second breve or diaeresis goes
            else:
                continue
        elif char in _STRESS_MARKS:
            continue
        out.append(char)
    return unicodedata.normalize("NFC", "".join(out))


@lru_cache(maxsize=4096)
def _strip(text: str, all_marks: bool) -> str:
    """A unit without its marks and format characters (units repeat: ``…``, ``«``)."""
    if text.isascii():
        return text
    text = drop_marks(text, all_marks)
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


@dataclass(frozen=True, slots=True)
class _Edit:
    norm_start: int
    norm_end: int
    orig_start: int
    orig_end: int


class Normalized:
    """A normalized text and the map from its offsets back to the original text."""

    __slots__ = ("_edits", "_starts", "_table", "original", "text")

    def __init__(self, original: str, text: str, edits: list[_Edit]) -> None:
        self.original = original
        self.text = text
        self._edits = edits
        self._starts = [e.norm_start for e in edits]
        self._table: np.ndarray | None = None

    def span_array(self, offsets: np.ndarray) -> np.ndarray:
        """:meth:`span` of every row ``(start, end)`` of ``offsets`` at once."""
        offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        if not self._edits:
            return offsets
        if self._table is None:
            self._table = np.array(
                [(e.norm_start, e.norm_end, e.orig_start, e.orig_end) for e in self._edits],
                dtype=np.int64,
            )
        norm_start, norm_end, orig_start, orig_end = self._table.T
        starts, lasts = offsets[:, 0], offsets[:, 1] - 1
        out = np.empty_like(offsets)
        for column, pos, inside in ((0, starts, orig_start), (1, lasts, orig_end)):
            i = np.searchsorted(norm_start, pos, side="right") - 1
            at = np.maximum(i, 0)
            within = (i >= 0) & (pos < norm_end[at])
            delta = np.where(i >= 0, orig_end[at] - norm_end[at], 0) + column
            out[:, column] = np.where(within, inside[at], pos + delta)
        return out

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Map the normalized range ``[start, end)`` (``end > start``) to the original text."""
        if not self._edits:
            return start, end
        return self._orig_start(start), self._orig_end(end - 1)

    def _locate(self, pos: int) -> tuple[_Edit | None, int]:
        i = bisect_right(self._starts, pos) - 1
        if i < 0:
            return None, 0
        edit = self._edits[i]
        if pos < edit.norm_end:
            return edit, 0
        return None, edit.orig_end - edit.norm_end

    def _orig_start(self, pos: int) -> int:
        edit, delta = self._locate(pos)
        return edit.orig_start if edit else pos + delta

    def _orig_end(self, last: int) -> int:
        edit, delta = self._locate(last)
        return edit.orig_end if edit else last + delta + 1


def _apply(text: str, form: _Form, casefold: bool) -> str:
    text = unicodedata.normalize(form, text)
    return text.casefold() if casefold else text


def _groups(segment: str) -> list[str]:
    """Split at each starter: a base character and the combining marks after it."""
    groups: list[str] = []
    for char in segment:
        if groups and unicodedata.combining(char):
            groups[-1] += char
        else:
            groups.append(char)
    return groups


def _build(
    text: str, form: _Form, casefold: bool, fine: bool, marks: int = 0
) -> tuple[str, list[_Edit]]:
    """Normalize unit by unit; ``fine`` splits non-plain runs at starters."""
    pieces: list[str] = []
    edits: list[_Edit] = []
    pos = npos = 0
    for match in _non_plain_runs(form, marks).finditer(text):
        start, end = match.span()
        if start > pos:  # the plain character before a run may compose with it
            start -= 1
        plain = text[pos:start].casefold() if casefold else text[pos:start]
        pieces.append(plain)
        npos += len(plain)
        units = _groups(text[start:end]) if fine else [text[start:end]]
        ostart = start
        for unit in units:
            out = _apply(unit, form, casefold)
            pieces.append(out)
            edits.append(_Edit(npos, npos + len(out), ostart, ostart + len(unit)))
            npos += len(out)
            ostart += len(unit)
        pos = end
    pieces.append(text[pos:].casefold() if casefold else text[pos:])
    return "".join(pieces), edits


def _checked_build(
    text: str, form: _Form, casefold: bool, marks: int = 0
) -> tuple[str, list[_Edit]]:
    """Unit by unit where that gives the whole-text normalization, coarser units where not."""
    whole = _apply(text, form, casefold)
    for fine in (True, False):
        out, edits = _build(text, form, casefold, fine, marks)
        if out == whole:
            return out, edits
    # Units interact (e.g. Hangul jamo): one unit, still exactly the reference text.
    return whole, [_Edit(0, len(whole), 0, len(text))]


def _ignorable_actions(text: str) -> dict[int, str]:
    """Each ignorable character's replacement: removed inside a word or beside a space, a
    space between words.

    An invisible character between two word characters may stand inside a word or for a
    space.  Between two scripts (Cyrillic, Latin, digits) it is a space.  Otherwise the text
    as a whole tells which it usually is (:func:`typed_for_spaces`).  When they were typed for
    spaces, each is a space unless the letters around it make one dictionary word likelier
    than two (``ко␣шка``, but ``в␣ход``).  When not, they were put
    inside words, and one is a space only between two dictionary words that make none
    together (``слово␣другое``, but ``сло␣во`` and ``Гар␣ри``).
    """
    runs = [
        run.span()
        for run in _IGNORABLE_RUN.finditer(text)
        if IGNORABLE.search(text, *run.span()) is not None
    ]
    between = {(s, e) for s, e in runs if _between_word_chars(text, s, e)}
    spaced = typed_for_spaces(text, len(between))
    actions: dict[int, str] = {}
    for start, end in runs:
        inside = (start, end) in between
        found = [m.start() for m in IGNORABLE.finditer(text, start, end)]
        space = inside and _stands_for_a_space(text, start, end, spaced)
        inside = inside or _beside_a_hyphen(text, start, end) or _beside_a_space(text, start, end)
        for at in found:
            actions[at] = " " if space or not inside else ""
    return actions


_BREAKS = "\n\r\x0b\x0c\x85\u2028\u2029"
_BLANK = re.compile(f"[^\\S{_BREAKS}]")  # a space on its line
_LINE_END = re.compile(f"[^\\S{_BREAKS}]*[{_BREAKS}]")


def _beside_a_space(text: str, start: int, end: int) -> bool:
    """A run beside a space (``с␣ о б а к а``): nothing, as if never typed, so the gaps
    between words stay as wide as typed.  Not at a line's end, where it may mark a word
    running on (a soft hyphen)."""
    if _LINE_END.match(text, end) is not None:
        return False
    return (start > 0 and _BLANK.match(text, start - 1) is not None) or _BLANK.match(
        text, end
    ) is not None


_SPACES = re.compile(r"\s+")
_WORD_HYPHENS = re.compile(r"(?<=\w)-(?=\w)")
_CHARS_PER_SPACE = 12  # a text with a space for fewer characters keeps its spaces whole


def typed_for_spaces(text: str, between: int) -> bool:
    """Whether a text with ``between`` runs of invisible characters between word characters
    typed them for its spaces: they outnumber its spaces (and are more than two), and its
    spaces and hyphens between words are too few for its length (one in
    :data:`_CHARS_PER_SPACE` characters or fewer).  A text with its spaces whole put them
    inside its words (``сло␣во дру␣го␣е``, ``сло␣во-дру␣гое``)."""
    spaces = len(_SPACES.findall(text))
    if between <= max(spaces, 2):
        return False
    return len(text) > _CHARS_PER_SPACE * (spaces + len(_WORD_HYPHENS.findall(text)))


def _between_word_chars(text: str, start: int, end: int) -> bool:
    return (
        start > 0
        and end < len(text)
        and _WORD_CHAR.match(text, start - 1) is not None
        and _WORD_CHAR.match(text, end) is not None
    )


def _beside_a_hyphen(text: str, start: int, end: int) -> bool:
    """A run between a word character and a hyphen (``по␣-настоящему``): inside the word."""
    before, after = text[start - 1 : start], text[end : end + 1]
    return (before in _HYPHEN_CHARS and _WORD_CHAR.match(after) is not None) or (
        after in _HYPHEN_CHARS and _WORD_CHAR.match(before) is not None
    )


_HYPHEN_CHARS = frozenset("-\u2010\u2011")


def _script(char: str) -> str:
    """``digit``, ``cyrillic``, ``latin`` or ``other``; ``either`` for a letter with a
    Cyrillic look-alike (words mix those)."""
    if char.isdigit():
        return "digit"
    name = unicodedata.name(char, "")
    if name.startswith("CYRILLIC"):
        return "cyrillic"
    from .tokenize import has_cyrillic_twin  # tokenize builds on this module

    if has_cyrillic_twin(char):
        return "either"
    return "latin" if name.startswith("LATIN") else "other"


def _scripts(left: str, right: str) -> tuple[str, str]:
    """The scripts on either side of a run, a look-alike letter taking its neighbour's."""
    left, right = _script(left), _script(right)
    if left == "either":
        left = "latin" if right == "either" else right
    if right == "either":
        right = left
    return left, right


# Cyrillic letters, and the invisible characters other than letters that may sit among them.
_LETTERS = r"(?:\p{Cyrillic}|[\p{Default_Ignorable_Code_Point}\p{Mn}--\p{L}])+"
_CYRILLIC_BEFORE = regex.compile(f"(?V1){_LETTERS}$")
_CYRILLIC_AFTER = regex.compile(f"(?V1){_LETTERS}")
# The same with the fillers too: the whole chain of letters a run of fillers holds together.
_CHAIN = r"(?:\p{Cyrillic}|\p{Default_Ignorable_Code_Point}|\p{Mn})+"
_CHAIN_BEFORE = regex.compile(f"{_CHAIN}$")
_CHAIN_AFTER = regex.compile(_CHAIN)
_REACH = 40


def _stands_for_a_space(text: str, start: int, end: int, spaced: bool) -> bool:
    """Whether the run ``[start, end)`` between two word characters stands for a space;
    ``spaced`` tells that the text types such runs for its spaces."""
    left, right = _scripts(text[start - 1], text[end])
    if left != right:
        return True
    if left != "cyrillic":
        return spaced
    # Words are short: look at most _REACH characters either side, so the work stays linear.
    before = _CYRILLIC_BEFORE.search(text, max(0, start - _REACH), start)
    after = _CYRILLIC_AFTER.match(text, end, min(len(text), end + _REACH))
    if before is None or after is None:
        return spaced
    from .lemmatize import is_known  # the dictionary, only when a filler sits between letters

    chain_before = _CHAIN_BEFORE.search(text, max(0, start - _REACH), start)
    chain_after = _CHAIN_AFTER.match(text, end, min(len(text), end + _REACH))
    if (
        chain_before is not None
        and chain_after is not None
        and is_known(_bare(chain_before.group() + chain_after.group()))
    ):
        return False  # fillers put inside one word
    left_word, right_word = _bare(before.group()), _bare(after.group())
    joined = left_word + right_word
    if not is_known(joined):  # a space, unless inside a word the dictionary lacks
        if spaced:
            return True
        first, last = before.start(), after.end()  # a hyphen there: a compound's part
        hyphenated = text.startswith("-", last) or (first > 0 and text[first - 1] == "-")
        return not hyphenated and is_known(left_word) and is_known(right_word)
    if not spaced:
        return False
    return (
        is_known(left_word)
        and is_known(right_word)
        and not one_word_likelier(joined, left_word, right_word)
    )


def _bare(letters: str) -> str:
    return regex.sub(r"[\p{Default_Ignorable_Code_Point}\p{Mn}]", "", letters)


def _drop_ignorables(text: str, edits: list[_Edit]) -> tuple[str, list[_Edit]]:
    """Remove ignorable characters inside words, make them spaces between words."""
    if IGNORABLE.search(text) is None:
        return text, edits
    actions = _ignorable_actions(text)

    def fix(unit: str, at: int) -> str:
        return "".join(actions.get(at + i, char) for i, char in enumerate(unit))

    return _edit_units(text, edits, fix)


def _strip_edits(text: str, edits: list[_Edit], all_marks: bool) -> tuple[str, list[_Edit]]:
    """Remove marks and format characters; they only ever sit in non-plain units."""
    return _edit_units(text, edits, lambda unit, _: _strip(unit, all_marks))


def _edit_units(
    text: str, edits: list[_Edit], fix: Callable[[str, int], str]
) -> tuple[str, list[_Edit]]:
    """Rewrite each non-plain unit with ``fix(unit, offset)``, keeping the map to the original."""
    pieces: list[str] = []
    stripped: list[_Edit] = []
    pos = shift = 0
    for edit in edits:
        pieces.append(text[pos : edit.norm_start])
        out = fix(text[edit.norm_start : edit.norm_end], edit.norm_start)
        start = edit.norm_start - shift
        stripped.append(_Edit(start, start + len(out), edit.orig_start, edit.orig_end))
        pieces.append(out)
        shift += (edit.norm_end - edit.norm_start) - len(out)
        pos = edit.norm_end
    pieces.append(text[pos:])
    return "".join(pieces), stripped


def normalize(
    text: str,
    *,
    form: Literal["NFKC", "NFC"] = "NFKC",
    casefold: bool = True,
    strip_marks: bool = False,
    all_marks: bool = False,
    ignorables: bool = False,
    yo_fold: bool = False,
) -> Normalized:
    """Normalize ``text`` (Unicode ``form``, then ``casefold``) keeping a map to the original.

    ``form`` is ``"NFKC"`` (the reference) or ``"NFC"``.  ``strip_marks`` then removes stress
    accents (U+0300, U+0301) and invisible format characters such as the soft hyphen and the
    zero-width space; it never touches letters, so ``й`` stays ``й``.  Marks are removed from
    the decomposed text, so a stress that NFKC composed into a letter (``ѐ``) goes too.
    ``all_marks`` (with ``strip_marks``) removes every nonspacing mark (dot below, macron
    below, dot above...) except the breve of ``й`` and the diaeresis of ``ё``.
    ``ignorables`` removes Default_Ignorable_Code_Point characters (CGJ, variation
    selectors, Hangul fillers, zero-width characters, soft hyphen...) inside a word and makes
    a run of them between words a space.  ``yo_fold`` writes ``ё`` as ``е``.
    """
    norm = _normalize(text, form, casefold, (strip_marks, all_marks, ignorables))
    if yo_fold and ("ё" in norm.text or "Ё" in norm.text):
        norm.text = norm.text.replace("ё", "е").replace("Ё", "Е")
    return norm


def _normalize(
    text: str, form: _Form, casefold: bool, repairs: tuple[bool, bool, bool]
) -> Normalized:
    strip_marks, all_marks, ignorables = repairs
    if not isinstance(text, str):
        raise TypeError(f"expected text (str), got {type(text).__name__}")
    if form not in ("NFKC", "NFC"):
        raise ValueError(f"unknown Unicode form {form!r}: use NFKC or NFC")
    marks = (2 if all_marks else 1) if strip_marks else 0
    if _non_plain_runs(form, marks).search(text) is None:
        return Normalized(text, text.casefold() if casefold else text, [])
    if _risky().search(text) is None:
        # Only starters of the plain blocks (``…``, no-break spaces, ``№``...): no two of them
        # compose, so unit-by-unit normalization is the whole-text normalization.
        out, edits = _build(text, form, casefold, fine=True, marks=marks)
    else:
        out, edits = _checked_build(text, form, casefold, marks)
    before = out
    if ignorables:
        out, edits = _drop_ignorables(out, edits)
    if strip_marks:
        out, edits = _strip_edits(out, edits, all_marks)
    removed = len(out) != len(before)  # only a removal can let neighbours compose
    if (
        removed
        and unicodedata.is_normalized("NFC", before)
        and not unicodedata.is_normalized("NFC", out)
    ):
        # A removed character let two units compose (a letter and a mark that a CGJ kept
        # apart, Hangul jamo): one unit, still exact.
        out = unicodedata.normalize("NFC", out)
        edits = [_Edit(0, len(out), 0, len(text))]
    return Normalized(text, out, edits)
