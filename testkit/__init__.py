"""Generated Russian text that the tests and the benchmarks share, seeded and reproducible.

``corpus`` (words, sentences and documents from pymorphy3's dictionary, near-duplicates, shingle
hash sets of a chosen Jaccard), ``tricks`` (a text altered by the cheap tricks that fool a
shingle checker) and ``drafts`` (labelled drafts: sentences copied, rewritten or new, with the
truth for every character).  Run from the repository root; not part of the installed package
(the source distribution holds it, beside ``tests`` and ``benchmarks``).
"""

__all__: list[str] = []
