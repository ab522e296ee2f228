"""Benchmarks of canon: each module is a script, run from the repository root.

::

    python -m benchmarks.speed        # canonicalization, shingles and the CLI: words/s, ratios
    python -m benchmarks.extraction   # web pages → Documents: pages/s, trafilatura's share, F1
    python -m benchmarks.index        # the corpus index: add rate, size, check latency
    python -m benchmarks.sampling     # what mod-m shingle sampling costs in accuracy
    python -m benchmarks.winnowing    # winnowing beside mod-m at the same density: its guarantee
    python -m benchmarks.dedup        # MinHash signatures against datasketch, dedup scaling
    python -m benchmarks.quality      # ROC-AUC of shingle Jaccard on labelled Russian pairs
    python -m benchmarks.seo_ranges   # usual water and nausea of real articles, stuffing alarms
    python -m benchmarks.sentences    # the sentence measure: its threshold on labelled pairs, cost
    python -m benchmarks.signatures   # MinHash from tokens against datasketch and rensa
    python -m benchmarks.lemmas       # cold, persisted and warm lemma against raw on real news
    python -m benchmarks.workers      # canon dedup with 1 and 2 workers: wall, CPU, peak RSS
    python -m benchmarks.codepoints   # every Unicode code point as a trick: which break words

Every script takes ``--quick`` for a smoke run of well under a minute, and ``--help``.  What they
share lives here: ``_common`` (timing, tables, verdicts), ``_skeletons`` (UTS #39 skeletons
of Unicode's confusables data) and ``data`` (real text and the labelled data sets of
``../shared/data``, read in place); the generated text they share with the tests is in
``testkit`` (``corpus``, ``tricks``, ``drafts``).
"""

__all__: list[str] = []
