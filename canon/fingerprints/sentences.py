"""A Canonical → its sentences as sets of content lemmas, and how much two such sets share.

Shingles see copied and inflected phrases but not a sentence whose words were put in another
order.  Here a sentence is the *set* of its content lemmas: the tokens of the text's
:class:`~canon.canonical.Canonical` under a profile with morphology (stop words already
dropped) whose spans lie inside the sentence (:func:`canon.text.sentences.sentence_spans`),
each hashed as shingle tokens are (xxh3_64 of its UTF-8 bytes).  A sentence of more than
:data:`MAX_LEMMAS` tokens (a text without stops) is cut into pieces of that many.

Two sets are compared by their IDF-weighted Dice coefficient: a lemma held by ``df`` of ``n``
indexed documents weighs ``idf = ln((1 + n) / (1 + df)) + 1`` (so a common word counts less
than a rare one, and a word no document holds counts most), ``w(X)`` is the sum of the weights
of the lemmas of ``X``, and

    score(draft, source) = 2 · w(draft ∩ source) / (w(draft) + w(source))

which is 1 for the same lemmas in any order and forms, and falls as either sentence holds
lemmas the other lacks.  A draft sentence is *rewritten from* a source sentence when the score
is at least :data:`THRESHOLD`; a draft sentence of fewer than :data:`MIN_LEMMAS` distinct
content lemmas is too short to judge.  Both defaults were chosen on labelled pairs
(``benchmarks/sentences.py``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..canonical import Canonical
from ..hashing import token_hashes
from ..records import record_dict
from ..text.sentences import sentence_spans
from ..text.synonyms import classes_of

__all__ = [
    "MAX_LEMMAS",
    "MIN_LEMMAS",
    "THRESHOLD",
    "Sentence",
    "SentenceSets",
    "dice",
    "idf",
    "sentence_sets",
]

MIN_LEMMAS = 3
THRESHOLD = 0.55
MAX_LEMMAS = 64

_HEADER = struct.Struct("<I")  # the number of sentences of a stored blob


@dataclass(frozen=True)
class Sentence:
    """One sentence: characters ``[start, end)`` of its text and its content lemmas' hashes."""

    start: int
    end: int
    lemmas: tuple[int, ...]  # sorted distinct uint64 hashes

    def to_dict(self) -> dict[str, object]:
        return record_dict(self, exclude=("lemmas",), lemmas=len(self.lemmas))


@dataclass(frozen=True, eq=False)
class SentenceSets:
    """The sentences of one text, as arrays: what an index stores per document.

    ``spans[i]`` is sentence ``i``'s ``(start, end)``; its lemma hashes are
    ``lemmas[offsets[i]:offsets[i + 1]]``, sorted and distinct within the sentence.
    """

    spans: np.ndarray  # (n, 2) int64
    offsets: np.ndarray  # (n + 1,) int64
    lemmas: np.ndarray  # uint64

    def __len__(self) -> int:
        return len(self.spans)

    def __getitem__(self, i: int) -> Sentence:
        start, end = (int(v) for v in self.spans[i])
        lemmas = self.lemmas[self.offsets[i] : self.offsets[i + 1]]
        return Sentence(start, end, tuple(int(h) for h in lemmas))

    def __iter__(self) -> Iterator[Sentence]:
        return (self[i] for i in range(len(self)))

    def lemmas_of(self, i: int) -> np.ndarray:
        """Sentence ``i``'s lemma hashes (uint64, sorted)."""
        return self.lemmas[self.offsets[i] : self.offsets[i + 1]]

    @property
    def sizes(self) -> np.ndarray:
        """Distinct lemmas of each sentence."""
        return np.diff(self.offsets)

    @property
    def owners(self) -> np.ndarray:
        """For each entry of ``lemmas``, the sentence it belongs to."""
        return np.repeat(np.arange(len(self)), self.sizes)

    def distinct(self) -> np.ndarray:
        """Every lemma of the text once, sorted (uint64)."""
        return np.unique(self.lemmas)

    def to_bytes(self) -> bytes:
        """Little-endian: the sentence count, ``(start, end, size)`` as uint32 per sentence,
        then the hashes as uint64."""
        table = np.column_stack([self.spans, self.sizes]).astype("<u4")
        head = _HEADER.pack(len(self))
        return head + table.tobytes() + self.lemmas.astype("<u8").tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> SentenceSets:
        (count,) = _HEADER.unpack_from(data)
        table_end = _HEADER.size + 12 * count
        table = np.frombuffer(data, dtype="<u4", count=3 * count, offset=_HEADER.size)
        table = table.reshape(count, 3).astype(np.int64)
        lemmas = np.frombuffer(data, dtype="<u8", offset=table_end).astype(np.uint64)
        offsets = np.concatenate(([0], np.cumsum(table[:, 2])))
        if offsets[-1] != len(lemmas):
            raise ValueError(f"a sentence blob of {count} sentences has {len(lemmas)} hashes")
        return cls(table[:, :2].copy(), offsets, lemmas)

    @classmethod
    def joined(cls, blobs: Sequence[bytes]) -> tuple[np.ndarray, SentenceSets]:
        """The sentences of several stored blobs, one text's after another's, as one
        :class:`SentenceSets`, and how many sentences each blob holds.  A blob
        :meth:`from_bytes` would refuse is refused alike."""
        counts, tables, hashes = [], [], []
        for data in blobs:
            (count,) = _HEADER.unpack_from(data)
            table_end = _HEADER.size + 12 * count
            if len(data) < table_end or (len(data) - table_end) % 8:
                cls.from_bytes(data)  # raises, as for the blob alone
                raise ValueError(f"a sentence blob of {count} sentences has {len(data)} bytes")
            counts.append(count)
            tables.append(data[_HEADER.size : table_end])
            hashes.append(data[table_end:])
        table = np.frombuffer(b"".join(tables), dtype="<u4").reshape(-1, 3).astype(np.int64)
        lemmas = np.frombuffer(b"".join(hashes), dtype="<u8").astype(np.uint64)
        offsets = np.concatenate(([0], np.cumsum(table[:, 2]))).astype(np.int64)
        first = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        held = np.array([len(h) // 8 for h in hashes], dtype=np.int64)
        bad = np.flatnonzero(offsets[first[1:]] - offsets[first[:-1]] != held)
        if len(bad):
            cls.from_bytes(blobs[int(bad[0])])  # raises, as for the blob alone
            raise ValueError(f"sentence blob {int(bad[0])} holds other hashes than it counts")
        return np.diff(first), cls(table[:, :2].copy(), offsets, lemmas)

    @classmethod
    def empty(cls) -> SentenceSets:
        return cls(np.zeros((0, 2), np.int64), np.zeros(1, np.int64), np.zeros(0, np.uint64))


def _ranges(first: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ranges ``[first[i], last[i])``: every index they hold, and the range it is in."""
    lengths = last - first
    owner = np.repeat(np.arange(len(first)), lengths)
    at = np.repeat(first - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
    return at, owner


def _pieces(sentences: np.ndarray, tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each sentence's first and last token and span, a sentence of more than ``MAX_LEMMAS``
    tokens cut into pieces of that many; sentences without a token are left out."""
    first = np.searchsorted(tokens[:, 0], sentences[:, 0], side="left")
    last = np.searchsorted(tokens[:, 1], sentences[:, 1], side="right")
    held = first < last
    sentences, first, last = sentences[held], first[held], last[held]
    count = (last - first + MAX_LEMMAS - 1) // MAX_LEMMAS
    step, owner = _ranges(np.zeros_like(count), count)
    begin = first[owner] + step * MAX_LEMMAS
    end = np.minimum(begin + MAX_LEMMAS, last[owner])
    spans = np.column_stack([
        np.where(begin == first[owner], sentences[owner, 0], tokens[begin, 0]),
        np.where(end == last[owner], sentences[owner, 1], tokens[end - 1, 1]),
    ])  # fmt: skip
    return begin, end, spans


def _words(canonical: Canonical) -> list[str] | tuple[str, ...]:
    """The tokens a sentence set holds: lemmas as their synonym classes."""
    if canonical.profile.morphology == "lemma":
        return classes_of(canonical.tokens)
    return canonical.tokens


def sentence_sets(
    canonical: Canonical, spans: Sequence[tuple[int, int]] | None = None
) -> SentenceSets:
    """The sentences of ``canonical.text`` (or the stretches ``spans`` of it, in order and
    disjoint) that hold at least one of its tokens, each with the hashes of the tokens whose
    spans lie inside it."""
    if not canonical.tokens:
        return SentenceSets.empty()
    tokens = canonical.span_array
    given = sentence_spans(canonical.text, canonical.joined) if spans is None else spans
    begin, end, pieces = _pieces(np.asarray(given, dtype=np.int64).reshape(-1, 2), tokens)
    at, piece = _ranges(begin, end)
    hashes = token_hashes(_words(canonical))[at]
    order = np.lexsort((hashes, piece))  # by piece, then hash
    hashes, piece = hashes[order], piece[order]
    new = np.ones(len(hashes), dtype=bool)
    new[1:] = (hashes[1:] != hashes[:-1]) | (piece[1:] != piece[:-1])
    sizes = np.bincount(piece[new], minlength=len(pieces))
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    return SentenceSets(pieces.astype(np.int64), offsets, hashes[new].astype(np.uint64))


def idf(df: np.ndarray, documents: int) -> np.ndarray:
    """The weight of lemmas held by ``df`` of ``documents`` documents:
    ``ln((1 + documents) / (1 + df)) + 1``, from 1 (in every document) up."""
    return np.log((1 + documents) / (1 + np.asarray(df, dtype=np.float64))) + 1


def dice(draft: Iterable[int], source: Iterable[int], weights: Mapping[int, float]) -> float:
    """``2 · w(draft ∩ source) / (w(draft) + w(source))`` of two sets of lemma hashes, each
    lemma weighing ``weights[hash]`` (0 when both are empty)."""
    first, second = set(map(int, draft)), set(map(int, source))
    total = sum(weights[h] for h in first) + sum(weights[h] for h in second)
    if total <= 0:
        return 0.0
    return 2 * sum(weights[h] for h in first & second) / total
