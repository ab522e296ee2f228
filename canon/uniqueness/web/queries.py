"""A draft → the phrases to search for: its rarest word runs, spread over the whole text.

The draft is cut into sentences (razdel, :func:`canon.text.sentences.sentence_spans`) and
canonicalized under ``lemma``.  Every run of :data:`PHRASE_WORDS` content words inside one
sentence is a candidate, scored by how rare its lemmas are in Russian (wordfreq's Zipf
frequencies: a lemma used once per billion words scores 8, one used once per hundred 0): a
copied text is found by the words nobody else writes.  The draft is split into as many equal
stretches as there are queries to send and each stretch gives its best run, so every part of
the draft is searched; stretches without a sentence long enough leave their query to the
best runs left.  Each query is the run's own words as the draft writes them, in quotation
marks (an exact-phrase search for every provider here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from ...canonical import canonicalize
from ...errors import OptionError
from ...records import record_dict
from ...text.frequency import fine_zipf
from ...text.sentences import sentence_spans
from ..settings import MAX_BUDGET

__all__ = [
    "CHARS_PER_QUERY",
    "MAX_BUDGET",
    "MAX_QUERIES",
    "PHRASE_WORDS",
    "Query",
    "default_budget",
    "pick_queries",
]

PHRASE_WORDS = 6  # content words in a phrase (stop words between them come along)
MIN_WORDS = 4  # a shorter sentence is sent whole only if it has at least this many
CHARS_PER_QUERY = 300  # one query per this many characters of the draft, by default
MAX_QUERIES = 20  # ... and never more than this many by default
MAX_PHRASE_CHARS = 300  # a phrase longer than this (long words) is cut at a word
_QUOTES = str.maketrans({c: " " for c in "\"«»„“”‟‘’‚‛'`"})


@dataclass(frozen=True)
class Query:
    """One phrase to search for: the query sent (quoted) and the draft's range it comes from."""

    text: str
    start: int
    end: int
    rarity: float  # the mean rarity of its lemmas (0 common ... 8 unheard of)

    def to_dict(self) -> dict[str, object]:
        return record_dict(self)


def default_budget(text: str) -> int:
    """How many queries a draft costs by default: one per :data:`CHARS_PER_QUERY`
    characters, at least 1 and at most :data:`MAX_QUERIES`."""
    return max(1, min(MAX_QUERIES, math.ceil(len(text) / CHARS_PER_QUERY)))


@cache
def _rarity(lemma: str) -> float:
    return max(0.0, 8.0 - fine_zipf(lemma, "ru"))


def _runs(text: str) -> list[Query]:
    """Every candidate run of content words inside one sentence, scored."""
    canonical = canonicalize(text, "lemma")
    spans, tokens = canonical.spans, canonical.tokens
    runs: list[Query] = []
    first = 0
    for start, end in sentence_spans(text):
        while first < len(spans) and spans[first][0] < start:
            first += 1
        last = first
        while last < len(spans) and spans[last][1] <= end:
            last += 1
        size = last - first
        if size < MIN_WORDS:
            continue
        width = min(PHRASE_WORDS, size)
        for i in range(first, last - width + 1):
            lemmas = set(tokens[i : i + width])
            score = sum(_rarity(lemma) for lemma in lemmas) / len(lemmas)
            a, b = spans[i][0], spans[i + width - 1][1]
            runs.append(Query(_quoted(text[a:b]), a, b, round(score, 3)))
        first = last
    return runs


def _quoted(phrase: str) -> str:
    words = phrase.translate(_QUOTES).split()
    kept: list[str] = []
    for word in words:
        if kept and len(" ".join([*kept, word])) > MAX_PHRASE_CHARS:
            break
        kept.append(word)
    return f'"{" ".join(kept)}"'


def _taken(run: Query, chosen: list[Query]) -> bool:
    """Whether ``run`` overlaps a chosen run or repeats its phrase."""
    return any(
        (run.start < other.end and other.start < run.end) or run.text == other.text
        for other in chosen
    )


def pick_queries(text: str, budget: int | None = None) -> tuple[Query, ...]:
    """At most ``budget`` (default: :func:`default_budget`) phrase queries for ``text``,
    spread over it, in text order, each phrase once."""
    if budget is None:
        budget = default_budget(text)
    if not isinstance(budget, int) or isinstance(budget, bool) or not 1 <= budget <= MAX_BUDGET:
        raise OptionError(
            "queries", f"must be a whole number of queries from 1 to {MAX_BUDGET}, got {budget}",
            value=budget,
        )  # fmt: skip
    best = sorted(_runs(text), key=lambda r: (-r.rarity, r.start))
    stretch = len(text) / budget
    slots: dict[int, list[Query]] = {}
    for run in best:  # each stretch's runs, the rarest first
        slots.setdefault(min(budget - 1, int(run.start // stretch)), []).append(run)
    chosen: list[Query] = []
    for slot in range(budget):
        for run in slots.get(slot, ()):
            if not _taken(run, chosen):
                chosen.append(run)
                break
    for run in best:
        if len(chosen) >= budget:
            break
        if not _taken(run, chosen):
            chosen.append(run)
    return tuple(sorted(chosen, key=lambda q: q.start))
