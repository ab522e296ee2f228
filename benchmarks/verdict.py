"""How right is canon check's uniqueness verdict: labelled drafts, cheap tricks, and its cost.

The texts are the news articles of ``ru-news-same-story-pairs`` (in ``../shared/data``;
``--data`` names another folder).  Articles of the same story are kept together: the stories
are split at random, a quarter of the articles are held out (never indexed), and the rest go
into one index built as ``canon index add`` builds it (profiles raw and lemma, k = 4, stored
texts), in a temporary folder.  Every indexed article is a possible source and a distractor for
the others.

1. **Labelled drafts** (``testkit.drafts``).  Each draft mixes 10-18 sentences: copied from
   an indexed article A, rewritten from A by endings, by a word shuffle, by adjacent-pair
   swaps or by endings and a shuffle, copied from a second indexed article B (A's same-story
   article when there is one), and new sentences of the held-out articles (a held-out sentence
   sharing a run of 6 words with an indexed article, such as an outlet's boilerplate, is not
   used).  The shares of the kinds are drawn anew for every draft.  The truth of each
   character is new, copied or rewritten.  Figures count the draft's letters and digits, as
   the verdict does:
   - the mean absolute error, in points, of ``verdict.uniqueness`` against the true share of
     new text (target ≤ 5), beside the same error of each profile's shingle uniqueness
     (``ProfileCheck.uniqueness`` of ``raw`` and ``lemma``);
   - the verdict's copied and rewritten shares against the true ones, and the
     character-level precision and recall of its copied and rewritten fragments;
   - per kind of sentence, the share of its characters marked copied, rewritten, or neither.

   The verdict without the sentence measure (``sentence_threshold=None``: shingles only) is
   given beside it, to show what the sentence measure adds.
2. **Tricks** (``testkit.tricks``).  Each trick alters a copy of an indexed article, and the
   altered copy is checked: the verdict's uniqueness is fake (an untouched copy scores 0%).
   Targets: ≤ 5% for every trick, ≤ 25% for transliteration and for word shuffles.  The
   ``lemma`` profile's shingle uniqueness, the verdict without the sentence measure and the
   number of tricks the check reported are beside it.
3. **Cost.**  Check latency: the full check (``canon.check``, on the index with stored texts and
   on one without, and without the sentence measure) against a check of the shingles only,
   as ``canon.check`` was before the verdict (per profile: lookup, top sources, fragments of
   every borrowed window), on the same open index, each draft timed interleaved (the median
   of its runs), p50 over the drafts (target: the full check ≤ 1.5× the shingles-only one).
   Index size per document with stored text (the default) and without (``store_text=False``,
   ``canon index add --no-store-text``).

Run from the repository root::

    python -m benchmarks.verdict                # 300 drafts, tricks on 40 articles
    python -m benchmarks.verdict --quick        # 30 drafts, tricks on 10 articles, ~1 min
    python -m benchmarks.verdict --data /path/to/data --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import canon
from benchmarks._common import (
    Step,
    argument_parser,
    interleaved,
    median,
    stopwatch,
    table,
    target_text,
    verdict,
)
from benchmarks.data import NEWS, SHARED_DATA, Pair, on_news, read_news, stories, word_runs
from canon import CheckResult, Index
from canon.fingerprints.shingles import window_hashes
from canon.index.rules import IndexedProfile, profile_of
from canon.index.store import IndexStats
from canon.uniqueness.against_index import ProfileCheck
from testkit.drafts import KINDS, LABELS, TRUTH, Draft, make_draft, sentences
from testkit.tricks import TRICKS, Trick

SEED = 2026
HOLDOUT = 0.25  # share of the articles never indexed: the new sentences come from them
BOILERPLATE_RUN = (
    6  # a held-out sentence sharing this many words in a row with the index is not new
)
MIN_SOURCE_SENTENCES = 6
DRAFTS, QUICK_DRAFTS = 300, 30
TRICK_TEXTS, QUICK_TRICK_TEXTS = 40, 10
TRICK_MIN_CHARS = 600
LATENCY_DRAFTS, QUICK_LATENCY_DRAFTS = 40, 12
REPEATS, QUICK_REPEATS = 5, 3
MAE_TARGET = 5.0  # points
LATENCY_TARGET = 1.5  # the full check's p50 over the shingles-only one's
COMMON = 1000  # canon.check's default: a shingle in more documents is a set phrase
TOP = 10  # canon.check's default: sources listed


# ---------------------------------------------------------------- the articles


@dataclass(frozen=True)
class Corpus:
    """The indexed articles by name, their usable sentences, same-story partners, and the
    sentences of the held-out articles that may serve as new text."""

    indexed: dict[str, str]
    sentences: dict[str, list[str]]
    partners: dict[str, list[str]]
    fresh: list[str]


def split_corpus(pairs: Sequence[Pair], seed: int) -> Corpus:
    """Stories at random into held-out (about ``HOLDOUT`` of the articles) and indexed."""
    groups = stories(pairs)
    random.Random(seed).shuffle(groups)
    total = sum(len(s) for s in groups)
    held: list[str] = []
    indexed: list[str] = []
    for story in groups:
        (held if len(held) < HOLDOUT * total else indexed).extend(story)
    names = {text: f"news-{i:03d}" for i, text in enumerate(indexed)}
    seen: set[tuple[str, ...]] = set()
    for text in indexed:
        seen |= word_runs(text, BOILERPLATE_RUN)
    fresh = [s for t in held for s in sentences(t) if not word_runs(s, BOILERPLATE_RUN) & seen]
    partners: dict[str, list[str]] = {}
    for pair in pairs:
        if pair.label == "OK" and pair.first in names and pair.second in names:
            partners.setdefault(names[pair.first], []).append(names[pair.second])
            partners.setdefault(names[pair.second], []).append(names[pair.first])
    return Corpus(
        {names[t]: t for t in indexed},
        {names[t]: sentences(t) for t in indexed},
        partners,
        list(dict.fromkeys(fresh)),
    )


def make_drafts(corpus: Corpus, count: int, seed: int) -> list[Draft]:
    """``count`` labelled drafts; draft i is drawn from ``seed`` and i alone."""
    sources = sorted(n for n, s in corpus.sentences.items() if len(s) >= MIN_SOURCE_SENTENCES)
    others = sorted(n for n, s in corpus.sentences.items() if s)
    drafts = []
    for i in range(count):
        rng = random.Random(seed * 1_000 + i)
        first = rng.choice(sources)
        partners = [p for p in corpus.partners.get(first, []) if corpus.sentences[p]]
        second = rng.choice(partners or [n for n in others if n != first])
        drafts.append(
            make_draft(
                (first, corpus.sentences[first]),
                (second, corpus.sentences[second]),
                corpus.fresh,
                seed=rng.randrange(2**32),
            )
        )
    return drafts


# ---------------------------------------------------------------- the index


def write_records(corpus: Corpus, folder: Path) -> Path:
    records = folder / "news.jsonl"
    lines = (
        json.dumps({"id": n, "text": t}, ensure_ascii=False) for n, t in corpus.indexed.items()
    )
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return records


def build_index(records: Path, db: Path, *, store_text: bool) -> None:
    """The index ``canon index add DB RECORDS`` builds (``--no-store-text`` without
    ``store_text``)."""
    with Index(db, create=True) as index:
        report = canon.add_sources(
            index, [str(records)], settings=canon.AddSettings(workers=2, store_text=store_text)
        )
    if report.failures:
        raise SystemExit(f"{records}: {report.failures[0]}")


# ---------------------------------------------------------------- what a check says


def _mask(fragments: Sequence[canon.Fragment], length: int) -> np.ndarray:
    mask = np.zeros(length, dtype=bool)
    for fragment in fragments:
        mask[fragment.start : fragment.end] = True
    return mask


def _profile(result: CheckResult, name: str) -> ProfileCheck:
    return next(p for p in result.profiles if p.profile == name)


VERDICT = "verdict"
SHINGLES = "verdict without sentences"  # canon.check(..., sentence_threshold=None)


@dataclass(frozen=True)
class Marks:
    """What a reading of a check says of a draft, per character: copied, rewritten."""

    copied: np.ndarray
    rewritten: np.ndarray

    def share(self, label: str, counted: np.ndarray) -> float:
        """The share of the counted characters marked ``label`` (copied, rewritten or new)."""
        marked = self.copied | self.rewritten if label == "new" else getattr(self, label)
        found = float(np.mean(marked[counted]))
        return 1 - found if label == "new" else found


def verdict_marks(result: CheckResult) -> Marks:
    found = result.verdict
    assert found is not None
    n = len(result.text)
    return Marks(_mask(found.copied_fragments, n), _mask(found.rewritten_fragments, n))


@dataclass(frozen=True)
class Scored:
    """A draft, what it truly is per character, and what its check said."""

    draft: Draft
    counted: np.ndarray  # the letters and digits
    truth: np.ndarray  # per character: "new", "copied" or "rewritten"
    kinds: np.ndarray
    figures: dict[str, float]  # uniqueness: per profile, without sentences, the verdict
    marks: dict[str, Marks]  # VERDICT and SHINGLES

    def share(self, label: str) -> float:
        """The true share of ``label`` among the counted characters."""
        return float(np.mean(self.truth[self.counted] == label))


def check_both(text: str, index: Index) -> tuple[CheckResult, CheckResult]:
    """The full check, and the check without the sentence measure."""
    return canon.check(text, index), canon.check(
        text, index, canon.CheckSettings(sentence_threshold=None)
    )


def _uniqueness(result: CheckResult) -> float:
    assert result.verdict is not None
    return result.verdict.uniqueness


def score(draft: Draft, full: CheckResult, shingles: CheckResult) -> Scored:
    counted = np.array(draft.counted())
    marks = {VERDICT: verdict_marks(full), SHINGLES: verdict_marks(shingles)}
    figures = {
        "`raw` shingle uniqueness": _profile(full, "raw").uniqueness,
        "`lemma` shingle uniqueness": _profile(full, "lemma").uniqueness,
        f"{SHINGLES} (`sentence_threshold=None`)": _uniqueness(shingles),
        f"**{VERDICT}** uniqueness": _uniqueness(full),
    }
    return Scored(draft, counted, np.array(draft.labels()), np.array(draft.kinds()), figures, marks)


# ---------------------------------------------------------------- the figures


def pct(share: float) -> str:
    return f"{share * 100 + 0.0:.1f}%".replace("-0.0%", "0.0%")


def error_rows(scored: Sequence[Scored]) -> list[list[str]]:
    """Each uniqueness figure against the true share of new text, in points."""
    rows = []
    for name in scored[0].figures:
        errors = [(s.figures[name] - s.share("new")) * 100 for s in scored]
        mae = statistics.mean(abs(e) for e in errors)
        rows.append([
            name,
            f"{mae:.1f}",
            f"{statistics.mean(errors):+.1f}",
            f"{max(abs(e) for e in errors):.1f}",
            target_text(f"{MAE_TARGET:g}", higher=False),
            verdict(mae, MAE_TARGET, higher=False),
        ])  # fmt: skip
    return rows


def precision_recall(scored: Sequence[Scored], reading: str, label: str) -> tuple[float, float]:
    """Character-level precision and recall of a reading's ``label`` (copied or rewritten)
    marks, over the counted characters of all drafts."""
    hit = predicted = actual = 0
    for s in scored:
        marked = getattr(s.marks[reading], label) & s.counted
        true = (s.truth == label) & s.counted
        hit += int(np.sum(marked & true))
        predicted += int(np.sum(marked))
        actual += int(np.sum(true))
    return hit / max(predicted, 1), hit / max(actual, 1)


def part_rows(scored: Sequence[Scored]) -> list[list[str]]:
    """The copied and rewritten parts: shares against the true ones, and the precision and
    recall of their marks."""
    rows = []
    for reading, part in ((VERDICT, "copied"), (SHINGLES, "rewritten"), (VERDICT, "rewritten")):
        found = [s.marks[reading].share(part, s.counted) for s in scored]
        errors = [(f - s.share(part)) * 100 for f, s in zip(found, scored)]
        precision, recall = precision_recall(scored, reading, part)
        rows.append([
            f"{part} ({reading})",
            pct(statistics.mean(s.share(part) for s in scored)),
            pct(statistics.mean(found)),
            f"{statistics.mean(abs(e) for e in errors):.1f}",
            f"{statistics.mean(errors):+.1f}",
            f"{precision:.3f}",
            f"{recall:.3f}",
        ])  # fmt: skip
    return rows


def kind_rows(scored: Sequence[Scored]) -> list[list[str]]:
    """Per kind of sentence: the share of its counted characters each reading marks."""
    rows = []
    for kind in KINDS:
        where = [(s, (s.kinds == kind) & s.counted) for s in scored]
        chars = sum(int(np.sum(w)) for _, w in where)
        if not chars:
            continue

        def marked(reading: str, label: str, where: list = where, chars: int = chars) -> float:
            return sum(int(np.sum(getattr(s.marks[reading], label) & w)) for s, w in where) / chars

        copied, rewritten = marked(VERDICT, "copied"), marked(VERDICT, "rewritten")
        fewer = marked(SHINGLES, "rewritten")
        rows.append([kind, TRUTH[kind], f"{chars:,}", pct(copied), pct(fewer), pct(rewritten),
                     pct(1 - copied - rewritten)])  # fmt: skip
    return rows


def truth_summary(drafts: Sequence[Draft]) -> str:
    shares = {label: [d.share(label) for d in drafts] for label in LABELS}
    parts = [
        f"{label} {statistics.mean(v) * 100:.0f}% (range {min(v) * 100:.0f}-{max(v) * 100:.0f}%)"
        for label, v in shares.items()
    ]
    chars = sum(len(d.text) for d in drafts)
    return f"{len(drafts)} drafts, {chars:,} characters; true shares: " + ", ".join(parts)


# ---------------------------------------------------------------- the tricks


def trick_texts(corpus: Corpus, count: int) -> list[str]:
    """``count`` indexed articles of ``TRICK_MIN_CHARS`` characters or more, evenly spread."""
    long = [t for _, t in sorted(corpus.indexed.items()) if len(t) >= TRICK_MIN_CHARS]
    step = max(1, len(long) // count)
    return long[::step][:count]


def fake_uniqueness(index: Index, text: str) -> tuple[float, float, float, int]:
    """The ``lemma`` uniqueness, the verdict's without sentences and the verdict's of an
    altered copy (1.0 where the check finds too few words to check), and how many tricks the
    check reported."""
    try:
        full, shingles = check_both(text, index)
    except canon.TextTooShort:
        return 1.0, 1.0, 1.0, 0
    lemma = _profile(full, "lemma").uniqueness
    return lemma, _uniqueness(shingles), _uniqueness(full), len(full.tricks)


def trick_rows(index: Index, texts: Sequence[str], seed: int) -> list[list[str]]:
    untouched = Trick("untouched copy", lambda text, seed=0: text, 0.0)
    rows = []
    for trick in (untouched, *TRICKS):
        found = [fake_uniqueness(index, trick.alter(t, seed + i)) for i, t in enumerate(texts)]
        lemma, fewer, fake, reported = (statistics.mean(f[i] for f in found) for i in range(4))
        rows.append([
            trick.name,
            pct(lemma),
            pct(fewer),
            f"**{pct(fake)}**",
            f"{reported:.0f}",
            target_text(f"{trick.target:.0%}", higher=False),
            verdict(fake, trick.target, higher=False),
        ])  # fmt: skip
    return rows


# ---------------------------------------------------------------- the cost


def shingles_only(text: str, index: Index, profiles: Sequence[IndexedProfile]) -> list[float]:
    """The check as it was before the verdict, shingles only: under each profile of the index,
    the draft canonicalized, its windows hashed and looked up (set phrases apart), the top
    sources named and sized, and every borrowed window made a fragment.  Returns the
    per-profile shingle uniqueness."""
    figures = []
    for indexed in profiles:
        canonical = canon.canonicalize(text, profile_of(indexed))
        hashes = window_hashes(canonical.tokens, indexed.k, indexed.step)
        distinct = np.unique(hashes)
        rows, frequent = index.postings(indexed, distinct, COMMON)
        best = [doc for doc, _ in Counter(doc for _, doc in rows).most_common(TOP)]
        index.sources(best)
        index.shingle_counts(indexed, best)
        borrowed = {h for h, _ in rows} | frequent
        found = np.fromiter(borrowed, dtype=np.int64, count=len(borrowed))
        hit = np.isin(hashes.view(np.int64), found)
        canonical.fragments(np.flatnonzero(hit) * indexed.step, indexed.k)
        figures.append(1 - len(borrowed) / len(distinct))
    return figures


def latency_rows(
    stored: Index, bare: Index, drafts: Sequence[Draft], repeats: int
) -> list[list[str]]:
    """p50 over the drafts of each way of checking, each draft's ways timed interleaved."""
    profiles = stored.profiles()
    for draft in drafts[:2]:  # warm: pymorphy3's caches, SQLite's pages
        canon.check(draft.text, stored)
        canon.check(draft.text, bare)
    ways = {
        "shingles only (the check before the verdict)":
            lambda text: shingles_only(text, stored, profiles),
        "check without sentences (`sentence_threshold=None`)":
            lambda text: canon.check(text, stored, canon.CheckSettings(sentence_threshold=None)),
        "full check, index without stored text": lambda text: canon.check(text, bare),
        "full check (`canon.check`: verdict, sentences, sources, fragments, passages)":
            lambda text: canon.check(text, stored),
    }  # fmt: skip
    medians: dict[str, list[float]] = {name: [] for name in ways}
    for draft in drafts:
        steps = [Step(name, lambda w=way, d=draft: w(d.text), 1) for name, way in ways.items()]
        for timing in interleaved(steps, repeats):
            medians[timing.name].append(timing.median)
    base = median(next(iter(medians.values())))
    rows = []
    for name, times in medians.items():
        ratio = median(times) / base
        rows.append([name, f"{median(times) * 1000:.1f} ms", f"{ratio:.2f}×",
                     verdict(ratio, LATENCY_TARGET, higher=False)])  # fmt: skip
    return rows


def size_rows(stored: IndexStats, bare: IndexStats) -> list[list[str]]:
    return [
        ["with stored text (default)", f"{stored.documents}", f"{stored.file_size / 2**20:.2f}",
         f"{stored.bytes_per_document:,.0f}"],
        ["`--no-store-text`", f"{bare.documents}", f"{bare.file_size / 2**20:.2f}",
         f"{bare.bytes_per_document:,.0f}"],
    ]  # fmt: skip


# ---------------------------------------------------------------- the run


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.verdict", __doc__)
    parser.add_argument(
        "--data",
        type=Path,
        default=SHARED_DATA,
        help=f"folder holding {NEWS}/ (default: %(default)s)",
    )
    parser.add_argument("--quick", action="store_true", help="fewer drafts and texts, ~1 min")
    parser.add_argument("--seed", type=int, default=SEED)
    return parser.parse_args(argv)


def print_drafts(scored: Sequence[Scored]) -> None:
    print(f"## Labelled drafts\n\n{truth_summary([s.draft for s in scored])}\n")
    print("Uniqueness against the true share of new text (points):\n")
    print(table(["figure", "mean abs. error", "mean error", "max error", "target", ""],
                error_rows(scored)))  # fmt: skip
    print("\nThe parts against the truth (errors in points; precision and recall per character):\n")
    print(table(["part", "true share", "found", "mean abs. error", "mean error", "precision",
                 "recall"], part_rows(scored)))  # fmt: skip
    print("\nWhat the verdict makes of each kind of sentence (share of its characters):\n")
    print(table(["kind", "truth", "chars", "copied", "rewritten without sentences", "rewritten",
                 "unique"], kind_rows(scored)))  # fmt: skip


def print_tricks(index: Index, corpus: Corpus, args: argparse.Namespace) -> None:
    texts = trick_texts(corpus, QUICK_TRICK_TEXTS if args.quick else TRICK_TEXTS)
    print(f"\n## Tricks: fake uniqueness of altered copies of {len(texts)} indexed articles\n")
    header = ["trick", "lemma uniqueness", "verdict without sentences", "verdict uniqueness",
              "tricks reported", "target", ""]  # fmt: skip
    print(table(header, trick_rows(index, texts, args.seed)))


def print_cost(
    stored: Index, bare: Index, drafts: Sequence[Draft], args: argparse.Namespace
) -> None:
    count = QUICK_LATENCY_DRAFTS if args.quick else LATENCY_DRAFTS
    repeats = QUICK_REPEATS if args.quick else REPEATS
    print(f"\n## Cost\n\nCheck latency, p50 over {count} drafts ({repeats} runs each):\n")
    limit = target_text(f"{LATENCY_TARGET:g}×", higher=False)
    rows = latency_rows(stored, bare, drafts[:count], repeats)
    print(table(["check", "p50", "to shingles only", limit], rows))
    sizes = size_rows(stored.stats(), bare.stats())
    print(f"\nIndex of {sizes[0][1]} articles:\n")
    print(table(["index", "documents", "MB", "bytes/document"], sizes))


def run(folder: Path, args: argparse.Namespace, work: Path) -> None:
    corpus = split_corpus(read_news(folder), args.seed)
    records = write_records(corpus, work)
    build_index(records, work / "stored.db", store_text=True)
    build_index(records, work / "bare.db", store_text=False)
    drafts = make_drafts(corpus, QUICK_DRAFTS if args.quick else DRAFTS, args.seed)
    print(f"{len(corpus.indexed)} indexed articles, {len(corpus.fresh)} held-out sentences\n")
    with (
        Index(work / "stored.db", readonly=True) as stored,
        Index(work / "bare.db", readonly=True) as bare,
    ):
        print_drafts([score(d, *check_both(d.text, stored)) for d in drafts])
        print_tricks(stored, corpus, args)
        print_cost(stored, bare, drafts, args)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    elapsed = stopwatch()
    on_news(args.data, "Verdict", lambda folder, work: run(folder, args, work))
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
