"""Winnowing as an index rule: the positions kept (against a plain reference of the paper's
robust winnowing), the guarantee (any shared run of w + k - 1 canonical words is found, on
real indexes and real checks), its density, and the rule stored, reused and refused."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canon
from canon import Index
from canon.cli import cli
from canon.fingerprints.shingles import window_hashes
from canon.fingerprints.winnowing import winnow, winnowed
from canon.index.rules import kept_windows

RAW, LEMMA = canon.get_profile("raw"), canon.get_profile("lemma")


def reference_winnow(hashes: list[int], w: int) -> list[int]:
    """Robust winnowing as the paper states it, one window at a time: the window's minimum;
    on a tie the position chosen for the window before if it is still in this window and
    minimal, else the rightmost minimal position.  Fewer than ``w`` hashes: one window."""
    if not hashes:
        return []
    width = min(w, len(hashes))
    chosen: set[int] = set()
    previous = -1
    for start in range(len(hashes) - width + 1):
        window = range(start, start + width)
        smallest = min(hashes[i] for i in window)
        if previous in window and hashes[previous] == smallest:
            pick = previous
        else:
            pick = max(i for i in window if hashes[i] == smallest)
        chosen.add(pick)
        previous = pick
    return sorted(chosen)


# Few distinct values make ties (repeated shingles) frequent; full-range values almost never.
few = st.lists(st.integers(0, 5), max_size=60)
many = st.lists(st.integers(0, 2**64 - 1), max_size=60)
windows = st.integers(1, 12)


@given(st.one_of(few, many), windows)
@settings(max_examples=400)
def test_the_positions_are_the_papers(values: list[int], w: int) -> None:
    got = winnow(np.array(values, dtype=np.uint64), w)
    assert got.tolist() == reference_winnow(values, w)


def test_ties_keep_the_previous_choice() -> None:
    # windows of 3 over 5 5 5 5 5: robust winnowing keeps one position per run of ties
    assert winnow(np.array([5, 5, 5, 5, 5], dtype=np.uint64), 3).tolist() == [2]
    # rightmost on a tie the window before did not choose: [3 1 1] then [1 1 4] keeps 2
    assert winnow(np.array([3, 1, 1, 4, 0], dtype=np.uint64), 3).tolist() == [2, 4]


@given(
    st.lists(st.integers(0, 2**64 - 1), max_size=80),
    st.lists(st.integers(0, 2**64 - 1), max_size=80),
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=40),
    st.data(),
)
@settings(max_examples=300)
def test_a_shared_window_of_hashes_is_kept_by_both(a, b, shared, data) -> None:
    w = data.draw(st.integers(1, len(shared)), label="w")
    i = data.draw(st.integers(0, len(a)), label="i")
    j = data.draw(st.integers(0, len(b)), label="j")
    first = np.array(a[:i] + shared + a[i:], dtype=np.uint64)
    second = np.array(b[:j] + shared + b[j:], dtype=np.uint64)
    kept_first = set(first[winnowed(first, w)].tolist())
    kept_second = set(second[winnowed(second, w)].tolist())
    assert kept_first & kept_second
    assert min(shared[:w]) in kept_first & kept_second


@pytest.mark.parametrize("w", [2, 4, 8, 16])
def test_density_is_two_in_w_plus_one(w: int) -> None:
    hashes = np.random.default_rng(w).integers(0, 2**63, 200_000, dtype=np.uint64)
    density = len(winnow(hashes, w)) / len(hashes)
    assert density == pytest.approx(2 / (w + 1), rel=0.03)


def test_long_texts_are_winnowed_in_bounded_time() -> None:
    import time

    hashes = np.random.default_rng(1).integers(0, 4, 300_000, dtype=np.uint64)  # many ties
    began = time.perf_counter()
    kept = winnow(hashes, 32)
    assert time.perf_counter() - began < 5
    assert 0 < len(kept) < len(hashes) / 4


def test_the_rule_is_one_mask_for_every_thinning() -> None:
    hashes = np.random.default_rng(3).integers(0, 2**63, 1000, dtype=np.uint64)
    assert kept_windows(hashes).all()
    np.testing.assert_array_equal(kept_windows(hashes, sample=4), hashes % np.uint64(4) == 0)
    mask = kept_windows(hashes, winnow=8)
    np.testing.assert_array_equal(mask, np.isin(hashes, hashes[winnow(hashes, 8)]))


# ---------------------------------------------------------------------- on a real index

# Words that the raw profile keeps as they are: a text of them is its own canonical form.
WORDS = (
    "дом сад город река лес поле море берег мост завод рынок школа книга письмо окно дорога "
    "улица площадь башня сосна береза гора долина озеро остров вокзал поезд корабль мастер "
    "учитель врач повар художник старый новый большой тихий светлый видит строит читает "
    "пишет любит помнит ждет несет утром вечером всегда иногда снова рядом далеко"
).split()

K = 4


def _texts(rng: random.Random, w: int) -> tuple[list[str], list[str], list[str]]:
    run = [rng.choice(WORDS) for _ in range(w + K - 1)]
    first = [rng.choice(WORDS) for _ in range(rng.randint(0, 120))]
    second = [rng.choice(WORDS) for _ in range(rng.randint(0, 120))]
    i, j = rng.randint(0, len(first)), rng.randint(0, len(second))
    return first[:i] + run + first[i:], second[:j] + run + second[j:], run


def _index(folder: Path, texts: dict[str, str], profiles, **rules) -> Path:
    records = folder / "docs.jsonl"
    lines = [json.dumps({"id": i, "text": t}, ensure_ascii=False) for i, t in texts.items()]
    records.write_text("\n".join(lines), "utf-8")
    db = folder / "w.db"
    with Index(db, create=True) as index:
        report = canon.add_sources(index, [str(records)], canon.IndexRules(profiles, k=K, **rules))
    assert not report.failures, report.failures
    return db


def _found(db: Path, draft: str, profile: str) -> dict[str, int]:
    with Index(db, readonly=True) as index:
        result = canon.check(
            draft,
            index,
            canon.CheckSettings(
                profiles=[profile], min_shared=1, common=None, sentence_threshold=None
            ),
        )
    return {s.source: s.shared for s in result.profiles[0].sources}


@given(st.integers(0, 2**32), st.sampled_from([2, 5, 9, 16]))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_shared_run_of_w_plus_k_minus_1_words_is_found(seed: int, w: int) -> None:
    rng = random.Random(seed)
    first, second, run = _texts(rng, w)
    others = {f"other-{n}": " ".join(_texts(rng, w)[0]) for n in range(3)}
    assert list(canon.canonicalize(" ".join(second), RAW).tokens) == second  # canonical words
    with tempfile.TemporaryDirectory() as tmp:
        db = _index(Path(tmp), {"first": " ".join(first), **others}, [RAW], winnow=w)
        found = _found(db, " ".join(second), "raw")
    assert found.get("first", 0) >= 1, (w, run)


@given(st.integers(0, 2**32))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_guarantee_holds_under_the_lemma_profile(seed: int) -> None:
    """Under lemma, the run is w + k - 1 canonical words: the same lemmas in both texts,
    whatever forms they take."""
    rng = random.Random(seed)
    w = 6
    first, second, run = _texts(rng, w)
    with tempfile.TemporaryDirectory() as tmp:
        db = _index(Path(tmp), {"first": " ".join(first)}, [LEMMA], winnow=w)
        assert _found(db, " ".join(second), "lemma").get("first", 0) >= 1, run


def test_a_document_checked_against_itself_is_wholly_found(tmp_path: Path) -> None:
    """Both sides go through one rule: every shingle the draft keeps is in the index."""
    rng = random.Random(7)
    text = " ".join(rng.choice(WORDS) for _ in range(400))
    db = _index(tmp_path, {"doc": text}, [RAW], winnow=8)
    with Index(db, readonly=True) as index:
        (indexed,) = index.profiles()
        check = canon.check(
            text, index, canon.CheckSettings(common=None, sentence_threshold=None)
        ).profiles[0]
        rows = index.stats().profiles[0][1]
    hashes = window_hashes(canon.canonicalize(text, RAW).tokens, K)
    kept = np.unique(hashes[winnowed(hashes, 8)])
    assert (indexed.winnow, indexed.sample) == (8, 1)
    assert check.draft_shingles == len(kept) == rows  # the draft keeps what the index keeps
    assert check.borrowed == check.draft_shingles
    assert check.sources[0].containment == 1.0
    assert rows < 0.35 * len(np.unique(hashes))  # about 2/9 of the shingles


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_the_cli_builds_reuses_and_refuses(tmp_path: Path) -> None:
    rng = random.Random(11)
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(4):
        (docs / f"d{n}.txt").write_text(" ".join(rng.choice(WORDS) for _ in range(300)), "utf-8")
    full, thin = tmp_path / "full.db", tmp_path / "thin.db"
    assert _run("index", "add", str(full), str(docs), "-p", "raw")[0] == 0
    code, output = _run(
        "index", "add", str(thin), str(docs / "d0.txt"), "-p", "raw", "--winnow", "8"
    )
    assert code == 0, output
    code, output = _run("index", "add", str(thin), str(docs))  # the index's own rules
    assert code == 0, output
    with Index(full, readonly=True) as a, Index(thin, readonly=True) as b:
        rows_full, rows_thin = a.stats().profiles[0][1], b.stats().profiles[0][1]
        assert b.profiles()[0].winnow == 8
    assert 0.15 < rows_thin / rows_full < 0.3
    code, output = _run("index", "add", str(thin), str(docs), "--sample", "4")
    assert code == 2 and "winnow w=8" in output and "sample 1/4" in output, output
    code, output = _run("index", "add", str(thin), str(docs), "--winnow", "4")
    assert code == 2 and "winnow w=8" in output and "winnow w=4" in output, output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--winnow", "0"], "--winnow must be a positive integer, got 0"),
        (["--winnow", "-3"], "--winnow must be a positive integer, got -3"),
        (["--winnow", "4", "--sample", "2"], "--winnow cannot be combined with sampling"),
        (["--winnow", "4", "--step", "2"], "--winnow needs shingles at every word"),
    ],
)
def test_bad_windows_are_refused_in_one_line(tmp_path: Path, args: list[str], said: str) -> None:
    text = tmp_path / "a.txt"
    text.write_text("один два три четыре пять шесть семь", "utf-8")
    code, output = _run("index", "add", str(tmp_path / "x.db"), str(text), *args)
    assert code == 2, output
    assert output.strip() == f"canon: error: {said}" or (
        said in output and len(output.strip().splitlines()) == 1
    ), output
    assert not (tmp_path / "x.db").exists() or _no_profiles(tmp_path / "x.db")


def _no_profiles(db: Path) -> bool:
    with Index(db, readonly=True) as index:
        return not index.profiles()


def test_library_refusals_name_the_setting(tmp_path: Path) -> None:
    with Index(tmp_path / "r.db", create=True) as index:
        for bad in (0, -1, 2.5, True):
            with pytest.raises(canon.OptionError) as info:
                index.use_profiles([RAW], 4, 1, winnow=bad)
            assert info.value.option == "winnow"
        with pytest.raises(canon.OptionError, match=r"^winnow cannot be combined"):
            index.use_profiles([RAW], 4, 1, sample=2, winnow=3)
        assert index.profiles() == []
        (made,) = index.use_profiles([RAW], 4, 1, winnow=5)
        assert (made.winnow, made.sample) == (5, 1)
        with pytest.raises(
            canon.IndexFileError, match=r"built with raw \([0-9a-f]+, k=4, winnow w=5\)"
        ):
            index.use_profiles([RAW], 4, 1)


def test_sampling_at_the_same_density_has_no_such_guarantee() -> None:
    """The property above fails for mod-m sampling keeping as many hashes (m = (w + 1) / 2):
    some shared windows of w hashes hold no hash 0 modulo m."""
    rng = np.random.default_rng(5)
    w, m = 9, 5
    missed = 0
    for _ in range(200):
        shared = rng.integers(0, 2**63, w, dtype=np.uint64)
        missed += not kept_windows(shared, sample=m).any()
        assert winnowed(shared, w).any()
    assert missed > 10  # (4/5)**9: about 13 % of the windows
