"""What a draft shares with sources → what is evidence of borrowing, and what is not.

An honest text on a story the index knows shares things with the texts of that story: names and
titles (``глава Роспотребнадзора Анна Попова``), dates and figures (``от 18 до 30 лет``), set
phrases of the genre (``возбуждено уголовное дело``), and sentences that say the same short
fact in the same few words.  Copying and rewriting leave other traces: a sentence copied or
rewritten whole, and usually more than one sentence of one source.  Two rules keep the first
kind out of the verdict:

- **Short runs.**  In a sentence not judged rewritten, matched text counts only if one of its
  runs has at least :data:`MIN_RUN_WORDS` words, or the matched text covers at least
  :data:`MIN_COVER` of the sentence's letters and digits, or its source explains at least
  :data:`SUPPORT` of the draft.  A copied sentence is covered whole, a sentence rewritten by
  its endings mostly, and a rewrite of one source keeps short runs of it all along; a name
  inside a new sentence is none of these.
- **Weak sentences without their source.**  A sentence judged rewritten with a score below
  :data:`ALONE_SCORE` counts only if its source explains at least :data:`SUPPORT` of the
  draft's letters and digits outside that sentence (by rewritten sentences and by runs of
  its shingles of :data:`MIN_RUN_WORDS` words or more; for a sentence below
  :data:`BACK_SCORE`, by sentences at :data:`BACK_SCORE` or more unless :data:`WEAK_BACKERS`
  other sentences are rewritten from that source: two weak sentences do not back each other,
  however short the draft), or, at :data:`BACK_SCORE` or more, when
  another sentence of the draft is rewritten from that source at :data:`BACK_SCORE` too or
  holds one of those runs: a text on the same story says a few of the same facts in similar
  words, at a modest score, while a rewrite of a source rewrites much of it.  A sentence
  whose words were only shuffled scores 1; one swapped for synonyms comes
  with others.  A weak sentence holding one of those long runs is not listed as uncounted:
  the run in it still counts.

What the rules leave out is not lost: :class:`~canon.uniqueness.verdict.Verdict` lists it as
``uncounted``, for the editor to see.  The thresholds were set on same-story news texts that
share no run of 8 words with the index, and on labelled drafts (``benchmarks/synonyms.py``,
``benchmarks/verdict.py``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

import numpy as np
import regex

from ..canonical import Fragment
from ..text.sentences import Spans, sentence_spans
from .rewrites import Rewrite
from .verdict import counted, mask_runs, ranges_mask

__all__ = [
    "ALONE_SCORE",
    "BACK_SCORE",
    "MIN_COVER",
    "MIN_RUN_WORDS",
    "SUPPORT",
    "WEAK_BACKERS",
    "backing",
    "short_runs",
    "supported",
    "words_in",
]

MIN_RUN_WORDS = 8
MIN_COVER = 0.8
ALONE_SCORE = 0.95
SUPPORT = 0.2  # of the draft's letters, the share a source must explain to back a weak one
# A weak sentence of at least this score counts when another sentence of the draft is
# rewritten from its source at this score too, or holds a long run of it: of 204 new texts on
# stories the index knows (four splits), none has two such sentences of one source.
BACK_SCORE = 0.75
# Weak sentences (below BACK_SCORE) back one another when this many others of the draft are
# rewritten from their source: a synonymizer leaves every sentence of a copy weak, a text on
# the same story says one or two of the same facts in similar words.
WEAK_BACKERS = 2

_WORD = regex.compile(r"[\p{L}\p{N}]+")


def supported(
    text: str,
    rewrites: Sequence[Rewrite],
    sources: dict[str, list[Fragment]],
    joined: Spans = (),
) -> tuple[tuple[Rewrite, ...], tuple[Rewrite, ...]]:
    """The rewritten sentences of ``text`` that count, and the weak ones that do not: a
    sentence below ``ALONE_SCORE`` counts when one of its sources (each sentence lists its best
    few) explains at least ``SUPPORT`` of the draft's letters and digits outside it, by
    rewritten sentences (at ``BACK_SCORE`` or more for a sentence below it, unless
    ``WEAK_BACKERS`` others are rewritten from that source) and by
    ``sources``' fragments (each source's long shingle fragments, by
    name); a weak sentence that holds one of those fragments is in neither list.  ``joined``:
    the words the canonical form read whole, for the draft's sentences as read."""
    explains = _explained(text, rewrites, sources)
    by_fair = _explained(text, [r for r in rewrites if r.score >= BACK_SCORE], sources)
    total = max(int(counted(text).sum()), 1)
    runs = [f for fragments in sources.values() for f in fragments]
    backers = _backers(text, rewrites, sources, joined)
    sentences: dict[str, set[int]] = {}
    for rewrite in rewrites:
        sentences.setdefault(rewrite.source, set()).add(rewrite.start)

    def backed(r: Rewrite) -> bool:
        """Whether ``r``'s source explains ``SUPPORT`` of the draft outside ``r``, or, for
        ``r`` of ``BACK_SCORE`` or more, another sentence of the draft is rewritten from it
        at ``BACK_SCORE`` or more or holds a long run of it."""
        if r.score >= BACK_SCORE and backers.get(r.source, set()) - {r.start}:
            return True
        many = len(sentences.get(r.source, set()) - {r.start}) >= WEAK_BACKERS
        mask = (explains if r.score >= BACK_SCORE or many else by_fair).get(r.source)
        if mask is None:  # nothing of it but a weak sentence or two
            return False
        elsewhere = int(mask.sum()) - int(mask[r.start : r.end].sum())
        return elsewhere >= SUPPORT * total

    by_sentence: dict[int, list[Rewrite]] = {}
    for r in rewrites:
        by_sentence.setdefault(r.start, []).append(r)
    kept: list[Rewrite] = []
    weak: list[Rewrite] = []
    for found in by_sentence.values():
        if max(r.score for r in found) >= ALONE_SCORE or any(backed(r) for r in found):
            kept += found
        elif not any(f.start < found[0].end and found[0].start < f.end for f in runs):
            weak += found
    return tuple(kept), tuple(weak)


def _backers(
    text: str, rewrites: Sequence[Rewrite], sources: dict[str, list[Fragment]], joined: Spans
) -> dict[str, set[int]]:
    """For each source, where the draft's sentences begin that are rewritten from it at
    ``BACK_SCORE`` or more, or that hold one of its long runs."""
    found: dict[str, set[int]] = {}
    for r in rewrites:
        if r.score >= BACK_SCORE:
            found.setdefault(r.source, set()).add(r.start)
    starts = [start for start, _ in sentence_spans(text, joined)]
    for name, fragments in sources.items():
        for f in fragments:
            at = bisect_right(starts, f.start) - 1
            found.setdefault(name, set()).add(starts[at] if at >= 0 else 0)
    return found


def backing(
    text: str, rewrites: Sequence[Rewrite], sources: dict[str, list[Fragment]]
) -> list[Fragment]:
    """The fragments (in ``sources``, by source name) of the sources that explain at least
    ``SUPPORT`` of ``text``'s letters and digits, by those fragments and by ``rewrites``."""
    explains = _explained(text, rewrites, sources)
    total = max(int(counted(text).sum()), 1)
    return [
        f
        for name, fragments in sources.items()
        if int(explains[name].sum()) >= SUPPORT * total
        for f in fragments
    ]


def _explained(
    text: str, rewrites: Sequence[Rewrite], sources: dict[str, list[Fragment]]
) -> dict[str, np.ndarray]:
    """For each source named by ``rewrites`` or ``sources``: which letters and digits of
    ``text`` it explains, by its rewritten sentences and its fragments."""
    spans: dict[str, list[Fragment]] = {name: list(found) for name, found in sources.items()}
    for r in rewrites:
        spans.setdefault(r.source, []).append(Fragment(r.start, r.end))
    letters = counted(text)
    return {name: ranges_mask(len(text), found) & letters for name, found in spans.items()}


def short_runs(
    text: str,
    matched: Sequence[Fragment],
    judged: Sequence[Fragment],
    backed: Sequence[Fragment] = (),
    joined: Spans = (),
) -> list[Fragment]:
    """The runs of ``matched`` (fragments of ``text``) too short to count: in a sentence with
    none of ``judged`` (the sentences found rewritten) whose matched runs all have fewer than
    ``MIN_RUN_WORDS`` words and cover less than ``MIN_COVER`` of its letters and digits, and
    outside ``backed`` (the fragments of sources that explain much of the draft, see
    :func:`backing`); the sentences as read, the words ``joined`` whole."""
    size = len(text)
    covered = ranges_mask(size, matched) & ~ranges_mask(size, judged)
    covered &= ~ranges_mask(size, backed)
    letters = counted(text)
    short = np.zeros(size, dtype=bool)
    for start, end in sentence_spans(text, joined):
        inside = covered[start:end]
        if not inside.any():
            continue
        total = int(letters[start:end].sum())
        if total and int((inside & letters[start:end]).sum()) >= MIN_COVER * total:
            continue
        if _longest_run(text, start, inside) < MIN_RUN_WORDS:
            short[start:end] = inside
    return mask_runs(short)


def words_in(text: str, fragment: Fragment) -> int:
    """How many words (runs of letters and digits) ``fragment`` of ``text`` holds."""
    return len(_WORD.findall(text, fragment.start, fragment.end))


def _longest_run(text: str, start: int, inside: np.ndarray) -> int:
    """The most words any run of true characters of ``inside`` (from ``start``) holds."""
    runs = (Fragment(start + f.start, start + f.end) for f in mask_runs(inside))
    return max((words_in(text, f) for f in runs), default=0)
