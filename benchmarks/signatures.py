"""MinHash signatures, full path from tokens: canon against datasketch and rensa.

Every method starts from the same canonical tokens of the same documents and ends with a
128-value signature of each document's k = 4 word shingles; the steps run interleaved and the
median of ``--repeats`` runs is reported, as documents/s:

- canon from token hashes: what canonicalization hands out (``Canonical.hashes``, one
  ``uint64`` a token) → ``shingle_signatures`` (the shingle hash chain over all documents'
  tokens at once in NumPy, then one-permutation MinHash of every document, densified);
- canon from token strings: the same from the words, their token hashes included (every
  token's xxh3 taken in one pass over all documents, ``canon.hashing.each_token_hash``);
- canon from token strings, remembered hashes: the string path as it was before, each
  document's words looked up in the process's memory of token hashes (``token_hashes``, warm:
  every word already remembered), then the same signing;
- canon per document: ``window_hashes`` of each document, then ``signatures`` of all (the
  path before ``shingle_signatures``, for comparison);
- datasketch ``MinHash.update_batch`` over each shingle's space-joined UTF-8 bytes;
- rensa ``RMinHash`` and ``CMinHash`` (Rust) ``update`` over each shingle's space-joined words.

The ratio canon from token hashes / rensa ``RMinHash`` has the target ≥ 2×.  A second table
times the token hashing alone, in tokens/s: the remembered lookup, xxh3 of every token, and
xxh3 of the distinct tokens only, mapped back with ``np.unique(..., return_inverse=True)``.

Documents are 300 generated words each (``testkit.corpus``: pymorphy3 forms with Zipf
frequencies) and, when ``../shared/data`` has them, the real news texts of
``ru-news-same-story-pairs`` (one document a text).  datasketch and rensa are benchmark
dependencies (``pip install 'canon[bench]'``); a method that is not installed is skipped.

Run from the repository root::

    python -m benchmarks.signatures            # 20,000 generated documents
    python -m benchmarks.signatures --quick    # 2,000
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from benchmarks._common import (
    Step,
    Timing,
    argument_parser,
    interleaved,
    ratio,
    stopwatch,
    table,
    target_text,
    verdict,
)
from benchmarks.data import NEWS, SHARED_DATA, dataset, read_news_texts
from canon import canonicalize
from canon.fingerprints.minhash import shingle_signatures, signatures
from canon.fingerprints.shingles import window_hashes
from canon.hashing import each_token_hash, token_hashes
from testkit.corpus import generate_documents

NUM_PERM = 128
K = 4
DOC_WORDS = 300
TARGET = 2.0  # canon's documents/s over rensa's RMinHash at least

Run = Callable[[], object]


def generated_tokens(docs: int, seed: int) -> list[tuple[str, ...]]:
    """``docs`` documents of ``DOC_WORDS`` canonical (raw) words of generated text."""
    text = generate_documents(docs * DOC_WORDS + DOC_WORDS, 20_000, 1.1, seed)
    words = [w for d in text for w in canonicalize(d, "raw").tokens]
    return [tuple(words[i : i + DOC_WORDS]) for i in range(0, docs * DOC_WORDS, DOC_WORDS)]


def news_tokens(data: Path) -> list[tuple[str, ...]] | None:
    folder = dataset(data, NEWS)
    if folder is None:
        return None
    docs = [canonicalize(t, "raw").tokens for t in read_news_texts(folder)]
    return [d for d in docs if len(d) >= K]


def _joined(tokens: Sequence[str]) -> list[str]:
    return [" ".join(tokens[i : i + K]) for i in range(len(tokens) - K + 1)]


def canon_from_hashes(docs: Sequence[tuple[str, ...]]) -> Run:
    hashes = [token_hashes(d) for d in docs]  # what Canonical.hashes holds, made untimed
    return lambda: shingle_signatures(hashes, K, NUM_PERM)


def canon_from_strings(docs: Sequence[tuple[str, ...]]) -> Run:
    return lambda: shingle_signatures(docs, K, NUM_PERM)


def canon_remembered(docs: Sequence[tuple[str, ...]]) -> Run:
    return lambda: shingle_signatures([token_hashes(d) for d in docs], K, NUM_PERM)


def canon_per_document(docs: Sequence[tuple[str, ...]]) -> Run:
    hashes = [token_hashes(d) for d in docs]
    return lambda: signatures([window_hashes(h, K) for h in hashes], NUM_PERM)


def datasketch_run(docs: Sequence[tuple[str, ...]]) -> Run | None:
    try:
        from datasketch import MinHash
    except ImportError:
        return None

    def run() -> None:
        for d in docs:
            m = MinHash(num_perm=NUM_PERM)
            m.update_batch([s.encode("utf-8") for s in _joined(d)])
            m.digest()

    return run


def rensa_run(docs: Sequence[tuple[str, ...]], kind: str) -> Run | None:
    try:
        import rensa
    except ImportError:
        return None
    make = getattr(rensa, kind)

    def run() -> None:
        for d in docs:
            m = make(num_perm=NUM_PERM, seed=1)
            m.update(_joined(d))
            m.digest()

    return run


def measure(docs: Sequence[tuple[str, ...]], repeats: int) -> tuple[list[Timing], list[str]]:
    """Interleaved timings of every installed method, and the methods skipped."""
    candidates = [
        ("canon from token hashes", canon_from_hashes(docs)),
        ("canon from token strings", canon_from_strings(docs)),
        ("canon from token strings, remembered hashes", canon_remembered(docs)),
        ("canon per document", canon_per_document(docs)),
        ("datasketch MinHash.update_batch", datasketch_run(docs)),
        ("rensa RMinHash", rensa_run(docs, "RMinHash")),
        ("rensa CMinHash", rensa_run(docs, "CMinHash")),
    ]
    steps = [Step(name, run, len(docs)) for name, run in candidates if run is not None]
    for step in steps:
        step.run()  # warm: imports, token-hash memory, caches of the densification
    skipped = [name for name, run in candidates if run is None]
    return interleaved(steps, repeats), skipped


def distinct_then_inverse(words: Sequence[str]) -> np.ndarray:
    """xxh3 of each distinct word once, mapped back to every token by ``np.unique``."""
    distinct, inverse = np.unique(np.array(words), return_inverse=True)
    return each_token_hash(distinct.tolist(), len(distinct))[inverse]


def measure_token_hashing(docs: Sequence[tuple[str, ...]], repeats: int) -> list[Timing]:
    """Tokens/s of the ways to turn every document's words into token hashes, interleaved;
    all give the same array."""
    words = [w for d in docs for w in d]
    remembered = token_hashes(words)  # warm: every word remembered, untimed
    bulk = each_token_hash(words, len(words))
    assert np.array_equal(bulk, remembered)
    assert np.array_equal(distinct_then_inverse(words), remembered)
    steps = [
        Step("remembered (token_hashes, warm)", lambda: token_hashes(words), len(words)),
        Step("xxh3 of every token (each_token_hash)",
             lambda: each_token_hash(words, len(words)), len(words)),
        Step("xxh3 of the distinct tokens, np.unique inverse",
             lambda: distinct_then_inverse(words), len(words)),
    ]  # fmt: skip
    return interleaved(steps, repeats)


def report(title: str, docs: Sequence[tuple[str, ...]], repeats: int) -> None:
    timings, skipped = measure(docs, repeats)
    words = np.median([len(d) for d in docs])
    print(f"## {title}: {len(docs):,} documents, median {words:,.0f} words\n")
    first = timings[0]
    rows = [[t.name, f"{t.rate:,.0f}", f"{ratio(first, t):.2f}×"] for t in timings]
    rows += [[name, "skipped (pip install 'canon[bench]')", ""] for name in skipped]
    print(table(["method", "documents/s", "canon from token hashes / it"], rows))
    by_name = {t.name: t for t in timings}
    if "rensa RMinHash" in by_name:
        value = ratio(first, by_name["rensa RMinHash"])
        status = verdict(value, TARGET, higher=True)
        target = target_text(f"{TARGET:g}×", higher=True)
        print(f"\ncanon from token hashes / rensa RMinHash = {value:.2f}×", end=" ")
        print(f"(target {target}): {status}")
        fair = ratio(by_name["canon from token strings"], by_name["rensa RMinHash"])
        print(f"canon from token strings / rensa RMinHash = {fair:.2f}×")
    strings = by_name["canon from token strings"]
    before = by_name["canon from token strings, remembered hashes"]
    print(f"canon from token strings / from token hashes = {ratio(strings, first):.2f}×;"
          f" / remembered hashes (before) = {ratio(strings, before):.2f}×")  # fmt: skip
    hashing = measure_token_hashing(docs, repeats)
    distinct = len({w for d in docs for w in d})
    print(f"\nToken hashing alone ({hashing[0].units:,} tokens, {distinct:,} distinct):\n")
    rows = [[t.name, f"{t.rate:,.0f}", f"{1e9 / t.rate:.0f}"] for t in hashing]
    print(table(["method", "tokens/s", "ns a token"], rows))
    print()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser("benchmarks.signatures", __doc__)
    parser.add_argument("--quick", action="store_true", help="2,000 documents, one run each")
    parser.add_argument("--docs", type=int, default=20_000, help="generated documents")
    parser.add_argument("--repeats", type=int, default=5, help="runs per method (median)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--data", type=Path, default=SHARED_DATA, help="the shared data folder")
    args = parser.parse_args(argv)
    if args.quick:
        args.docs, args.repeats = 2_000, 1
    elapsed = stopwatch()
    report(f"Generated text, {DOC_WORDS} words a document", generated_tokens(args.docs, args.seed),
           args.repeats)  # fmt: skip
    news = news_tokens(args.data)
    if news is None:
        print(f"(real news skipped: no {NEWS} in {args.data})\n")
    else:
        report("Real news (ru-news-same-story-pairs), one text a document", news, args.repeats)
    print(f"Total benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
