"""A content lemma → its synonym class: the words a synonymizer swaps for one another, read as one.

A synonymizer replaces words by others of the same part of speech and meaning, inflected as
the original was; after lemmatization what is left is a lemma swapped for another.  The
sentence measure (:mod:`canon.fingerprints.sentences`) reads every lemma as its *class*, so a
sentence whose words were swapped still shares its lemmas with its source.  A class joins
lemmas that are synonyms by either of two resources shipped inside packages:

- **wiki-ru-wordnet**: the synsets of the Russian Wiktionary (an SQLite file in the package):
  two single-word lemmas of one synset and one part of speech, each its own lemma to
  pymorphy3, are a pair;
- **navec** news embeddings (shipped in the ``natasha`` package): two lemmas of one part of
  speech, neither a name, whose vectors' cosine is at least :data:`MIN_COSINE`, each among the
  other's :data:`NEIGHBOURS` nearest.  Lemmas are the embedding's words that wordfreq has at
  Zipf :data:`MIN_ZIPF` or more and that are their own lemma.

Synonymy is not transitive (``ключ`` is a spring and a key, ``источник`` a spring and an
informant): classes are grown by joining pairs, the pairs of smaller synsets first and then by
falling cosine, and a join is skipped when the class would hold more than :data:`MAX_CLASS`
lemmas or when fewer than :data:`MIN_LINKED` of the pairs of lemmas across the two classes are
pairs themselves (average linkage), so no chain of senses reaches far.  A class is named by its
most frequent lemma.  Embeddings also put antonyms and co-hyponyms close (``увеличить`` /
``уменьшить``, ``вторник`` / ``четверг``): a sentence whose words were swapped for them is
still built on its source, and the measure compares whole sentences, so a pair alone never
makes two sentences alike.

Building the table reads both resources and takes some seconds (about 8 on a laptop core); it
is kept in the cache directory (:func:`canon.text.lemma_cache.cache_dir`), one file per version
of the resources and of these rules, written whole and moved into place under a lock, so
concurrent processes build it once.  ``ё`` is looked up as written and as ``е``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import metadata
from pathlib import Path

import numpy as np

from ..errors import MissingResource
from .frequency import frequent_words
from .lemma_cache import cache_dir, locked

__all__ = [
    "MAX_CLASS",
    "MIN_COSINE",
    "MIN_LINKED",
    "MIN_ZIPF",
    "NEIGHBOURS",
    "SYNONYMS_VERSION",
    "classes_of",
    "embedded_lemmas",
    "synonym_classes",
    "version",
    "wordnet_file",
]

SYNONYMS_VERSION = 1  # bumped when the rules below change what a class holds
MIN_ZIPF = 2.5  # embedding words rarer than this (wordfreq) are left out
NEIGHBOURS = 5  # nearest lemmas of the same part of speech a lemma is paired with
MIN_COSINE = 0.5
MAX_CLASS = 8  # lemmas a class holds at most
MIN_LINKED = 0.5  # of the pairs across two classes, the share that must be pairs to join them

_NAVEC = "natasha/data/emb/navec_news_v1_1B_250K_300d_100q.tar"
_WORDNET = "wiki_ru_wordnet/database/wikiwordnet.db"
_CONTENT = frozenset({"NOUN", "ADJF", "INFN", "ADVB"})
_NAMES = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr"})
_WORD = re.compile(r"[а-яё]{3,}(?:-[а-яё]{2,})?")
_BLOCK = 2048  # embedding rows multiplied at once

_log = logging.getLogger("canon.synonyms")


def _located(package: str, path: str) -> Path:
    """A data file inside an installed package, found without importing the package."""
    try:
        found = Path(str(metadata.distribution(package).locate_file(path)))
    except metadata.PackageNotFoundError:
        found = None
    if found is None or not found.is_file():
        raise MissingResource(
            f"the synonym classes need the {package} package: pip install {package}",
            package=package,
        )
    return found


def wordnet_file() -> Path:
    """The Wiktionary synsets' SQLite file, as wiki-ru-wordnet ships it."""
    return _located("wiki-ru-wordnet", _WORDNET)


@cache
def version() -> str:
    """What the classes are made of, for the fingerprints of the sentence sets they make."""
    from .lemmatize import analyzer_version

    parts = [f"synonyms {SYNONYMS_VERSION}", analyzer_version("lemma")]
    for package in ("wiki-ru-wordnet", "natasha", "navec", "wordfreq"):
        try:
            parts.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package} missing")
    return "; ".join(parts)


# ---------------------------------------------------------------- the pairs


def _lemma_of(word: str) -> tuple[str, str, bool]:
    """pymorphy3's likeliest lemma of ``word``, its part of speech and whether it is a name."""
    from .lemmatize import likeliest

    lemma, kind, grammemes = likeliest(word)
    return lemma, kind, bool(_NAMES & grammemes)


def _wordnet_pairs() -> list[tuple[str, str]]:
    """Two single-word lemmas of one Wiktionary synset, each its own lemma to pymorphy3, of one
    part of speech: the pairs of smaller synsets first."""
    path = wordnet_file()
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as db:
        rows = db.execute(
            "SELECT a.lemma, b.lemma, MIN(n.size) FROM synsets a"
            " JOIN synsets b ON a.synset_id = b.synset_id AND a.lemma < b.lemma"
            " JOIN (SELECT synset_id, COUNT(*) AS size FROM synsets GROUP BY synset_id) n"
            " ON n.synset_id = a.synset_id GROUP BY a.lemma, b.lemma"
        ).fetchall()
    pairs = []
    for first, second, _ in sorted(rows, key=lambda r: (r[2], r[0], r[1])):
        if _WORD.fullmatch(first) and _WORD.fullmatch(second):
            a, b = _lemma_of(first), _lemma_of(second)
            if a[0] == first and b[0] == second and a[1] == b[1] and a[1] in _CONTENT:
                pairs.append((first, second))
    return pairs


def embedded_lemmas() -> tuple[list[str], np.ndarray, np.ndarray]:
    """The embedding's words that are frequent content lemmas, not names: the words, their
    parts of speech and their unit vectors (float32)."""
    from navec import Navec

    navec = Navec.load(str(_located("natasha", _NAVEC)))
    frequent = frequent_words("ru")
    words, kinds, rows = [], [], []
    for row, word in enumerate(navec.vocab.words):
        if frequent.get(word, 0.0) < MIN_ZIPF or not _WORD.fullmatch(word):
            continue
        lemma, kind, name = _lemma_of(word)
        if lemma == word and kind in _CONTENT and not name:
            words.append(word)
            kinds.append(kind)
            rows.append(row)
    pq = navec.pq
    vectors = pq.codes[pq.qdims, pq.indexes[rows]].reshape(len(rows), pq.dim)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True).clip(1e-9)
    return words, np.array(kinds), vectors.astype(np.float32)


def _neighbour_pairs() -> list[tuple[float, str, str]]:
    """Embedded lemmas of one part of speech each among the other's nearest, by cosine."""
    words, kinds, vectors = embedded_lemmas()
    found: dict[tuple[int, int], float] = {}
    for kind in sorted(set(kinds.tolist())):
        group = np.flatnonzero(kinds == kind)
        if len(group) <= NEIGHBOURS:
            continue
        matrix = vectors[group]
        for start in range(0, len(group), _BLOCK):
            sims = matrix[start : start + _BLOCK] @ matrix.T
            rows = np.arange(len(sims))
            sims[rows, start + rows] = -1.0  # not its own neighbour
            near = np.argpartition(-sims, NEIGHBOURS, axis=1)[:, :NEIGHBOURS]
            cosine = np.take_along_axis(sims, near, axis=1)
            for row, column in zip(*np.nonzero(cosine >= MIN_COSINE)):
                pair = (int(group[start + row]), int(group[near[row, column]]))
                found[pair] = float(cosine[row, column])
    mutual = [(c, words[a], words[b]) for (a, b), c in found.items() if a < b and (b, a) in found]
    return sorted(mutual, key=lambda p: (-p[0], p[1], p[2]))


# ---------------------------------------------------------------- the classes


def _grown(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """Lemma → class name.  ``pairs`` join classes in order, while the joined class holds at
    most ``MAX_CLASS`` lemmas and at least :data:`MIN_LINKED` of the pairs of lemmas across the
    two classes are pairs themselves (so two classes touching by one pair stay apart); a class
    is named by its most frequent lemma (then the first in alphabetical order)."""
    linked: dict[str, set[str]] = {}
    for first, second in pairs:
        linked.setdefault(first, set()).add(second)
        linked.setdefault(second, set()).add(first)
    members = {word: [word] for word in linked}
    owner = {word: word for word in linked}
    for first, second in pairs:
        a, b = owner[first], owner[second]
        if a == b or len(members[a]) + len(members[b]) > MAX_CLASS:
            continue
        across = sum(len(linked[w].intersection(members[b])) for w in members[a])
        if across < MIN_LINKED * len(members[a]) * len(members[b]):
            continue
        if len(members[a]) < len(members[b]):
            a, b = b, a
        for word in members[b]:
            owner[word] = a
        members[a].extend(members.pop(b))
    frequent = frequent_words("ru")
    table = {}
    for group in members.values():
        if len(group) > 1:
            name = min(group, key=lambda w: (-frequent.get(w, 0.0), w))
            table.update(dict.fromkeys(group, name))
    return table


def _build() -> dict[str, str]:
    return _grown([*_wordnet_pairs(), *((a, b) for _, a, b in _neighbour_pairs())])


def _with_yo_folded(table: Mapping[str, str]) -> dict[str, str]:
    folded = {k.replace("ё", "е"): v.replace("ё", "е") for k, v in table.items() if "ё" in k}
    return {**{k: v for k, v in folded.items() if k not in table}, **table}


# ---------------------------------------------------------------- the file


def _path() -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(version().encode("utf-8")).hexdigest()[:16]
    return folder / f"canon-synonyms-{key}.tsv"


def _read(path: Path) -> dict[str, str] | None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != f"# {version()}" or lines[-1] != "# end":
        return None
    pairs = [line.split("\t") for line in lines[1:-1]]
    if any(len(p) != 2 for p in pairs):
        return None
    return {k: v for k, v in pairs}


def _write(path: Path, table: Mapping[str, str]) -> None:
    body = "".join(f"{k}\t{v}\n" for k, v in sorted(table.items()))
    text = f"# {version()}\n{body}# end\n"
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        _log.warning("the synonym classes are kept in memory only: %s", exc)


@cache
def synonym_classes() -> Mapping[str, str]:
    """Every lemma of a class of two or more → the class's name (its most frequent lemma)."""
    path = _path()
    if path is None:
        return _with_yo_folded(_build())
    table = _read(path)
    if table is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with locked(path.with_name(path.name + ".lock")):
                table = _read(path)
                if table is None:
                    table = _build()
                    _write(path, table)
        except OSError:
            table = _build()
    return _with_yo_folded(table)


def classes_of(lemmas: Iterable[str]) -> list[str]:
    """Each lemma's class name, the lemma itself when it has no class."""
    table = synonym_classes()
    return [table.get(lemma, lemma) for lemma in lemmas]
