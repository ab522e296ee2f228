"""How fast is canon on a realistic Russian corpus?

What is measured (each timing is repeated ``--repeats`` times, default 3, and the median is
reported, because the machine may be noisy):

- the corpus: its size in words, its distinct word forms and a Heaps' law check (distinct
  forms at 10 %, 50 % and 100 % of the corpus);
- words/s of ``canonicalize(text, "raw")``;
- words/s of ``canonicalize(text, "lemma")``, cold (the per-process caches emptied by
  ``canon.canonical.clear_caches()`` before each run, as in a fresh process; the analyzer and
  the profile's stop-word rules stay loaded, and their one-time cost in a fresh process is
  reported on its own) and warm (every form already cached);
- words/s of naive per-token pymorphy3 lemmatization,
  ``[morph.parse(w)[0].normal_form for w in words]``, on a subsample of the raw words;
- the ratios lemma / naive (target >= 10x) and lemma / raw (target >= 0.3x), PASS or MISS;
- shingles/s of ``shingle_hashes(tokens, 5)`` against a plain Python loop that calls
  ``xxhash.xxh3_64_intdigest`` once per shingle's joined bytes (and ``shingles`` for scale);
- wall time of the ``canon compare A B`` command on two ~20 KB Russian texts (B is a light
  rewrite of A: some words put in another inflected form), start-up included, median of 5
  runs (target < 1 s), and of ``canon --help``.

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

    /work/venv/bin/python benchmarks/speed.py            # 1,000,000 words
    /work/venv/bin/python benchmarks/speed.py --quick    # 50,000-word smoke run
    /work/venv/bin/python benchmarks/speed.py --words 300000 --repeats 5
    /work/venv/bin/python benchmarks/speed.py --corpus ../shared/data/ru-news-same-story-pairs
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pymorphy3
import xxhash

import canon
import canon.canonical
from canon import canonicalize, shingle_hashes, shingles

REPO = Path(__file__).resolve().parents[1]

CANON_BIN = Path(sys.executable).with_name("canon")
DOC_WORDS = (1_000, 5_000)
SHINGLE_K = 5
CLI_BYTES = 20_000
CLI_RUNS = 5
NAIVE_WORDS = 100_000
REWRITE_SHARE = 0.15

# The most frequent ranks of the generated corpus: invariable function words, as in real text.
FUNCTION_WORDS = (
    "и в не на что с по а как к но из у за от о же для до то бы так уже вот только ещё или "
    "даже при без если когда чтобы где там тут через после между потому"
).split()
_LEMMA_SHAPE = re.compile(r"[а-яё]+(?:-[а-яё]+)?")
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Timing:
    """Wall times of repeated runs of one step, and how much work one run does."""

    name: str
    runs: tuple[float, ...]
    units: int

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def rate(self) -> float:
        return self.units / self.median


@dataclass(frozen=True)
class Corpus:
    """Documents of ~1,000-5,000 words and their raw tokens."""

    source: str
    documents: tuple[str, ...]
    tokens: tuple[tuple[str, ...], ...]

    @property
    def words(self) -> int:
        return sum(map(len, self.tokens))


# ---------------------------------------------------------------- the generated corpus


def _paradigm_affixes(
    dictionary: Any, para_id: int, memo: dict[int, list[tuple[str, str]]]
) -> list[tuple[str, str]]:
    if para_id not in memo:
        memo[para_id] = [(pre, suf) for pre, _tag, suf in dictionary.build_paradigm_info(para_id)]
    return memo[para_id]


def _dictionary_heads(dictionary: Any) -> list[tuple[str, int]]:
    """Every lemma (a paradigm's first form) that is a plain word, with its paradigm id."""
    heads: dict[str, int] = {}
    for word, (para_id, idx) in dictionary.words.iteritems():
        if idx != 0 or word in heads or not _LEMMA_SHAPE.fullmatch(word):
            continue
        tag = dictionary.build_tag_info(para_id, 0)
        if "Abbr" not in tag and "Init" not in tag:
            heads[word] = para_id
    return sorted(heads.items())


def load_lexicon(n_lemmas: int, seed: int) -> list[tuple[str, ...]]:
    """The distinct inflected forms of ``n_lemmas`` random dictionary lemmas, in random order,
    preceded by the function words (one form each)."""
    dictionary = pymorphy3.MorphAnalyzer(lang="ru").dictionary
    heads = _dictionary_heads(dictionary)
    chosen = random.Random(seed).sample(heads, min(n_lemmas, len(heads)))
    memo: dict[int, list[tuple[str, str]]] = {}
    lexicon: list[tuple[str, ...]] = [(w,) for w in FUNCTION_WORDS]
    skip = set(FUNCTION_WORDS)
    for word, para_id in chosen:
        if word in skip:
            continue
        paradigm = dictionary.paradigms[para_id]
        stem = dictionary.build_stem(paradigm, 0, word)
        forms = [pre + stem + suf for pre, suf in _paradigm_affixes(dictionary, para_id, memo)]
        lexicon.append(tuple(dict.fromkeys(forms)))
    return lexicon


def sample_words(lexicon: Sequence[tuple[str, ...]], n: int, zipf_s: float, seed: int) -> list[str]:
    """``n`` words: lemma ranks from Zipf's law, then a form skewed towards the paradigm's
    first forms (form index ``floor(F**u) - 1`` for ``u`` uniform in [0, 1))."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, len(lexicon) + 1, dtype=np.float64) ** zipf_s
    lemmas = rng.choice(len(lexicon), size=n, p=weights / weights.sum())
    sizes = np.array([len(forms) for forms in lexicon])[lemmas]
    picks = np.minimum(np.floor(sizes ** rng.random(n)).astype(np.int64) - 1, sizes - 1)
    return [lexicon[lemma][pick] for lemma, pick in zip(lemmas.tolist(), picks.tolist())]


def _sentence(words: list[str], rng: random.Random) -> str:
    out = []
    for i, word in enumerate(words):
        if rng.random() < 0.005:
            word = str(rng.randint(1, 2025))
        elif rng.random() < 0.01:
            word = f"«{word}»"
        out.append(word.capitalize() if i == 0 else word)
        if i < len(words) - 1:
            out.append(rng.choices((" ", ", ", " — "), (90, 8, 2))[0])
    return "".join(out) + rng.choices((".", "?", "!", "…"), (90, 4, 4, 2))[0]


def _paragraphs(words: list[str], rng: random.Random) -> list[str]:
    paragraphs: list[str] = []
    sentences: list[str] = []
    pos = 0
    while pos < len(words):
        size = rng.randint(4, 24)
        sentences.append(_sentence(words[pos : pos + size], rng))
        pos += size
        if len(sentences) >= rng.randint(3, 8) or pos >= len(words):
            paragraphs.append(" ".join(sentences))
            sentences = []
    return paragraphs


def generate_documents(n_words: int, n_lemmas: int, zipf_s: float, seed: int) -> list[str]:
    """Documents of 1,000-5,000 generated words (about ``n_words`` in all)."""
    words = sample_words(load_lexicon(n_lemmas, seed), n_words, zipf_s, seed)
    rng = random.Random(seed)
    documents = []
    pos = 0
    while pos < len(words):
        size = rng.randint(*DOC_WORDS)
        if len(words) - pos - size < DOC_WORDS[0]:
            size = len(words) - pos  # no short last document
        documents.append("\n\n".join(_paragraphs(words[pos : pos + size], rng)))
        pos += size
    return documents


# ---------------------------------------------------------------- a real corpus


def _text_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.suffix.lower() in (".txt", ".tsv"))


def _tsv_texts(path: Path) -> list[str]:
    csv.field_size_limit(10**9)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        columns = [c for c in reader.fieldnames or () if c.lower().endswith("text")]
        if not columns:
            print(f"note: {path} has no *text column; skipped")
            return []
        return [row[c] for row in reader for c in columns if row.get(c)]


def read_texts(path: Path) -> list[str]:
    """Distinct texts of a file or folder (.txt: one text per file; .tsv: *text columns)."""
    texts: list[str] = []
    for file in _text_files(path):
        if file.suffix.lower() == ".tsv":
            texts.extend(_tsv_texts(file))
        else:
            texts.append(file.read_text(encoding="utf-8", errors="replace"))
    return list(dict.fromkeys(t for t in texts if t.strip()))


def pack_documents(texts: Iterable[str], n_words: int, seed: int) -> list[str]:
    """Paragraphs of the texts packed, in order, into documents of ~1,000-5,000 words; stops
    after ``n_words`` words."""
    rng = random.Random(seed)
    documents: list[str] = []
    current: list[str] = []
    size = total = 0
    target = rng.randint(*DOC_WORDS)
    for paragraph in (p for t in texts for p in t.splitlines() if p.strip()):
        current.append(paragraph)
        count = len(paragraph.split())
        size += count
        total += count
        if size >= target or total >= n_words:
            documents.append("\n".join(current))
            current, size, target = [], 0, rng.randint(*DOC_WORDS)
        if total >= n_words:
            break
    if current:
        documents.append("\n".join(current))
    return documents


def build_corpus(args: argparse.Namespace) -> Corpus:
    if args.corpus:
        docs = pack_documents(read_texts(Path(args.corpus)), args.words, args.seed)
        source = f"real text from {args.corpus}"
    else:
        docs = generate_documents(args.words, args.lemmas, args.zipf_s, args.seed)
        source = f"generated (seed {args.seed}, Zipf s={args.zipf_s}, {args.lemmas:,} lemmas)"
    tokens = tuple(canonicalize(doc, "raw").tokens for doc in docs)
    return Corpus(source, tuple(docs), tokens)


# ---------------------------------------------------------------- measurements


def timed(
    name: str,
    run: Callable[[], object],
    units: int,
    repeats: int,
    before: Callable[[], None] | None = None,
) -> Timing:
    """Median-ready wall times of ``run``; ``before`` (untimed) runs ahead of each repeat."""
    runs = []
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        run()
        runs.append(time.perf_counter() - start)
    return Timing(name, tuple(runs), units)


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
    docs, words = corpus.documents, corpus.words
    naive_words = [w for doc in corpus.tokens for w in doc][:NAIVE_WORDS]
    canonicalize_all(docs[:1], "lemma")()  # analyzer and stop-word rules loaded, untimed
    return [
        timed("raw", canonicalize_all(docs, "raw"), words, repeats),
        timed("lemma cold", canonicalize_all(docs, "lemma"), words, repeats, clear_lemma_cache),
        timed("lemma warm", canonicalize_all(docs, "lemma"), words, repeats),
        timed("naive pymorphy3", naive_lemmas(naive_words), len(naive_words), repeats),
    ]


def measure_shingles(corpus: Corpus, repeats: int) -> list[Timing]:
    k = SHINGLE_K
    windows = sum(max(0, len(doc) - k + 1) for doc in corpus.tokens)
    return [
        timed("shingle_hashes", per_document(shingle_hashes, corpus.tokens, k), windows, repeats),
        timed("xxh3 loop", xxhash_loop(corpus.tokens, k), windows, repeats),
        timed("shingles (tuples)", per_document(shingles, corpus.tokens, k), windows, repeats),
    ]


# ---------------------------------------------------------------- the CLI


def _utf8_prefix(documents: Sequence[str], size: int) -> str:
    """The corpus text up to the first sentence end after ``size`` UTF-8 bytes."""
    text = "\n\n".join(documents[:50])
    cut = len(text.encode()[:size].decode(errors="ignore"))
    end = re.compile(r"[.?!…]\s").search(text, cut)
    return text[: end.end() - 1] if end else text


def rewrite(text: str, share: float, seed: int) -> str:
    """Put about ``share`` of the words of ``text`` in another form of the same lexeme."""
    morph = pymorphy3.MorphAnalyzer(lang="ru")
    rng = random.Random(seed)

    def swap(match: re.Match[str]) -> str:
        word = match.group()
        if rng.random() >= share:
            return word
        forms = list({f.word for f in morph.parse(word)[0].lexeme} - {word.lower()})
        if not forms:
            return word
        new = rng.choice(sorted(forms))
        return new.capitalize() if word[:1].isupper() else new

    return _WORD.sub(swap, text)


def cli_times(args: list[str], runs: int) -> tuple[float, ...]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([str(CANON_BIN), *args], capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return tuple(times)


def measure_cli(corpus: Corpus, seed: int, folder: Path) -> tuple[list[Timing], str]:
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
    timings = [
        Timing("canon compare A B", cli_times(["compare", *map(str, paths)], CLI_RUNS), 1),
        Timing("canon --help", cli_times(["--help"], CLI_RUNS), 1),
    ]
    return timings, note


# ---------------------------------------------------------------- report


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _runs(timing: Timing) -> str:
    return ", ".join(f"{t:.3f}" for t in timing.runs)


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
        [t.name, f"{t.units:,}", f"{t.median:.3f}", _runs(t), f"{t.rate:,.0f} {unit}"]
        for t in timings
    ]


def verdict(value: float, target: float, higher: bool = True) -> str:
    ok = value >= target if higher else value < target
    return "PASS" if ok else "MISS"


def ratio_rows(text: dict[str, Timing]) -> list[list[str]]:
    rows = []
    for lemma in ("lemma cold", "lemma warm"):
        for base, target in (("naive pymorphy3", 10.0), ("raw", 0.3)):
            value = text[lemma].rate / text[base].rate
            target_text = f"≥ {target:g}×"
            rows.append([f"{lemma} / {base}", f"{value:.2f}×", target_text, verdict(value, target)])
    return rows


def print_report(
    text: list[Timing], shingle: list[Timing], cli: list[Timing], cli_note: str, fresh: float
) -> None:
    by_name = {t.name: t for t in text}
    print("## Canonicalization (words/s; median of the runs)\n")
    print(table(["step", "words", "median s", "runs s", "rate"], rate_rows(text, "words/s")))
    print(f"\nA fresh process spends {fresh:.3f} s on `import canon` and a first lemma text")
    print("(analyzer and stop-word rules loaded); the cold runs above exclude it.\n")
    print(table(["ratio", "value", "target", "status"], ratio_rows(by_name)))
    print(f"\n## Shingles, k = {SHINGLE_K} (per document)\n")
    print(table(["step", "shingles", "median s", "runs s", "rate"], rate_rows(shingle, "/s")))
    speedup = shingle[0].rate / shingle[1].rate
    print(f"\nshingle_hashes / xxh3 loop: {speedup:.2f}×\n")
    print(f"## CLI (wall time, start-up included, median of {CLI_RUNS})\n")
    print(f"{cli_note}\n")
    cli_rows = [[t.name, f"{t.median:.3f}", _runs(t)] for t in cli]
    print(table(["command", "median s", "runs s"], cli_rows))
    print("\n## Summary\n")
    rows = [
        ["raw", f"{by_name['raw'].rate:,.0f} words/s", "", ""],
        ["lemma (cold)", f"{by_name['lemma cold'].rate:,.0f} words/s", "", ""],
        ["lemma (warm)", f"{by_name['lemma warm'].rate:,.0f} words/s", "", ""],
        ["naive pymorphy3", f"{by_name['naive pymorphy3'].rate:,.0f} words/s", "", ""],
        *ratio_rows(by_name),
        ["shingle_hashes k=5", f"{shingle[0].rate:,.0f} shingles/s", "", ""],
        ["xxh3 loop k=5", f"{shingle[1].rate:,.0f} shingles/s", "", ""],
        [
            "canon compare A B",
            f"{cli[0].median:.3f} s",
            "< 1 s",
            verdict(cli[0].median, 1.0, False),
        ],
        ["canon --help", f"{cli[1].median:.3f} s", "", ""],
    ]
    print(table(["measure", "value", "target", "status"], rows))


# ---------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    start = time.perf_counter()
    corpus = build_corpus(args)
    print_corpus(corpus, time.perf_counter() - start)
    fresh = fresh_start_cost()
    text = measure_text(corpus, args.repeats)
    shingle = measure_shingles(corpus, args.repeats)
    with tempfile.TemporaryDirectory() as folder:
        cli, cli_note = measure_cli(corpus, args.seed, Path(folder))
    print_report(text, shingle, cli, cli_note, fresh)
    print(f"\nTotal benchmark time: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
