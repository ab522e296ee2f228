"""How fast is canon on a realistic Russian corpus?

What is measured (each timing is repeated ``--repeats`` times, default 3, the steps of one
table interleaved, and the median is reported, because the machine may be noisy):

- the corpus: its size in words, its distinct word forms and a Heaps' law check (distinct
  forms at 10 %, 50 % and 100 % of the corpus);
- words/s of ``canonicalize(text, "raw")``;
- words/s of ``canonicalize(text, "lemma")``, cold (the per-process caches emptied by
  ``canon.canonical.clear_caches()`` before each run, as in a fresh process; the analyzer and
  the profile's stop-word rules stay loaded, and their one-time cost in a fresh process is
  reported on its own) and warm (every form already cached);
- words/s of naive per-token pymorphy3 lemmatization,
  ``[morph.parse(w)[0].normal_form for w in words]``, on a subsample of the raw words;
- the ratios lemma / naive (target ≥ 10×) and lemma / raw (target ≥ 0.3×), PASS or MISS;
- shingles/s of ``shingle_hashes(tokens, 5)`` against a plain Python loop that calls
  ``xxhash.xxh3_64_intdigest`` once per shingle's joined bytes (and ``shingles`` for scale);
- wall time of the ``canon compare A B`` command on two ~20 KB Russian texts (B is a light
  rewrite of A: some words put in another inflected form), start-up included, median of 5
  runs (target ≤ 1 s), and of ``canon --help``.

The corpus is processed as documents of 1,000-5,000 words each, never as one giant string.
Words are counted as the raw profile's tokens; every rate divides that count by the time.

The default corpus is generated with a fixed seed: lemmas taken from pymorphy3's dictionary get
Zipf-distributed frequencies (the most frequent ranks are common function words), each
sampled lemma appears as one of its inflected forms, and the words are joined into sentences
and paragraphs with punctuation.  Nothing is repeated, so the vocabulary keeps growing as in
real text.  ``--corpus PATH`` uses real text instead: a file or a folder of ``.txt`` files
and/or ``.tsv`` files whose ``*text`` columns hold texts, such as the Russian news pairs in
``../shared/data/ru-news-same-story-pairs/*.tsv`` (columns ``INPUT:first_text`` and
``INPUT:second_text``; that set has only about 66,000 words).

Run from the repository root::

    python -m benchmarks.speed            # 1,000,000 words
    python -m benchmarks.speed --quick    # 50,000-word smoke run
    python -m benchmarks.speed --words 300000 --repeats 5
    python -m benchmarks.speed --corpus ../shared/data/ru-news-same-story-pairs
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pymorphy3
import xxhash

import canon
import canon.canonical
from benchmarks._common import (
    REPO,
    Step,
    Timing,
    argument_parser,
    interleaved,
    ratio,
    run_canon,
    runs_text,
    stopwatch,
    table,
    target_text,
    verdict,
)
from benchmarks.data import pack_documents, read_texts
from canon import canonicalize, shingle_hashes, shingles
from testkit.corpus import generate_documents, rewrite

SHINGLE_K = 5
CLI_BYTES = 20_000
CLI_RUNS = 5
NAIVE_WORDS = 100_000
REWRITE_SHARE = 0.15
# (measure, base, target): the lemma rate over the base's rate should be at least the target.
RATIO_TARGETS = (("naive pymorphy3", 10.0), ("raw", 0.3))
CLI_TARGET = 1.0  # seconds: `canon compare A B` at most


@dataclass(frozen=True)
class Corpus:
    """Documents of ~1,000-5,000 words and their raw tokens."""

    source: str
    documents: tuple[str, ...]
    tokens: tuple[tuple[str, ...], ...]

    @property
    def words(self) -> int:
        return sum(map(len, self.tokens))


def build_corpus(args: argparse.Namespace) -> Corpus:
    if args.corpus:
        docs = pack_documents(read_texts(Path(args.corpus)), args.words, args.seed)
        source = f"real text from {args.corpus}"
        if not docs:
            raise SystemExit(f"error: no text in {args.corpus} (.txt files, .tsv *text columns)")
    else:
        docs = generate_documents(args.words, args.lemmas, args.zipf_s, args.seed)
        source = f"generated (seed {args.seed}, Zipf s={args.zipf_s}, {args.lemmas:,} lemmas)"
    tokens = tuple(canonicalize(doc, "raw").tokens for doc in docs)
    return Corpus(source, tuple(docs), tokens)


# ---------------------------------------------------------------- measurements


def canonicalize_all(documents: Sequence[str], profile: str) -> Callable[[], None]:
    def run() -> None:
        for doc in documents:
            canonicalize(doc, profile)

    return run


def clear_lemma_cache() -> None:
    """Empty canon's per-process form → lemma cache, as in a fresh process."""
    canon.canonical.clear_caches()


def naive_lemmas(words: Sequence[str]) -> Callable[[], None]:
    morph = pymorphy3.MorphAnalyzer(lang="ru")

    def run() -> None:
        [morph.parse(w)[0].normal_form for w in words]

    return run


def xxhash_loop(tokens: Sequence[tuple[str, ...]], k: int) -> Callable[[], None]:
    """A plain loop: one ``xxh3_64_intdigest`` per shingle's space-joined UTF-8 bytes."""
    digest = xxhash.xxh3_64_intdigest

    def run() -> None:
        for doc in tokens:
            sorted({digest(" ".join(doc[i : i + k]).encode()) for i in range(len(doc) - k + 1)})

    return run


def per_document(
    func: Callable[[tuple[str, ...], int], object], tokens: Sequence[tuple[str, ...]], k: int
) -> Callable[[], None]:
    def run() -> None:
        for doc in tokens:
            func(doc, k)

    return run


def fresh_start_cost() -> float:
    """Seconds a fresh process spends on ``import canon`` and a first short lemma text."""
    code = (
        "import time; t = time.perf_counter(); import canon; "
        "canon.canonicalize('Мама мыла раму.', 'lemma'); print(time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    return float(out.stdout)


def measure_text(corpus: Corpus, repeats: int) -> list[Timing]:
    """The four canonicalizations, interleaved; a cold run empties the lemma cache first, and
    the warm run that follows it finds every form cached."""
    docs, words = corpus.documents, corpus.words
    naive_words = [w for doc in corpus.tokens for w in doc][:NAIVE_WORDS]
    canonicalize_all(docs[:1], "lemma")()  # analyzer and stop-word rules loaded, untimed
    steps = [
        Step("raw", canonicalize_all(docs, "raw"), words),
        Step("lemma cold", canonicalize_all(docs, "lemma"), words, before=clear_lemma_cache),
        Step("lemma warm", canonicalize_all(docs, "lemma"), words),
        Step("naive pymorphy3", naive_lemmas(naive_words), len(naive_words)),
    ]
    return interleaved(steps, repeats)


def measure_shingles(corpus: Corpus, repeats: int) -> list[Timing]:
    k = SHINGLE_K
    windows = sum(max(0, len(doc) - k + 1) for doc in corpus.tokens)
    steps = [
        Step("shingle_hashes", per_document(shingle_hashes, corpus.tokens, k), windows),
        Step("xxh3 loop", xxhash_loop(corpus.tokens, k), windows),
        Step("shingles (tuples)", per_document(shingles, corpus.tokens, k), windows),
    ]
    return interleaved(steps, repeats)


# ---------------------------------------------------------------- the CLI


def _utf8_prefix(documents: Sequence[str], size: int) -> str:
    """The corpus text up to the first sentence end after ``size`` UTF-8 bytes."""
    text = "\n\n".join(documents[:50])
    cut = len(text.encode()[:size].decode(errors="ignore"))
    end = re.compile(r"[.?!…]\s").search(text, cut)
    return text[: end.end() - 1] if end else text


def measure_cli(corpus: Corpus, seed: int, folder: Path) -> tuple[list[Timing], str]:
    """Wall times of ``canon compare A B`` and ``canon --help``, interleaved, and a note on A
    and B (B: A with some words re-inflected)."""
    first = _utf8_prefix(corpus.documents, CLI_BYTES)
    second = rewrite(first, REWRITE_SHARE, seed)
    paths = [folder / "a.txt", folder / "b.txt"]
    for path, text in zip(paths, (first, second)):
        path.write_text(text, encoding="utf-8")
    sizes = [p.stat().st_size for p in paths]
    raw = canon.compare(first, second, k=3, profile="raw").jaccard
    lemma = canon.compare(first, second, k=3, profile="lemma").jaccard
    note = (
        f"A {sizes[0]:,} bytes, B {sizes[1]:,} bytes ({REWRITE_SHARE:.0%} of words re-inflected);"
        f" 3-shingle Jaccard raw {raw:.3f}, lemma {lemma:.3f}"
    )
    steps = [
        Step("canon compare A B", lambda: run_canon("compare", *map(str, paths)), 1),
        Step("canon --help", lambda: run_canon("--help"), 1),
    ]
    return interleaved(steps, CLI_RUNS), note


# ---------------------------------------------------------------- report


def heaps_rows(corpus: Corpus) -> list[list[str]]:
    words = [w for doc in corpus.tokens for w in doc]
    rows = []
    for share in (0.1, 0.5, 1.0):
        n = max(1, round(len(words) * share))
        rows.append([f"{share:.0%}", f"{n:,}", f"{len(set(words[:n])):,}"])
    return rows


def heaps_beta(rows: list[list[str]]) -> float:
    """Heaps' exponent from the 10 % and 100 % points: V = K * N**beta."""
    (n1, v1), (n2, v2) = [
        (int(r[1].replace(",", "")), int(r[2].replace(",", ""))) for r in (rows[0], rows[-1])
    ]
    return math.log(v2 / v1) / math.log(n2 / n1)


def print_corpus(corpus: Corpus, seconds: float) -> None:
    paragraphs = [p for doc in corpus.documents for p in doc.split("\n") if p.strip()]
    sizes = [len(t) for t in corpus.tokens]
    rows = heaps_rows(corpus)
    print("## Corpus\n")
    print(f"- source: {corpus.source}")
    print(
        f"- {corpus.words:,} words (raw tokens), {len(set(w for t in corpus.tokens for w in t)):,}"
        f" distinct forms, {len(corpus.documents):,} documents of {min(sizes):,}-{max(sizes):,}"
        f" words, {len(paragraphs) - len(set(paragraphs))} repeated paragraphs;"
        f" built in {seconds:.1f} s"
    )
    print(
        f"- Heaps' law V = K·N^β: β ≈ {heaps_beta(rows):.2f} from the 10 % and 100 % points"
        " (the real news texts of ../shared/data give about 0.75)\n"
    )
    print(table(["share of corpus", "words", "distinct forms"], rows))
    print()


def rate_rows(timings: Sequence[Timing], unit: str) -> list[list[str]]:
    return [
        [t.name, f"{t.units:,}", f"{t.median:.3f}", runs_text(t), f"{t.rate:,.0f} {unit}"]
        for t in timings
    ]


def ratio_rows(text: dict[str, Timing]) -> list[list[str]]:
    rows = []
    for lemma in ("lemma cold", "lemma warm"):
        for base, target in RATIO_TARGETS:
            value = ratio(text[lemma], text[base])
            rows.append(
                [
                    f"{lemma} / {base}",
                    f"{value:.2f}×",
                    target_text(f"{target:g}×", higher=True),
                    verdict(value, target, higher=True),
                ]
            )
    return rows


def summary_rows(
    by_name: dict[str, Timing], shingle: Sequence[Timing], cli: Sequence[Timing]
) -> list[list[str]]:
    compare = cli[0].median
    return [
        ["raw", f"{by_name['raw'].rate:,.0f} words/s", "", ""],
        ["lemma (cold)", f"{by_name['lemma cold'].rate:,.0f} words/s", "", ""],
        ["lemma (warm)", f"{by_name['lemma warm'].rate:,.0f} words/s", "", ""],
        ["naive pymorphy3", f"{by_name['naive pymorphy3'].rate:,.0f} words/s", "", ""],
        *ratio_rows(by_name),
        ["shingle_hashes k=5", f"{shingle[0].rate:,.0f} shingles/s", "", ""],
        ["xxh3 loop k=5", f"{shingle[1].rate:,.0f} shingles/s", "", ""],
        [
            "canon compare A B",
            f"{compare:.3f} s",
            target_text(f"{CLI_TARGET:g} s", higher=False),
            verdict(compare, CLI_TARGET, higher=False),
        ],
        ["canon --help", f"{cli[1].median:.3f} s", "", ""],
    ]


def print_report(
    text: list[Timing], shingle: list[Timing], cli: list[Timing], cli_note: str, fresh: float
) -> None:
    by_name = {t.name: t for t in text}
    print("## Canonicalization (words/s; median of the runs, steps interleaved)\n")
    print(table(["step", "words", "median s", "runs s", "rate"], rate_rows(text, "words/s")))
    print(f"\nA fresh process spends {fresh:.3f} s on `import canon` and a first lemma text")
    print("(analyzer and stop-word rules loaded); the cold runs above exclude it.\n")
    print(table(["ratio", "value", "target", "status"], ratio_rows(by_name)))
    print(f"\n## Shingles, k = {SHINGLE_K} (per document)\n")
    print(table(["step", "shingles", "median s", "runs s", "rate"], rate_rows(shingle, "/s")))
    print(f"\nshingle_hashes / xxh3 loop: {ratio(shingle[0], shingle[1]):.2f}×\n")
    print(f"## CLI (wall time, start-up included, median of {CLI_RUNS})\n")
    print(f"{cli_note}\n")
    cli_rows = [[t.name, f"{t.median:.3f}", runs_text(t)] for t in cli]
    print(table(["command", "median s", "runs s"], cli_rows))
    print("\n## Summary\n")
    print(table(["measure", "value", "target", "status"], summary_rows(by_name, shingle, cli)))


# ---------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.speed", __doc__)
    parser.add_argument("--words", type=int, default=1_000_000, help="corpus size in words")
    parser.add_argument("--quick", action="store_true", help="a 50,000-word smoke run")
    parser.add_argument("--corpus", help="a .txt/.tsv file or a folder of them (real text)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per timing (median)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the generated corpus")
    parser.add_argument("--lemmas", type=int, default=60_000, help="lemmas of the generated corpus")
    parser.add_argument("--zipf-s", type=float, default=1.1, help="Zipf exponent of lemma ranks")
    args = parser.parse_args(argv)
    if args.quick:
        args.words = 50_000
    if args.corpus and not Path(args.corpus).exists():
        parser.error(f"--corpus {args.corpus} does not exist")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    elapsed = stopwatch()
    corpus = build_corpus(args)
    print_corpus(corpus, elapsed())
    fresh = fresh_start_cost()
    text = measure_text(corpus, args.repeats)
    shingle = measure_shingles(corpus, args.repeats)
    with tempfile.TemporaryDirectory() as folder:
        cli, cli_note = measure_cli(corpus, args.seed, Path(folder))
    print_report(text, shingle, cli, cli_note, fresh)
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
