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

Run from the repository root (the data default to ``../shared/data``)::

    /work/venv/bin/python benchmarks/quality.py
    /work/venv/bin/python benchmarks/quality.py --data /path/to/data
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sklearn.metrics import roc_auc_score

from canon import Comparison, compare_table, get_profile

# The built-in profiles, and lemma without stop lists to show what the lists do.
PROFILES = (
    get_profile("raw"),
    get_profile("stem"),
    get_profile("lemma"),
    get_profile("lemma").replace(name="lemma-no-stop", stopwords=()),
)
NAMES = tuple(p.name for p in PROFILES)
REPO = Path(__file__).resolve().parents[1]
KS = (1, 2, 3)
CONTAINMENT_K = 3
PARAPHRASER = "paraphraser"
NEWS = "ru-news-same-story-pairs"


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    label: str


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


# ---------------------------------------------------------------- data


def read_tsv(path: Path) -> list[dict[str, str]]:
    csv.field_size_limit(10**9)
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def read_paraphraser(folder: Path) -> list[Pair]:
    """The gold test pairs; the label is the class: "1", "0" or "-1"."""
    rows = read_tsv(folder / "pairs.tsv")
    return [Pair(r["text_1"], r["text_2"], r["class"]) for r in rows if r["split"] == "test"]


def read_news(folder: Path) -> list[Pair]:
    """Unique (first_url, second_url) pairs of every pool; the label is OK or BAD."""
    pairs: dict[tuple[str, str], Pair] = {}
    for path in sorted(folder.glob("*.tsv")):
        for row in read_tsv(path):
            key = (row["INPUT:first_url"], row["INPUT:second_url"])
            pair = Pair(row["INPUT:first_text"], row["INPUT:second_text"], row["GOLDEN:quality"])
            if key in pairs and pairs[key].label != pair.label:
                print(f"note: {key} has labels {pairs[key].label} and {pair.label}; first kept")
            pairs.setdefault(key, pair)
    return list(pairs.values())


# ---------------------------------------------------------------- scoring


def score(pairs: Iterable[Pair]) -> Scores:
    scores = Scores()
    for pair in pairs:
        table = compare_table(pair.first, pair.second, ks=KS, profiles=PROFILES)
        for key, cell in table.cells.items():
            scores.add(key, cell)
    return scores


def auc(labels: Sequence[bool], values: Sequence[float]) -> float:
    return float(roc_auc_score(labels, values))


def subset(values: Sequence[float | bool], keep: Sequence[bool]) -> list[float | bool]:
    return [v for v, k in zip(values, keep) if k]


# ---------------------------------------------------------------- report


def markdown(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


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
    print(markdown(["k", *NAMES], auc_rows(scores.jaccard, positive, keep)))
    print("\nPairs with a TooShort cell (a text shorter than k words; scored 0.0):\n")
    print(markdown(["k", *NAMES], short_rows(scores, keep)))
    print()


def paraphraser(folder: Path) -> None:
    pairs = read_paraphraser(folder)
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


def news(folder: Path) -> None:
    pairs = read_news(folder)
    scores = score(pairs)
    positive = [p.label == "OK" for p in pairs]
    keep = [True] * len(pairs)
    print(f"## Russian news, same story ({len(pairs)} unique URL pairs)\n")
    print_task("Same story (OK) vs different stories (BAD)", scores, positive, keep)
    k = CONTAINMENT_K
    print(f"ROC-AUC of containment, max(containment_first, containment_second), k = {k}:\n")
    print(markdown(["k", *NAMES], auc_rows(scores.containment, positive, keep, (k,))))
    print()


def run(name: str, folder: Path, evaluate: Callable[[Path], None]) -> None:
    if not folder.is_dir():
        print(f"## {name}\n\nskipped: {folder} does not exist\n")
        return
    start = time.perf_counter()
    evaluate(folder)
    print(f"({name}: {time.perf_counter() - start:.1f} s)\n")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=REPO.parent / "shared" / "data",
        help="folder holding paraphraser/ and ru-news-same-story-pairs/ (default: %(default)s)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    start = time.perf_counter()
    print("# Ranking quality of shingle Jaccard: raw vs stem vs lemma\n")
    run("ParaPhraser", args.data / PARAPHRASER, paraphraser)
    run("Russian news", args.data / NEWS, news)
    print(f"Total time: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
