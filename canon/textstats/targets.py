"""Target keywords → where a text uses them: counts in every form, matched by lemma.

A target keyword (``чайник``, ``купить чай``) is put through the lemma-word rules of
:mod:`canon.textstats.words`; it occurs wherever the text has the same lemmas in the same
order with no break between them, so ``купить чай`` is found in ``купите чаю`` and
``купил чая`` but not in ``купить. Чай`` or ``купить зелёный чай``.  Function words count
as written in the keyword (``чай без сахара`` needs its ``без``).

For each keyword: ``count`` (occurrences in any form), ``exact`` (those written as the
keyword is, case, ``ё`` and quotation marks aside: the direct occurrences SEO briefs ask
for), ``density`` = ``100 × count / lemma words`` (as for phrases), and ``forms``: every
written form met, with its count, most frequent first.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError
from ..records import record_dict
from .words import LemmaWords, lemma_words

__all__ = [
    "MAX_KEYWORDS",
    "MAX_KEYWORD_CHARS",
    "MAX_KEYWORD_WORDS",
    "Form",
    "Target",
    "split_keywords",
    "targets",
]

MAX_KEYWORDS = 100
"""The most target keywords one text is checked for."""

MAX_KEYWORD_WORDS = 10
"""The most words a target keyword may have."""

MAX_KEYWORD_CHARS = 200
"""The most characters a target keyword may have."""


@dataclass(frozen=True)
class Form:
    """One way a keyword is written in the text, and how many times."""

    form: str
    count: int

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


@dataclass(frozen=True)
class Target:
    """A target keyword as given, its lemmas, and its use in the text (module docstring)."""

    keyword: str
    lemmas: str
    count: int
    exact: int
    density: float
    forms: tuple[Form, ...]

    def to_dict(self) -> dict[str, Any]:
        return record_dict(self)


def split_keywords(values: Iterable[str]) -> list[str]:
    """Keywords separated by commas (or line breaks) in each of ``values``, empty ones out."""
    found = []
    for value in values:
        found += [" ".join(part.split()) for part in value.replace("\n", ",").split(",")]
    return [keyword for keyword in found if keyword]


def _folded(written: str) -> str:
    return written.replace("ё", "е")


def _parsed(keywords: Sequence[str]) -> list[tuple[str, LemmaWords]]:
    """Each distinct keyword (by lemmas, the first spelling kept) with its lemma words."""
    if len(keywords) > MAX_KEYWORDS:
        raise OptionError(
            "keywords", f"has {len(keywords)} keywords, more than {MAX_KEYWORDS}", value=keywords
        )
    parsed: dict[tuple[str, ...], tuple[str, LemmaWords]] = {}
    for keyword in keywords:
        if len(keyword) > MAX_KEYWORD_CHARS:
            raise OptionError(
                "keywords",
                f"{keyword[:40]!r}... is longer than {MAX_KEYWORD_CHARS} characters",
                value=keyword,
            )
        words = lemma_words(keyword)
        if not words.lemmas:
            raise OptionError("keywords", f"{keyword!r} has no words", value=keyword)
        if len(words) > MAX_KEYWORD_WORDS:
            raise OptionError(
                "keywords",
                f"{keyword!r} has {len(words)} words, more than {MAX_KEYWORD_WORDS}",
                value=keyword,
            )
        parsed.setdefault(words.lemmas, (keyword, words))
    return list(parsed.values())


def _target(text: LemmaWords, at: dict[str, list[int]], keyword: str, key: LemmaWords) -> Target:
    size, lemmas = len(key), key.lemmas
    starts = [
        start
        for start in at.get(lemmas[0], ())
        if text.lemmas[start : start + size] == lemmas and text.joined(start, size)
    ]
    forms = Counter(text.written(start, size) for start in starts)
    exact = _folded(key.written(0, size))
    return Target(
        keyword,
        " ".join(lemmas),
        len(starts),
        sum(n for form, n in forms.items() if _folded(form) == exact),
        100.0 * len(starts) / len(text),
        tuple(Form(form, n) for form, n in sorted(forms.items(), key=lambda f: (-f[1], f[0]))),
    )


def targets(text: LemmaWords, keywords: Sequence[str]) -> tuple[Target, ...]:
    """How ``text`` uses each of ``keywords``, in the order given (a keyword with the same
    lemmas as an earlier one is left out).  Raises :class:`~canon.errors.OptionError`
    (option ``keywords``) for a keyword without words, or too many or too long keywords."""
    parsed = _parsed(keywords)
    at: defaultdict[str, list[int]] = defaultdict(list)
    firsts = {key.lemmas[0] for _, key in parsed}
    for position, lemma in enumerate(text.lemmas):
        if lemma in firsts:
            at[lemma].append(position)
    return tuple(_target(text, at, keyword, key) for keyword, key in parsed)
