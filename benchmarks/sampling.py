"""What mod-m shingle sampling does to an index: size, and the accuracy of uniqueness and Jaccard.

One generated corpus (documents of 300-1,500 words; 30 % of them copy 2-6 sentences of other
documents) is indexed under the ``lemma`` profile, k = 4, once with every shingle and once for
each sampling modulus m (``--moduli``, default 2 4 8 16): only shingles whose hash is 0 modulo m
are kept.  Drafts of ~3,000 characters that mix passages of indexed documents with new text
are checked against every index, and the sampled figures are compared with the unsampled ones:

- index size and posting rows, as a share of the unsampled index;
- uniqueness: mean and 95th-percentile absolute error (percentage points);
- Jaccard and containment of the top sources: mean absolute error;
- the top source: how often the sampled index names the same one.

Run from the repository root::

    python -m benchmarks.sampling             # 3,000 documents, 60 drafts
    python -m benchmarks.sampling --quick     # 600 documents, 20 drafts
"""

from __future__ import annotations

import json
import random
import re
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

import canon
from benchmarks._common import argument_parser, quantile, stopwatch, table
from canon import Index
from testkit.corpus import generate_documents

_SENTENCES = re.compile(r"(?<=[.!?])\s+")


def corpus(count: int, seed: int) -> list[str]:
    """``count`` documents of 300-1,500 words; 30 % copy a few sentences of other documents."""
    rng = random.Random(seed)
    words = " ".join(generate_documents(count * 950, 30_000, 1.1, seed)).split()
    docs, position = [], 0
    for _ in range(count):
        size = rng.randint(300, 1500)
        docs.append(" ".join(words[position : position + size]))
        position = (position + size) % max(1, len(words) - 1500)
    for i in range(count):
        if rng.random() < 0.3 and i:
            donor = _SENTENCES.split(docs[rng.randrange(i)])
            borrowed = rng.sample(donor, min(len(donor), rng.randint(2, 6)))
            docs[i] = docs[i] + " " + " ".join(borrowed)
    return docs


def drafts(docs: Sequence[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed + 1)
    fresh = " ".join(generate_documents(count * 500, 30_000, 1.1, seed + 7)).split()
    result = []
    for n in range(count):
        donor = _SENTENCES.split(docs[rng.randrange(len(docs))])
        borrowed = " ".join(rng.sample(donor, min(len(donor), rng.randint(1, 8))))
        own = " ".join(fresh[n * 250 : n * 250 + rng.randint(150, 400)])
        result.append((own + " " + borrowed)[:3000])
    return result


def build(folder: Path, docs: Sequence[str], name: str, **rules: int) -> Path:
    """An index of ``docs`` under ``lemma``, k = 4, with the index ``rules`` (``sample``,
    ``winnow``), in ``folder/name.db``; the records file is written once and shared."""
    records = folder / "corpus.jsonl"
    if not records.exists():
        lines = (
            json.dumps({"id": f"doc-{i}", "text": t}, ensure_ascii=False)
            for i, t in enumerate(docs)
        )
        records.write_text("\n".join(lines), "utf-8")
    db = folder / f"{name}.db"
    with Index(db, create=True) as index:
        rules_given = canon.IndexRules([canon.get_profile("lemma")], k=4, **rules)
        canon.add_sources(index, [str(records)], rules_given, canon.AddSettings(workers=2))
    return db


def measure(db: Path, texts: Sequence[str]) -> tuple[list, int, int]:
    """One result a draft (None where sampling left the draft no shingle to check)."""
    results = []
    with Index(db, readonly=True) as index:
        for text in texts:
            try:
                results.append(canon.check(text, index, canon.CheckSettings(top=5)).profiles[0])
            except canon.InputError:
                results.append(None)
        stats = index.stats()
    return results, stats.file_size, stats.profiles[0][1]


def compare(base: list, other: list) -> list[str]:
    pairs = [(a, b) for a, b in zip(base, other) if a is not None and b is not None]
    base, other = [a for a, _ in pairs], [b for _, b in pairs]
    uniqueness = [abs(a.uniqueness - b.uniqueness) * 100 for a, b in pairs]
    jaccard, containment, same_top = [], [], []
    for a, b in zip(base, other):
        theirs = {m.source: m for m in b.sources}
        for m in a.sources[:3]:
            found = theirs.get(m.source)
            jaccard.append(abs(m.jaccard - (found.jaccard if found else 0.0)) * 100)
            containment.append(abs(m.containment - (found.containment if found else 0.0)) * 100)
        if a.sources:
            same_top.append(bool(b.sources) and b.sources[0].source == a.sources[0].source)
    return [
        f"{statistics.mean(uniqueness):.2f}",
        f"{quantile(uniqueness, 0.95):.2f}",
        f"{statistics.mean(jaccard):.2f}" if jaccard else "-",
        f"{statistics.mean(containment):.2f}" if containment else "-",
        f"{sum(same_top) / len(same_top):.0%}" if same_top else "-",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser("benchmarks.sampling", __doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--moduli", type=int, nargs="+", default=[2, 4, 8, 16])
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    elapsed = stopwatch()
    docs = corpus(600 if args.quick else 3000, args.seed)
    texts = drafts(docs, 20 if args.quick else 60, args.seed)
    with tempfile.TemporaryDirectory(prefix="canon-sampling-") as tmp:
        folder = Path(tmp)
        base, base_size, base_rows = measure(build(folder, docs, "sample-1"), texts)
        rows = [["1 (all)", f"{base_size / 2**20:.1f}", "100%", "100%", "0", "0", "0", "0",
                 "100%"]]  # fmt: skip
        for m in args.moduli:
            results, size, postings = measure(build(folder, docs, f"sample-{m}", sample=m), texts)
            rows.append([str(m), f"{size / 2**20:.1f}", f"{size / base_size:.0%}",
                         f"{postings / base_rows:.1%}", *compare(base, results)])  # fmt: skip
    print(f"## Sampling: {len(docs):,} documents, {len(texts)} drafts (lemma, k = 4)\n")
    print(table(["m", "size MB", "size", "postings", "uniqueness err (pp)", "p95 err (pp)",
                 "Jaccard err (pp)", "containment err (pp)", "same top source"], rows))  # fmt: skip
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
