"""An independent implementation of seed 000's reference rules, and text strategies."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import strategies as st


def ref_words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold())


def ref_shingles(words: list[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + size]) for i in range(max(0, len(words) - size + 1))}


def ref_compare(first: str, second: str, size: int) -> dict[str, float]:
    a, b = ref_shingles(ref_words(first), size), ref_shingles(ref_words(second), size)
    if not a or not b:
        raise ValueError("too short")
    common = len(a & b)
    return {
        "first_shingles": len(a),
        "second_shingles": len(b),
        "common": common,
        "dice": 2 * common / (len(a) + len(b)),
        "jaccard": common / len(a | b),
    }


# Text that stresses normalization: Cyrillic with ё/й, Latin, digits, compatibility forms,
# combining marks, ligatures, punctuation, underscores, invisible characters, other scripts.
_ALPHABET = st.sampled_from(
    list("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁЙЯ")
    + list("abcxyzABCXYZ0123456789 _-.,;!?«»\n\t")
    + ["\u0301", "\u0308", "\u0306", "\u00ad", "\u200b", "\u00a0", "…", "№", "ﬁ", "²", "Ⅻ",
       "ß", "İ", "ǅ", "ﬀ", "\ufeff", "ᄀ", "ᅡ", "가", "ー", "ｱ", "™", "½", "\u2011", "—"]
)  # fmt: skip
texts = st.one_of(st.text(_ALPHABET, max_size=60), st.text(max_size=40))
