"""Shingles and their stable 64-bit hashes."""

from __future__ import annotations

import numpy as np
import pytest
import xxhash
from hypothesis import given
from hypothesis import strategies as st

import canon
from canon.fingerprints.shingles import many_window_hashes, window_hashes
from canon.hashing import each_token_hash, forget_hashes

MASK = 2**64 - 1


def fmix64(x: int) -> int:
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & MASK
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & MASK
    return x ^ (x >> 33)


def slow_hash(window: tuple[str, ...]) -> int:
    """The documented definition, one shingle at a time in plain Python."""
    h = (len(window) * 0x9E3779B97F4A7C15) & MASK
    for token in window:
        h = fmix64(h ^ xxhash.xxh3_64_intdigest(token.encode("utf-8")))
    return h


words = st.lists(st.sampled_from(["а", "б", "в", "г", "дом", "кот", "x"]), max_size=30)


@given(words, st.integers(1, 5), st.integers(1, 3))
def test_vectorized_hashes_follow_the_definition(tokens: list[str], k: int, step: int) -> None:
    expected = sorted({slow_hash(w) for w in canon.shingles(tokens, k, step)})
    assert canon.shingle_hashes(tokens, k, step).tolist() == expected


any_words = st.lists(st.text(min_size=1, max_size=6), max_size=40)


@given(any_words, st.integers(1, 6), st.integers(1, 3))
def test_the_numpy_path_from_token_hashes_follows_the_definition(
    tokens: list[str], k: int, step: int
) -> None:
    """Token hashes as an array (what canonicalization hands out) give the same shingle hashes
    as the plain definition, for any words (repeats, marks, surrogate-free Unicode)."""
    expected = sorted({slow_hash(w) for w in canon.shingles(tokens, k, step)})
    hashes = canon.token_hashes(tokens)
    assert hashes.tolist() == [xxhash.xxh3_64_intdigest(t.encode("utf-8")) for t in tokens]
    assert canon.shingle_hashes(hashes, k, step).tolist() == expected
    assert canon.shingle_hashes(tokens, k, step).tolist() == expected


@given(st.lists(words, max_size=8), st.integers(1, 5))
def test_many_documents_in_one_pass_equal_each_alone(docs: list[list[str]], k: int) -> None:
    """No window straddles two documents, none is lost, documents shorter than k give none."""
    hashes, counts = many_window_hashes(docs, k)
    assert counts.tolist() == [max(len(d) - k + 1, 0) for d in docs]
    expected = [h for d in docs for h in window_hashes(d, k).tolist()]
    assert hashes.tolist() == expected
    arrays = [canon.token_hashes(d) for d in docs]
    assert many_window_hashes(arrays, k)[0].tolist() == expected


RUSSIAN = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁЯ-0123456789xyz"
# Russian words of every length class xxh3 treats apart (1–3, 4–8, 9–16, 17–128 and more bytes)
russian_words = st.lists(
    st.one_of(st.text(RUSSIAN, min_size=1, max_size=80), st.text(min_size=0, max_size=8)),
    max_size=60,
)


@given(russian_words)
def test_words_hashed_in_bulk_are_the_remembered_hashes(tokens: list[str]) -> None:
    bulk = each_token_hash(iter(tokens), len(tokens))
    assert bulk.dtype == np.uint64
    assert bulk.tolist() == canon.token_hashes(tokens).tolist()
    assert bulk.tolist() == [xxhash.xxh3_64_intdigest(t.encode("utf-8")) for t in tokens]


@given(st.lists(russian_words, max_size=8), st.integers(1, 5), st.data())
def test_many_documents_of_words_equal_the_per_document_path(
    docs: list[list[str]], k: int, data: st.DataObject
) -> None:
    """Words hashed together in one pass give what each document's remembered token hashes
    give (the path before), also with some documents handed over as hash arrays."""
    before = many_window_hashes([canon.token_hashes(d) for d in docs], k)
    mixed = [canon.token_hashes(d) if data.draw(st.booleans()) else d for d in docs]
    for given_docs in (docs, [tuple(d) for d in docs], mixed):
        hashes, counts = many_window_hashes(given_docs, k)
        assert hashes.tolist() == before[0].tolist()
        assert counts.tolist() == before[1].tolist()


def test_remembered_hashes_are_the_definition_after_forgetting() -> None:
    tokens = ["кот", "дом", "кот"]
    first = canon.token_hashes(tokens).tolist()
    forget_hashes()
    assert canon.token_hashes(tokens).tolist() == first
    assert first[0] == first[2] == xxhash.xxh3_64_intdigest("кот".encode())


@given(st.text(alphabet="абвгдеёжз кот, дом. ABC-x", max_size=200))
def test_canonical_hashes_are_the_token_hashes(text: str) -> None:
    for profile in ("raw", "lemma"):
        canonical = canon.canonicalize(text, profile)
        expected = [xxhash.xxh3_64_intdigest(t.encode("utf-8")) for t in canonical.tokens]
        assert canonical.hashes.dtype == np.uint64
        assert canonical.hashes.tolist() == expected


@given(words, st.integers(1, 5))
def test_one_hash_per_distinct_shingle(tokens: list[str], k: int) -> None:
    assert len(canon.shingle_hashes(tokens, k)) == len(canon.shingles(tokens, k))


def test_hashes_are_stable_across_runs_and_platforms() -> None:
    # Golden values: a change here changes every stored index; bump CANONICAL_FORM_VERSION.
    hashes = canon.shingle_hashes(["алгоритм", "шингл", "поиск", "дубликат"], 2)
    assert hashes.dtype == np.uint64
    assert sorted(slow_hash(w) for w in [("алгоритм", "шингл")])[0] in hashes.tolist()
    assert canon.token_hashes(["a"]).tolist() == [xxhash.xxh3_64_intdigest(b"a")]
    assert canon.shingle_hashes(["a", "b", "c", "d"], 2).tolist() == [
        203727635162588567,
        11710278921443133798,
        13421668642087281825,
    ]


def test_order_matters_and_k_is_part_of_the_hash() -> None:
    ab = canon.shingle_hashes(["a", "b"], 2)
    ba = canon.shingle_hashes(["b", "a"], 2)
    assert ab.tolist() != ba.tolist()
    assert set(canon.shingle_hashes(["a"], 1).tolist()).isdisjoint(ab.tolist())


def test_step_skips_windows() -> None:
    assert canon.shingles(list("abcde"), 2, step=2) == {("a", "b"), ("c", "d")}
    assert canon.shingles(list("abcde"), 2, step=3) == {("a", "b"), ("d", "e")}


def test_short_input_gives_no_shingles() -> None:
    assert canon.shingles(["a"], 2) == set()
    assert canon.shingle_hashes(["a"], 2).tolist() == []


@pytest.mark.parametrize("k", [0, -1, 1.5, True, "3"])
def test_bad_k_is_refused(k: object) -> None:
    with pytest.raises(ValueError, match="positive integer"):
        canon.shingles(["a", "b"], k)  # type: ignore[arg-type]
