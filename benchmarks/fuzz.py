"""Tricks combined at random on real texts: does any mix of them fool the verdict?

Each trick of ``testkit.tricks.TRICKS`` is measured alone by ``benchmarks.verdict``; a
copywriter may stack them.  This fuzzer builds the index ``benchmarks.verdict`` builds (the
news articles of ``ru-news-same-story-pairs``, a quarter of the stories held out, profiles raw
and lemma, k = 4, stored texts) and then, trial by trial, takes an indexed article at random,
applies two to four tricks drawn at random (distinct, each with its own seed) in the order a
tool stacking them would (``Trick.stage``: words and their order first, then letters, then
spacing and lines, then how the text is stored; at random within a stage), and checks the
altered copy against the index.  The verdict's uniqueness of the copy is
fake: the untouched copy reads 0%.

A combination's target is the highest of its tricks' targets (5%, or 25% with transliteration
or a word shuffle in it).  The script prints the mean and the highest fake uniqueness, the
share of trials over their target, the same by number of tricks combined and by trick (every
trial a trick took part in), and the worst combinations with the tricks the check reported.
Targets: mean ≤ 5%, highest ≤ 15% (25% where a shuffle or transliteration is in the mix).

Run from the repository root::

    python -m benchmarks.fuzz                 # 200 trials, ~3 minutes
    python -m benchmarks.fuzz --quick         # 40 trials
    python -m benchmarks.fuzz --trials 500 --seed 7
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks._common import argument_parser, stopwatch, table, target_text, verdict
from benchmarks.data import SHARED_DATA, on_news, read_news
from benchmarks.verdict import (
    SEED,
    build_index,
    fake_uniqueness,
    pct,
    split_corpus,
    trick_texts,
    write_records,
)
from canon import Index
from testkit.tricks import TRICKS, Trick

TRIALS, QUICK_TRIALS = 200, 40
TEXTS = 60
MIN_TRICKS, MAX_TRICKS = 2, 4
MEAN_TARGET = 0.05
MAX_TARGET = 0.15
WORST = 12


@dataclass(frozen=True)
class Trial:
    """One altered copy: the tricks applied, in order, and what the check made of it."""

    tricks: tuple[Trick, ...]
    fake: float
    reported: int

    @property
    def target(self) -> float:
        return max(MAX_TARGET, *(t.target for t in self.tricks))

    @property
    def names(self) -> str:
        return " + ".join(t.name for t in self.tricks)


def draw(rng: random.Random) -> tuple[Trick, ...]:
    """Two to four distinct tricks, by stage, in a random order within one."""
    drawn = rng.sample(list(TRICKS), rng.randint(MIN_TRICKS, MAX_TRICKS))
    return tuple(sorted(drawn, key=lambda t: t.stage))  # stable: random within a stage


def altered(text: str, tricks: Sequence[Trick], seed: int) -> str:
    for i, trick in enumerate(tricks):
        text = trick.alter(text, seed + i)
    return text


def run_trials(index: Index, texts: Sequence[str], count: int, seed: int) -> list[Trial]:
    rng = random.Random(seed)
    trials = []
    for n in range(count):
        tricks = draw(rng)
        copy = altered(rng.choice(texts), tricks, seed + 10 * n)
        _, _, fake, reported = fake_uniqueness(index, copy)
        trials.append(Trial(tricks, fake, reported))
    return trials


def _row(label: str, trials: Sequence[Trial]) -> list[str]:
    fakes = [t.fake for t in trials]
    over = sum(t.fake > t.target for t in trials)
    return [label, f"{len(trials)}", pct(statistics.mean(fakes)), pct(max(fakes)),
            f"{over}"]  # fmt: skip


def summary_rows(trials: Sequence[Trial]) -> list[list[str]]:
    fakes = [t.fake for t in trials]
    mean, top = statistics.mean(fakes), max(fakes)
    over = sum(t.fake > t.target for t in trials)
    return [
        ["mean fake uniqueness", pct(mean), target_text(pct(MEAN_TARGET), higher=False),
         verdict(mean, MEAN_TARGET, higher=False)],
        ["highest", pct(top), target_text(pct(MAX_TARGET), higher=False),
         verdict(top, max(t.target for t in trials), higher=False)],
        ["trials over their target", f"{over} of {len(trials)}", "0", "pass" if not over
         else "FAIL"],
    ]  # fmt: skip


def by_count_rows(trials: Sequence[Trial]) -> list[list[str]]:
    counts = sorted({len(t.tricks) for t in trials})
    return [_row(f"{n} tricks", [t for t in trials if len(t.tricks) == n]) for n in counts]


def by_trick_rows(trials: Sequence[Trial]) -> list[list[str]]:
    rows = []
    for trick in TRICKS:
        taking = [t for t in trials if trick in t.tricks]
        if taking:
            rows.append(_row(trick.name, taking))
    return sorted(rows, key=lambda r: -float(r[3].rstrip("%")))


def worst_rows(trials: Sequence[Trial]) -> list[list[str]]:
    worst = sorted(trials, key=lambda t: -t.fake)[:WORST]
    return [[t.names, pct(t.fake), pct(t.target), f"{t.reported}"] for t in worst]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.fuzz", __doc__)
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_TRIALS} trials")
    parser.add_argument("--trials", type=int, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    return parser.parse_args(argv)


def run(folder: Path, args: argparse.Namespace, work: Path) -> None:
    corpus = split_corpus(read_news(folder), args.seed)
    build_index(write_records(corpus, work), work / "index.db", store_text=True)
    count = args.trials or (QUICK_TRIALS if args.quick else TRIALS)
    texts = trick_texts(corpus, TEXTS)
    with Index(work / "index.db", readonly=True) as index:
        trials = run_trials(index, texts, count, args.seed)
    print(f"{count} trials on {len(texts)} indexed articles, {MIN_TRICKS}-{MAX_TRICKS} tricks "
          f"each, from {len(TRICKS)}\n")  # fmt: skip
    print(table(["figure", "value", "target", ""], summary_rows(trials)))
    header = ["", "trials", "mean fake", "highest", "over target"]
    print("\nBy number of tricks combined:\n")
    print(table(header, by_count_rows(trials)))
    print("\nBy trick (every trial it took part in), highest first:\n")
    print(table(["trick", *header[1:]], by_trick_rows(trials)))
    print("\nThe worst combinations:\n")
    print(table(["tricks, in the order applied", "fake", "target", "tricks reported"],
                worst_rows(trials)))  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    elapsed = stopwatch()
    on_news(args.data, "Fuzz", lambda folder, work: run(folder, args, work))
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
