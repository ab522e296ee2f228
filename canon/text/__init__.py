"""Text → words: Unicode normalization, tokens with spans, lemmas and stems, word lists, quotations.

The only code of canon that imports pymorphy3 and NLTK.
"""

__all__: list[str] = []
