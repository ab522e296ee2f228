"""``canon dedup`` with 1 and 2 worker processes: wall time, CPU time and peak memory.

A generated corpus of ``--docs`` documents of 300 words (``testkit.corpus``: pymorphy3 forms
with Zipf frequencies, joined into sentences and paragraphs; every 20th document followed by a
copy of it with 2 % of the words replaced, so there are clusters to find) is written as one
JSON Lines file.  The ``canon dedup FILE --workers W`` command then runs in fresh processes
(lemma profile, k = 4), the settings interleaved, ``--repeats`` rounds, medians reported:

- cold: an empty lemma cache directory for every run (``CANON_CACHE_DIR``), as on a new
  machine: each worker analyses every form it meets;
- warm: the lemma cache file an earlier (untimed) run wrote: every process starts warm.

For each run: wall time, CPU time (user + system, of the command and its workers) and peak
memory, sampled every 50 ms: the resident set (RSS) of the command's own process, and the
proportional set (PSS: pages shared after fork counted once) summed over it and its workers.
The speed-up is wall(1 worker) / wall(2 workers), with the target ≥ 1.7× (warm); the machine
must have two free cores for it to mean anything, so the CPU times and the load average are
printed too.  ``--code PATH`` runs another checkout's canon (to measure before and after a
change).

Run from the repository root::

    python -m benchmarks.workers                    # 5,000 documents, 3 rounds
    python -m benchmarks.workers --quick            # 600 documents, 1 round
    python -m benchmarks.workers --docs 20000 --repeats 1 --workers 2 --modes warm
    python -m benchmarks.workers --docs 1000000 --repeats 1 --workers 2 --modes warm

The corpus is generated ``GENERATED`` documents at a time; the untimed warm-up run reads only
the first ``--warm-docs`` of them (default: all, at most ``WARM_DOCS``), so a million-document
run does not read the corpus twice.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import psutil

from benchmarks._common import REPO, argument_parser, median, stopwatch, table
from testkit.corpus import Lexicon, load_lexicon, paragraphs, sample_words

DOC_WORDS = 300
COPY_EVERY = 20
TARGET = 1.7
MB = 1024 * 1024
GENERATED = 20_000  # documents whose words are drawn at once
WARM_DOCS = 50_000  # the untimed run that fills the lemma cache reads at most this many


_lexicon: Lexicon = []  # set before the generating processes are forked


def _block(seed: int, first: int, count: int) -> tuple[list[str], int]:
    """Documents ``first`` … ``first + count - 1`` as JSON Lines, and how many words they have
    (block 0 is drawn with ``seed`` itself, the others with seeds of their own)."""
    draw = seed + 7919 * (first // GENERATED)
    words = sample_words(_lexicon, count * DOC_WORDS, 1.1, draw)
    rng = random.Random(draw)
    used = 0
    own: list[str] = []
    lines = []
    for i in range(first, first + count):
        if i % COPY_EVERY == 1 and own:
            own = [rng.choice(words) if rng.random() < 0.02 else w for w in own]
        else:
            own = words[used : used + DOC_WORDS]
            used += DOC_WORDS
        text = "\n\n".join(paragraphs(own, rng))
        lines.append(json.dumps({"id": f"doc-{i:07d}", "text": text}, ensure_ascii=False) + "\n")
    return lines, used


def write_corpus(
    docs: int, seed: int, path: Path, warm: Path | None = None, warm_docs: int = 0
) -> int:
    """``docs`` documents as JSON Lines at ``path`` (the first ``warm_docs`` of them also at
    ``warm``); how many words they have.  Every ``COPY_EVERY``-th document is the one before
    it with 2 % of its words replaced.  Blocks of ``GENERATED`` documents are generated in a
    process per core, in order, so a million documents take the memory of a few blocks."""
    global _lexicon
    _lexicon = load_lexicon(60_000, seed)
    starts = range(0, docs, GENERATED)
    jobs = [(seed, first, min(GENERATED, docs - first)) for first in starts]
    written = 0
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(path.open("w", encoding="utf-8"))
        extra = stack.enter_context(warm.open("w", encoding="utf-8")) if warm else None
        pool = stack.enter_context(multiprocessing.get_context("fork").Pool(os.cpu_count()))
        for (_, first, _), (lines, used) in zip(jobs, pool.imap(_star_block, jobs)):
            out.writelines(lines)
            written += used
            if extra is not None and first < warm_docs:
                extra.writelines(lines[: warm_docs - first])
    return written


def _star_block(job: tuple[int, int, int]) -> tuple[list[str], int]:
    return _block(*job)


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    main_rss: int
    total_rss: int


def _rss(process: psutil.Process) -> tuple[int, int]:
    """The resident set of ``process``, and the proportional set (shared pages divided among
    the processes sharing them) of it with all its descendants."""
    own = total = 0
    with contextlib.suppress(psutil.Error):
        own = process.memory_info().rss
        for member in [process, *process.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                total += member.memory_full_info().pss
    return own, total


def run_dedup(corpus: Path, workers: int, cache: str, code: Path, out: Path) -> Run:
    """One ``canon dedup`` in a fresh process, measured."""
    env = {**os.environ, "CANON_CACHE_DIR": cache, "PYTHONPATH": str(code)}
    command = [sys.executable, "-m", "canon", "dedup", str(corpus), "--workers", str(workers),
               "--out", str(out)]  # fmt: skip
    start = time.perf_counter()
    child = subprocess.Popen(  # run from the checkout, so that its canon is the one imported
        command, cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    watched = psutil.Process(child.pid)
    main = total = 0
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        own, everything = _rss(watched)
        main, total = max(main, own), max(total, everything)
        time.sleep(0.05)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"canon dedup failed: {child.stderr.read().decode()[-500:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, main, total)


def measure(
    corpus: Path, workers: Sequence[int], modes: Sequence[str], repeats: int, code: Path,
    folder: Path, warm_corpus: Path,
) -> dict[tuple[str, int], list[Run]]:  # fmt: skip
    warm = folder / "warm-cache"
    out = folder / "clusters.jsonl"
    if "warm" in modes:
        run_dedup(warm_corpus, max(workers), str(warm), code, out)  # writes the cache, untimed
    runs: dict[tuple[str, int], list[Run]] = {(m, w): [] for m in modes for w in workers}
    for round_ in range(repeats):
        for mode in modes:
            for w in workers:
                cache = str(warm) if mode == "warm" else tempfile.mkdtemp(dir=folder)
                runs[(mode, w)].append(run_dedup(corpus, w, cache, code, out))
                print(f"  round {round_ + 1}: {mode}, {w} workers: "
                      f"{runs[(mode, w)][-1].wall:.1f} s", file=sys.stderr, flush=True)  # fmt: skip
    return runs


def rows(runs: dict[tuple[str, int], list[Run]], docs: int) -> list[list[str]]:
    out = []
    for (mode, w), measured in runs.items():
        wall = median(r.wall for r in measured)
        out.append([
            mode, str(w), f"{wall:.1f}", ", ".join(f"{r.wall:.1f}" for r in measured),
            f"{docs / wall:,.0f}", f"{median(r.cpu for r in measured):.1f}",
            f"{max(r.main_rss for r in measured) / MB:,.0f}",
            f"{max(r.total_rss for r in measured) / MB:,.0f}",
        ])  # fmt: skip
    return out


def speedups(runs: dict[tuple[str, int], list[Run]]) -> list[str]:
    lines = []
    for mode in dict.fromkeys(m for m, _ in runs):
        if (mode, 1) in runs and (mode, 2) in runs:
            one = median(r.wall for r in runs[(mode, 1)])
            two = median(r.wall for r in runs[(mode, 2)])
            status = "PASS" if one / two >= TARGET else "MISS"
            lines.append(f"{mode}: wall(1) / wall(2) = {one / two:.2f}× (target ≥ {TARGET}×): "
                         f"{status}")  # fmt: skip
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser("benchmarks.workers", __doc__)
    parser.add_argument("--quick", action="store_true", help="600 documents, one round")
    parser.add_argument("--docs", type=int, default=5_000)
    parser.add_argument("--repeats", type=int, default=3, help="rounds (median)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--modes", nargs="+", choices=["cold", "warm"], default=["cold", "warm"])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--warm-docs", type=int, default=None,
        help=f"documents the untimed run that fills the lemma cache reads (default: all, at "
        f"most {WARM_DOCS:,})",
    )  # fmt: skip
    parser.add_argument("--code", type=Path, default=REPO, help="the checkout whose canon runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.docs, args.repeats = 600, 1
    elapsed = stopwatch()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        corpus = folder / "corpus.jsonl"
        warm_docs = min(args.docs, WARM_DOCS if args.warm_docs is None else args.warm_docs)
        warm = corpus if warm_docs >= args.docs else folder / "warm.jsonl"
        start = time.perf_counter()
        words = write_corpus(args.docs, args.seed, corpus, warm if warm != corpus else None,
                             warm_docs)  # fmt: skip
        print(f"corpus written in {time.perf_counter() - start:.1f} s "
              f"({corpus.stat().st_size / MB:,.0f} MB)", file=sys.stderr, flush=True)  # fmt: skip
        load = os.getloadavg()[0]
        runs = measure(corpus, args.workers, args.modes, args.repeats, args.code, folder, warm)
    print(f"## canon dedup: {args.docs:,} documents of {DOC_WORDS} words ({words:,} new words, "
          f"every {COPY_EVERY}th a near-copy), code at {args.code}; the lemma cache warmed "
          f"on the first {warm_docs:,}\n")  # fmt: skip
    header = ["lemma cache", "workers", "median s", "runs s", "documents/s", "CPU s",
              "peak RSS, command MB", "peak PSS, all processes MB"]  # fmt: skip
    print(table(header, rows(runs, args.docs)))
    print()
    for line in speedups(runs):
        print(line)
    print(f"\nload average at the start: {load:.1f} on {os.cpu_count()} cores; "
          f"after: {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"Total benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
