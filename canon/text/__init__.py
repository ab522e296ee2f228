"""Text → words: Unicode normalization, tokens with spans, hyphen and transliteration repairs,
lemmas and stems, word lists, quotations.

The only code of canon that imports pymorphy3 and NLTK (``lemmatize``), iuliia and wordfreq
(``translit``).
"""

__all__: list[str] = []
