"""How well does shingle Jaccard rank similar Russian text pairs above dissimilar ones?

For every pair, ``canon.compare_table(first, second, ks=(1, 2, 3),
profiles=("raw", "stem", "lemma"))`` gives the Jaccard of the two k-word shingle sets under
each profile (k = 1 is the Jaccard of the word sets).  The script prints the ROC-AUC
(``sklearn.metrics.roc_auc_score``) of that Jaccard, profiles side by side, on:

- ParaPhraser, gold test pairs (``paraphraser/pairs.tsv``, rows with ``split == "test"``):
  paraphrase (class 1 or 0) vs non-paraphrase (class -1), and precise paraphrase only
  (class 1 vs -1);
- Russian news "same story" pairs (``ru-news-same-story-pairs/*.tsv``), deduplicated by
  (first_url, second_url) to 210 pairs: OK vs BAD; also the ROC-AUC of containment
  (max of containment_first and containment_second) at k = 3.

A cell where a text has fewer than k canonical words (a ``TooShort`` cell) is scored 0.0;
the number of such pairs is printed for each profile and k.  The tables are markdown, so they
can be pasted into a README.  A missing dataset folder is reported and skipped.

scikit-learn is a benchmark dependency only (``pip install '.[bench]'``).  Run from the repository
root (the data default to ``../shared/data``)::

    python -m benchmarks.quality
    python -m benchmarks.quality --quick     # 300 pairs of each data set, a smoke run
    python -m benchmarks.quality --data /path/to/data
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks._common import argument_parser, stopwatch, table
from benchmarks.data import (
    NEWS,
    PARAPHRASER,
    SHARED_DATA,
    Pair,
    dataset,
    read_news,
    read_paraphraser,
)
from canon import Comparison, compare_table, get_profile

# The built-in profiles, and lemma without stop lists to show what the lists do.
PROFILES = (
    get_profile("raw"),
    get_profile("stem"),
    get_profile("lemma"),
    get_profile("lemma").replace(name="lemma-no-stop", stopwords=()),
)
NAMES = tuple(p.name for p in PROFILES)
KS = (1, 2, 3)
CONTAINMENT_K = 3
QUICK_PAIRS = 300  # pairs of each data set in a --quick run, evenly spaced
NEEDS_SKLEARN = "benchmarks.quality needs scikit-learn: pip install '.[bench]'"


@dataclass
class Scores:
    """Per-pair scores for each (profile, k), and which cells were too short."""

    jaccard: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    containment: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    too_short: dict[tuple[str, int], list[bool]] = field(default_factory=dict)

    def add(self, key: tuple[str, int], cell: object) -> None:
        short = not isinstance(cell, Comparison)
        jaccard = 0.0 if short else cell.jaccard  # type: ignore[attr-defined]
        contained = 0.0 if short else max(cell.containment_first, cell.containment_second)  # type: ignore[attr-defined]
        self.jaccard.setdefault(key, []).append(jaccard)
        self.containment.setdefault(key, []).append(contained)
        self.too_short.setdefault(key, []).append(short)


def evenly(pairs: Sequence[Pair], limit: int | None) -> list[Pair]:
    """At most ``limit`` pairs spread evenly over ``pairs`` (all of them for None)."""
    if limit is None or len(pairs) <= limit:
        return list(pairs)
    step = len(pairs) / limit
    return [pairs[int(i * step)] for i in range(limit)]


# ---------------------------------------------------------------- scoring


def score(pairs: Iterable[Pair]) -> Scores:
    scores = Scores()
    for pair in pairs:
        table = compare_table(pair.first, pair.second, ks=KS, profiles=PROFILES)
        for key, cell in table.cells.items():
            scores.add(key, cell)
    return scores


def auc(labels: Sequence[bool], values: Sequence[float]) -> float:
    from sklearn.metrics import roc_auc_score  # a benchmark dependency only

    return float(roc_auc_score(labels, values))


def subset(values: Sequence[float | bool], keep: Sequence[bool]) -> list[float | bool]:
    return [v for v, k in zip(values, keep) if k]


# ---------------------------------------------------------------- report


def auc_rows(
    values: dict[tuple[str, int], list[float]],
    positive: Sequence[bool],
    keep: Sequence[bool],
    ks: Sequence[int] = KS,
) -> list[list[str]]:
    labels = subset(positive, keep)
    return [
        [str(k), *(f"{auc(labels, subset(values[(p, k)], keep)):.3f}" for p in NAMES)] for k in ks
    ]


def short_rows(scores: Scores, keep: Sequence[bool]) -> list[list[str]]:
    return [
        [str(k), *(str(sum(subset(scores.too_short[(p, k)], keep))) for p in NAMES)] for k in KS
    ]


def print_task(title: str, scores: Scores, positive: Sequence[bool], keep: Sequence[bool]) -> None:
    used = subset(positive, keep)
    print(f"### {title}\n")
    print(f"{sum(used)} positive, {len(used) - sum(used)} negative pairs. ROC-AUC of Jaccard:\n")
    print(table(["k", *NAMES], auc_rows(scores.jaccard, positive, keep)))
    print("\nPairs with a TooShort cell (a text shorter than k words; scored 0.0):\n")
    print(table(["k", *NAMES], short_rows(scores, keep)))
    print()


def paraphraser(folder: Path, limit: int | None) -> None:
    pairs = evenly(read_paraphraser(folder), limit)
    scores = score(pairs)
    classes = [p.label for p in pairs]
    print(f"## ParaPhraser gold test ({len(pairs):,} pairs)\n")
    print_task(
        "Paraphrase (class 1 or 0) vs non-paraphrase (class -1)",
        scores,
        [c in ("1", "0") for c in classes],
        [True] * len(classes),
    )
    print_task(
        "Precise paraphrase (class 1) vs non-paraphrase (class -1)",
        scores,
        [c == "1" for c in classes],
        [c in ("1", "-1") for c in classes],
    )


def news(folder: Path, limit: int | None) -> None:
    pairs = evenly(read_news(folder), limit)
    scores = score(pairs)
    positive = [p.label == "OK" for p in pairs]
    keep = [True] * len(pairs)
    print(f"## Russian news, same story ({len(pairs)} unique URL pairs)\n")
    print_task("Same story (OK) vs different stories (BAD)", scores, positive, keep)
    k = CONTAINMENT_K
    print(f"ROC-AUC of containment, max(containment_first, containment_second), k = {k}:\n")
    print(table(["k", *NAMES], auc_rows(scores.containment, positive, keep, (k,))))
    print()


def run(
    name: str,
    data: Path,
    folder_name: str,
    evaluate: Callable[[Path, int | None], None],
    limit: int | None,
) -> None:
    folder = dataset(data, folder_name)
    if folder is None:
        print(f"## {name}\n\nskipped: {data / folder_name} does not exist\n")
        return
    if importlib.util.find_spec("sklearn") is None:
        raise SystemExit(NEEDS_SKLEARN)
    elapsed = stopwatch()
    evaluate(folder, limit)
    print(f"({name}: {elapsed():.1f} s)\n")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.quality", __doc__)
    parser.add_argument(
        "--data",
        type=Path,
        default=SHARED_DATA,
        help="folder holding paraphraser/ and ru-news-same-story-pairs/ (default: %(default)s)",
    )
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_PAIRS} pairs of each data set, a smoke run"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    limit = QUICK_PAIRS if args.quick else None
    elapsed = stopwatch()
    print("# Ranking quality of shingle Jaccard: raw vs stem vs lemma\n")
    if args.quick:
        print(f"(--quick: at most {limit} pairs of each data set, evenly spaced)\n")
    run("ParaPhraser", args.data, PARAPHRASER, paraphraser, limit)
    run("Russian news", args.data, NEWS, news, limit)
    print(f"Total benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
