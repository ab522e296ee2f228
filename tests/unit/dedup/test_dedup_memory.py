"""Dedup in bounded memory: band keys from the workers, the spilling store of shingle sets, and
large LSH buckets walked instead of paired out — all against the all-in-memory reference."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from command import Ran, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

import canon
from canon.dedup import (
    Budget,
    Entry,
    LocalEngine,
    MinHashSettings,
    Origin,
    Reading,
    dedup,
    parse_size,
)
from canon.dedup import reading as reading_module
from canon.dedup.linking import buckets, link
from canon.dedup.reading import read_block
from canon.dedup.run import dedup_corpus
from canon.dedup.stages import DedupResult, clusters, verify
from canon.dedup.store import SPILL_NAME, HashStore
from canon.fingerprints.lsh import band_keys
from canon.fingerprints.measures import exact_jaccard
from canon.fingerprints.minhash import Signature, signatures
from canon.fingerprints.shingles import shingle_hashes
from canon.profile import get_profile
from canon.sources.collection import Item

VOCABULARY = [f"слово{i}" for i in range(4000)]


def _reference(
    sets: list[np.ndarray], settings: MinHashSettings
) -> tuple[np.ndarray, set[tuple[int, int]], list[tuple[int, int, float]]]:
    """The all-in-memory path: every signature at once, stacked, every candidate pair in a
    set, each verified."""
    bands, rows = settings.banding
    sigs = signatures(sets, settings.num_perm, settings.seed)
    keys = band_keys(np.stack([s.values for s in sigs]), bands, rows)
    pairs: set[tuple[int, int]] = set()
    for band in keys.T:
        for key in np.unique(band):
            members = np.flatnonzero(band == key).tolist()
            pairs.update((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
    verified = verify(sorted(pairs), dict(enumerate(sets)), settings.threshold)
    return keys, pairs, verified


def _reference_result(entries: list[Entry], settings: MinHashSettings) -> DedupResult:
    _, pairs, verified = _reference([e.hashes for e in entries], settings)
    found = clusters([(e.source, e.origin) for e in entries], verified, lambda i: entries[i].hashes)
    bands, rows = settings.banding
    return DedupResult(tuple(found), len(entries), len(pairs), len(verified), bands, rows)


def _same(a: DedupResult, b: DedupResult) -> None:
    assert a.clusters == b.clusters
    assert (a.documents, a.candidate_pairs, a.verified_pairs) == (
        b.documents,
        b.candidate_pairs,
        b.verified_pairs,
    )


def _texts(count: int, seed: int, words: int = 120) -> list[tuple[str, str]]:
    """``count`` texts; every 7th a near-copy of the one before (3 % of words replaced), every
    11th an exact copy."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    own: list[str] = []
    for i in range(count):
        if i % 7 == 1:
            own = [rng.choice(VOCABULARY) if rng.random() < 0.03 else w for w in own]
        elif i % 11 == 2:
            pass  # the same words again
        else:
            own = [rng.choice(VOCABULARY) for _ in range(words)]
        out.append((f"doc-{i:05d}", " ".join(own)))
    return out


def _write_corpus(path: Path, texts: list[tuple[str, str]]) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for name, text in texts:
            out.write(json.dumps({"id": name, "text": text}, ensure_ascii=False) + "\n")
    return path


def _entries(texts: list[tuple[str, str]], reading: Reading) -> list[Entry]:
    out = []
    for name, text in texts:
        hashes = shingle_hashes(canon.canonicalize(text, reading.profile).tokens, 4)
        out.append(Entry(name, hashes, len(text)))
    return out


# ---------------------------------------------------------------- band keys from the workers


def test_a_block_carries_the_band_keys_of_its_documents() -> None:
    minhash = MinHashSettings(0.7, 64, 5)
    reading = Reading(get_profile("raw"), k=3)
    items = [Item(name, text=text) for name, text in _texts(20, 1)]
    items.insert(3, Item("short", text="два слова"))
    block = read_block(items, reading, minhash)  # type: ignore[arg-type]
    sets = [r[2] for r in block.results() if isinstance(r, tuple)]
    want, _, _ = _reference(sets, minhash)
    ok = [r is None for r in block.reasons]
    assert block.keys.dtype == np.uint64 and block.keys.shape == (21, minhash.banding[0])
    assert np.array_equal(block.keys[ok], want)
    assert not block.keys[3].any()  # the item that could not be read


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("memory", [0, 40_000, 4 * 10**9])
def test_clusters_equal_the_in_memory_path(tmp_path: Path, workers: int, memory: int) -> None:
    reading = Reading(get_profile("raw"))
    texts = _texts(300, 2)
    corpus = _write_corpus(tmp_path / "corpus.jsonl", texts)
    engine = LocalEngine(workers, Budget(memory, tmp_path))
    run = dedup_corpus([str(corpus)], reading=reading, engine=engine)
    want = _reference_result(_entries(texts, reading), MinHashSettings())
    _same(run.result, want)
    assert len(want.clusters) > 30 and run.failures == ()
    assert list(tmp_path.iterdir()) == [corpus]  # the spill directory is gone
    spilled = [n for n in run.result.notes if "spilled to a temporary file" in n]
    assert len(spilled) == (memory < 10**9)


def test_read_sources_are_never_signed_in_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With workers, the signatures of read sources are computed in them (a call made in a
    worker is recorded in its own copy of ``calls``); entries given ready are signed here."""
    calls: list[int] = []
    original = reading_module.signatures

    def counted(sets: list[np.ndarray], num_perm: int, seed: int) -> list[Signature]:
        calls.append(len(sets))
        return original(sets, num_perm, seed)

    monkeypatch.setattr(reading_module, "signatures", counted)
    reading = Reading(get_profile("raw"))
    texts = _texts(200, 3)
    given = _entries(texts[:5], reading)
    items = [Item(name, text=text) for name, text in texts]
    inputs = [given[0], *items[:100], *given[1:], *items[100:]]
    result, _ = LocalEngine(2).run(inputs, MinHashSettings(), reading)
    assert calls == [5]  # only the entries given ready, in one chunk
    want = _reference_result([given[0], *_entries(texts[:100], reading), *given[1:],
                              *_entries(texts[100:], reading)], MinHashSettings())  # fmt: skip
    _same(result, want)


def _families(draw: st.DrawFn) -> list[np.ndarray]:
    """Sets built from a few families: members share most of a family's base."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    sets = []
    for _ in range(draw(st.integers(1, 6))):
        base = rng.integers(0, 2**63, draw(st.integers(5, 80)), dtype=np.uint64)
        for _ in range(draw(st.integers(1, 12))):
            keep = rng.random(len(base)) < draw(st.floats(0.5, 1.0))
            extra = rng.integers(0, 2**63, draw(st.integers(0, 10)), dtype=np.uint64)
            member = np.unique(np.concatenate([base[keep], extra]))
            sets.append(member if len(member) else base[:1].copy())
    order = rng.permutation(len(sets))
    return [sets[i] for i in order]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), threshold=st.sampled_from([0.5, 0.7, 0.9]))
def test_dedup_equals_the_reference_on_random_families(
    data: st.DataObject, threshold: float
) -> None:
    sets = _families(data.draw)
    entries = [Entry(f"d{i}", s, len(s)) for i, s in enumerate(sets)]
    settings_ = MinHashSettings(threshold, 32, 7)
    _same(dedup(entries, settings_), _reference_result(entries, settings_))


def _components(
    sets: list[np.ndarray], verified: list[tuple[int, int, float]]
) -> set[frozenset[int]]:
    found = clusters([(str(i), Origin()) for i in range(len(sets))], verified, sets.__getitem__)
    return {frozenset(int(m) for m in c.members) for c in found}


@settings(max_examples=80, deadline=None)
@given(data=st.data(), limit=st.integers(1, 6), threshold=st.sampled_from([0.3, 0.6, 0.85]))
def test_walked_buckets_give_the_exact_components(
    data: st.DataObject, limit: int, threshold: float
) -> None:
    """Whatever the bucket limit, every reported pair is verified and the components equal
    those of all candidate pairs at or above the threshold."""
    sets = _families(data.draw)
    settings_ = MinHashSettings(threshold, 16, 3)
    keys, _, verified = _reference(sets, settings_)
    linked = link(buckets(keys, limit), lambda i: sets[i], threshold)
    for a, b, similarity in linked.verified:
        assert a < b and similarity >= threshold
        assert similarity == exact_jaccard(sets[a], sets[b])
    assert len({(a, b) for a, b, _ in linked.verified}) == len(linked.verified)
    assert _components(sets, linked.verified) == _components(sets, verified)


@pytest.mark.slow
def test_a_bucket_of_thousands_of_copies_is_one_cluster_quickly() -> None:
    """3,000 identical documents would make 4.5 million pairs in every band; walked, they take
    one verification each."""
    rng = np.random.default_rng(9)
    page = np.unique(rng.integers(0, 2**63, 300, dtype=np.uint64))
    entries = [Entry(f"copy-{i}", page.copy(), 1000) for i in range(3000)]
    noise = [np.unique(rng.integers(0, 2**63, 300, dtype=np.uint64)) for _ in range(500)]
    entries += [Entry(f"noise-{i}", s, 900) for i, s in enumerate(noise)]
    order = rng.permutation(len(entries))
    entries = [entries[i] for i in order]
    start = time.perf_counter()
    result = dedup(entries)
    assert time.perf_counter() - start < 20
    (cluster,) = result.clusters
    assert sorted(cluster.members) == sorted(f"copy-{i}" for i in range(3000))
    assert result.candidate_pairs < 3000 * 20  # linear in the bucket, not 4.5 million
    assert all(j == 1.0 for _, _, j in cluster.pairs) and len(cluster.pairs) == 2999


# ---------------------------------------------------------------- the store of shingle sets


@pytest.mark.parametrize("budget", [0, 800, 10**9])
def test_the_store_gives_back_every_set(tmp_path: Path, budget: int) -> None:
    rng = np.random.default_rng(budget)
    sets = [np.sort(rng.integers(0, 2**64 - 1, int(n), dtype=np.uint64)) for n in
            rng.integers(0, 40, 200)]  # fmt: skip
    with HashStore(budget, tmp_path) as store:
        for start in range(0, 200, 32):
            block = sets[start : start + 32]
            offsets = np.cumsum([0] + [len(s) for s in block])
            store.extend(np.concatenate(block), offsets)
        store.append(sets[0])
        assert len(store) == 201
        for i, s in enumerate([*sets, sets[0]]):
            assert store[i].dtype == np.uint64 and store[i].tolist() == s.tolist()
        total = sum(len(s) for s in sets) + len(sets[0])
        assert store.memory_bytes + store.spilled_bytes == 8 * total
        assert store.memory_bytes <= budget
        if budget < 8 * total:
            assert store.path is not None and store.path.name == SPILL_NAME
            assert store.path.stat().st_size == store.spilled_bytes
        path = store.path
    assert path is None or not path.parent.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_the_spill_file_is_gone_after_an_error_mid_run(
    tmp_path: Path, error: type[BaseException]
) -> None:
    seen: list[int] = []

    def inputs() -> Iterator[Item]:
        for i, (name, text) in enumerate(_texts(400, 4)):
            if i == 300:
                seen.extend(path.stat().st_size for path in tmp_path.rglob(SPILL_NAME))
                raise error("stop")
            yield Item(name, text=text)

    engine = LocalEngine(1, Budget(0, tmp_path))
    with pytest.raises(error):
        engine.run(inputs(), MinHashSettings(), Reading(get_profile("raw")))
    assert len(seen) == 1 and seen[0] > 100_000  # it was there while the run read
    assert list(tmp_path.iterdir()) == []


def test_memory_sizes_are_parsed() -> None:
    assert parse_size("4GB") == 4 * 10**9
    assert parse_size("500MB") == 500 * 10**6
    assert parse_size("0") == 0
    assert parse_size("1.5GiB") == 3 * 2**29
    assert parse_size(" 64 kb ") == 64_000
    assert Budget().memory == 4 * 10**9 and Budget().spill_dir is None
    for bad in ["", "abc", "-1", "5XB", "1.5.3", "GB", "4 G B"]:
        with pytest.raises(canon.OptionError) as info:
            parse_size(bad)
        assert info.value.option == "memory" and "--" not in str(info.value)
    for value in [-1, 1.5, "4GB", True]:
        with pytest.raises(canon.OptionError) as info:
            Budget(value)  # type: ignore[arg-type]
        assert info.value.option == "memory"


def test_a_spill_dir_must_be_a_writable_directory(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for bad in [tmp_path / "missing", tmp_path / "file", Path("/proc/self")]:
        with pytest.raises(canon.OptionError) as info:
            Budget(0, bad)
        assert info.value.option == "spill_dir"


def _canon(*args: str, cwd: Path) -> Ran:
    return run_cli("dedup", *args, cwd=cwd)


def test_the_command_line_takes_memory_and_spill_dir(tmp_path: Path) -> None:
    corpus = _write_corpus(tmp_path / "corpus.jsonl", _texts(150, 5))
    spill = tmp_path / "spill"
    spill.mkdir()
    common = [str(corpus), "-p", "raw", "--workers", "2"]
    default = _canon(*common, cwd=tmp_path)
    spilled = _canon(*common, "--memory", "0", "--spill-dir", str(spill), cwd=tmp_path)
    assert default.returncode == spilled.returncode == 0
    assert spilled.stdout == default.stdout and spilled.stdout.count("\n") > 10
    assert list(spill.iterdir()) == []
    for bad in ["lots", "-5GB", "4 PB"]:
        done = _canon(str(corpus), "--memory", bad, cwd=tmp_path)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "--memory" in done.stderr
        assert "Traceback" not in done.stderr
    for bad in [str(tmp_path / "missing"), "/proc/self"]:
        done = _canon(str(corpus), "--spill-dir", bad, cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.count("\n") == 1
        assert "--spill-dir" in done.stderr
