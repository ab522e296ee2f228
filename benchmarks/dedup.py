"""MinHash signatures and corpus dedup: speed against datasketch, scaling, and quality.

What is measured, in one run:

- signatures/s on the same shingled documents (generated Russian text, k = 4 word shingles,
  shingle hashing included on both sides): canon's vectorized one-permutation MinHash
  (``shingle_hashes`` + ``signatures``) against datasketch's ``MinHash.update_batch`` over the
  shingles' UTF-8 bytes, the two interleaved, with the ratio (target ≥ 10×);
- the estimation error of canon's signatures against exact Jaccard on random pairs, next to
  the theory (standard deviation sqrt(J(1-J)/num_perm));
- ``dedup`` wall time on 10k, 20k and 40k documents with planted near-duplicates, by stage, and
  time(40k) / time(10k) (target ≤ 5: close to linear), with recall of the planted pairs above
  the threshold and precision (every reported pair verified);
- memory per signature.

datasketch is a benchmark dependency only (``pip install datasketch``); without it that row is
skipped.  Run from the repository root::

    python -m benchmarks.dedup            # full run
    python -m benchmarks.dedup --quick    # smaller sizes
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from functools import partial

import numpy as np

from benchmarks._common import (
    Step,
    argument_parser,
    interleaved,
    ratio,
    stopwatch,
    table,
    target_text,
    timed,
    timed_call,
    verdict,
)
from canon import canonicalize, shingle_hashes
from canon.dedup import Entry, dedup
from canon.fingerprints.measures import exact_jaccard
from canon.fingerprints.minhash import estimate_jaccard, signatures
from testkit.corpus import generate_documents, hash_pair

NUM_PERM = 128
K = 4
DOC_TOKENS = 603  # about 600 shingles a document, the size of a short web article
SIGNATURE_TARGET = 10.0  # canon's signatures/s over datasketch's at least
SCALING_TARGET = 5.0  # time(largest) / time(smallest) at most: close to linear


def signature_speed(docs: Sequence[str], repeats: int) -> tuple[list[list[str]], float | None]:
    """Documents/s of canon's signatures and, if installed, datasketch's, interleaved; and how
    many times canon's rate is datasketch's (None without datasketch)."""
    words = [w for d in docs for w in canonicalize(d, "raw").tokens]
    size = DOC_TOKENS
    tokens = [words[i : i + size] for i in range(0, len(words) - size, size)]
    shingle_counts = [len(t) - K + 1 for t in tokens]

    def ours() -> None:
        signatures([shingle_hashes(t, K) for t in tokens], NUM_PERM)

    try:
        from datasketch import MinHash
    except ImportError:
        mine = timed(Step("canon", ours, len(tokens)), repeats)
        rows = [
            ["canon (vectorized OPH)", f"{mine.rate:,.0f}", "1.00×"],
            ["datasketch", "skipped (pip install datasketch)", ""],
        ]
        return rows, None

    def theirs() -> None:
        for t in tokens:
            m = MinHash(num_perm=NUM_PERM)
            m.update_batch([" ".join(t[i : i + K]).encode("utf-8") for i in range(len(t) - K + 1)])

    steps = [Step("canon", ours, len(tokens)), Step("datasketch", theirs, len(tokens))]
    mine, other = interleaved(steps, repeats)
    faster = ratio(mine, other)
    rows = [
        ["canon (vectorized OPH)", f"{mine.rate:,.0f}", "1.00×"],
        ["datasketch MinHash.update_batch", f"{other.rate:,.0f}", f"{faster:.1f}× slower"],
        ["(shingles a document, median)", f"{statistics.median(shingle_counts):,.0f}", ""],
    ]
    return rows, faster


def estimation_error(pairs: int, seed: int) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    rows = []
    for low, high in ((0.0, 0.3), (0.3, 0.7), (0.7, 1.0)):
        errors, theory = [], []
        for _ in range(pairs):
            a, b = hash_pair(rng, int(rng.integers(100, 1500)), float(rng.uniform(low, high)))
            exact = exact_jaccard(a, b)
            errors.append(abs(estimate_jaccard(*signatures([a, b], NUM_PERM)) - exact))
            theory.append(0.8 * np.sqrt(exact * (1 - exact) / NUM_PERM))
        rows.append([f"{low:.1f}-{high:.1f}", f"{np.mean(errors):.4f}", f"{np.mean(theory):.4f}"])
    return rows


def planted_corpus(size: int, seed: int) -> tuple[list[Entry], dict[tuple[str, str], float]]:
    """``size`` documents of 300-1,500 shingles; 5% get a planted near-copy (Jaccard 0.6-1)."""
    rng = np.random.default_rng(seed)
    entries, planted = [], {}
    originals = int(size / 1.05)
    for i in range(originals):
        n = int(rng.integers(300, 1500))
        if i % 20 == 0 and len(entries) < size - 1:
            a, b = hash_pair(rng, n, float(rng.uniform(0.6, 1.0)))
            entries += [Entry(f"d{i}", a, n), Entry(f"d{i}-copy", b, n)]
            planted[(f"d{i}", f"d{i}-copy")] = exact_jaccard(a, b)
        else:
            entries.append(
                Entry(f"d{i}", np.unique(rng.integers(0, 2**64 - 1, n, dtype=np.uint64)), n)
            )
    return entries[:size], planted


def scaling(sizes: Sequence[int], threshold: float, seed: int) -> tuple[list[list[str]], float]:
    rows, totals = [], {}
    for size in sizes:
        entries, planted = planted_corpus(size, seed)
        totals[size], result = timed_call(partial(dedup, entries, threshold, num_perm=NUM_PERM))
        found = {(a, b) for c in result.clusters for a, b, _ in c.pairs}
        expected = {p for p, j in planted.items() if j >= threshold}
        recall = len(expected & found) / len(expected) if expected else 1.0
        precision = 1.0 if all(j >= threshold for c in result.clusters for *_, j in c.pairs) else 0
        stages = result.seconds
        rows.append([f"{size:,}", f"{totals[size]:.2f}", *(f"{stages[s]:.2f}" for s in stages),
                     f"{result.candidate_pairs:,}", f"{result.verified_pairs:,}",
                     f"{recall:.3f}", f"{precision:.1f}"])  # fmt: skip
    return rows, totals[sizes[-1]] / totals[sizes[0]]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser("benchmarks.dedup", __doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    elapsed = stopwatch()
    docs = generate_documents(60_000 if args.quick else 300_000, 20_000, 1.1, args.seed)
    print(f"## Signatures ({NUM_PERM} values, k = {K}, generated text in 600-word documents)\n")
    rows, faster = signature_speed(docs, 1 if args.quick else 3)
    print(table(["method", "documents/s", "ratio"], rows))
    if faster is not None:
        target = target_text(f"{SIGNATURE_TARGET:g}×", higher=True)
        status = verdict(faster, SIGNATURE_TARGET, higher=True)
        print(f"\ncanon / datasketch = {faster:.1f}× (target {target}): {status}")
    print("\n## Estimation error (mean |estimate - exact|, random pairs)\n")
    print(table(["exact Jaccard", "measured", "theory"],
                estimation_error(50 if args.quick else 200, args.seed)))  # fmt: skip
    sizes = (2_000, 4_000, 8_000) if args.quick else (10_000, 20_000, 40_000)
    print(f"\n## Dedup at threshold {args.threshold} (local engine; seconds)\n")
    rows, growth = scaling(sizes, args.threshold, args.seed)
    header = ["documents", "total", "signatures", "candidates", "verification", "components",
              "candidate pairs", "verified pairs", "recall", "precision"]  # fmt: skip
    print(table(header, rows))
    target = target_text(f"{SCALING_TARGET:g}", higher=False)
    status = verdict(growth, SCALING_TARGET, higher=False)
    print(f"\ntime({sizes[-1]:,}) / time({sizes[0]:,}) = {growth:.2f} (target {target}): {status}")
    print(f"memory per signature: {NUM_PERM * 8:,} bytes of values (+20 bytes of header stored)")
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
