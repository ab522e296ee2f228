"""canon.fingerprints.minhash: one-permutation MinHash with densification, against a scalar
reference.

tests/test_dedup.py covers the estimator's error at several lengths, identical and disjoint
sets, the fixed byte layout and batch-versus-single signatures; this file checks the
construction itself, the estimator's bias and the round trip of arbitrary signatures.
"""

from __future__ import annotations

import hashlib
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canon
from canon.fingerprints import minhash as sketch
from canon.fingerprints.minhash import (
    SIGNATURE_SCHEME,
    Signature,
    estimate_jaccard,
    shingle_signatures,
    signature,
    signatures,
)

_MASK = 2**64 - 1
_EMPTY = _MASK


def _fmix(x: int) -> int:
    """MurmurHash3's 64-bit finalizer on Python integers."""
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & _MASK
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & _MASK
    return x ^ (x >> 33)


def _reference(hashes: list[int], num_perm: int, seed: int) -> list[int]:
    """One-permutation hashing and optimal densification, one value at a time."""
    salt = _fmix(seed)
    bins = [_EMPTY] * num_perm
    for h in hashes:
        permuted = _fmix(h ^ salt)
        b = ((permuted >> 32) * num_perm) >> 32
        bins[b] = min(bins[b], permuted)
    densify_salt = _fmix(seed ^ 0x9E3779B97F4A7C15)
    filled = list(bins)
    for b in range(num_perm):
        attempt = 1
        while filled[b] == _EMPTY and attempt < 64 * num_perm:
            key = _fmix((((b * (num_perm + 1)) + attempt) & _MASK) ^ densify_salt)
            source = key % num_perm
            if bins[source] != _EMPTY:  # borrow from an original bin only
                filled[b] = bins[source]
            attempt += 1
    return filled


hash_sets = st.sets(st.integers(0, _MASK), min_size=1, max_size=60)


@settings(max_examples=50)
@given(hash_sets, st.integers(1, 96), st.integers(0, _MASK))
def test_signature_equals_the_scalar_reference(hashes: set[int], num_perm: int, seed: int) -> None:
    array = np.array(sorted(hashes), dtype=np.uint64)
    sig = signature(array, num_perm, seed)
    assert sig.values.dtype == np.uint64 and sig.num_perm == num_perm and sig.seed == seed
    assert sig.values.tolist() == _reference(sorted(hashes), num_perm, seed)


@settings(max_examples=40)
@given(st.lists(hash_sets, min_size=1, max_size=8), st.integers(1, 130), st.integers(0, _MASK))
def test_a_batch_is_densified_row_by_row_as_the_reference(
    docs: list[set[int]], num_perm: int, seed: int
) -> None:
    """The vectorized densification follows every empty bin of every row at once; each row
    must still be the scalar reference of its own document."""
    arrays = [np.array(sorted(d), dtype=np.uint64) for d in docs]
    got = [s.values.tolist() for s in signatures(arrays, num_perm, seed)]
    assert got == [_reference(sorted(d), num_perm, seed) for d in docs]


@settings(max_examples=40)
@given(
    st.lists(st.lists(st.sampled_from("абвгдеж"), min_size=3, max_size=40), max_size=6),
    st.integers(1, 3),
    st.integers(1, 130),
)
def test_signatures_from_tokens_in_one_pass_equal_those_of_shingle_sets(
    docs: list[list[str]], k: int, num_perm: int
) -> None:
    expected = signatures([canon.shingle_hashes(d, k) for d in docs], num_perm, 5)
    assert shingle_signatures(docs, k, num_perm, 5) == expected
    assert shingle_signatures([canon.token_hashes(d) for d in docs], k, num_perm, 5) == expected


russian_word = st.text("абвгдеёжзиклмнопрстуфхцчшщыьэюя-", min_size=1, max_size=40)
russian_docs = st.lists(st.lists(russian_word, min_size=4, max_size=60), min_size=1, max_size=6)


@settings(max_examples=25)
@given(russian_docs, st.integers(1, 4))
def test_signatures_from_words_are_those_from_their_token_hashes(
    docs: list[list[str]], k: int
) -> None:
    """Words hashed in bulk sign bit for bit as the remembered token hashes did."""
    from_hashes = shingle_signatures([canon.token_hashes(d) for d in docs], k, 128, 1)
    from_words = shingle_signatures(docs, k, 128, 1)
    assert all(np.array_equal(a.values, b.values) for a, b in zip(from_words, from_hashes))
    assert from_words == from_hashes


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 18])
def test_batches_signed_in_chunks_equal_each_document_alone(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(chunk)
    docs = [rng.integers(0, 2**63, int(n), dtype=np.uint64) for n in rng.integers(1, 90, 40)]
    alone = [signature(d, 64, 3) for d in docs]
    tokens = [[f"w{int(x) % 50}" for x in d] + ["end"] for d in docs]
    in_one = [signatures([canon.shingle_hashes(t, 2)], 64, 3)[0] for t in tokens]
    monkeypatch.setattr(sketch, "_CHUNK", chunk)
    assert signatures(docs, 64, 3) == alone
    assert shingle_signatures(tokens, 2, 64, 3) == in_one


def test_a_document_shorter_than_k_has_no_signature_in_one_pass() -> None:
    with pytest.raises(ValueError, match="no shingles"):
        shingle_signatures([["а", "б", "в"], ["а"]], 2)


@given(hash_sets, st.integers(1, 64), st.integers(0, 1000))
def test_densified_values_come_from_the_document(
    hashes: set[int], num_perm: int, seed: int
) -> None:
    sig = signature(np.array(sorted(hashes), dtype=np.uint64), num_perm, seed)
    permuted = {_fmix(h ^ _fmix(seed)) for h in hashes}
    assert set(sig.values.tolist()) <= permuted  # no bin is left empty, none invented
    assert _EMPTY not in sig.values.tolist()


def test_densification_is_deterministic_and_order_free() -> None:
    rng = np.random.default_rng(3)
    short = rng.integers(0, 2**63, 5, dtype=np.uint64)
    first = signature(short, 128, seed=9)
    assert signature(short[::-1].copy(), 128, seed=9) == first  # order of shingles
    assert signature(np.concatenate([short, short]), 128, seed=9) == first  # repeats
    neighbours = [rng.integers(0, 2**63, n, dtype=np.uint64) for n in (1, 40, 900)]
    assert signatures([*neighbours, short], 128, seed=9)[-1] == first  # batch neighbours
    assert signature(short, 128, seed=10) != first  # another seed, another permutation


def test_documents_with_one_shingle_agree_only_when_it_is_shared() -> None:
    one, other = np.array([42], dtype=np.uint64), np.array([43], dtype=np.uint64)
    assert len(set(signature(one, 64).values.tolist())) == 1
    assert estimate_jaccard(signature(one, 64), signature(one.copy(), 64)) == 1.0
    assert estimate_jaccard(signature(one, 64), signature(other, 64)) == 0.0


def _pair_with_jaccard(rng: np.random.Generator, common: int, apart: int) -> tuple[np.ndarray, ...]:
    """Sets of ``common`` shared and ``apart`` own hashes each: Jaccard common/(common+2·apart)."""
    values = rng.choice(2**62, common + 2 * apart, replace=False).astype(np.uint64)
    shared, a, b = values[:common], values[common : common + apart], values[common + apart :]
    return np.concatenate([shared, a]), np.concatenate([shared, b])


@pytest.mark.parametrize(
    ("common", "apart", "num_perm"),
    [
        (300, 150, 64),  # J = 0.5, most bins filled
        (160, 20, 64),  # J = 0.8
        (10, 20, 128),  # J = 0.2, short sets: most bins densified
        (8, 1, 128),  # J = 0.8, short sets
    ],
)
def test_the_estimate_is_unbiased(common: int, apart: int, num_perm: int) -> None:
    """Over many seeds the mean estimate is the true Jaccard, within four standard errors."""
    rng = np.random.default_rng(common * 1000 + apart)
    first, second = _pair_with_jaccard(rng, common, apart)
    truth = common / (common + 2 * apart)
    estimates = np.array(
        [estimate_jaccard(*signatures([first, second], num_perm, seed)) for seed in range(600)]
    )
    standard_error = max(estimates.std(ddof=1), 1 / num_perm) / np.sqrt(len(estimates))
    assert abs(estimates.mean() - truth) < 4 * standard_error


@settings(max_examples=50)
@given(
    st.lists(st.integers(0, _MASK), min_size=1, max_size=300),
    st.integers(0, _MASK),
)
def test_any_signature_round_trips_through_bytes(values: list[int], seed: int) -> None:
    sig = Signature(np.array(values, dtype=np.uint64), seed)
    data = sig.to_bytes()
    assert data[:4] == b"CNS1"
    assert struct.unpack_from("<IIQ", data, 4) == (SIGNATURE_SCHEME, len(values), seed)
    assert struct.unpack_from(f"<{len(values)}Q", data, 20) == tuple(values)
    back = Signature.from_bytes(data)
    assert back == sig and back.values.dtype == np.uint64 and back.seed == seed
    assert back.to_bytes() == data


def test_an_other_scheme_is_refused() -> None:
    data = bytearray(signature(np.arange(1, 50, dtype=np.uint64), 16).to_bytes())
    data[4:8] = struct.pack("<I", SIGNATURE_SCHEME + 1)
    with pytest.raises(ValueError, match="not a canon signature of this scheme"):
        Signature.from_bytes(bytes(data))


@pytest.mark.parametrize(
    ("size", "digest"),
    [
        (1000, "76acb44cd0e71edbdf4954657ecee00e4bbb4da6ebd9ad50f4b10a04ff2016ad"),
        (3, "7fdf0f99dd825cf6fec8738357ded527d20aa48ce06e5bad599bee87e48ebe76"),  # densified
    ],
)
def test_stored_signatures_stay_valid(size: int, digest: str) -> None:
    """Indexes store signatures: a change of construction must bump SIGNATURE_SCHEME (and
    these digests)."""
    sig = signature(np.arange(1, size + 1, dtype=np.uint64), 128, seed=1)
    assert SIGNATURE_SCHEME == 1
    assert hashlib.sha256(sig.to_bytes()).hexdigest() == digest


def test_equality_and_hashing() -> None:
    values = np.arange(8, dtype=np.uint64)
    assert Signature(values, 1) == Signature(values.copy(), 1)
    assert Signature(values, 1) != Signature(values, 2)
    assert Signature(values, 1) != Signature(values[:7], 1)
    assert Signature(values, 1) != values
    with pytest.raises(TypeError):
        hash(Signature(values, 1))


@pytest.mark.parametrize("num_perm", [0, -1, 1.5, True, "128"])
def test_bad_num_perm_is_an_option_error(num_perm: object) -> None:
    with pytest.raises(canon.OptionError) as info:
        signature(np.arange(1, 5, dtype=np.uint64), num_perm)  # type: ignore[arg-type]
    assert info.value.option == "num_perm" and info.value.value == num_perm


def test_a_document_without_shingles_has_no_signature() -> None:
    with pytest.raises(ValueError, match="no shingles"):
        signatures([np.arange(1, 5, dtype=np.uint64), np.empty(0, np.uint64)])
    assert signatures([]) == []
