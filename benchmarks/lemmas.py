"""Cold, persisted and warm ``lemma`` canonicalization against ``raw``, on real news text.

Words/s of ``canonicalize(text, profile)`` over the distinct article texts of
``../shared/data/ru-news-same-story-pairs`` (both sides of every pair), the steps interleaved,
the median of ``--repeats`` runs each:

- raw: the ``raw`` profile (no lemmas);
- lemma cold: every per-process cache emptied before each run (``canon.canonical.clear_caches``)
  and the persisted lemma cache turned off (``CANON_CACHE_DIR=off``): pymorphy3 analyses each
  distinct form, as in the first run on a machine;
- lemma cold, persisted cache: the per-process caches emptied as above, but a lemma cache file
  written by an earlier (untimed) run is there: the run reads it at its first lemma, as a
  worker process or a later run does;
- lemma warm: every form already cached in the process.

pymorphy3's analyzer and the profile's stop-word rules stay loaded across runs (their one-time
cost in a fresh process is the same with or without the cache).  Targets: lemma cold ≥ 0.2×
raw, lemma warm ≥ 0.5× raw, and the persisted cold run at the warm target (≥ 0.5× raw).
Without the data set the script says so and stops.

Run from the repository root::

    python -m benchmarks.lemmas            # 5 runs a step
    python -m benchmarks.lemmas --quick    # 1 run a step
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks._common import (
    Step,
    Timing,
    argument_parser,
    interleaved,
    ratio,
    runs_text,
    stopwatch,
    table,
    target_text,
    verdict,
)
from benchmarks.data import NEWS, SHARED_DATA, dataset, read_news_texts
from canon import canonicalize
from canon.canonical import clear_caches
from canon.text.lemma_cache import CACHE_ENV, lemma_file

COLD_TARGET = 0.2
WARM_TARGET = 0.5


def canonicalize_all(texts: Sequence[str], profile: str) -> Callable[[], None]:
    def run() -> None:
        for text in texts:
            canonicalize(text, profile)

    return run


def cold(folder: str) -> Callable[[], None]:
    """Empty every per-process cache; the lemma cache file is read from ``folder`` ("off":
    none)."""

    def before() -> None:
        os.environ[CACHE_ENV] = folder
        clear_caches()

    return before


def fill_cache(texts: Sequence[str], folder: str) -> int:
    """Write the lemma cache file of ``texts`` into ``folder``; how many forms it holds."""
    cold(folder)()
    canonicalize_all(texts, "lemma")()
    cache = lemma_file()
    assert cache is not None
    cache.flush()
    return len(cache.load()[0])


def measure(texts: Sequence[str], words: int, repeats: int, folder: str) -> list[Timing]:
    canonicalize_all(texts[:1], "lemma")()  # analyzer and stop-word rules loaded, untimed
    steps = [
        Step("raw", canonicalize_all(texts, "raw"), words),
        Step("lemma cold", canonicalize_all(texts, "lemma"), words, before=cold("off")),
        Step(
            "lemma cold, persisted cache",
            canonicalize_all(texts, "lemma"),
            words,
            before=cold(folder),
        ),
        Step("lemma warm", canonicalize_all(texts, "lemma"), words),
    ]
    return interleaved(steps, repeats)


def rows(timings: Sequence[Timing]) -> list[list[str]]:
    raw = timings[0]
    targets = {"lemma cold": COLD_TARGET, "lemma cold, persisted cache": WARM_TARGET,
               "lemma warm": WARM_TARGET}  # fmt: skip
    out = []
    for t in timings:
        value = ratio(t, raw)
        target = targets.get(t.name)
        out.append([
            t.name, f"{t.rate:,.0f}", f"{t.median:.3f}", runs_text(t), f"{value:.2f}×",
            target_text(f"{target:g}×", higher=True) if target else "",
            verdict(value, target, higher=True) if target else "",
        ])  # fmt: skip
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser("benchmarks.lemmas", __doc__)
    parser.add_argument("--quick", action="store_true", help="one run a step")
    parser.add_argument("--repeats", type=int, default=5, help="runs per step (median)")
    parser.add_argument("--data", type=Path, default=SHARED_DATA, help="the shared data folder")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    folder = dataset(args.data, NEWS)
    if folder is None:
        print(f"skipped: no {NEWS} in {args.data}")
        return
    elapsed = stopwatch()
    texts = read_news_texts(folder)
    words = sum(len(canonicalize(t, "raw").tokens) for t in texts)
    before = os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory() as cache:
        forms = fill_cache(texts, cache)
        timings = measure(texts, words, repeats, cache)
    if before is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = before
    print(f"## Lemma against raw: {len(texts):,} news texts, {words:,} words (raw tokens), "
          f"{forms:,} forms in the lemma cache file\n")  # fmt: skip
    header = ["step", "words/s", "median s", "runs s", "/ raw", "target", "status"]
    print(table(header, rows(timings)))
    persisted, warm = timings[2], timings[3]
    print(f"\npersisted cold / warm = {ratio(persisted, warm):.2f}×")
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
