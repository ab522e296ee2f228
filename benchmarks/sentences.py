"""How well does the sentence measure tell rewritten sentences from new ones, and what does it cost?

The measure (``canon.fingerprints.sentences``, looked up in an index by
``canon.uniqueness.rewrites.find_rewrites``) scores a draft sentence against a source sentence by
the IDF-weighted Dice of their content lemma sets under the lemma profile.  This script:

1. builds a *reference index* (profiles raw and lemma, k = 4) of the texts that play the
   sources: every text of ``ru-news-same-story-pairs`` and the first headline (``text_1``) of
   every ParaPhraser pair.  Its document frequencies give the IDF weights of every score.
2. scores labelled pairs, a draft side against a source side (a draft of fewer than
   ``--min-lemmas`` content lemmas is not judged, but its size is kept for table 3):
   - ParaPhraser (``paraphraser/pairs.tsv``, both splits): ``text_2`` against ``text_1``.
     Precise paraphrases (class 1) are rewrites, non-paraphrases (class -1, headlines of
     the same news cluster) are not; near paraphrases (class 0) are shown apart.
   - Russian news (``ru-news-same-story-pairs``): every sentence of every text, its words
     shuffled, and re-inflected (half of its words put in another form of their lexeme by
     pymorphy3) and shuffled, against the sentences of its own text (the best one counts):
     rewrites.  Harder rewrites, shown apart: a third of its words replaced by other words
     of the corpus, then shuffled; its first two thirds only, shuffled.  Not rewrites: the
     sentence itself against an unrelated text; against the other text of a pair labelled
     BAD (another story, often the same subject); against the other sentences of its own
     text (same subject, same names).  Some of the last two are in fact shared sentences (a
     weather report or a quotation both outlets carry), so their rates are upper bounds.
3. chooses the threshold: of 0.30, 0.35 … 0.95, the one with the best F1 on ParaPhraser's
   *train* split (class 1 against -1) among those that keep recall on shuffled and on
   re-inflected news sentences at least 0.99; it reports precision and recall at every
   threshold on the *test* split and on the news pairs, ROC-AUC with and without IDF (every
   lemma weighing 1), and recall and false-positive rate by the draft sentence's size (the
   shortest sentence worth judging).
4. measures the cost on a *latency index* of ``--docs`` generated documents of 300-1,500
   words (``testkit.corpus``) and 80 % of the news texts (whole pairs held out), built
   three times: without the sentence storage, as built, and with the common-lemma limit at
   5 % of its documents (as an index twenty times larger would have it).  For each: add
   documents/s (one process by default) and the time in ``Index.write_batch``, bytes per
   document (the file and its segments, the lemma stream's segments and the
   ``doc_sentences`` blobs); the time to split and hash
   a document's sentences beside its canonicalization; ``find_rewrites`` latency p50/p95
   over ``--drafts`` drafts of ~500 words (sentences of indexed news texts shuffled,
   re-inflected and shuffled, and sentences of the held-out texts), warm, interleaved draft
   by draft with ``canon.check`` on the index without sentence storage; on every draft,
   equality with the brute force (every draft sentence against every sentence of every
   document, the frequencies counted anew from the stored sentences) and sentence-level
   recall and false positives.

A missing data set is reported and skipped.  Run from the repository root (the data default
to ``../shared/data``)::

    python -m benchmarks.sentences
    python -m benchmarks.sentences --quick       # 300 pairs, 60 news texts, 500 documents
    python -m benchmarks.sentences --data /path/to/data --docs 5000
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pymorphy3

import canon
import canon.index.lemmas
import canon.index.prepare
from benchmarks._common import (
    argument_parser,
    clocked,
    quantile,
    stopwatch,
    table,
    timed_call,
)
from benchmarks.data import (
    NEWS,
    PARAPHRASER,
    SHARED_DATA,
    Pair,
    dataset,
    read_news,
    read_paraphraser,
)
from canon import Index, canonicalize, get_profile
from canon.fingerprints.sentences import MIN_LEMMAS, THRESHOLD, SentenceSets, idf, sentence_sets
from canon.hashing import token_hashes
from canon.index.segments import LEMMAS
from canon.index.store import IndexedProfile
from canon.text.synonyms import classes_of
from canon.uniqueness.rewrites import RewriteCheck, find_rewrites
from testkit.corpus import group_paragraphs, load_lexicon, sample_words, split_sentences

PROFILES = ("raw", "lemma")
K = 4
GRID = tuple(round(0.30 + 0.05 * i, 2) for i in range(14))
MIN_RECALL = 0.99
QUICK_PAIRS = 300
QUICK_TEXTS = 60
DOCS, QUICK_DOCS = 3_000, 500
DRAFTS, QUICK_DRAFTS = 20, 5
DRAFT_WORDS = 500
DOC_WORDS = (300, 1_500)
HELD_OUT = 0.2
COMMON_SHARE = 5  # % of the documents: the limit of the third build
SEED = 7

WORD = re.compile(r"[^\W_]+")
REWRITES = ("shuffled", "re-inflected")
HARDER = ("third replaced", "shortened")
NOT_REWRITES = ("unrelated", "BAD pair", "same text")


# ---------------------------------------------------------------- indexes


def write_jsonl(folder: Path, name: str, records: Iterable[tuple[str, str]]) -> Path:
    path = folder / f"{name}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for source, text in records:
            out.write(json.dumps({"id": source, "text": text}, ensure_ascii=False) + "\n")
    return path


def build_index(db: Path, files: Sequence[Path], workers: int) -> tuple[float, int]:
    """An index of ``files`` (JSON Lines) under raw and lemma, k = 4: seconds, documents."""
    with Index(db, create=True) as index:
        report = canon.add_sources(
            index,
            [str(f) for f in files],
            canon.IndexRules([get_profile(p) for p in PROFILES], k=K),
            canon.AddSettings(workers=workers),
        )
    return report.seconds, report.added


def lemma_profile(index: Index) -> IndexedProfile:
    return next(p for p in index.profiles() if p.name == "lemma")


# ---------------------------------------------------------------- scoring


class Scorer:
    """IDF-weighted and flat Dice of lemma sets, the frequencies read from an index."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.indexed = lemma_profile(index)
        self.documents = index.document_count()
        self.weights: dict[int, float] = {}

    def learn(self, hashes: np.ndarray) -> None:
        new = np.array(sorted(set(hashes.tolist()) - self.weights.keys()), dtype=np.uint64)
        if len(new):
            df, _ = self.index.lemma_frequencies(self.indexed, new)
            self.weights.update(zip(new.tolist(), idf(df, self.documents).tolist()))

    def dice(self, draft: set[int], source: set[int]) -> tuple[float, float]:
        """(IDF-weighted, flat) Dice of two lemma sets."""
        w = self.weights
        total = sum(w[h] for h in draft) + sum(w[h] for h in source)
        shared = draft & source
        weighted = 2 * sum(w[h] for h in shared) / total if total else 0.0
        flat = 2 * len(shared) / (len(draft) + len(source)) if draft or source else 0.0
        return weighted, flat

    def best(self, draft: set[int], sources: Sequence[set[int]]) -> tuple[float, float]:
        """The best of each score over the source sentences."""
        scores = [self.dice(draft, s) for s in sources] or [(0.0, 0.0)]
        return max(s[0] for s in scores), max(s[1] for s in scores)


def lemma_set(text: str) -> set[int]:
    """The content lemmas of ``text``, as the sentence sets hold them (synonym classes)."""
    tokens = canonicalize(text, "lemma").tokens
    return set(token_hashes(classes_of(tokens)).tolist()) if tokens else set()


def sentence_lemma_sets(text: str) -> tuple[SentenceSets, list[set[int]]]:
    sets = sentence_sets(canonicalize(text, "lemma"))
    return sets, [set(s.lemmas) for s in sets]


@dataclass(frozen=True)
class Scored:
    """One labelled pair: its kind, whether it is a rewrite (None: shown apart), the draft
    side's distinct content lemmas, and its best IDF-weighted and flat Dice."""

    kind: str
    positive: bool | None
    lemmas: int
    score: float
    flat: float


def score_pairs(scorer: Scorer, pairs: Sequence[Pair]) -> list[Scored]:
    labels = {"1": ("precise", True), "0": ("near", None), "-1": ("non-paraphrase", False)}
    sides = [(lemma_set(p.second), lemma_set(p.first)) for p in pairs]
    scorer.learn(np.fromiter((h for d, s in sides for h in d | s), dtype=np.uint64))
    scored = []
    for pair, (draft, source) in zip(pairs, sides):
        if draft:
            kind, positive = labels[pair.label]
            scored.append(Scored(kind, positive, len(draft), *scorer.dice(draft, source)))
    return scored


# ---------------------------------------------------------------- rewritten sentences


class Rewriter:
    """Seeded changes to a sentence: word order, word forms, words replaced, a cut."""

    def __init__(self, seed: int, vocabulary: Sequence[str]) -> None:
        self.rng = random.Random(seed)
        self.morph = pymorphy3.MorphAnalyzer(lang="ru")
        self.vocabulary = vocabulary

    def shuffled(self, sentence: str) -> str:
        """The words in random order, the first one capitalized, a full stop at the end."""
        words = sentence.rstrip(".!?…").split()
        self.rng.shuffle(words)
        text = " ".join(words)
        return text[:1].upper() + text[1:] + "."

    def _other_form(self, match: re.Match[str]) -> str:
        word = match.group()
        if self.rng.random() >= 0.5:
            return word
        forms = sorted({f.word for f in self.morph.parse(word)[0].lexeme} - {word.lower()})
        return self.rng.choice(forms) if forms else word

    def reinflected(self, sentence: str) -> str:
        return self.shuffled(WORD.sub(self._other_form, sentence))

    def third_replaced(self, sentence: str) -> str:
        def swap(match: re.Match[str]) -> str:
            word = match.group()
            if len(word) > 3 and self.rng.random() < 1 / 3:
                return self.rng.choice(self.vocabulary)
            return word

        return self.shuffled(WORD.sub(swap, sentence))

    def shortened(self, sentence: str) -> str:
        words = sentence.split()
        return self.shuffled(" ".join(words[: max(1, (2 * len(words) + 2) // 3)]))

    def variants(self, sentence: str) -> dict[str, str]:
        return {
            "shuffled": self.shuffled(sentence),
            "re-inflected": self.reinflected(sentence),
            "third replaced": self.third_replaced(sentence),
            "shortened": self.shortened(sentence),
        }


@dataclass(frozen=True)
class NewsText:
    text: str
    sets: SentenceSets
    lemmas: list[set[int]]  # of each sentence

    def sentences(self) -> list[tuple[str, set[int], int]]:
        """``(sentence, lemma set, position)`` of every sentence."""
        spans = self.sets.spans
        return [(self.text[a:b], self.lemmas[i], i) for i, (a, b) in enumerate(spans.tolist())]


def news_texts(pairs: Sequence[Pair]) -> dict[str, NewsText]:
    texts = dict.fromkeys(t for p in pairs for t in (p.first, p.second))
    return {t: NewsText(t, *sentence_lemma_sets(t)) for t in texts}


def score_sentence(
    scorer: Scorer, rewriter: Rewriter, own: NewsText, sentence: str, lemmas: set[int],
    position: int, others: dict[str, NewsText | None],
) -> list[Scored]:  # fmt: skip
    """One news sentence: its rewrites against its own text, and the sentence itself against
    texts it was not taken from."""
    scored = []
    for kind, variant in rewriter.variants(sentence).items():
        draft = lemma_set(variant)
        if draft:
            scorer.learn(np.fromiter(draft, dtype=np.uint64))
            positive = True if kind in REWRITES else None
            scored.append(Scored(kind, positive, len(draft), *scorer.best(draft, own.lemmas)))
    negatives = {kind: text.lemmas for kind, text in others.items() if text is not None}
    negatives["same text"] = [s for i, s in enumerate(own.lemmas) if i != position]
    for kind, sources in negatives.items():
        scored.append(Scored(kind, False, len(lemmas), *scorer.best(lemmas, sources)))
    return scored


def score_news(scorer: Scorer, pairs: Sequence[Pair], limit: int | None, seed: int) -> list[Scored]:
    texts = news_texts(pairs)
    for text in texts.values():
        scorer.learn(text.sets.lemmas)
    vocabulary = sorted({w for t in texts for w in WORD.findall(t.lower()) if len(w) > 4})
    rewriter = Rewriter(seed, vocabulary)
    rng = random.Random(seed)
    bad = {p.first: p.second for p in pairs if p.label == "BAD"}
    partners = defaultdict(set)
    for p in pairs:
        partners[p.first].add(p.second)
        partners[p.second].add(p.first)
    names = sorted(texts)
    chosen = names if limit is None else rng.sample(names, min(limit, len(names)))
    scored = []
    for name in chosen:
        own = texts[name]
        unrelated = rng.choice([t for t in names if t != name and t not in partners[name]])
        others = {"unrelated": texts[unrelated], "BAD pair": texts.get(bad.get(name, ""))}
        for sentence, lemmas, position in own.sentences():
            scored += score_sentence(scorer, rewriter, own, sentence, lemmas, position, others)
    return scored


# ---------------------------------------------------------------- the threshold


@dataclass(frozen=True)
class Rates:
    precision: float
    recall: float
    f1: float
    positives: int
    negatives: int


def rates(scored: Iterable[Scored], threshold: float, flat: bool = False) -> Rates:
    """Precision, recall and F1 of ``score >= threshold`` over the labelled pairs."""
    tp = fp = fn = tn = 0
    for s in scored:
        if s.positive is None:
            continue
        hit = (s.flat if flat else s.score) >= threshold
        tp, fp = tp + (hit and s.positive), fp + (hit and not s.positive)
        fn, tn = fn + (not hit and s.positive), tn + (not hit and not s.positive)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Rates(precision, recall, f1, tp + fn, fp + tn)


def share(scored: Iterable[Scored], kind: str, threshold: float) -> float:
    """The share of the pairs of ``kind`` that score ``threshold`` or more."""
    hits = [s.score >= threshold for s in scored if s.kind == kind]
    return sum(hits) / len(hits) if hits else float("nan")


def judged(scored: Iterable[Scored], min_lemmas: int) -> list[Scored]:
    return [s for s in scored if s.lemmas >= min_lemmas]


def choose(train: Sequence[Scored], news: Sequence[Scored]) -> float:
    """The grid threshold of best train F1 among those keeping news recall ≥ MIN_RECALL for
    each kind of rewrite there is (the highest such threshold on a tie)."""
    kinds = [kind for kind in REWRITES if any(s.kind == kind for s in news)]
    allowed = [t for t in GRID if all(share(news, k, t) >= MIN_RECALL for k in kinds)]
    return max(allowed or [GRID[0]], key=lambda t: (round(rates(train, t).f1, 4), t))


def auc(scored: Sequence[Scored], flat: bool = False) -> float:
    """ROC-AUC of the score for rewrites against the rest (ties count half)."""
    labelled = [(s.flat if flat else s.score, s.positive) for s in scored if s.positive is not None]
    positive = np.array([v for v, p in labelled if p])
    negative = np.array([v for v, p in labelled if not p])
    if not len(positive) or not len(negative):
        return float("nan")
    order = np.sort(negative)
    below = np.searchsorted(order, positive, side="left")
    equal = np.searchsorted(order, positive, side="right") - below
    return float((below + equal / 2).sum() / (len(positive) * len(negative)))


# ---------------------------------------------------------------- quality report


def print_thresholds(test: list[Scored], news: list[Scored], chosen: float) -> None:
    rows = []
    for t in GRID:
        r = rates(test, t)
        mark = " ←" if t == chosen else ""
        rows.append([
            f"{t:.2f}{mark}", f"{r.precision:.3f}", f"{r.recall:.3f}",
            f"{share(test, 'near', t):.3f}",
            *(f"{share(news, kind, t):.3f}" for kind in (*REWRITES, *HARDER, *NOT_REWRITES)),
        ])  # fmt: skip
    header = [
        "threshold", "ParaPhraser P", "ParaPhraser R", "near found",
        *(f"news {k}" for k in (*REWRITES, *HARDER)), *(f"FP {k}" for k in NOT_REWRITES),
    ]  # fmt: skip
    print(table(header, rows))
    print()


def print_weighting(train: list[Scored], test: list[Scored], news: list[Scored], t: float) -> None:
    rows = []
    for name, scored in (("ParaPhraser train", train), ("ParaPhraser test", test)):
        for flat in (False, True):
            r = rates(scored, t, flat)
            rows.append([
                name, "flat" if flat else "IDF", f"{auc(scored, flat):.3f}",
                f"{r.precision:.3f}", f"{r.recall:.3f}", f"{r.f1:.3f}",
            ])  # fmt: skip
    for flat in (False, True):
        rows.append(["news", "flat" if flat else "IDF", f"{auc(news, flat):.3f}", "", "", ""])
    print(table(["pairs", "weights", "ROC-AUC", f"P at {t}", f"R at {t}", "F1"], rows))
    print()


def size_of(s: Scored) -> str:
    return str(s.lemmas) if s.lemmas < 8 else "8+"


def rate(group: Sequence[Scored], t: float, kinds: Sequence[str]) -> str:
    hits = [s.score >= t for s in group if s.kind in kinds]
    return f"{np.mean(hits):.3f} ({len(hits)})" if hits else "–"


def print_by_size(test: list[Scored], news: list[Scored], t: float) -> None:
    sizes: dict[str, list[Scored]] = defaultdict(list)
    for s in test + news:
        sizes[size_of(s)].append(s)
    rows = [
        [size, rate(group, t, ("precise",)), rate(group, t, ("non-paraphrase",)),
         rate(group, t, REWRITES), *(rate(group, t, (kind,)) for kind in NOT_REWRITES)]
        for size, group in sorted(sizes.items(), key=lambda kv: int(kv[0].rstrip("+")))
    ]  # fmt: skip
    header = ["content lemmas", "ParaPhraser R", "ParaPhraser FP", "news R",
              *(f"FP {k}" for k in NOT_REWRITES)]  # fmt: skip
    print("Share found (pairs):\n")
    print(table(header, rows))
    print()


def quality(
    scorer: Scorer, para: Path | None, news: Path | None, args: argparse.Namespace
) -> float:
    limit = QUICK_PAIRS if args.quick else None
    train: list[Scored] = []
    test: list[Scored] = []
    news_scored: list[Scored] = []
    if para is not None:
        train = score_pairs(scorer, evenly(read_paraphraser(para, "train"), limit))
        test = score_pairs(scorer, evenly(read_paraphraser(para, "test"), limit))
    if news is not None:
        texts = QUICK_TEXTS if args.quick else None
        news_scored = score_news(scorer, read_news(news), texts, args.seed)
    m = args.min_lemmas
    chosen = choose(judged(train, m), judged(news_scored, m)) if train else THRESHOLD
    print(f"## 1. The threshold (drafts of at least {m} content lemmas)\n")
    print(
        f"{len(judged(train, m)):,} ParaPhraser train pairs, {len(judged(test, m)):,} test pairs, "
        f"{len(judged(news_scored, m)):,} news pairs.  Chosen: **{chosen:.2f}** (best train F1 "
        f"{rates(judged(train, m), chosen).f1:.3f} with news recall ≥ {MIN_RECALL}).  "
        "Test split and news at each threshold (P, R: precise paraphrases against "
        "non-paraphrases; *news …*: share found; *FP …*: share wrongly found):\n"
    )
    print_thresholds(judged(test, m), judged(news_scored, m), chosen)
    print(f"## 2. IDF against flat weights, at {chosen:.2f}\n")
    print_weighting(judged(train, m), judged(test, m), judged(news_scored, m), chosen)
    print(f"## 3. By the draft sentence's size, at {chosen:.2f} (ParaPhraser test and news)\n")
    print_by_size(test, news_scored, chosen)
    return chosen


def evenly(pairs: Sequence[Pair], limit: int | None) -> list[Pair]:
    """At most ``limit`` pairs spread evenly over ``pairs`` (all of them for None)."""
    if limit is None or len(pairs) <= limit:
        return list(pairs)
    step = len(pairs) / limit
    return [pairs[int(i * step)] for i in range(limit)]


# ---------------------------------------------------------------- the cost: corpus and drafts


def held_out(pairs: Sequence[Pair], share_out: float, seed: int) -> tuple[list[str], list[str]]:
    """The news texts split by connected pairs into (indexed, held out ~``share_out``)."""
    parent: dict[str, str] = {}

    def root(t: str) -> str:
        while parent.setdefault(t, t) != t:
            t = parent[t]
        return t

    for p in pairs:
        parent[root(p.first)] = root(p.second)
    groups: dict[str, list[str]] = defaultdict(list)
    for text in sorted(parent):
        groups[root(text)].append(text)
    components = sorted(groups.values())
    random.Random(seed).shuffle(components)
    out: list[str] = []
    indexed: list[str] = []
    total = sum(len(c) for c in components)
    for component in components:
        (out if len(out) < share_out * total else indexed).extend(component)
    return indexed, out


def generated_documents(n: int, seed: int) -> list[str]:
    """``n`` documents of 300-1,500 Zipf-sampled dictionary words."""
    rng = random.Random(seed)
    sizes = [rng.randint(*DOC_WORDS) for _ in range(n)]
    words = sample_words(load_lexicon(60_000, seed), sum(sizes), 1.1, seed)
    docs, pos = [], 0
    for size in sizes:
        docs.append(
            "\n\n".join(group_paragraphs(split_sentences(words[pos : pos + size], rng), rng))
        )
        pos += size
    return docs


@dataclass(frozen=True)
class Piece:
    """Draft characters ``[start, end)``: a sentence of ``kind``, taken from ``source``."""

    start: int
    end: int
    kind: str  # "shuffled", "re-inflected" or "new"
    source: str | None


@dataclass(frozen=True)
class Draft:
    text: str
    pieces: tuple[Piece, ...]


def pool(texts: dict[str, str], min_lemmas: int) -> list[tuple[str, str]]:
    """``(source, sentence)`` of the sentences worth judging (one more lemma than needed,
    so that a re-inflection that merges two lemmas still leaves the sentence judged)."""
    found = []
    for source, text in texts.items():
        for start, end in sentence_sets(canonicalize(text, "lemma")).spans.tolist():
            sentence = text[start:end]
            if len(lemma_set(sentence)) > min_lemmas:
                found.append((source, sentence))
    return found


def make_draft(
    rewriter: Rewriter, indexed: list[tuple[str, str]], new: list[tuple[str, str]]
) -> Draft:
    """~``DRAFT_WORDS`` words of shuffled, re-inflected and new sentences in random order."""
    rng = rewriter.rng
    parts: list[str] = []
    pieces: list[Piece] = []
    at = words = 0
    while words < DRAFT_WORDS:
        kind = rng.choice(("shuffled", "re-inflected", "new"))
        source, sentence = rng.choice(new if kind == "new" else indexed)
        if kind != "new":
            sentence = getattr(rewriter, "shuffled" if kind == "shuffled" else "reinflected")(
                sentence
            )
        parts.append(sentence)
        pieces.append(Piece(at, at + len(sentence), kind, None if kind == "new" else source))
        at += len(sentence) + 1
        words += len(sentence.split())
    return Draft(" ".join(parts), tuple(pieces))


# ---------------------------------------------------------------- the cost: measurements


@dataclass(frozen=True)
class Sizes:
    documents: int
    total: int  # bytes of the file (the WAL checkpointed) and its segments
    lemma_tables: int  # bytes of the lemma stream's segments (12 a posting)
    blobs: int  # bytes of the doc_sentences blobs
    postings: int  # postings of the lemma stream
    common: int  # common lemmas

    @property
    def without(self) -> int:
        return self.total - self.lemma_tables - self.blobs


def index_sizes(db: Path) -> Sizes:
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        query = "SELECT coalesce(sum(length(sentences)), 0) FROM doc_sentences"
        blobs = int(raw.execute(query).fetchone()[0])
    with Index(db, readonly=True) as index:
        stats = index.stats()
        held = [np.unique(index.posting_rows(p, LEMMAS)[0], return_counts=True)[1]
                for p in index.profiles()]  # fmt: skip
    postings = sum(int(h.sum()) for h in held)
    common = sum(int((h > canon.index.lemmas.COMMON_LEMMA).sum()) for h in held)
    return Sizes(stats.documents, stats.file_size, 12 * postings, blobs, postings, common)


def preparation(texts: Sequence[str]) -> tuple[float, float]:
    """Seconds per document to canonicalize under lemma, and then to make its sentence sets."""
    canonical_time = sets_time = 0.0
    for text in texts:
        seconds, canonical = timed_call(lambda t=text: canonicalize(t, "lemma"))
        canonical_time += seconds
        sets_time += timed_call(lambda c=canonical: sentence_sets(c))[0]
    return canonical_time / len(texts), sets_time / len(texts)


class BruteForce:
    """Every draft sentence against every stored sentence, frequencies counted anew."""

    def __init__(self, index: Index, indexed: IndexedProfile) -> None:
        stored = list(index.sentence_sets(indexed))
        self.docs = np.array([doc for doc, _ in stored], dtype=np.int64)
        self.first = np.cumsum([0] + [len(s) for _, s in stored[:-1]])
        self.lemmas = np.concatenate([s.lemmas for _, s in stored])
        self.owners = np.concatenate([s.owners + f for (_, s), f in zip(stored, self.first)])
        held = np.concatenate([s.distinct() for _, s in stored])
        self.known, self.df = np.unique(held, return_counts=True)
        self.documents = index.document_count()
        self.weights = self.weight(self.lemmas)
        self.sentence_weights = np.bincount(self.owners, weights=self.weights)

    def weight(self, hashes: np.ndarray) -> np.ndarray:
        at = np.minimum(np.searchsorted(self.known, hashes), len(self.known) - 1)
        df = np.where(self.known[at] == hashes, self.df[at], 0)
        return idf(df, self.documents)

    def matches(self, draft: str, threshold: float, min_lemmas: int) -> dict[tuple, float]:
        """``(start, end, doc_id) → score`` of every draft sentence and document whose best
        sentence reaches ``threshold``."""
        sets = sentence_sets(canonicalize(draft, "lemma"))
        found = {}
        for i in range(len(sets)):
            mine = sets.lemmas_of(i)
            if len(mine) < min_lemmas:
                continue
            member = np.isin(self.lemmas, mine)
            shared = np.bincount(self.owners, self.weights * member, len(self.sentence_weights))
            dice = 2 * shared / (self.weight(mine).sum() + self.sentence_weights)
            best = np.maximum.reduceat(dice, self.first)
            start, end = (int(v) for v in sets.spans[i])
            for doc, score in zip(self.docs[best >= threshold], best[best >= threshold]):
                found[(start, end, int(doc))] = float(score)
        return found


def same_answer(result: RewriteCheck, reference: dict[tuple, float]) -> bool:
    common = set(result.too_common)
    mine = {(r.start, r.end, r.doc_id): r.score for r in result.rewrites}
    theirs = {k: v for k, v in reference.items() if (k[0], k[1]) not in common}
    return mine.keys() == theirs.keys() and all(abs(mine[k] - theirs[k]) < 1e-9 for k in mine)


def sentence_counts(draft: Draft, result: RewriteCheck) -> dict[str, list[int]]:
    """Per kind of piece: [pieces, found as rewritten, found with their own source]."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for piece in draft.pieces:
        near = [r for r in result.rewrites if r.start < piece.end and r.end > piece.start]
        row = counts[piece.kind]
        row[0] += 1
        row[1] += bool(near)
        row[2] += any(r.source == piece.source for r in near)
    return counts


def looked_up(index: Index, draft: Draft, threshold: float, min_lemmas: int) -> RewriteCheck:
    return find_rewrites(
        draft.text, index, lemma_profile(index), threshold=threshold, min_lemmas=min_lemmas,
        per_sentence=10**6,
    )  # fmt: skip


# ---------------------------------------------------------------- the cost: report


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


@dataclass(frozen=True)
class Built:
    """One build of the latency index: its add and its size."""

    name: str
    db: Path
    add_seconds: float
    write_seconds: float  # of which in Index.write_batch
    sizes: Sizes

    @property
    def sentences(self) -> bool:
        return self.sizes.postings > 0


@dataclass
class Measured:
    """Per build with sentence storage: find_rewrites times and results, drafts equal to the
    brute force; and canon.check times on the build without it."""

    found: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    results: dict[str, list[RewriteCheck]] = field(default_factory=lambda: defaultdict(list))
    same: dict[str, int] = field(default_factory=dict)
    checks: list[float] = field(default_factory=list)


@contextmanager
def patched(owner: object, name: str, value: object) -> Iterator[None]:
    original = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, original)


def no_sentences(_canonical: object) -> SentenceSets:
    return SentenceSets.empty()


def build(name: str, db: Path, files: Sequence[Path], workers: int) -> Built:
    with clocked(Index, "write_batch") as write:
        add_seconds, _ = build_index(db, files, workers)
    return Built(name, db, add_seconds, write.seconds, index_sizes(db))


def measure(
    builds: Sequence[Built], drafts: Sequence[Draft], threshold: float, min_lemmas: int
) -> Measured:
    """Warm timings, interleaved draft by draft so that a busy spell slows every lookup alike,
    then the brute force on each build."""
    indexes = {b.name: Index(b.db, readonly=True) for b in builds}
    plain = indexes[builds[0].name]
    with_sentences = [b.name for b in builds if b.sentences]
    measured = Measured()
    try:
        for draft in drafts[:2]:
            canon.check(draft.text, plain)
            for name in with_sentences:
                looked_up(indexes[name], draft, threshold, min_lemmas)
        for draft in drafts:
            for name in with_sentences:
                seconds, result = timed_call(
                    lambda i=indexes[name], d=draft: looked_up(i, d, threshold, min_lemmas)
                )
                measured.found[name].append(seconds)
                measured.results[name].append(result)
            measured.checks.append(timed_call(lambda d=draft: canon.check(d.text, plain))[0])
        for name in with_sentences:
            brute = BruteForce(indexes[name], lemma_profile(indexes[name]))
            measured.same[name] = sum(
                same_answer(r, brute.matches(d.text, threshold, min_lemmas))
                for d, r in zip(drafts, measured.results[name])
            )
    finally:
        for index in indexes.values():
            index.close()
    return measured


def print_sizes(builds: Sequence[Built]) -> None:
    rows = []
    for b in builds:
        n, sizes = b.sizes.documents, b.sizes
        rows.append([
            b.name, f"{n / b.add_seconds:.0f}", ms(b.write_seconds / n), f"{sizes.total / n:,.0f}",
            f"{sizes.lemma_tables / n:,.0f}", f"{sizes.blobs / n:,.0f}",
            f"{sizes.postings / n:,.1f}", f"{sizes.common:,}",
        ])  # fmt: skip
    header = ["index", "add docs/s", "writes/doc", "bytes/doc", "lemma stream/doc",
              "sentence blobs/doc", "lemma postings/doc", "common lemmas"]  # fmt: skip
    print(table(header, rows))
    plain, built = builds[0].sizes, builds[1].sizes
    print(f"\nThe sentence storage adds {built.total / plain.total - 1:.1%} to the index.\n")


def print_latency(measured: Measured, drafts: Sequence[Draft]) -> None:
    words = np.mean([len(d.text.split()) for d in drafts])
    print(f"{len(drafts)} drafts of {words:.0f} words on average, warm, interleaved:\n")
    rows = [
        [f"find_rewrites, {name}", ms(quantile(times, 0.5)), ms(quantile(times, 0.95))]
        for name, times in measured.found.items()
    ]
    checks = measured.checks
    rows.append(
        ["canon.check (raw + lemma)", ms(quantile(checks, 0.5)), ms(quantile(checks, 0.95))]
    )
    print(table(["lookup", "p50", "p95"], rows))
    print()


def draft_rows(name: str, measured: Measured, drafts: Sequence[Draft]) -> list[list[str]]:
    results = measured.results[name]
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for draft, result in zip(drafts, results):
        for kind, row in sentence_counts(draft, result).items():
            totals[kind] = [a + b for a, b in zip(totals[kind], row)]
    judged = sum(r.judged for r in results) / max(1, sum(r.sentences for r in results))
    common = sum(len(r.too_common) for r in results)
    return [
        [name, kind, str(n), f"{found / n:.3f}", f"{own / n:.3f}" if kind != "new" else "–",
         f"{judged:.1%}", str(common), f"{measured.same[name]} of {len(results)}"]
        for kind, (n, found, own) in sorted(totals.items())
    ]  # fmt: skip


def print_drafts(measured: Measured, drafts: Sequence[Draft]) -> None:
    rows = [row for name in measured.results for row in draft_rows(name, measured, drafts)]
    header = ["index", "draft sentences", "count", "found as rewritten", "with their source",
              "judged", "too common", "= brute force"]  # fmt: skip
    print(table(header, rows))
    print(
        "\n*new* sentences come from held-out news texts; some carry the quotations, figures "
        "and boilerplate of indexed texts on the same stories, so their rate is an upper bound.\n"
    )


def cost(folder: Path, news: Path, threshold: float, args: argparse.Namespace) -> None:
    pairs = read_news(news)
    indexed, out = held_out(pairs, HELD_OUT, args.seed)
    sources = {f"news-{i:04d}": t for i, t in enumerate(indexed)}
    generated = generated_documents(args.docs, args.seed)
    files = [
        write_jsonl(folder, "news", sources.items()),
        write_jsonl(folder, "generated", ((f"gen-{i:06d}", t) for i, t in enumerate(generated))),
    ]
    rewriter = Rewriter(args.seed, [])
    held = {f"out-{i:04d}": t for i, t in enumerate(out)}
    own, new = pool(sources, args.min_lemmas), pool(held, args.min_lemmas)
    drafts = [make_draft(rewriter, own, new) for _ in range(args.drafts)]
    documents = len(sources) + len(generated)
    limit = max(2, documents * COMMON_SHARE // 100)
    with patched(canon.index.prepare, "sentence_sets", no_sentences):
        builds = [build("without", folder / "plain.db", files, args.workers)]
    builds.append(build("as built", folder / "built.db", files, args.workers))
    with patched(canon.index.lemmas, "COMMON_LEMMA", limit):
        builds.append(
            build(f"common above {limit} docs", folder / "common.db", files, args.workers)
        )
    print(f"## 4. Cost: {documents:,} documents ({len(sources)} news texts, the rest "
          f"generated), {len(held)} news texts held out\n")  # fmt: skip
    print(f"*without*: no sentence storage; *as built*: the default (a lemma is common above "
          f"{canon.index.lemmas.COMMON_LEMMA:,} documents); *common above {limit}*: "
          f"{COMMON_SHARE} % of this index, as a larger index would have it.\n")  # fmt: skip
    print_sizes(builds)
    sample = list(sources.values())[:100] + generated[:100]
    canonical_time, sets_time = preparation(sample)
    print(
        f"Preparing a document (mean of {len(sample)}, every word already in the lemma "
        f"tables): canonicalization {ms(canonical_time)}, then its sentence sets "
        f"{ms(sets_time)}.\n"
    )
    measured = measure(builds, drafts, threshold, args.min_lemmas)
    print_latency(measured, drafts)
    print_drafts(measured, drafts)


# ---------------------------------------------------------------- main


def reference(
    folder: Path, para: Path | None, news: Path | None, args: argparse.Namespace
) -> Index:
    """The reference index: news texts and the first headline of every ParaPhraser pair."""
    records: dict[str, str] = {}
    if news is not None:
        texts = dict.fromkeys(t for p in read_news(news) for t in (p.first, p.second))
        records.update((f"news-{i:04d}", t) for i, t in enumerate(texts))
    if para is not None:
        limit = QUICK_PAIRS if args.quick else None
        heads = [
            p.first for s in ("train", "test") for p in evenly(read_paraphraser(para, s), limit)
        ]
        records.update((f"head-{i:05d}", t) for i, t in enumerate(dict.fromkeys(heads)))
    db = folder / "reference.db"
    seconds, added = build_index(
        db, [write_jsonl(folder, "reference", records.items())], args.workers
    )
    print(f"Reference index: {added:,} of {len(records):,} texts ({seconds:.1f} s).\n")
    return Index(db, readonly=True)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.sentences", __doc__)
    parser.add_argument(
        "--data", type=Path, default=SHARED_DATA,
        help="folder holding paraphraser/ and ru-news-same-story-pairs/ (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="a smoke run of well under a minute")
    parser.add_argument(
        "--docs", type=int, help=f"generated documents of the latency index ({DOCS})"
    )
    parser.add_argument("--drafts", type=int, help=f"drafts of ~{DRAFT_WORDS} words ({DRAFTS})")
    parser.add_argument(
        "--workers", type=int, default=1,
        help="processes preparing documents (default 1: the add's time is preparation plus writes)",
    )  # fmt: skip
    parser.add_argument("--min-lemmas", type=int, default=MIN_LEMMAS, help="shortest draft judged")
    parser.add_argument("--seed", type=int, default=SEED, help="seed of every random choice")
    args = parser.parse_args(argv)
    args.docs = args.docs or (QUICK_DOCS if args.quick else DOCS)
    args.drafts = args.drafts or (QUICK_DRAFTS if args.quick else DRAFTS)
    return args


def run(folder: Path, args: argparse.Namespace, elapsed: Callable[[], float]) -> None:
    para, news = dataset(args.data, PARAPHRASER), dataset(args.data, NEWS)
    for name, found in ((PARAPHRASER, para), (NEWS, news)):
        if found is None:
            print(f"skipped: {args.data / name} does not exist\n")
    if para is None and news is None:
        return
    with reference(folder, para, news, args) as index:
        threshold = quality(Scorer(index), para, news, args)
    print(f"({elapsed():.1f} s so far)\n")
    if news is None:
        print("## 4. Cost\n\nskipped: the latency index needs the news texts\n")
        return
    cost(folder, news, threshold, args)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    elapsed = stopwatch()
    print("# The sentence measure: rewritten sentences against new ones, and the cost\n")
    if args.quick:
        print(f"(--quick: {QUICK_PAIRS} pairs a split, {QUICK_TEXTS} news texts, "
              f"{args.docs} generated documents, {args.drafts} drafts)\n")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="canon-sentences-bench-") as tmp:
        run(Path(tmp), args, elapsed)
    print(f"Total benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
