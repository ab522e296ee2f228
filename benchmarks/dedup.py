"""MinHash signatures and corpus dedup: speed against datasketch, scaling, and quality.

What is measured, in one run:

- signatures/s on the same shingled documents (generated Russian text, k = 4 word shingles,
  shingle hashing included on both sides): canon's vectorized one-permutation MinHash
  (``shingle_hashes`` + ``signatures``) against datasketch's ``MinHash.update_batch`` over the
  shingles' UTF-8 bytes, with the ratio (target >= 10x);
- the estimation error of canon's signatures against exact Jaccard on random pairs, next to
  the theory (standard deviation sqrt(J(1-J)/num_perm));
- ``dedup`` wall time on 10k, 20k and 40k documents with planted near-duplicates, by stage, and
  time(40k) / time(10k) (target <= 5: close to linear), with recall of the planted pairs above
  the threshold and precision (every reported pair verified);
- memory per signature.

datasketch is a benchmark dependency only (``pip install datasketch``); without it that row is
skipped.  Run from the repository root::

    python benchmarks/dedup.py            # full run
    python benchmarks/dedup.py --quick    # smaller sizes
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import numpy as np
from speed import generate_documents, table

from canon import canonicalize, shingle_hashes
from canon.dedup import Entry, dedup
from canon.measures import exact_jaccard
from canon.sketch import estimate_jaccard, signatures

NUM_PERM = 128
K = 4


def _median_time(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def signature_speed(docs: Sequence[str], repeats: int) -> list[list[str]]:
    # Documents of about 600 shingles, the size of a short web article.
    words = [w for d in docs for w in canonicalize(d, "raw").tokens]
    tokens = [words[i : i + 603] for i in range(0, len(words) - 603, 603)]
    shingle_counts = [len(t) - K + 1 for t in tokens]

    def ours() -> None:
        signatures([shingle_hashes(t, K) for t in tokens], NUM_PERM)

    rows = []
    ours_s = _median_time(ours, repeats)
    rows.append(["canon (vectorized OPH)", f"{len(tokens) / ours_s:,.0f}", "1.00×"])
    try:
        from datasketch import MinHash
    except ImportError:
        rows.append(["datasketch", "skipped (pip install datasketch)", ""])
        return rows

    def theirs() -> None:
        for t in tokens:
            m = MinHash(num_perm=NUM_PERM)
            m.update_batch([" ".join(t[i : i + K]).encode("utf-8") for i in range(len(t) - K + 1)])

    theirs_s = _median_time(theirs, repeats)
    rows.append(["datasketch MinHash.update_batch", f"{len(tokens) / theirs_s:,.0f}",
                 f"{theirs_s / ours_s:.1f}× slower"])  # fmt: skip
    rows.append(["(shingles a document, median)", f"{statistics.median(shingle_counts):,.0f}", ""])
    return rows


def estimation_error(pairs: int, seed: int) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    rows = []
    for low, high in ((0.0, 0.3), (0.3, 0.7), (0.7, 1.0)):
        errors, theory = [], []
        for _ in range(pairs):
            a, b = _near_pair(rng, int(rng.integers(100, 1500)), float(rng.uniform(low, high)))
            exact = exact_jaccard(a, b)
            errors.append(abs(estimate_jaccard(*signatures([a, b], NUM_PERM)) - exact))
            theory.append(0.8 * np.sqrt(exact * (1 - exact) / NUM_PERM))
        rows.append([f"{low:.1f}-{high:.1f}", f"{np.mean(errors):.4f}", f"{np.mean(theory):.4f}"])
    return rows


def _near_pair(
    rng: np.random.Generator, n: int, similarity: float
) -> tuple[np.ndarray, np.ndarray]:
    keep = round(n * 2 * similarity / (1 + similarity))
    first = rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
    second = np.concatenate([first[:keep], rng.integers(0, 2**64 - 1, n - keep, dtype=np.uint64)])
    return np.unique(first), np.unique(second)


def corpus(size: int, seed: int) -> tuple[list[Entry], dict[tuple[str, str], float]]:
    """``size`` documents of 300-1,500 shingles; 5% get a planted near-copy (Jaccard 0.6-1)."""
    rng = np.random.default_rng(seed)
    entries, planted = [], {}
    originals = int(size / 1.05)
    for i in range(originals):
        n = int(rng.integers(300, 1500))
        if i % 20 == 0 and len(entries) < size - 1:
            a, b = _near_pair(rng, n, float(rng.uniform(0.6, 1.0)))
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
        entries, planted = corpus(size, seed)
        start = time.perf_counter()
        result = dedup(entries, threshold, num_perm=NUM_PERM)
        totals[size] = time.perf_counter() - start
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    docs = generate_documents(60_000 if args.quick else 300_000, 20_000, 1.1, args.seed)
    print(f"## Signatures ({NUM_PERM} values, k = {K}, generated text in 600-word documents)\n")
    print(table(["method", "documents/s", "ratio"], signature_speed(docs, 1 if args.quick else 3)))
    print("\n## Estimation error (mean |estimate - exact|, random pairs)\n")
    print(table(["exact Jaccard", "measured", "theory"],
                estimation_error(50 if args.quick else 200, args.seed)))  # fmt: skip
    sizes = (2_000, 4_000, 8_000) if args.quick else (10_000, 20_000, 40_000)
    print(f"\n## Dedup at threshold {args.threshold} (local engine; seconds)\n")
    rows, ratio = scaling(sizes, args.threshold, args.seed)
    header = ["documents", "total", "signatures", "candidates", "verification", "components",
              "candidate pairs", "verified pairs", "recall", "precision"]  # fmt: skip
    print(table(header, rows))
    verdict = "PASS" if ratio <= 5 else "MISS"
    print(f"\ntime({sizes[-1]:,}) / time({sizes[0]:,}) = {ratio:.2f} (target <= 5): {verdict}")
    print(f"memory per signature: {NUM_PERM * 8:,} bytes of values (+20 bytes of header stored)")
    print(f"\nTotal benchmark time: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
