"""Text → words: Unicode normalization, tokens with spans, hyphen and transliteration repairs,
lemmas and stems, word lists, quotations.

The only code of canon that imports pymorphy3 and NLTK (``lemmatize``), iuliia (``translit``)
and wordfreq (``frequency``).  ``form`` holds the canonical form's version, which every
fingerprint and the lemma cache carry.
"""

__all__: list[str] = []
