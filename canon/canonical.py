"""Text → canonical tokens under one Profile, each token keeping its span in the original text."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .lemmatize import base_forms, parts_of_speech
from .normalize import normalize
from .profile import Profile, get_profile
from .stopwords import NEGATION_LIST, list_words, read_synonyms
from .tokenize import Fold, fold_confusables, words

__all__ = ["Canonical", "canonicalize"]


@dataclass(frozen=True)
class Canonical:
    """The canonical form of one text.

    ``tokens[i]`` is the canonical word (lemma, stem or normalized form) whose source is
    ``text[spans[i][0]:spans[i][1]]`` in the text the user gave.  ``folds`` lists the words
    written with Latin look-alike letters that were folded to Cyrillic, and ``dropped`` counts
    the words removed as stop words.
    """

    tokens: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    profile: Profile
    folds: tuple[Fold, ...] = ()
    dropped: int = 0

    @property
    def fingerprint(self) -> str:
        return self.profile.fingerprint

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
        }


def _word_forms(
    text: str, profile: Profile
) -> tuple[list[str], list[str], list[tuple[int, int]], list[Fold]]:
    """Normalized surface words, their base forms, spans and folds: all but stop-word removal."""
    norm = normalize(
        text,
        form=profile.unicode_form,
        casefold=profile.casefold,
        strip_marks=profile.strip_marks,
        yo_fold=profile.yo_fold,
    )
    surface, spans = words(norm, keep_hyphens=profile.keep_hyphens)
    folds: list[Fold] = []
    if profile.fold_confusables:
        surface, folds = fold_confusables(surface, spans, text)
    if profile.morphology == "none":
        return surface, surface, spans, folds
    return surface, base_forms(surface, profile.morphology, profile.yo_fold), spans, folds


def _canonical_set(profile: Profile, entries: tuple[str, ...]) -> frozenset[str]:
    """Put list entries through the profile's own rules, so they match what the text becomes."""
    return frozenset(_word_forms(" ".join(entries), profile)[1])


@cache
def _rules(profile: Profile) -> tuple[frozenset[str], frozenset[str], dict[str, str]]:
    """The profile's stop set, negation set and synonym map, in canonical form."""
    stop: set[str] = set()
    for key in profile.stopwords:
        stop |= _canonical_set(profile, list_words(key))
    negation = _canonical_set(profile, list_words(NEGATION_LIST))
    stop = stop - negation if profile.keep_negation else stop | negation
    synonyms: dict[str, str] = {}
    if profile.synonyms:
        for group in read_synonyms(profile.synonyms):
            forms = [_word_forms(word, profile)[1] for word in group]
            if forms[0]:
                head = " ".join(forms[0])
                synonyms.update({" ".join(f): head for f in forms[1:] if len(f) == 1})
    return frozenset(stop), negation, synonyms


def _kept(profile: Profile, surface: list[str], forms: list[str]) -> list[int]:
    stop, negation, _ = _rules(profile)
    keep = [i for i, form in enumerate(forms) if form not in stop]
    if profile.drop_pos:
        drop = set(profile.drop_pos)
        tags = parts_of_speech([surface[i] for i in keep])
        protected = negation if profile.keep_negation else frozenset()
        keep = [i for i, tag in zip(keep, tags) if tag not in drop or forms[i] in protected]
    return keep


def canonicalize(text: str, profile: str | Profile = "lemma") -> Canonical:
    """The canonical tokens of ``text`` under ``profile`` (a built-in name or a Profile)."""
    profile = get_profile(profile)
    surface, forms, spans, folds = _word_forms(text, profile)
    if not (profile.stopwords or profile.drop_pos or not profile.keep_negation):
        keep = None
    else:
        keep = _kept(profile, surface, forms)
    if keep is not None and len(keep) != len(forms):
        dropped = len(forms) - len(keep)
        forms = [forms[i] for i in keep]
        spans = [spans[i] for i in keep]
    else:
        dropped = 0
    if profile.synonyms:
        synonyms = _rules(profile)[2]
        forms = [synonyms.get(f, f) for f in forms]
    return Canonical(tuple(forms), tuple(spans), profile, tuple(folds), dropped)
