"""How fast does canon check an index built before: full checks and shingles only, per stage.

``benchmarks.index`` builds an index and measures its checks at each step, with the code of its
run.  This script opens an index it kept (``--keep``) read-only and measures the checks again
with the code of this checkout, so that the same large index can be measured before and after
a change of the reading paths without building it again: put the other canon first on
``PYTHONPATH`` for the other figures.

The drafts are the ones ``benchmarks.index`` made for that index: the same generator
(``--docs``, ``--words``, ``--seed``, ``--lemmas``, ``--zipf-s`` and ``--drafts`` as given to
it), their borrowed passages read from the corpus folder it kept (``--corpus``).  Every draft is
checked once untimed (the lemma cache and SQLite's page cache warm), then ``--repeats`` rounds,
each checking every draft in full (``canon.check(draft, index)``) and with shingles only
(``sentence_threshold=None``), interleaved; a draft's figure is the median of its rounds.
Reported: p50 and p95 over the drafts of the full check and of the shingles-only one, their
ratio (target ≤ 1.5×, the verdict's), and the full check's time by stage: the shingle postings
(``Index.postings``), the sentence measure (``find_rewrites``, as ``canon.uniqueness`` calls
it) and, of that, the sentence tables read (``Index.sentence_tables``).  Target: full check
p50 ≤ 15 ms (stated at 1,000,000 documents).

Run from the repository root, after ``python -m benchmarks.index --docs N ... --keep``::

    python -m benchmarks.checks --db /tmp/index.db --corpus /tmp/canon-index-bench-XXXX \\
        --docs N --words 280-320 --drafts 20
    python -m benchmarks.checks --quick --db ... --corpus ... --docs N   # 10 drafts, 1 round
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from contextlib import ExitStack
from functools import partial
from pathlib import Path

import canon
import canon.uniqueness.against_index
from benchmarks._common import argument_parser, clocked, quantile, table, timed_call, verdict
from benchmarks.index import (
    DOC_WORDS,
    DRAFTS,
    P50_TARGET_MS,
    PROFILES,
    Draft,
    Generator,
    _words,
    make_drafts,
    parse_steps,
    read_corpus,
)
from canon import Index
from testkit.corpus import load_lexicon

# The stages of a full check timed apart: the shingle postings, the sentence measure, and of
# it the sentence tables read (the function ``canon.check`` calls, where it looks it up).
STAGES = {
    "postings": (Index, "postings"),
    "sentences": (canon.uniqueness.against_index, "find_rewrites"),
    "tables": (Index, "sentence_tables"),
}
RATIO_TARGET = 1.5  # the full check's p50 over the shingles-only one's (the verdict's target)
REPEATS = 3
QUICK_DRAFTS = 10


def remade_drafts(args: argparse.Namespace) -> list[Draft]:
    """The drafts ``benchmarks.index`` made with the same settings."""
    steps = parse_steps(argparse.Namespace(docs=args.docs, quick=False))
    rng = random.Random(args.seed)
    kept = set(rng.sample(range(steps[0]), min(steps[0], args.drafts * 3)))
    gen = Generator(load_lexicon(args.lemmas, args.seed), args.seed, args.zipf_s, args.words)
    return make_drafts(gen, read_corpus(args.corpus, steps, kept).kept, args.drafts, args.seed)


def check_rounds(
    index: Index, drafts: Sequence[Draft], repeats: int
) -> dict[str, list[list[float]]]:
    """Seconds per draft per round: full checks, shingles only, and the full checks' stages."""
    times: dict[str, list[list[float]]] = {
        k: [[] for _ in drafts] for k in ("full", "shingles", "postings", "sentences", "tables")
    }
    for _ in range(repeats):
        for i, draft in enumerate(drafts):
            with ExitStack() as stack:
                clocks = {
                    key: stack.enter_context(clocked(owner, name))
                    for key, (owner, name) in STAGES.items()
                    if hasattr(owner, name)  # an earlier canon may lack one: it reads 0
                }
                seconds, _ = timed_call(partial(canon.check, draft.text, index))
            times["full"][i].append(seconds)
            for key in STAGES:
                times[key][i].append(clocks[key].seconds if key in clocks else 0.0)
            only = partial(canon.check, draft.text, index, sentence_threshold=None)
            times["shingles"][i].append(timed_call(only)[0])
    return times


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.1f}"


def report(docs: int, drafts: Sequence[Draft], times: dict[str, list[list[float]]]) -> str:
    per_draft = {k: [statistics.median(v) for v in rows] for k, rows in times.items()}
    full, shingles = per_draft["full"], per_draft["shingles"]
    kinds = [d.kind for d in drafts]

    def p(key: str, q: float, kind: str | None = None) -> float:
        return quantile((t for t, k in zip(per_draft[key], kinds) if kind in (None, k)), q)

    rows = [[
        f"{docs:,}", ms(p("full", 0.5)), ms(p("full", 0.95)), ms(p("full", 0.5, "borrowed")),
        ms(p("full", 0.5, "new")), ms(p("shingles", 0.5)), ms(p("shingles", 0.95)),
        f"{quantile(full, 0.5) / quantile(shingles, 0.5):.2f}×", ms(p("postings", 0.5)),
        ms(p("sentences", 0.5)), ms(p("tables", 0.5)),
    ]]  # fmt: skip
    header = [
        "documents", "check p50 ms", "check p95 ms", "p50 borrowed ms", "p50 new ms",
        "shingles-only p50 ms", "shingles-only p95 ms", "full / shingles-only p50",
        "postings p50 ms", "sentence measure p50 ms", "of it sentence tables p50 ms",
    ]  # fmt: skip
    ratio = quantile(full, 0.5) / quantile(shingles, 0.5)
    verdicts = table(
        ["measure", "value", "target", "status"],
        [
            [f"check p50 at {docs:,} documents", f"{ms(quantile(full, 0.5))} ms",
             f"≤ {P50_TARGET_MS:g} ms", verdict(1000 * quantile(full, 0.5), P50_TARGET_MS,
                                                higher=False)],
            ["full check over shingles only, p50", f"{ratio:.2f}×", f"≤ {RATIO_TARGET:g}×",
             verdict(ratio, RATIO_TARGET, higher=False)],
        ],
    )  # fmt: skip
    return f"{table(header, rows)}\n\n{verdicts}"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.checks", __doc__)
    parser.add_argument("--db", type=Path, required=True, help="an index benchmarks.index kept")
    parser.add_argument("--corpus", type=Path, required=True, help="the corpus folder it kept")
    parser.add_argument("--docs", type=int, required=True, help="the --docs of that run")
    parser.add_argument("--drafts", type=int, default=DRAFTS, help="the --drafts of that run")
    parser.add_argument("--words", type=_words, default=DOC_WORDS, help="the --words of that run")
    parser.add_argument("--seed", type=int, default=2024, help="the --seed of that run")
    parser.add_argument("--lemmas", type=int, default=60_000, help="the --lemmas of that run")
    parser.add_argument("--zipf-s", type=float, default=1.1, help="the --zipf-s of that run")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="rounds of checks")
    parser.add_argument(
        "--quick", action="store_true", help=f"one round of the first {QUICK_DRAFTS} drafts"
    )
    args = parser.parse_args(argv)
    if not args.db.is_file():
        parser.error(f"{args.db}: no such index")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    drafts = remade_drafts(args)
    repeats = 1 if args.quick else args.repeats
    drafts = drafts[:QUICK_DRAFTS] if args.quick else drafts
    print(f"canon {canon.__version__} imported from {Path(canon.__file__).parent}")
    with Index(args.db, readonly=True) as index:
        docs = index.document_count()
        for draft in drafts:  # warm: the lemma cache, then SQLite's page cache
            for profile in PROFILES:
                canon.canonicalize(draft.text, profile)
            canon.check(draft.text, index)
        times = check_rounds(index, drafts, repeats)
    print(f"\n## Checks of {args.db} ({len(drafts)} drafts, {repeats} rounds, medians)\n")
    print(report(docs, drafts, times))


if __name__ == "__main__":
    main()
