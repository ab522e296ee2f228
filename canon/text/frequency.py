"""A word → how often a language uses it: Zipf frequencies from wordfreq.

The Zipf scale is log10 of uses per billion words: 3 is once per million, 6 once per thousand.
:func:`zipf` reads wordfreq's short list (the words used at least once per million, read once
per language); :func:`fine_zipf` asks wordfreq's full list, down to once per billion words.
This is the only module that imports wordfreq.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata
from types import ModuleType

from ..errors import MissingResource

__all__ = ["fine_zipf", "frequent_words", "one_word_likelier", "version", "zipf"]


def _wordfreq() -> ModuleType:
    try:
        import wordfreq
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise MissingResource(
            "wordfreq is not installed: pip install wordfreq", package="wordfreq"
        ) from exc
    return wordfreq


@cache
def frequent_words(lang: str) -> dict[str, float]:
    """wordfreq's list of the words ``lang`` uses at least once per million words, with their
    Zipf frequencies (3 = once per million, 6 = once per thousand)."""
    return {
        word: 9.0 - index / 100  # wordfreq's buckets are centibels
        for index, bucket in enumerate(_wordfreq().get_frequency_list(lang, "small"))
        for word in bucket
    }


def zipf(word: str, lang: str = "ru") -> float:
    """The Zipf frequency of ``word`` (lower case) in ``lang``: 3 is once per million words,
    0 when rarer or unknown."""
    return frequent_words(lang).get(word, 0.0)


def fine_zipf(word: str, lang: str = "ru") -> float:
    """The Zipf frequency of ``word`` in ``lang`` from wordfreq's full list: 0 is once per
    billion words or rarer."""
    return float(_wordfreq().zipf_frequency(word, lang))


# Two known words are read as one only when that word is 10**_SPACE_ODDS times likelier than
# the two words in a row by chance (on pairs of news words: 4% of real pairs joined, 16% of
# split words left split); a word missing from the short list (rarer than once per million
# words) counts as Zipf 1.
_SPACE_ODDS = 2.0
_UNLISTED = 1.0


def one_word_likelier(joined: str, left: str, right: str) -> bool:
    """Whether ``joined`` reads better as one word than ``left`` and ``right`` as two, by
    wordfreq's unigram frequencies: ``по␣том`` is one word, ``в␣ход`` two."""

    def log_p(word: str) -> float:
        return (zipf(word) or _UNLISTED) - 9

    return log_p(joined) > log_p(left) + log_p(right) + _SPACE_ODDS


def version() -> str:
    """The installed wordfreq, for the fingerprints of what its lists decide."""
    return f"wordfreq {metadata.version('wordfreq')}"
