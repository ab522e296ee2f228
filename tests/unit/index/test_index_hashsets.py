"""A document's hash set as Elias–Fano bytes: the same sorted hashes back, whatever they are;
a known encoding; the size the coding promises; damaged bytes refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from canon.index.hashsets import decode, encode, low_bits
from canon.index.schema import blob, raw_unblob, unblob

hashes = st.lists(st.integers(0, 2**64 - 1), max_size=300)
# many equal high parts, repeats and the extremes of the range
crowded = st.lists(
    st.sampled_from([0, 1, 2, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]) | st.integers(0, 2**20),
    max_size=60,
)


@given(values=hashes | crowded)
def test_decoding_gives_the_sorted_hashes_back(values: list[int]) -> None:
    array = np.array(values, dtype=np.uint64)
    decoded = decode(encode(array))
    assert decoded.dtype == np.uint64
    assert decoded.tolist() == sorted(values)
    assert unblob(blob(array)).tolist() == sorted(values)


def test_a_known_encoding() -> None:
    # n = 3 keeps 62 low bits; the highs 0, 1, 3 go to bits 0, 2, 5 of the bitmap
    data = encode(np.array([3 << 62, 5, 1 << 62], dtype=np.uint64))
    assert data.hex() == "030000003e" + "05" + "00" * 23 + "25"
    assert encode(np.zeros(0, dtype=np.uint64)).hex() == "000000003f"  # no hash, no bitmap


@given(st.integers(1, 5_000), st.integers(0, 2**32))
def test_a_random_set_costs_at_most_its_low_bits_and_three_more(n: int, seed: int) -> None:
    values = np.random.default_rng(seed).integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    assert len(encode(values)) <= 5 + (n * low_bits(n) + 7) // 8 + (3 * n + 7) // 8


def test_a_shingle_set_of_a_300_word_document_is_a_tenth_smaller() -> None:
    values = np.random.default_rng(7).integers(0, 2**64, 302, dtype=np.uint64, endpoint=False)
    assert len(encode(values)) / 302 < 7.3  # bytes a hash, where a plain blob spends 8
    assert raw_unblob(values.astype("<u8").tobytes()).tolist() == values.tolist()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[:3], "shorter than its header"),
        (lambda data: data[:20], "too few"),
        (lambda data: data[:-1], "in its bitmap"),
        (lambda data: data + b"\x01", "in its bitmap"),
        (lambda data: data[:4] + b"\x07" + data[5:], "low bits"),
    ],
)
def test_damaged_bytes_are_refused(damage, message: str) -> None:
    data = encode(np.arange(1, 100, dtype=np.uint64) * np.uint64(2**50))
    with pytest.raises(ValueError, match=message):
        decode(damage(data))
