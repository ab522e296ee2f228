"""A text → its statistics for SEO work: water, nausea, keywords and phrases, verdicts.

One module per concept:

- ``words``: the lemma words of a text, their kinds (water, number, negation, topical) and
  the breaks between them;
- ``phrases``: keyword phrases of 2 and 3 lemmas;
- ``targets``: target keywords, found by lemma in every form;
- ``norms``: the usual ranges of water and nausea on real articles, and verdicts;
- ``stuffing``: warnings for a lemma or phrase repeated far beyond usual;
- ``zipf``: the Zipf check;
- ``stats``: :func:`text_stats`, which puts them together into one :class:`TextStats`.
"""

from __future__ import annotations

from .norms import NORM_MIN_WORDS, Verdict, Verdicts
from .phrases import PHRASE_MIN_COUNT, PHRASE_SIZES, Phrase
from .stats import ACADEMIC_TOP, Keyword, TextStats, text_stats
from .stuffing import Stuffing
from .targets import Form, Target, split_keywords
from .words import WATER_LISTS, stats_profile, water_lemmas
from .zipf import ZIPF_MIN_LEMMAS, ZIPF_MIN_REPEATED, ZIPF_SLOPE_RANGE, ZipfFit, zipf_fit

__all__ = [
    "ACADEMIC_TOP",
    "NORM_MIN_WORDS",
    "PHRASE_MIN_COUNT",
    "PHRASE_SIZES",
    "WATER_LISTS",
    "ZIPF_MIN_LEMMAS",
    "ZIPF_MIN_REPEATED",
    "ZIPF_SLOPE_RANGE",
    "Form",
    "Keyword",
    "Phrase",
    "Stuffing",
    "Target",
    "TextStats",
    "Verdict",
    "Verdicts",
    "ZipfFit",
    "split_keywords",
    "stats_profile",
    "text_stats",
    "water_lemmas",
    "zipf_fit",
]
