"""Start-up of ``canon check``: a fresh process checking one draft against a small index.

A check from the command line is a new process each time, so on a small index its cost is
mostly start-up: the interpreter, the imports and the first use of the rules and the lemma
cache.  Every step below runs in a fresh process (wall time, ``--repeats`` runs each, the steps
interleaved, medians):

- ``canon check DRAFT --index DB``: this checkout's canon (``python -m canon`` with it first on
  ``PYTHONPATH``), printing the terminal report to a pipe;
- the same with ``--other PATH``: another checkout's canon (the code before a change),
  interleaved with this one's so that both see the same machine;
- ``import canon.cli.check``: what that command imports before it runs, of each checkout;
- ``python -c pass``, ``import numpy`` and pymorphy3's dictionary load alone
  (``pymorphy3.MorphAnalyzer(lang="ru")``), for reference.

The index holds ``--docs`` documents (default 30): the news texts of
``../shared/data/ru-news-same-story-pairs`` when present, else generated text; the draft copies
a part of two of them and adds a text that is not indexed.  The index is made by this
checkout, and the lemma cache (a temporary ``CANON_CACHE_DIR``) is warmed by one untimed
check of each checkout before the timed runs, as for a user's second check.  Each checkout's
``canon`` package is byte-compiled first (``compileall``), as an installed one is.

Run from the repository root::

    python -m benchmarks.startup                              # this checkout, 15 runs a step
    python -m benchmarks.startup --other /tmp/canon-before    # and another one beside it
    python -m benchmarks.startup --quick                      # 3 runs a step
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks._common import (
    REPO,
    Step,
    Timing,
    argument_parser,
    interleaved,
    ratio,
    runs_text,
    stopwatch,
    table,
)
from benchmarks.data import NEWS, SHARED_DATA, dataset, read_news_texts
from testkit.corpus import generate_documents

DOCS = 30
DRAFT_CHARS = 1_500  # taken from each of two indexed texts, and from one that is not
LOAD_DICTIONARY = "import pymorphy3; pymorphy3.MorphAnalyzer(lang='ru')"


def texts(data: Path, count: int) -> list[str]:
    """``count`` indexed texts and one more for the draft: news when present, else generated."""
    folder = dataset(data, NEWS)
    if folder is not None:
        found = read_news_texts(folder)
        if len(found) > count:
            return found[: count + 1]
    return generate_documents((count + 1) * 1_000, 20_000, 1.1, 2024)[: count + 1]


def python(code: Path, cache: Path, *args: str) -> Callable[[], None]:
    """One run of ``python ARGS`` in a fresh process with the canon of checkout ``code``
    first on its path (run from the cache folder, so the working directory adds none)."""
    env = {**os.environ, "PYTHONPATH": str(code), "CANON_CACHE_DIR": str(cache)}

    def run() -> None:
        subprocess.run([sys.executable, *args], cwd=cache, env=env, capture_output=True, check=True)

    return run


def make_index(folder: Path, data: Path, count: int) -> tuple[Path, Path]:
    """An index of ``count`` documents made by this checkout, and a draft file."""
    found = texts(data, count)
    docs = folder / "docs"
    docs.mkdir()
    for number, text in enumerate(found[:count]):
        (docs / f"{number:03d}.txt").write_text(text, encoding="utf-8")
    draft = folder / "draft.txt"
    parts = (found[1], found[count // 2], found[count])
    draft.write_text("\n\n".join(p[:DRAFT_CHARS] for p in parts), encoding="utf-8")
    db = folder / "index.db"
    python(REPO, folder / "cache", "-m", "canon", "index", "add", str(db), str(docs))()
    return db, draft


def steps(checkouts: dict[str, Path], cache: Path, db: Path, draft: Path) -> list[Step]:
    """The timed steps: each checkout's check and imports, then the references."""
    check = ("-m", "canon", "check", str(draft), "--index", str(db))
    found: list[Step] = []
    for name, code in checkouts.items():
        found.append(Step(f"canon check, {name}", python(code, cache, *check), 1))
    for name, code in checkouts.items():
        run = python(code, cache, "-c", "import canon.cli.check")
        found.append(Step(f"import canon.cli.check, {name}", run, 1))
    found += [
        Step("python -c pass", python(REPO, cache, "-c", "pass"), 1),
        Step("import numpy", python(REPO, cache, "-c", "import numpy"), 1),
        Step("pymorphy3 dictionary load", python(REPO, cache, "-c", LOAD_DICTIONARY), 1),
    ]
    return found


def measure(checkouts: dict[str, Path], data: Path, count: int, repeats: int) -> list[Timing]:
    for code in checkouts.values():
        compileall.compile_dir(code / "canon", quiet=1)
    with tempfile.TemporaryDirectory(prefix="canon-startup-") as scratch:
        folder = Path(scratch)
        (folder / "cache").mkdir()
        db, draft = make_index(folder, data, count)
        timed = steps(checkouts, folder / "cache", db, draft)
        for step in timed:
            step.run()  # the lemma cache and the page cache warm, untimed
        return interleaved(timed, repeats)


def rows(timings: Sequence[Timing]) -> list[list[str]]:
    check = timings[0]
    return [[t.name, f"{t.median:.3f}", runs_text(t), f"{ratio(check, t):.2f}×"] for t in timings]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser("benchmarks.startup", __doc__)
    parser.add_argument("--quick", action="store_true", help="3 runs a step")
    parser.add_argument("--repeats", type=int, default=15, help="runs per step (median)")
    parser.add_argument("--docs", type=int, default=DOCS, help="documents in the index")
    parser.add_argument("--other", type=Path, help="another checkout to time beside this one")
    parser.add_argument("--data", type=Path, default=SHARED_DATA, help="the shared data folder")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else args.repeats
    checkouts = {"this checkout": REPO}
    if args.other is not None:
        checkouts["other checkout"] = args.other.resolve()
    elapsed = stopwatch()
    load = os.getloadavg()
    timings = measure(checkouts, args.data, args.docs, repeats)
    print(f"## canon check start-up: an index of {args.docs} documents, {repeats} runs a step\n")
    print(table(["step", "median s", "runs s", "its time / canon check"], rows(timings)))
    by_name = {t.name: t for t in timings}
    if args.other is not None:
        this, other = by_name["canon check, this checkout"], by_name["canon check, other checkout"]
        print(f"\nother checkout's check / this checkout's = {ratio(this, other):.2f}×")
    check, dictionary = timings[0], by_name["pymorphy3 dictionary load"]
    print(f"canon check / pymorphy3's dictionary load = {check.median / dictionary.median:.1f}×")
    print(f"load average at the start: {load[0]:.2f}, at the end: {os.getloadavg()[0]:.2f}")
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
