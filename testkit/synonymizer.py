"""A text → the same text with content words swapped for synonyms, as a synonymizer does it.

A synonymizer is a table of lemma → synonym lemmas of the same part of speech.  It replaces a
share of the text's content words (nouns, adjectives, verbs, adverbs; names left alone) by a
synonym drawn at random, inflected by pymorphy3 into the original's case, number, gender,
tense and person, in the original's letter case; a word whose synonym cannot take that form is
left as it is.  Three tables, from three resources:

- :func:`wordnet_table`: the Russian Wiktionary synsets of ``wiki-ru-wordnet``;
- :func:`embedding_table`: each lemma's nearest lemmas of the same part of speech in the navec
  news embeddings shipped in ``natasha`` (not only mutual neighbours, not capped in classes);
- :func:`paraphrase_table`: the one-word substitutions people made in precise paraphrases
  (ParaPhraser pairs of class 1 whose content lemmas differ by one on each side).
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from testkit.tricks import analyzer, map_sentences, shuffle_words

__all__ = [
    "Synonymized",
    "Synonymizer",
    "embedding_table",
    "paraphrase_table",
    "wordnet_table",
]

_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_CONTENT = frozenset({"NOUN", "ADJF", "VERB", "INFN", "ADVB", "PRTF", "GRND"})
_NAMES = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr"})
# What a replacement keeps of the original's form.
_FORM = frozenset(
    "nomn gent datv accs ablt loct voct gen2 acc2 loc2 sing plur masc femn neut "
    "1per 2per 3per pres past futr impr indc".split()
)


@dataclass(frozen=True)
class Synonymized:
    """The altered text, how many words were replaced, and how many could have been."""

    text: str
    replaced: int
    words: int  # content words that could have been replaced (names and unknown words apart)


def _content(word: str) -> tuple[str, str] | None:
    """The lemma and part of speech of a content word that is not a name."""
    parse = analyzer().parse(word)[0]
    pos = str(parse.tag.POS or "")
    if pos not in _CONTENT or not parse.is_known or _NAMES & parse.tag.grammemes:
        return None
    return parse.normal_form, pos


def _inflected(word: str, synonym: str) -> str | None:
    """``synonym`` (a lemma) in ``word``'s form and letter case, or None."""
    original = analyzer().parse(word)[0]
    wanted = set(original.tag.grammemes) & _FORM
    for parse in analyzer().parse(synonym):
        if parse.normal_form != synonym:
            continue
        for grammemes in (wanted, wanted - {"masc", "femn", "neut"}):
            form = parse.inflect(grammemes) if grammemes else parse
            if form is not None:
                new = form.word
                if word.isupper():
                    return new.upper()
                return new[:1].upper() + new[1:] if word[:1].isupper() else new
    return None


@dataclass(frozen=True)
class Synonymizer:
    """Swaps content words for synonyms from ``table`` (lemma → synonym lemmas)."""

    name: str
    table: Mapping[str, tuple[str, ...]]

    def rewrite(self, text: str, share: float, seed: int, *, shuffle: bool = False) -> Synonymized:
        """``text`` with ``share`` of its content words replaced where the table has a
        synonym that takes the word's form (if fewer have one, all of those), and each
        sentence's words shuffled too when ``shuffle``."""
        rng = random.Random(seed)
        found = [(m, _content(m[0])) for m in _WORD.finditer(text)]
        content = [(m, c) for m, c in found if c is not None]
        able = [(m, c) for m, c in content if self.table.get(c[0])]
        rng.shuffle(able)
        wanted = round(share * len(content))
        swaps: dict[int, tuple[int, str]] = {}
        for match, (lemma, _) in able:
            if len(swaps) >= wanted:
                break
            new = _inflected(match[0], rng.choice(self.table[lemma]))
            if new is not None and new.lower() != match[0].lower():
                swaps[match.start()] = (match.end(), new)
        out, last = [], 0
        for start in sorted(swaps):
            end, new = swaps[start]
            out += [text[last:start], new]
            last = end
        changed = "".join(out) + text[last:]
        if shuffle:
            changed = map_sentences(changed, lambda s: shuffle_words(s, rng))
        return Synonymized(changed, len(swaps), len(content))


# ---------------------------------------------------------------- the tables


def _grouped(pairs: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    table: dict[str, set[str]] = {}
    for a, b in pairs:
        if a != b:
            table.setdefault(a, set()).add(b)
            table.setdefault(b, set()).add(a)
    return {k: tuple(sorted(v)) for k, v in table.items()}


@cache
def wordnet_table() -> dict[str, tuple[str, ...]]:
    """The single-word lemmas of each Wiktionary synset, of one part of speech."""
    from canon.text.synonyms import wordnet_file

    path = wordnet_file()
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as db:
        rows = db.execute(
            "SELECT DISTINCT a.lemma, b.lemma FROM synsets a JOIN synsets b"
            " ON a.synset_id = b.synset_id AND a.lemma < b.lemma"
        ).fetchall()
    pairs = []
    for a, b in rows:
        if _WORD.fullmatch(a) and _WORD.fullmatch(b):
            first, second = _content(a), _content(b)
            if first and second and first[1] == second[1]:
                pairs.append((a, b))
    return _grouped(pairs)


@cache
def embedding_table(nearest: int = 3, min_cosine: float = 0.45) -> dict[str, tuple[str, ...]]:
    """Each frequent content lemma's ``nearest`` lemmas of its part of speech in the navec
    news embeddings, of cosine ``min_cosine`` or more."""
    from canon.text.synonyms import embedded_lemmas

    words, kinds, vectors = embedded_lemmas()
    table: dict[str, tuple[str, ...]] = {}
    for kind in sorted(set(kinds.tolist())):
        group = np.flatnonzero(kinds == kind)
        matrix = vectors[group]
        for start in range(0, len(group), 2048):
            sims = matrix[start : start + 2048] @ matrix.T
            rows = np.arange(len(sims))
            sims[rows, start + rows] = -1.0
            near = np.argsort(-sims, axis=1)[:, :nearest]
            for row in rows:
                chosen = [words[group[c]] for c in near[row] if sims[row, c] >= min_cosine]
                if chosen:
                    table[words[group[start + row]]] = tuple(chosen)
    return table


def paraphrase_table(pairs: Sequence[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """The one-word substitutions of paraphrase ``pairs``: two sentences whose content lemmas
    differ by exactly one on each side, of the same part of speech."""

    def lemmas(sentence: str) -> set[tuple[str, str]]:
        return {c for c in map(_content, _WORD.findall(sentence)) if c is not None}

    found = []
    for first, second in pairs:
        a, b = lemmas(first), lemmas(second)
        only_a, only_b = a - b, b - a
        if len(only_a) == 1 and len(only_b) == 1:
            (x, px), (y, py) = only_a.pop(), only_b.pop()
            if px == py:
                found.append((x, y))
    return _grouped(found)
