"""Cold, persisted and warm ``lemma`` canonicalization against ``raw``, on real news text.

Words/s of ``canonicalize(text, profile)`` over the distinct article texts of
``../shared/data/ru-news-same-story-pairs`` (both sides of every pair), the steps interleaved,
the median of ``--repeats`` runs each:

- raw: the ``raw`` profile (no lemmas);
- lemma cold: every per-process cache emptied before each run (``canon.canonical.clear_caches``)
  and the persisted lemma cache turned off (``CANON_CACHE_DIR=off``): pymorphy3 analyses each
  distinct form, as in the first run on a machine;
- lemma cold, new cache file: the per-process caches emptied as above and the persisted lemma
  cache on, in a new empty directory for each run: the first run on a machine, where every
  form analysed (and every dictionary answer) is also noted for the file and the file written;
- lemma cold, new cache file, file found per call: the same, with the cache file found as it
  was before it was remembered per process (the directory read from the environment, the path
  built and the key's SHA-256 taken at every note): the bookkeeping's own cost;
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

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from benchmarks._common import (
    Step,
    Timing,
    argument_parser,
    clocked,
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
from canon.text import lemma_cache, lemmatize
from canon.text.lemma_cache import CACHE_ENV, LemmaFile, cache_dir, lemma_file

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


def forget_files(parent: str) -> None:
    """Drop this process's cache files under ``parent`` unwritten: a run measured is over, and
    its forms would otherwise be written at exit, after ``parent`` is deleted."""
    for key, cache in list(lemma_cache._files.items()):
        if cache.path.is_relative_to(parent):
            del lemma_cache._files[key]


def fresh(parent: str) -> Callable[[], None]:
    """Empty every per-process cache; the lemma cache file goes to a new empty directory."""

    def before() -> None:
        forget_files(parent)
        cold(tempfile.mkdtemp(dir=parent))()

    return before


def file_found_per_call(kind: str, key: str) -> LemmaFile | None:
    """The cache file of ``kind`` and ``key`` found as before it was remembered: the directory
    from the environment, the path and the key's digest made anew at every call."""
    folder = cache_dir()
    if folder is None:
        return None
    name = f"canon-{kind}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:16]}.bin"
    path, pid = folder / name, os.getpid()
    found = lemma_cache._files.get((path, pid))
    if found is None:
        found = lemma_cache._files[(path, pid)] = LemmaFile(path, key)
    return found


@contextmanager
def finding_per_call() -> Iterator[None]:
    """While active, canon finds its cache files as :func:`file_found_per_call` does."""
    original = lemma_cache._file
    lemma_cache._file = file_found_per_call
    try:
        yield
    finally:
        lemma_cache._file = original


def per_call(run: Callable[[], None]) -> Callable[[], None]:
    def patched() -> None:
        with finding_per_call():
            run()

    return patched


def file_lookups(texts: Sequence[str], parent: str) -> tuple[int, float, float]:
    """How often a cold run with a new cache file calls ``lemma_file()``, and the seconds those
    calls take in all, the file found as now and found per call (one run each, untimed)."""
    lemmas = canonicalize_all(texts, "lemma")
    seconds = []
    for run in (lemmas, per_call(lemmas)):
        fresh(parent)()
        with clocked(lemmatize, "lemma_file") as clock:
            run()
        seconds.append(clock.seconds)
    return clock.calls, seconds[0], seconds[1]


def fill_cache(texts: Sequence[str], folder: str) -> int:
    """Write the lemma cache file of ``texts`` into ``folder``; how many forms it holds."""
    cold(folder)()
    canonicalize_all(texts, "lemma")()
    cache = lemma_file()
    assert cache is not None
    cache.flush()
    return len(cache.load()[0])


NEW_FILE = "lemma cold, new cache file"
PER_CALL = "lemma cold, new cache file, file found per call"


def measure(
    texts: Sequence[str], words: int, repeats: int, folder: str, parent: str
) -> list[Timing]:
    canonicalize_all(texts[:1], "lemma")()  # analyzer and stop-word rules loaded, untimed
    lemmas = canonicalize_all(texts, "lemma")
    steps = [
        Step("raw", canonicalize_all(texts, "raw"), words),
        Step("lemma cold", lemmas, words, before=cold("off")),
        Step(NEW_FILE, lemmas, words, before=fresh(parent)),
        Step(PER_CALL, per_call(lemmas), words, before=fresh(parent)),
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
    targets = {"lemma cold": COLD_TARGET, NEW_FILE: COLD_TARGET,
               "lemma cold, persisted cache": WARM_TARGET, "lemma warm": WARM_TARGET}  # fmt: skip
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
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as parent:
        forms = fill_cache(texts, cache)
        lookups = file_lookups(texts, parent)
        timings = measure(texts, words, repeats, cache, parent)
        forget_files(parent)
        forget_files(cache)
    if before is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = before
    print(f"## Lemma against raw: {len(texts):,} news texts, {words:,} words (raw tokens), "
          f"{forms:,} forms in the lemma cache file\n")  # fmt: skip
    header = ["step", "words/s", "median s", "runs s", "/ raw", "target", "status"]
    print(table(header, rows(timings)))
    by_name = {t.name: t for t in timings}
    persisted, warm = by_name["lemma cold, persisted cache"], by_name["lemma warm"]
    print(f"\npersisted cold / warm = {ratio(persisted, warm):.2f}×")
    print(f"new cache file / found per call = {ratio(by_name[NEW_FILE], by_name[PER_CALL]):.2f}×")
    calls, now, before_seconds = lookups
    print(f"lemma_file() called {calls:,} times in a cold run with a new file: {now:.3f} s "
          f"({1e6 * now / calls:.1f} µs each), found per call {before_seconds:.3f} s "
          f"({1e6 * before_seconds / calls:.1f} µs each)")  # fmt: skip
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
