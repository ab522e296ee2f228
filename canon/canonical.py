"""Text → canonical tokens under one Profile, each token keeping its span in the original text.

Everything a profile does to a word after tokenization (folding look-alike letters, lemma or
stem, ё, stop words, parts of speech, synonyms) depends on the word alone.  Each profile
therefore keeps a table from surface form to canonical form (empty for a dropped word): by
Zipf's law most words of a text are already in it, and a text is canonicalized by one regex
pass and one dictionary lookup a word.  The repairs that change the words themselves (short
look-alike words, hyphens, transliteration) run before the table.  Spans are worked out only
when asked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Any

import numpy as np

from .hashing import forget_hashes, remember_hashes, token_hashes
from .profile import Profile, get_profile
from .text import hyphens, latin, lemmatize, translit
from .text.bidi import display_order
from .text.garbled import read_garbled
from .text.lemma_cache import table_file
from .text.lemmatize import base_forms, parts_of_speech
from .text.lookalikes import Folded, fold_lookalikes
from .text.normalize import Normalized, hidden_as_ignorable, hidden_spans, normalize
from .text.repairs import Repaired, repair_words
from .text.tokenize import (
    Fold,
    fold_confusables,
    fold_short_words,
    has_mixed_words,
    word_span_array,
    word_spans,
    words,
)
from .text.tricks import Trick, find_tricks, repair_tricks
from .text.wordlists import NEGATION_LIST, list_words, read_synonyms

__all__ = ["Canonical", "Fragment", "canonicalize"]

_TABLE_LIMIT = 1_000_000  # distinct surface forms remembered per profile


@dataclass(frozen=True)
class Fragment:
    """Characters ``[start, end)`` of a text: a run of shingles found elsewhere."""

    start: int
    end: int


@dataclass(frozen=True)
class Canonical:
    """The canonical form of one text.

    ``tokens[i]`` is the canonical word (lemma, stem or normalized form) whose source is
    ``text[spans[i][0]:spans[i][1]]`` in the text the user gave.  ``folds`` lists the words
    written with look-alike letters that were folded to Cyrillic, and ``dropped`` counts
    the words removed as stop words.  ``tricks`` lists every repair (look-alike letters,
    marks, invisible characters, hyphens, transliteration) with its place in the text.
    """

    tokens: tuple[str, ...]
    profile: Profile
    folds: tuple[Fold, ...] = ()
    dropped: int = 0
    text: str = field(default="", repr=False, compare=False)
    # What canonicalize worked out on the way, kept for the spans and the tricks.
    steps: _Steps | None = field(default=None, repr=False, compare=False)

    @cached_property
    def _steps(self) -> _Steps:
        return self.steps or _steps_of(self.text, self.profile)

    @cached_property
    def _word_spans(self) -> np.ndarray:
        return word_span_array(self._steps.norm, keep_hyphens=self.profile.keep_hyphens)

    @cached_property
    def span_array(self) -> np.ndarray:
        """:attr:`spans` as an ``(n, 2)`` int64 array."""
        steps, profile = self._steps, self.profile
        repaired = steps.repaired
        if repaired.repairs:  # the repaired words' own spans, worked out once more
            repaired = _repaired(steps.norm, steps.surface, profile, spans=True)
        if repaired.offsets is None:
            spans = self._word_spans
        else:
            spans = steps.norm.span_array(np.array(repaired.offsets, dtype=np.int64))
        if _is_identity(profile):
            return spans
        table = _table(profile, repaired.words)
        kept = np.fromiter((bool(table[f]) for f in repaired.words), bool, len(repaired.words))
        kept_spans: np.ndarray = spans[kept]
        return kept_spans

    @cached_property
    def joined(self) -> tuple[tuple[int, int], ...]:
        """``(start, end)`` in ``text`` of each word read across characters a reader passes
        over (letters spaced apart, signs or invisible characters inside a word, a line-end
        hyphen), in text order: where the sentences are split as read
        (:func:`canon.text.sentences.passed_over`)."""
        from .text.sentences import passed_over  # razdel, only where sentences are wanted

        steps = self._steps
        repaired = {span for r in steps.repaired.repairs for span in r.spans}
        spans = steps.norm.span_array(np.array(sorted(repaired), dtype=np.int64).reshape(-1, 2))
        folds = np.array([(f.start, f.end) for f in self.folds], dtype=np.int64).reshape(-1, 2)
        return passed_over(self.text, np.concatenate([self._word_spans, spans, folds]))

    @cached_property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """``(start, end)`` of each token's source in ``text``."""
        return tuple((s, e) for s, e in self.span_array.tolist())

    @cached_property
    def tricks(self) -> tuple[Trick, ...]:
        """Every repair the rules made in ``text`` (look-alike letters, marks, invisible
        characters, hyphens, transliteration), with its place in ``text``, in text order."""
        profile = self.profile
        if not (
            profile.strip_all_marks
            or profile.drop_ignorables
            or profile.repair_hyphens
            or profile.transliterate
            or profile.repair_spacing
            or self.folds
        ):
            return ()
        steps = self._steps
        return find_tricks(
            self.text,
            self._word_spans.tolist(),
            self.folds,
            marks=profile.strip_marks and profile.strip_all_marks,
            invisible=profile.drop_ignorables,
            repairs=[
                *repair_tricks(self.text, steps.norm, steps.repaired.repairs),
                *_bidi_tricks(self.text, profile),
            ],
        )

    @cached_property
    def hashes(self) -> np.ndarray:
        """xxh3_64 of each token's UTF-8 bytes (``uint64``), what shingle hashing and
        signatures start from; each distinct token is hashed once per process."""
        return token_hashes(self.tokens)

    @property
    def fingerprint(self) -> str:
        return self.profile.fingerprint

    def fragments(self, starts: Iterable[int], k: int) -> tuple[Fragment, ...]:
        """Merged character ranges of the k-word windows starting at token ``starts``
        (ascending), mapped to the original text through the spans."""
        first = np.fromiter(starts, dtype=np.int64)
        if len(first) == 0:
            return ()
        spans = self.span_array
        begin, end = spans[first, 0], spans[first + k - 1, 1]
        # Spans ascend with the tokens, so the ends of ascending windows ascend too: a window
        # opens a new fragment exactly when it starts after the previous one ends.
        opens = np.flatnonzero(np.concatenate(([True], begin[1:] > end[:-1])))
        closes = np.concatenate((opens[1:] - 1, [len(first) - 1]))
        return tuple(Fragment(int(s), int(e)) for s, e in zip(begin[opens], end[closes]))

    def __len__(self) -> int:
        return len(self.tokens)

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile.name,
            "fingerprint": self.fingerprint,
            "tokens": list(self.tokens),
            "spans": [list(s) for s in self.spans],
            "dropped": self.dropped,
            "folds": [f.to_dict() for f in self.folds],
            "tricks": [t.to_dict() for t in self.tricks],
        }


def _bidi_tricks(text: str, profile: Profile) -> list[Trick]:
    """The runs under bidirectional controls shown in another order than stored, and the
    control characters that nobody sees."""
    if not profile.drop_ignorables:
        return []
    runs = display_order(text)[1]
    tricks = [Trick("invisible", r.start, r.end, r.original, r.displayed) for r in runs]
    return tricks + [Trick("invisible", s, e, text[s:e], "") for s, e in hidden_spans(text)]


@dataclass(frozen=True)
class _Steps:
    """A text normalized, its words as tokenized (short look-alike words folded), and those
    words after the hyphen and transliteration repairs."""

    norm: Normalized
    surface: list[str]
    repaired: Repaired


def _steps_of(text: str, profile: Profile) -> _Steps:
    norm = _normalized(text, profile)
    surface = _surface(norm, profile)[0]
    return _Steps(norm, surface, _repaired(norm, surface, profile))


def _normalized(text: str, profile: Profile) -> Normalized:
    return _normalized_folded(text, profile)[0]


def _normalized_folded(text: str, profile: Profile) -> tuple[Normalized, tuple[Folded, ...]]:
    """The text normalized, after the lines under bidirectional controls were put in display
    order (with the invisible-character repair) and the characters posing as Russian letters
    were put back (when the profile folds look-alikes of every script): both one character
    for one, so offsets hold."""
    prefolds: tuple[Folded, ...] = ()
    if profile.drop_ignorables:
        text = hidden_as_ignorable(display_order(text)[0])
    if profile.fold_confusables and profile.fold_all_lookalikes:
        text, garbled = read_garbled(text)
        text, prefolds = fold_lookalikes(text)
        prefolds = tuple(sorted(garbled + prefolds, key=lambda f: f.start))
    return _normalize(text, profile), prefolds


def _normalize(text: str, profile: Profile) -> Normalized:
    return normalize(
        text,
        form=profile.unicode_form,
        casefold=profile.casefold,
        strip_marks=profile.strip_marks,
        all_marks=profile.strip_all_marks,
        ignorables=profile.drop_ignorables,
        yo_fold=profile.yo_fold,
    )


def _surface(norm: Normalized, profile: Profile) -> tuple[list[str], dict[int, str]]:
    """The words of a text, short words in look-alike letters folded when the profile says
    (and those folds, by word index)."""
    surface = words(norm, keep_hyphens=profile.keep_hyphens)
    if not (profile.fold_confusables and profile.fold_all_lookalikes):
        return surface, {}
    short = fold_short_words(norm.text, surface)
    for i, folded in short.items():
        surface[i] = folded
    return surface, short


def _repaired(
    norm: Normalized,
    surface: list[str],
    profile: Profile,
    *,
    spans: bool = False,
    distinct: set[str] | None = None,
) -> Repaired:
    """The words after the hyphen and transliteration repairs the profile asks for (and their
    spans in the normalized text, with ``spans``)."""
    if not (profile.repair_hyphens or profile.transliterate or profile.repair_spacing):
        return Repaired(surface)
    repaired = repair_words(
        norm,
        surface,
        keep_hyphens=profile.keep_hyphens,
        hyphens=profile.repair_hyphens,
        translit=profile.transliterate,
        spacing=profile.repair_spacing,
        spans=spans,
        distinct=distinct,
    )
    if profile.yo_fold and repaired.words is not surface:  # words read as the dictionary has them
        folded = [w.replace("ё", "е") if "ё" in w else w for w in repaired.words]
        repaired = replace(repaired, words=folded)
    return repaired


def _is_identity(profile: Profile) -> bool:
    """True when every word stays as tokenized (the ``raw`` rules)."""
    return not (
        profile.fold_confusables
        or profile.repair_hyphens
        or profile.transliterate
        or profile.repair_spacing
        or profile.morphology != "none"
        or profile.stopwords
        or profile.drop_pos
        or profile.synonyms
        or not profile.keep_negation
    )


def _base(forms: list[str], profile: Profile) -> tuple[list[str], list[str]]:
    """Words folded, and then lemmatized or stemmed: their forms before the word lists apply."""
    if profile.fold_confusables:
        wide = profile.fold_all_lookalikes
        forms = [fold_confusables(f, wide=wide) for f in forms]
    if profile.morphology == "none":
        return forms, forms
    return forms, base_forms(forms, profile.morphology, profile.yo_fold)


def _list_forms(profile: Profile, entries: tuple[str, ...]) -> frozenset[str]:
    """List entries put through the profile's own rules, so they match what a text becomes."""
    norm = _normalized(" ".join(entries), profile)
    forms = words(norm, keep_hyphens=profile.keep_hyphens)
    if profile.repair_hyphens:
        forms = repair_words(
            norm, forms, keep_hyphens=profile.keep_hyphens, hyphens=True, translit=False
        ).words
    return frozenset(_base(forms, profile)[1])


@cache
def _rules(profile: Profile) -> tuple[frozenset[str], frozenset[str], dict[str, str]]:
    """The profile's stop set, negation set and synonym map, in canonical form."""
    stop: set[str] = set()
    for key in profile.stopwords:
        stop |= _list_forms(profile, list_words(key))
    negation = _list_forms(profile, list_words(NEGATION_LIST))
    stop = stop - negation if profile.keep_negation else stop | negation
    synonyms: dict[str, str] = {}
    for group in read_synonyms(profile.synonyms) if profile.synonyms else ():
        forms = [_list_forms(profile, (word,)) for word in group]
        if len(forms[0]) == 1:
            (head,) = forms[0]
            synonyms.update({form: head for f in forms[1:] if len(f) == 1 for form in f})
    return frozenset(stop), negation, synonyms


_tables: dict[Profile, dict[str, str]] = {}


def clear_caches() -> None:
    """Forget every word seen, as in a fresh process (benchmarks use it for cold runs)."""
    _tables.clear()
    forget_hashes()
    lemmatize.clear_caches()
    hyphens.clear_caches()
    latin.clear_caches()
    translit.clear_caches()


def _persisted_table(profile: Profile) -> dict[str, str]:
    """The profile's table as an earlier process left it in the cache file (or empty)."""
    cache = table_file(profile.fingerprint)
    if cache is None:
        return {}
    forms, canonical, hashes = cache.load()
    remember_hashes(canonical, hashes.tolist())
    return dict(zip(forms, canonical))


def _table(
    profile: Profile, surface: list[str], distinct: set[str] | None = None
) -> dict[str, str]:
    """The profile's surface → canonical table, completed for ``surface`` ("" = dropped);
    ``distinct`` is ``set(surface)`` when the caller has it.  A new table starts from the
    cache file of the profile, and what is added is written there too."""
    table = _tables.get(profile)
    if table is None:
        table = _tables[profile] = _persisted_table(profile)
    distinct = set(surface) if distinct is None else distinct
    missing = list(distinct.difference(table))
    if not missing:
        return table
    if len(table) + len(missing) > _TABLE_LIMIT:
        table.clear()
        missing = list(distinct)
    stop, negation, synonyms = _rules(profile)
    folded, bases = _base(missing, profile)
    keep = [base not in stop for base in bases]
    if profile.drop_pos:
        drop, protected = set(profile.drop_pos), negation if profile.keep_negation else ()
        tags = parts_of_speech(folded)
        keep = [
            k and (tag not in drop or base in protected) for k, tag, base in zip(keep, tags, bases)
        ]
    added = {
        form: synonyms.get(base, base) if kept else ""
        for form, base, kept in zip(missing, bases, keep)
    }
    table.update(added)
    cache = table_file(profile.fingerprint)
    if cache is not None:
        cache.learn(added)
    return table


def _look_alike_folds(
    text: str, norm: Normalized, surface: list[str], short: dict[int, str], profile: Profile
) -> tuple[Fold, ...]:
    wide = profile.fold_all_lookalikes
    if not short and not has_mixed_words(norm.text, wide=wide):
        return ()
    folded = {f: fold_confusables(f, wide=wide) for f in set(surface) if not f.isascii()}
    changed = {f for f, new in folded.items() if new != f}
    if not changed and not (wide and short):
        return ()
    spans = word_spans(norm, keep_hyphens=profile.keep_hyphens)
    return tuple(
        Fold(start, end, text[start:end], short.get(i) or folded[form])
        for i, (form, (start, end)) in enumerate(zip(surface, spans))
        if form in changed or (wide and i in short)
    )


def _with_prefolds(prefolds: tuple[Folded, ...], folds: tuple[Fold, ...]) -> tuple[Fold, ...]:
    """The folds made before normalization and after it, in text order; a word folded before
    is not reported again."""
    if not prefolds:
        return folds
    before = [Fold(f.start, f.end, f.original, f.folded) for f in prefolds]
    after = [f for f in folds if not any(f.start < b.end and b.start < f.end for b in before)]
    return tuple(sorted(before + after, key=lambda f: (f.start, f.end)))


def canonicalize(text: str, profile: str | Profile = "lemma") -> Canonical:
    """The canonical tokens of ``text`` under ``profile`` (a built-in name or a Profile)."""
    profile = get_profile(profile)
    norm, prefolds = _normalized_folded(text, profile)
    surface, short = _surface(norm, profile)
    if _is_identity(profile):
        steps = _Steps(norm, surface, Repaired(surface))
        return Canonical(tuple(surface), profile, text=text, steps=steps)
    distinct = set(surface)
    repaired = _repaired(norm, surface, profile, distinct=distinct)
    forms = repaired.words
    table = _table(profile, forms, distinct if forms is surface else None)
    tokens = list(filter(None, map(table.__getitem__, forms)))  # "": dropped
    folds = (
        _with_prefolds(prefolds, _look_alike_folds(text, norm, surface, short, profile))
        if profile.fold_confusables
        else ()
    )
    steps = _Steps(norm, surface, repaired)
    return Canonical(tuple(tokens), profile, folds, len(forms) - len(tokens), text, steps)
