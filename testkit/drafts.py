"""Real texts → labelled drafts: sentences copied, rewritten or new, the truth for every character.

A draft mixes sentences (razdel's ``sentenize``) of kinds ``KINDS``:

- ``copied``: a sentence of source A, word for word;
- ``endings``: a sentence of A with words put in other forms of the same lexeme by pymorphy3
  (another case or number for nouns, adjectives and pronouns, another tense, person, number
  or gender for verbs), the rest kept;
- ``shuffle``: a sentence of A with its words in a random order;
- ``swaps``: a sentence of A with its words swapped in adjacent pairs;
- ``both``: a sentence of A rewritten by endings, then shuffled;
- ``second``: a sentence of a second source B, word for word;
- ``new``: a sentence of a text that is not indexed.

``TRUTH`` says what each kind is: copied (``copied``, ``second``), rewritten (the four
rewrites) or new.  A rewrite keeps no run of ``RUN`` words (by the ``raw`` profile's word
rule) of its sentence, so it has no word-for-word ``RUN``-shingle and its truth is
unambiguous; a sentence that cannot be rewritten so is passed over.  Every sentence has
``MIN_WORDS`` to ``MAX_WORDS`` words.  The sentences are put in a random order and joined by
spaces; each :class:`Piece` covers a sentence and the space after it, so the pieces cover every
character of the draft.  Shares count the draft's letters and digits, as canon's verdict does.
Everything is seeded: the same texts and seed give the same drafts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import regex
from razdel import sentenize

from testkit.tricks import analyzer, shuffle_words, swap_pairs

__all__ = [
    "KINDS",
    "LABELS",
    "RUN",
    "TRUTH",
    "Draft",
    "Piece",
    "make_draft",
    "raw_words",
    "reinflect",
    "rewrite_endings",
    "rewritten",
    "sentences",
]

KINDS = ("copied", "endings", "shuffle", "swaps", "both", "second", "new")
LABELS = ("new", "copied", "rewritten")
TRUTH = {
    "copied": "copied",
    "second": "copied",
    "endings": "rewritten",
    "shuffle": "rewritten",
    "swaps": "rewritten",
    "both": "rewritten",
    "new": "new",
}
FROM_FIRST = ("copied", "endings", "shuffle", "swaps", "both")
RUN = 4  # the index's k: a rewrite keeps no run of this many words
MIN_WORDS, MAX_WORDS = 6, 60
SENTENCES = (10, 18)
TRIES = 30  # shuffles tried before a sentence is passed over

_RAW_WORD = re.compile(r"[^\W_]+")
_COUNTED = regex.compile(r"[\p{L}\p{N}]")
_CYRILLIC = re.compile(r"[а-яё]+", re.IGNORECASE)
# The grammemes an ending rewrite may change: case, number, gender, tense, person.
_CHANGEABLE = frozenset(
    "nomn gent datv accs ablt loct voct gen2 acc2 loc2 sing plur masc femn neut ms-f "
    "past pres futr 1per 2per 3per".split()
)
_INFLECTED = frozenset({"NOUN", "ADJF", "ADJS", "PRTF", "PRTS", "NPRO", "VERB", "NUMR"})


# ---------------------------------------------------------------- sentences


def raw_words(text: str) -> list[str]:
    """The words of ``text`` as the ``raw`` profile cuts them, casefolded."""
    return _RAW_WORD.findall(text.casefold())


def _runs(words: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` with ``MIN_WORDS`` to ``MAX_WORDS`` words, one line each."""
    found = (" ".join(s.text.split()) for s in sentenize(text))
    return [s for s in found if MIN_WORDS <= len(raw_words(s)) <= MAX_WORDS]


def rewritten(original: str, changed: str, run: int = RUN) -> bool:
    """Whether ``changed`` keeps no run of ``run`` words of ``original``."""
    return not _runs(raw_words(original), run) & _runs(raw_words(changed), run)


# ---------------------------------------------------------------- endings


@cache
def reinflect(word: str) -> tuple[str, ...]:
    """Other forms of ``word``'s lexeme (same part of speech, another case, number, gender,
    tense or person), in the word's letter case; none for an unknown word or an acronym."""
    if len(word) < 2 or word.isupper() or not _CYRILLIC.fullmatch(word):
        return ()
    parse = analyzer().parse(word)[0]
    if not parse.is_known or parse.tag.POS not in _INFLECTED:
        return ()
    own = set(parse.tag.grammemes)
    lower = word.lower()
    forms = set()
    for form in parse.lexeme:
        differ = own ^ set(form.tag.grammemes)
        new = form.word if "ё" in lower else form.word.replace("ё", "е")
        if form.tag.POS == parse.tag.POS and differ and differ <= _CHANGEABLE and new != lower:
            forms.add(new)
    if word[:1].isupper():
        return tuple(sorted(f[:1].upper() + f[1:] for f in forms))
    return tuple(sorted(forms))


def rewrite_endings(sentence: str, rng: random.Random, share: float = 0.4) -> str | None:
    """``sentence`` with words in other forms: each inflectable word with probability
    ``share``, and more where ``RUN`` words in a row would stay; None if some run of
    ``RUN`` words has no inflectable one."""
    words = list(_RAW_WORD.finditer(sentence))
    options = [reinflect(w[0]) for w in words]
    change = [bool(o) and rng.random() < share for o in options]
    for start in range(max(1, len(words) - RUN + 1)):
        window = range(start, min(start + RUN, len(words)))
        if not any(change[i] for i in window):
            movable = [i for i in window if options[i]]
            if not movable:
                return None
            change[rng.choice(movable)] = True
    out, last = [], 0
    for word, forms, changed in zip(words, options, change):
        out.append(sentence[last : word.start()])
        out.append(rng.choice(forms) if changed else word[0])
        last = word.end()
    return "".join(out) + sentence[last:]


# ---------------------------------------------------------------- the rewrites


def _shuffled(sentence: str, rng: random.Random) -> str | None:
    for _ in range(TRIES):
        changed = shuffle_words(sentence, rng)
        if rewritten(sentence, changed):
            return changed
    return None


def _swapped(sentence: str, rng: random.Random) -> str | None:
    changed = swap_pairs(sentence)
    return changed if rewritten(sentence, changed) else None


def _both(sentence: str, rng: random.Random) -> str | None:
    endings = rewrite_endings(sentence, rng)
    return None if endings is None else _shuffled(endings, rng)


def _endings(sentence: str, rng: random.Random) -> str | None:
    changed = rewrite_endings(sentence, rng)
    return changed if changed is not None and rewritten(sentence, changed) else None


REWRITES: dict[str, Callable[[str, random.Random], str | None]] = {
    "copied": lambda s, rng: s,
    "endings": _endings,
    "shuffle": _shuffled,
    "swaps": _swapped,
    "both": _both,
}


# ---------------------------------------------------------------- drafts


@dataclass(frozen=True)
class Piece:
    """Characters ``[start, end)`` of a draft: one sentence of one kind and the space after it."""

    start: int
    end: int
    kind: str

    @property
    def truth(self) -> str:
        return TRUTH[self.kind]


@dataclass(frozen=True)
class Draft:
    """A labelled draft: its text, its pieces in order, and the sources it was made from."""

    text: str
    pieces: tuple[Piece, ...]
    first: str
    second: str

    def labels(self) -> list[str]:
        """The truth (``new``, ``copied`` or ``rewritten``) of every character."""
        out: list[str] = []
        for piece in self.pieces:
            out.extend([piece.truth] * (piece.end - piece.start))
        return out

    def kinds(self) -> list[str]:
        """The kind of sentence every character belongs to."""
        out: list[str] = []
        for piece in self.pieces:
            out.extend([piece.kind] * (piece.end - piece.start))
        return out

    def counted(self) -> list[bool]:
        """Which characters count: letters and digits, as in canon's verdict."""
        return [_COUNTED.fullmatch(c) is not None for c in self.text]

    def share(self, label: str) -> float:
        """The share of the draft's letters and digits whose truth is ``label``."""
        counted = [t for t, c in zip(self.labels(), self.counted()) if c]
        return sum(t == label for t in counted) / len(counted)


def _kinds(rng: random.Random) -> list[str]:
    """10-18 kinds.  The weights of new, copied and rewritten text are drawn from a flat
    Dirichlet (α = 0.8), so that drafts range from nearly all new to nearly all borrowed, and
    each one's weight is split among its kinds by another (α = 1)."""
    truths = {label: rng.gammavariate(0.8, 1.0) for label in LABELS}
    split = {kind: rng.gammavariate(1.0, 1.0) for kind in KINDS}
    within = {label: sum(split[k] for k in KINDS if TRUTH[k] == label) for label in LABELS}
    weights = [truths[TRUTH[k]] * split[k] / within[TRUTH[k]] for k in KINDS]
    return rng.choices(KINDS, weights=weights, k=rng.randint(*SENTENCES))


def _from_first(kinds: list[str], first: list[str], rng: random.Random) -> list[tuple[str, str]]:
    """A sentence of ``first`` for every kind that rewrites it, while ``first`` lasts."""
    pool = list(first)
    rng.shuffle(pool)
    out = []
    for kind in (k for k in kinds if k in REWRITES):
        while pool:
            changed = REWRITES[kind](pool.pop(), rng)
            if changed is not None:
                out.append((kind, changed))
                break
    return out


def make_draft(
    first: tuple[str, list[str]],
    second: tuple[str, list[str]],
    fresh: Sequence[str],
    seed: int,
) -> Draft:
    """A draft from the sentences of source A (``first``: its name and sentences), of source B
    (``second``) and of texts that are not indexed (``fresh``), with a mix drawn from ``seed``."""
    rng = random.Random(seed)
    kinds = _kinds(rng)
    chosen = _from_first(kinds, first[1], rng)
    for kind, pool in (("second", list(second[1])), ("new", list(fresh))):
        chosen += [(kind, s) for s in rng.sample(pool, min(kinds.count(kind), len(pool)))]
    rng.shuffle(chosen)
    text, pieces = "", []
    for i, (kind, sentence) in enumerate(chosen):
        part = sentence if i == len(chosen) - 1 else sentence + " "
        pieces.append(Piece(len(text), len(text) + len(part), kind))
        text += part
    return Draft(text, tuple(pieces), first[0], second[0])
