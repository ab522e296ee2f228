"""A seed → generated Russian text: words, sentences, documents and near-duplicates.

The words come from pymorphy3's dictionary: ``load_lexicon`` takes random lemmas with all their
inflected forms, ``sample_words`` gives the lemmas Zipf-distributed frequencies (the most
frequent ranks are common function words) and picks one form of each, skewed towards a
paradigm's first forms.  Nothing repeats by construction, so the vocabulary keeps growing as in
real text.  Everything is seeded: the same arguments give the same text.

Near-duplicates come in three kinds: ``rewrite`` puts a share of a text's words in another form
of the same lexeme (what lemmatization should see through), the scripts copy whole sentences
from one generated document into another, and ``hash_pair`` makes two shingle-hash sets with a
chosen Jaccard similarity, for MinHash and dedup without any text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pymorphy3

__all__ = [
    "DOC_WORDS",
    "FUNCTION_WORDS",
    "WORD",
    "Lexicon",
    "count_words",
    "generate_documents",
    "group_paragraphs",
    "hash_pair",
    "load_lexicon",
    "paragraphs",
    "rewrite",
    "sample_words",
    "sentence",
    "split_sentences",
]

# A lexicon: each lemma's distinct inflected forms, the most frequent ranks first.
Lexicon = Sequence[tuple[str, ...]]

DOC_WORDS = (1_000, 5_000)
SENTENCE_WORDS = (4, 24)
PARAGRAPH_SENTENCES = (3, 8)

# The most frequent ranks of the generated corpus: invariable function words, as in real text.
FUNCTION_WORDS = (
    "и в не на что с по а как к но из у за от о же для до то бы так уже вот только ещё или "
    "даже при без если когда чтобы где там тут через после между потому"
).split()
WORD = re.compile(r"[^\W_]+")
_LEMMA_SHAPE = re.compile(r"[а-яё]+(?:-[а-яё]+)?")


def count_words(text: str) -> int:
    """Runs of letters and digits in ``text``."""
    return len(WORD.findall(text))


# ---------------------------------------------------------------- words


def _paradigm_affixes(
    dictionary: Any, para_id: int, memo: dict[int, list[tuple[str, str]]]
) -> list[tuple[str, str]]:
    if para_id not in memo:
        memo[para_id] = [(pre, suf) for pre, _tag, suf in dictionary.build_paradigm_info(para_id)]
    return memo[para_id]


def _dictionary_heads(dictionary: Any) -> list[tuple[str, int]]:
    """Every lemma (a paradigm's first form) that is a plain word, with its paradigm id."""
    heads: dict[str, int] = {}
    for word, (para_id, idx) in dictionary.words.iteritems():
        if idx != 0 or word in heads or not _LEMMA_SHAPE.fullmatch(word):
            continue
        tag = dictionary.build_tag_info(para_id, 0)
        if "Abbr" not in tag and "Init" not in tag:
            heads[word] = para_id
    return sorted(heads.items())


def load_lexicon(n_lemmas: int, seed: int) -> list[tuple[str, ...]]:
    """The distinct inflected forms of ``n_lemmas`` random dictionary lemmas, in random order,
    preceded by the function words (one form each)."""
    dictionary = pymorphy3.MorphAnalyzer(lang="ru").dictionary
    heads = _dictionary_heads(dictionary)
    chosen = random.Random(seed).sample(heads, min(n_lemmas, len(heads)))
    memo: dict[int, list[tuple[str, str]]] = {}
    lexicon: list[tuple[str, ...]] = [(w,) for w in FUNCTION_WORDS]
    skip = set(FUNCTION_WORDS)
    for word, para_id in chosen:
        if word in skip:
            continue
        paradigm = dictionary.paradigms[para_id]
        stem = dictionary.build_stem(paradigm, 0, word)
        forms = [pre + stem + suf for pre, suf in _paradigm_affixes(dictionary, para_id, memo)]
        lexicon.append(tuple(dict.fromkeys(forms)))
    return lexicon


def sample_words(lexicon: Lexicon, n: int, zipf_s: float, seed: int) -> list[str]:
    """``n`` words: lemma ranks from Zipf's law, then a form skewed towards the paradigm's
    first forms (form index ``floor(F**u) - 1`` for ``u`` uniform in [0, 1))."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, len(lexicon) + 1, dtype=np.float64) ** zipf_s
    lemmas = rng.choice(len(lexicon), size=n, p=weights / weights.sum())
    sizes = np.array([len(forms) for forms in lexicon])[lemmas]
    picks = np.minimum(np.floor(sizes ** rng.random(n)).astype(np.int64) - 1, sizes - 1)
    return [lexicon[lemma][pick] for lemma, pick in zip(lemmas.tolist(), picks.tolist())]


# ---------------------------------------------------------------- sentences and documents


def sentence(words: Sequence[str], rng: random.Random) -> str:
    """The words as one sentence: capitalized, commas and dashes between some words, now and
    then a number or a word in «quotes», and a final stop."""
    out = []
    for i, word in enumerate(words):
        if rng.random() < 0.005:
            word = str(rng.randint(1, 2025))
        elif rng.random() < 0.01:
            word = f"«{word}»"
        out.append(word.capitalize() if i == 0 else word)
        if i < len(words) - 1:
            out.append(rng.choices((" ", ", ", " — "), (90, 8, 2))[0])
    return "".join(out) + rng.choices((".", "?", "!", "…"), (90, 4, 4, 2))[0]


def paragraphs(words: Sequence[str], rng: random.Random) -> list[str]:
    """The words as paragraphs of 3-8 sentences of 4-24 words (the last ones may be shorter)."""
    out: list[str] = []
    sentences: list[str] = []
    pos = 0
    while pos < len(words):
        size = rng.randint(*SENTENCE_WORDS)
        sentences.append(sentence(words[pos : pos + size], rng))
        pos += size
        if len(sentences) >= rng.randint(*PARAGRAPH_SENTENCES) or pos >= len(words):
            out.append(" ".join(sentences))
            sentences = []
    return out


def split_sentences(words: Sequence[str], rng: random.Random) -> list[str]:
    """The words as sentences of 4-24 words (a shorter rest joins the last sentence)."""
    out = []
    pos = 0
    while pos < len(words):
        size = rng.randint(*SENTENCE_WORDS)
        if len(words) - pos - size < SENTENCE_WORDS[0]:
            size = len(words) - pos
        out.append(sentence(words[pos : pos + size], rng))
        pos += size
    return out


def group_paragraphs(sentences: Sequence[str], rng: random.Random) -> list[str]:
    """The sentences, in order, as paragraphs of 3-8 sentences (the last may be shorter)."""
    out = []
    pos = 0
    while pos < len(sentences):
        size = rng.randint(*PARAGRAPH_SENTENCES)
        out.append(" ".join(sentences[pos : pos + size]))
        pos += size
    return out


def generate_documents(n_words: int, n_lemmas: int, zipf_s: float, seed: int) -> list[str]:
    """Documents of 1,000-5,000 generated words (about ``n_words`` in all), paragraphs
    separated by a blank line."""
    words = sample_words(load_lexicon(n_lemmas, seed), n_words, zipf_s, seed)
    rng = random.Random(seed)
    documents = []
    pos = 0
    while pos < len(words):
        size = rng.randint(*DOC_WORDS)
        if len(words) - pos - size < DOC_WORDS[0]:
            size = len(words) - pos  # no short last document
        documents.append("\n\n".join(paragraphs(words[pos : pos + size], rng)))
        pos += size
    return documents


# ---------------------------------------------------------------- near-duplicates


def rewrite(text: str, share: float, seed: int) -> str:
    """``text`` with about ``share`` of its words put in another form of the same lexeme."""
    morph = pymorphy3.MorphAnalyzer(lang="ru")
    rng = random.Random(seed)

    def swap(match: re.Match[str]) -> str:
        word = match.group()
        if rng.random() >= share:
            return word
        forms = list({f.word for f in morph.parse(word)[0].lexeme} - {word.lower()})
        if not forms:
            return word
        new = rng.choice(sorted(forms))
        return new.capitalize() if word[:1].isupper() else new

    return WORD.sub(swap, text)


def hash_pair(rng: np.random.Generator, n: int, similarity: float) -> tuple[np.ndarray, np.ndarray]:
    """Two sorted sets of about ``n`` random 64-bit hashes whose Jaccard similarity is about
    ``similarity``: the second keeps a share of the first and draws the rest anew."""
    keep = round(n * 2 * similarity / (1 + similarity))
    first = rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
    second = np.concatenate([first[:keep], rng.integers(0, 2**64 - 1, n - keep, dtype=np.uint64)])
    return np.unique(first), np.unique(second)
