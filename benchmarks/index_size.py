"""Where an index's bytes go, per document; and the checks of two canons side by side.

Sizes (of ``--db``, and of ``--against-db`` when given): per document, each postings stream's
segment files (by profile and kind: shingles, band keys, content lemmas) and, in the SQLite
file, each table's pages (SQLite's ``dbstat``), with ``doc_profiles`` split into its hash sets,
its signatures and the rest (row headers, counts and the pages' unused space), and the stored
texts apart.  Nothing is estimated: file sizes, page sizes and blob lengths.

Checks: with ``--against-code DIR`` (a folder holding another canon's package, such as a
checkout of an earlier commit) and ``--against-db DB`` (the same corpus indexed by that canon),
both canons check the same drafts, each in a process of its own that keeps its index open: every
draft checked twice untimed (the lemma cache and the page cache warm), once more to compare what
they found (each profile's uniqueness, sources and shared shingles must be the same, or the run
stops), then ``--rounds`` rounds, the two processes taking turns (the order swapped every
round), each checking every draft once. A draft's time is the median of its rounds; reported are
p50 and p95 over the drafts, their ratio (this canon over the other) and the load average before
and after. The drafts are those ``benchmarks.index`` made for the corpus (the same ``--docs``,
``--words``, ``--drafts``, ``--seed`` as given to it, the corpus folder it kept).

Run from the repository root, after ``python -m benchmarks.index --docs N ... --keep`` with
each canon (for the other one, run from its folder, its package first on ``PYTHONPATH``)::

    python -m benchmarks.index_size --db DB
    python -m benchmarks.index_size --db DB --corpus CORPUS --docs 10000 --words 280-320 \\
        --drafts 20 --against-code OLD --against-db OLD_DB --rounds 5
    python -m benchmarks.index_size --quick --db DB   # sizes; with --against-*: one round
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks._common import argument_parser, quantile, table
from benchmarks.checks import remade_drafts
from benchmarks.index import DOC_WORDS, DRAFTS, _words

ROOT = Path(__file__).resolve().parent.parent
KINDS = {0: "shingles", 1: "band keys", 2: "content lemmas"}
ROUNDS = 5
QUICK_DRAFTS = 5
WARM = 2

# The process that checks drafts with one canon: it reads the index path and the drafts'
# file, warms up, says what the checks found (each profile's uniqueness and sources with their
# shared shingles, as JSON), then answers each line on its standard input with the seconds of
# one check of each draft, as a JSON list.
WORKER = """
import json, sys, time
import canon
from canon import Index
db, drafts_file, warm = sys.argv[1], sys.argv[2], int(sys.argv[3])
drafts = json.load(open(drafts_file, encoding="utf-8"))
with Index(db, readonly=True) as index:
    for _ in range(warm):
        for text in drafts:
            canon.check(text, index)
    found = [
        [[p.profile, p.uniqueness, [[m.source, m.shared] for m in p.sources]]
         for p in canon.check(text, index).profiles]
        for text in drafts
    ]
    print(json.dumps(found), flush=True)
    for _ in sys.stdin:
        times = []
        for text in drafts:
            start = time.perf_counter()
            canon.check(text, index)
            times.append(time.perf_counter() - start)
        print(json.dumps(times), flush=True)
"""


# ---------------------------------------------------------------- sizes


@dataclass(frozen=True)
class Sizes:
    documents: int
    parts: dict[str, int]  # bytes by part
    text: int  # the stored texts' bytes (apart from the parts)

    def per_document(self, part: str) -> float:
        return self.parts[part] / self.documents

    @property
    def total(self) -> int:
        return sum(self.parts.values())


def _segment_parts(db: Path, raw: sqlite3.Connection) -> dict[str, int]:
    names = dict(raw.execute("SELECT id, name FROM profiles"))
    parts: dict[str, int] = {}
    folder = Path(f"{db}-segments")
    query = "SELECT name, profile_id, kind FROM segments"
    for name, profile_id, kind in raw.execute(query):
        key = f"segments: {names[profile_id]} {KINDS.get(kind, kind)}"
        size = sum((folder / f"{name}{s}").stat().st_size for s in (".hashes.npy", ".docs.npy"))
        parts[key] = parts.get(key, 0) + size
    return dict(sorted(parts.items()))


def _pages(raw: sqlite3.Connection) -> dict[str, int]:
    """Bytes of pages per table (its indexes counted with it)."""
    tables = {
        name: table for name, table in raw.execute("SELECT name, tbl_name FROM sqlite_master")
    }
    pages: dict[str, int] = {}
    for name, size in raw.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
        owner = tables.get(name, name)
        pages[owner] = pages.get(owner, 0) + int(size)
    return pages


def sizes(db: Path) -> Sizes:
    raw = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        parts = _segment_parts(db, raw)
        pages = _pages(raw)
        (documents,) = raw.execute("SELECT count(*) FROM documents").fetchone()
        hashes, signatures = raw.execute(
            "SELECT sum(length(hashes)), sum(length(signature)) FROM doc_profiles"
        ).fetchone()
        (text,) = raw.execute("SELECT coalesce(sum(length(text)), 0) FROM documents").fetchone()
    finally:
        raw.close()
    profiles = pages.pop("doc_profiles", 0)
    parts["doc_profiles: hash sets"] = int(hashes)
    parts["doc_profiles: signatures"] = int(signatures)
    parts["doc_profiles: the rest (rows, unused page space)"] = profiles - hashes - signatures
    parts["doc_sentences"] = pages.pop("doc_sentences", 0)
    parts["documents (without the stored texts)"] = pages.pop("documents", 0) - int(text)
    parts["other tables"] = sum(pages.values())
    return Sizes(int(documents), parts, int(text))


def size_report(ours: Sizes, theirs: Sizes | None) -> str:
    keys = list(ours.parts) if theirs is None else list(dict.fromkeys([*theirs.parts, *ours.parts]))
    rows = []
    for key in [*keys, "total (without the stored texts)"]:
        mine = ours.total if key.startswith("total") else ours.parts.get(key, 0)
        row = [key, f"{mine / ours.documents:,.0f}"]
        if theirs is not None:
            other = theirs.total if key.startswith("total") else theirs.parts.get(key, 0)
            row.insert(1, f"{other / theirs.documents:,.0f}")
        rows.append(row)
    header = ["part", "bytes a document"] if theirs is None else ["part", "other", "this canon"]
    return table(header, rows)


# ---------------------------------------------------------------- checks, interleaved


class Worker:
    """A process checking the drafts with one canon (its package under ``code``)."""

    def __init__(self, code: Path, db: Path, drafts_file: Path, warm: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(code)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(db), str(drafts_file), str(warm)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=code,
            env=env,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the checks with the canon of {code} failed to start")
        self.found = json.loads(line)  # what each draft's check found

    def round(self) -> list[float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        times: list[float] = json.loads(self.process.stdout.readline())
        return times

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def interleaved(
    sides: dict[str, tuple[Path, Path]], texts: list[str], rounds: int
) -> dict[str, list[list[float]]]:
    """Seconds per side, per draft, per round; the sides take turns, swapped every round."""
    with tempfile.TemporaryDirectory() as folder:
        drafts_file = Path(folder) / "drafts.json"
        drafts_file.write_text(json.dumps(texts, ensure_ascii=False), "utf-8")
        workers = {name: Worker(code, db, drafts_file, WARM) for name, (code, db) in sides.items()}
        times: dict[str, list[list[float]]] = {name: [[] for _ in texts] for name in sides}
        try:
            answers = [w.found for w in workers.values()]
            if any(a != answers[0] for a in answers):
                raise SystemExit("the two canons' checks found different sources or figures")
            order = list(sides)
            for number in range(rounds):
                for name in order if number % 2 == 0 else order[::-1]:
                    for i, seconds in enumerate(workers[name].round()):
                        times[name][i].append(seconds)
        finally:
            for worker in workers.values():
                worker.close()
    return times


def check_report(times: dict[str, list[list[float]]], loads: tuple[float, float]) -> str:
    per_draft = {name: [statistics.median(t) for t in rows] for name, rows in times.items()}
    rows = [
        [name, f"{1000 * quantile(t, 0.5):.1f}", f"{1000 * quantile(t, 0.95):.1f}"]
        for name, t in per_draft.items()
    ]
    ratios = [statistics.median(a / b for a, b in zip(per_draft["this canon"], per_draft["other"]))]
    text = table(["canon", "check p50 ms", "check p95 ms"], rows)
    p50 = quantile(per_draft["this canon"], 0.5) / quantile(per_draft["other"], 0.5)
    return (
        f"{text}\n\nthis canon over the other: p50 {p50:.3f}×, median of the per-draft ratios "
        f"{ratios[0]:.3f}×; load average {loads[0]:.2f} before, {loads[1]:.2f} after"
    )


# ---------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.index_size", __doc__)
    parser.add_argument("--db", type=Path, required=True, help="an index built by this canon")
    parser.add_argument("--against-db", type=Path, help="the same corpus indexed by the other")
    parser.add_argument("--against-code", type=Path, help="the folder of the other canon")
    parser.add_argument("--corpus", type=Path, help="the corpus folder benchmarks.index kept")
    parser.add_argument("--docs", type=int, help="the --docs of that run")
    parser.add_argument("--drafts", type=int, default=DRAFTS, help="the --drafts of that run")
    parser.add_argument("--words", type=_words, default=DOC_WORDS, help="the --words of that run")
    parser.add_argument("--seed", type=int, default=2024, help="the --seed of that run")
    parser.add_argument("--lemmas", type=int, default=60_000, help="the --lemmas of that run")
    parser.add_argument("--zipf-s", type=float, default=1.1, help="the --zipf-s of that run")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds of checks")
    parser.add_argument(
        "--quick", action="store_true", help=f"one round of the first {QUICK_DRAFTS} drafts"
    )
    args = parser.parse_args(argv)
    checks = (args.against_code, args.against_db, args.corpus, args.docs)
    if any(a is not None for a in checks) and not all(a is not None for a in checks):
        parser.error("the checks need --against-code, --against-db, --corpus and --docs")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    ours = sizes(args.db)
    theirs = sizes(args.against_db) if args.against_db else None
    print(f"## Bytes a document ({ours.documents:,} documents; stored texts apart: ", end="")
    print(f"{ours.text / ours.documents:,.0f} bytes a document)\n")
    print(size_report(ours, theirs))
    if args.against_code is None:
        return
    texts = [d.text for d in remade_drafts(args)]
    rounds = 1 if args.quick else args.rounds
    texts = texts[:QUICK_DRAFTS] if args.quick else texts
    sides = {"other": (args.against_code, args.against_db), "this canon": (ROOT, args.db)}
    before = os.getloadavg()[0]
    times = interleaved(sides, texts, rounds)
    after = os.getloadavg()[0]
    print(f"\n## Checks ({len(texts)} drafts, {rounds} rounds interleaved, medians)\n")
    print(check_report(times, (before, after)))


if __name__ == "__main__":
    main()
