"""Winnowing beside mod-m sampling at the same density: postings kept against recall.

The corpus and mixed drafts of ``benchmarks.sampling`` (documents of 300-1,500 generated
words, 30 % of them copying sentences of others) are indexed under the ``lemma`` profile,
k = 4: once with every shingle, then for each pair of rules keeping about as many postings,
mod-m sampling (1/m of the shingles) and winnowing with window w (about 2/(w + 1)): m = 2, 4,
8, 16 beside w = 3, 7, 15, 31 (``--pairs``).  Measured against each index:

- postings: the index's rows as a share of the full index's;
- run recall: drafts of new text holding one run of L canonical words copied from an indexed
  document, for L = 6, 10, 18 and 34 (w + k − 1 of each window above): the share of drafts
  whose source is found (one shared shingle is enough).  Winnowing finds every run of
  w + k − 1 words or more, by construction; sampling has no such bound;
- source recall: of the sources the full index names for the mixed drafts (top 5, one
  shared shingle or more), the share the thinned index names too;
- uniqueness error (percentage points) against the full index, mean and 95th percentile.

Run from the repository root::

    python -m benchmarks.winnowing             # 3,000 documents, 60 drafts, 100 runs per L
    python -m benchmarks.winnowing --quick     # 600 documents, 20 drafts, 40 runs per L
"""

from __future__ import annotations

import random
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

import canon
from benchmarks._common import argument_parser, quantile, stopwatch, table
from benchmarks.sampling import build, corpus, drafts
from canon import Index
from testkit.corpus import generate_documents

RUN_LENGTHS = (6, 10, 18, 34)
K = 4
LEMMA = canon.get_profile("lemma")


def planted(docs: Sequence[str], length: int, count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` drafts of new words around a run of ``length`` canonical words of one indexed
    document (its id, the draft)."""
    rng = random.Random(seed * 1000 + length)
    fresh = " ".join(generate_documents(count * 120, 30_000, 1.1, seed + 11)).split()
    result = []
    while len(result) < count:
        n = rng.randrange(len(docs))
        spans = canon.canonicalize(docs[n], LEMMA).spans
        if len(spans) < length:
            continue
        start = rng.randrange(len(spans) - length + 1)
        run = docs[n][spans[start][0] : spans[start + length - 1][1]]
        at = len(result) * 120
        before, after = fresh[at : at + 50], fresh[at + 50 : at + 100]
        result.append((f"doc-{n}", " ".join(before) + " " + run + " " + " ".join(after)))
    return result


def _check(index: Index, text: str):
    try:
        return canon.check(
            text, index, canon.CheckSettings(top=5, min_shared=1, sentence_threshold=None)
        ).profiles[0]
    except canon.InputError:  # sampling kept none of the draft's shingles
        return None


def measure(db: Path, mixed: Sequence[str], runs: dict[int, list[tuple[str, str]]]) -> dict:
    with Index(db, readonly=True) as index:
        checks = [_check(index, text) for text in mixed]
        recall = {}
        for length, drafts_of in runs.items():
            found = 0
            for source, text in drafts_of:
                result = _check(index, text)
                found += result is not None and any(s.source == source for s in result.sources)
            recall[length] = found / len(drafts_of)
        postings = index.stats().profiles[0][1]
    return {"checks": checks, "recall": recall, "postings": postings}


def _against(full: dict, other: dict) -> list[str]:
    named = found = 0
    errors = []
    for a, b in zip(full["checks"], other["checks"]):
        if a is None:
            continue
        theirs = {s.source for s in b.sources} if b is not None else set()
        named += len(a.sources)
        found += sum(1 for s in a.sources if s.source in theirs)
        errors.append(abs(a.uniqueness - (b.uniqueness if b is not None else 1.0)) * 100)
    return [
        f"{other['postings'] / full['postings']:.1%}",
        *(f"{other['recall'][n]:.0%}" for n in RUN_LENGTHS),
        f"{found / named:.1%}" if named else "-",
        f"{statistics.mean(errors):.2f}",
        f"{quantile(errors, 0.95):.2f}",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser("benchmarks.winnowing", __doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--pairs", nargs="+", default=["2:3", "4:7", "8:15", "16:31"], metavar="M:W",
        help="sampling moduli beside winnowing windows",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    elapsed = stopwatch()
    docs = corpus(600 if args.quick else 3000, args.seed)
    mixed = drafts(docs, 20 if args.quick else 60, args.seed)
    count = 40 if args.quick else 100
    runs = {n: planted(docs, n, count, args.seed) for n in RUN_LENGTHS}
    rows = []
    with tempfile.TemporaryDirectory(prefix="canon-winnowing-") as tmp:
        folder = Path(tmp)
        full = measure(build(folder, docs, "full"), mixed, runs)
        rows.append(["all shingles", *_against(full, full)])
        for pair in args.pairs:
            m, w = (int(v) for v in pair.split(":"))
            sampled = measure(build(folder, docs, f"m{m}", sample=m), mixed, runs)
            rows.append([f"mod-{m}", *_against(full, sampled)])
            winnowed = measure(build(folder, docs, f"w{w}", winnow=w), mixed, runs)
            rows.append([f"winnow w={w} (runs >= {w + K - 1} words)", *_against(full, winnowed)])
    print(
        f"## Winnowing and sampling: {len(docs):,} documents, {len(mixed)} mixed drafts, "
        f"{count} planted runs per length (lemma, k = {K})\n"
    )
    header = ["rule", "postings", *(f"run of {n}" for n in RUN_LENGTHS), "source recall",
              "uniqueness err (pp)", "p95 err (pp)"]  # fmt: skip
    print(table(header, rows))
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
