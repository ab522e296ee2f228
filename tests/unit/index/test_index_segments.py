"""Segmented postings: lookups equal a model through adds, removes, re-adds and merges; orphans
are deleted and never counted; a reader keeps a consistent snapshot while a writer merges; a
SIGKILL inside a merge loses nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from corpora import brute_force, make_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repo_paths import ROOT

import canon
from canon import Index
from canon.index import merging
from canon.index.manifest import read_manifest
from canon.index.mapping import Mapped
from canon.index.segments import BANDS, SHINGLES, SegmentInfo, folder_of
from canon.index.writes import Prepared

RAW = canon.get_profile("raw")


def _doc(source: str, hashes: set[int]) -> Prepared:
    array = np.array(sorted(hashes), dtype=np.uint64)
    return Prepared(source, None, "text", 10, source, None, {RAW.fingerprint: (len(array), array)})


def _streams(index: Index) -> Counter[tuple[int, int]]:
    """How many segments each stream ``(profile id, kind)`` of the index has."""
    return Counter(info.stream for info in read_manifest(index._db).segments)


def _lookup(index: Index, probes: list[int], common: int | None) -> tuple[set, set]:
    (profile,) = index.profiles()
    rows, frequent = index.postings(profile, np.array(probes, dtype=np.uint64), common)
    unsigned = {(int(np.int64(h).view(np.uint64)), d) for h, d in rows}
    return unsigned, {int(np.int64(h).view(np.uint64)) for h in frequent}


def _expected(model: dict[str, set[int]], ids: dict[str, int], probes, common):
    holders: dict[int, int] = {}
    for hashes in model.values():
        for h in hashes:
            holders[h] = holders.get(h, 0) + 1
    frequent = {h for h in probes if common is not None and holders.get(h, 0) > common}
    rows = {(h, ids[s]) for s, hs in model.items() for h in hs if h in probes and h not in frequent}
    return rows, frequent


operations = st.lists(
    st.tuples(
        st.sampled_from(["add", "remove", "merge", "optimize"]),
        st.integers(0, 7),  # which source
        st.sets(st.integers(0, 40), min_size=1, max_size=12),  # its hashes (a small pool)
    ),
    min_size=1,
    max_size=25,
)


@pytest.mark.slow
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=operations, common=st.sampled_from([None, 1, 2, 4]), chunk=st.sampled_from([3, 0]))
def test_lookups_equal_a_model_through_adds_removes_and_merges(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, ops, common, chunk
) -> None:
    monkeypatch.setattr(merging, "MERGE_FACTOR", 2)  # merges at every other segment
    if chunk:  # merges stream a few postings at a time
        monkeypatch.setattr(merging, "CHUNK_ROWS", chunk)
    db = tmp_path_factory.mktemp("model") / "m.db"
    model: dict[str, set[int]] = {}
    with Index(db, create=True) as index:
        (profile,) = index.use_profiles([RAW], 4, 1)
        for op, which, hashes in ops:
            source = f"s{which}"
            if op == "add":
                index.write_batch([_doc(source, hashes)], [profile])
                model[source] = hashes
            elif op == "remove":
                assert index.remove([source]) == (source in model)
                model.pop(source, None)
            elif op == "merge":
                index.merge()
            else:
                index.optimize()
                assert index.stats().tombstones == 0
            ids = {d["source"]: d["id"] for d in index.documents()}
            probes = list(range(41))
            assert _lookup(index, probes, common) == _expected(model, ids, probes, common)
        held, docs = index.posting_rows(profile)
        assert len(held) == sum(len(h) for h in model.values())
        assert set(docs.tolist()) == set(ids.values())


@pytest.mark.slow
def test_many_batches_merge_into_few_segments_and_check_equals_brute_force(
    tmp_path: Path,
) -> None:
    docs = make_corpus(tmp_path / "docs", 60, seed=5)
    db = tmp_path / "many.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index,
            [str(tmp_path / "docs")],
            canon.IndexRules([RAW], k=4),
            canon.AddSettings(batch=1),
        )
        segments = index.stats().segments
        streams = _streams(index)
        assert set(streams) == {(1, SHINGLES), (1, BANDS)}
        # 60 batches, merged as they came
        assert all(count < merging.MERGE_FACTOR * 2 for count in streams.values())
    umask = os.umask(0)
    os.umask(umask)
    files = list(folder_of(db).glob("*.npy"))
    assert len(files) == 2 * segments  # the merged-away files are gone
    assert {f.stat().st_mode & 0o777 for f in files} == {0o666 & ~umask}  # plain data files
    with Index(db, readonly=True) as index:
        draft = " ".join(list(docs.values())[:3])
        result = canon.check(draft, index, canon.CheckSettings(top=1000, min_shared=1)).profiles[0]
    uniqueness, per_source = brute_force(draft, docs, "raw", 4)
    assert result.uniqueness == pytest.approx(uniqueness)
    assert {m.source: m.shared for m in result.sources} == {
        s: shared for s, (shared, _, _) in per_source.items()
    }


def _stray(db: Path, name: str) -> list[Path]:
    folder = folder_of(db)
    files = [folder / f"{name}.hashes.npy", folder / f"{name}.docs.npy"]
    np.save(files[0], np.array([1, 2, 3], dtype="<u8"))
    np.save(files[1], np.array([1, 1, 1], dtype="<u4"))
    return files


def test_orphans_are_never_counted_and_a_writer_deletes_them(tmp_path: Path) -> None:
    make_corpus(tmp_path / "docs", 4)
    db = tmp_path / "o.db"
    with Index(db, create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules([RAW], k=4))
    orphans = _stray(db, "0123456789abcdef")
    with Index(db, readonly=True) as index:
        (profile,) = index.profiles()
        stats = index.stats()
        hashes, _ = index.posting_rows(profile)
        assert len(hashes) == stats.profiles[0][1]  # the orphan's 3 postings are not counted
        assert not {1, 2, 3} & set(hashes.tolist())
    assert all(f.exists() for f in orphans)  # a reader deletes nothing
    with Index(db) as index:
        assert index.stats().segments == stats.segments
    assert not any(f.exists() for f in orphans)


def test_a_reader_keeps_its_snapshot_while_a_writer_merges(tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 12, seed=2)
    items = sorted(docs)
    db = tmp_path / "snap.db"
    with Index(db, create=True) as writer:
        for item in items[:6]:
            canon.add_sources(
                writer, [item], canon.IndexRules([RAW], k=4), canon.AddSettings(merge=False)
            )
    draft = docs[items[0]] + " " + docs[items[8]]
    probes = canon.shingle_hashes(canon.canonicalize(draft, RAW).tokens, 4)
    with Index(db, readonly=True) as reader:
        before = canon.check(draft, reader).profiles[0]
        snapshot = reader._snapshot
        assert snapshot is not None
        (profile,) = reader.profiles()
        first = snapshot.lookup((profile.id, SHINGLES), probes, None)
        held = set(folder_of(db).iterdir())
        with Index(db) as writer:
            canon.add_sources(writer, items[6:], canon.IndexRules([RAW], k=4))
            writer.remove([items[1]])
            assert writer.optimize().segments_after == 2  # one for each stream
        assert held <= set(folder_of(db).iterdir())  # the reader holds them: none deleted
        old = snapshot.lookup(
            (profile.id, SHINGLES), probes, None
        )  # the old snapshot answers as before
        assert all(np.array_equal(a, b) for a, b in zip(old, first, strict=True))
        after = canon.check(draft, reader).profiles[0]  # a new manifest: a new snapshot
        assert reader._snapshot is not snapshot
    assert before.uniqueness > after.uniqueness
    assert {m.source for m in before.sources} <= set(items[:6])  # what the snapshot held
    assert items[1] not in {m.source for m in after.sources}
    assert items[8] in {m.source for m in after.sources}
    with Index(db) as writer:  # no reader now: the replaced files go
        assert writer.stats().segments == 2
    assert len(list(folder_of(db).glob("*.hashes.npy"))) == 2


@pytest.mark.slow
def test_readers_see_whole_batches_while_an_add_merges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(merging, "MERGE_FACTOR", 2)
    docs = make_corpus(tmp_path / "docs", 40, seed=9)
    db = tmp_path / "c.db"
    sets = {s: canon.shingle_hashes(canon.canonicalize(t, RAW).tokens, 4) for s, t in docs.items()}
    with Index(db, create=True) as index:
        index.use_profiles([RAW], 4, 1)
    errors: list[BaseException] = []

    def add() -> None:
        try:
            with Index(db) as writer:
                canon.add_sources(
                    writer,
                    [str(tmp_path / "docs")],
                    canon.IndexRules([RAW], k=4),
                    canon.AddSettings(batch=2),
                )
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=add)
    thread.start()
    probes = np.unique(np.concatenate(list(sets.values())))
    seen = 0
    while thread.is_alive() or seen == 0:
        with Index(db, readonly=True) as reader:
            (profile,) = reader.profiles()
            snapshot = reader._current()
            found, held, _ = snapshot.lookup(profile.id, probes, None)
            names = reader.sources(set(held.tolist()))
        by_doc: dict[int, set[int]] = {}
        for h, d in zip(found.tolist(), held.tolist(), strict=True):
            by_doc.setdefault(d, set()).add(h)
        for doc, hashes in by_doc.items():  # every document complete, none half-visible
            assert hashes == set(sets[names[doc][0]].tolist())
        seen += 1
        if not thread.is_alive():
            break
    thread.join()
    assert not errors and seen > 1


_KILLED_MERGE = """
import sys, time
from pathlib import Path
from canon.index import manifest, merging, segments
point = sys.argv[2]
original_write, original_replace = segments.Staged.write_chunks, manifest.replace_segments
def write(self, *args):
    info = original_write(self, *args)
    if point == "written":
        Path(sys.argv[3]).touch(); time.sleep(60)
    return info
def replace(db, *args):
    done = original_replace(db, *args)
    if point == "committed":
        db.execute("COMMIT"); Path(sys.argv[3]).touch(); time.sleep(60)
    return done
segments.Staged.write_chunks = write
merging.Staged = segments.Staged
merging.replace_segments = replace
from canon import Index
with Index(sys.argv[1]) as index:
    index.optimize()
"""


def _mapped(hashes: np.ndarray, docs: np.ndarray, folder: Path, name: str) -> Mapped:
    """A segment saved and mapped as a merge maps it (held by no lock: nothing deletes it)."""
    order = np.lexsort((docs, hashes))
    np.save(folder / f"{name}.h.npy", hashes[order].astype("<u8"))
    np.save(folder / f"{name}.d.npy", docs[order].astype("<u4"))
    mapped_hashes = np.load(folder / f"{name}.h.npy", mmap_mode="r")
    mapped_docs = np.load(folder / f"{name}.d.npy", mmap_mode="r")
    info = SegmentInfo(name, 1, len(hashes), int(docs.min()), int(docs.max()))
    return Mapped(info, mapped_hashes, mapped_docs, -1)


segment_sets = st.lists(
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 30)), min_size=1, max_size=40),
    min_size=1,
    max_size=5,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(groups=segment_sets, dead=st.sets(st.integers(1, 30), max_size=8), chunk=st.integers(1, 9))
def test_a_streamed_merge_equals_sorting_everything_at_once(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, groups, dead, chunk
) -> None:
    monkeypatch.setattr(merging, "CHUNK_ROWS", chunk)
    folder = tmp_path_factory.mktemp("merge")
    pairs = [sorted(set(g)) for g in groups]
    mapped = [
        _mapped(
            np.array([h for h, _ in g], np.uint64), np.array([d for _, d in g]), folder, f"s{i}"
        )
        for i, g in enumerate(pairs)
    ]
    dead_ids = np.array(sorted(dead), dtype=np.uint32)
    live = sorted((h, d) for g in pairs for h, d in g if d not in dead)  # by hash, then doc
    rows, doc_range = merging._live(mapped, dead_ids)
    chunks = list(merging._chunks(mapped, dead_ids, ordered=False))
    merged = [(int(h), int(d)) for hs, ds in chunks for h, d in zip(hs, ds)]
    assert merged == live and rows == len(live)
    if live and len(dead_ids):
        assert doc_range == (min(d for _, d in live), max(d for _, d in live))


def test_a_merge_holds_a_chunk_of_postings_not_the_segments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tracemalloc

    rng = np.random.default_rng(3)
    size = 1_000_000
    mapped = [
        _mapped(
            rng.integers(0, 2**63, size, dtype=np.uint64), np.full(size, i + 1), tmp_path, f"m{i}"
        )
        for i in range(2)
    ]  # 24 MB of postings
    monkeypatch.setattr(merging, "CHUNK_ROWS", 50_000)
    tracemalloc.start()
    try:
        rows = sum(len(h) for h, _ in merging._chunks(mapped, np.array([2], np.uint32), True))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rows == size  # the second segment's document was removed
    assert peak < 6_000_000  # all at once: 24 MB of inputs and as much again sorted


@pytest.mark.slow
@pytest.mark.parametrize("point", ["written", "committed"])
def test_sigkill_inside_a_merge_loses_nothing(tmp_path: Path, point: str) -> None:
    docs = make_corpus(tmp_path / "docs", 30, seed=4)
    db = tmp_path / "k.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index,
            [str(tmp_path / "docs")],
            canon.IndexRules([RAW], k=4),
            canon.AddSettings(batch=3, merge=False),
        )
        index.remove([sorted(docs)[0]])
        segments_before = index.stats().segments
        streams = _streams(index)
    first = streams[(1, SHINGLES)]  # optimize merges the shingle stream first
    draft = " ".join(sorted(docs.values())[:4])
    with Index(db, readonly=True) as index:
        expected = canon.check(draft, index, canon.CheckSettings(top=1000, min_shared=1)).profiles[
            0
        ]
    marker = tmp_path / "at-the-point"
    script = textwrap.dedent(_KILLED_MERGE)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", script, str(db), point, str(marker)], env=env)
    deadline = time.monotonic() + 60
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert marker.exists(), "the merge never reached the point"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()

    files = len(list(folder_of(db).glob("*.hashes.npy")))
    with Index(db, readonly=True) as index:
        stats = index.stats()
        listed = stats.segments
        again = canon.check(draft, index, canon.CheckSettings(top=1000, min_shared=1)).profiles[0]
    assert files == listed + (1 if point == "written" else first)  # orphans on disk
    assert listed == (segments_before if point == "written" else segments_before - first + 1)
    assert again.uniqueness == expected.uniqueness
    assert [(m.source, m.shared) for m in again.sources] == [
        (m.source, m.shared) for m in expected.sources
    ]
    with Index(db) as index:  # the next writer deletes the orphans; optimize finishes
        assert len(list(folder_of(db).glob("*.hashes.npy"))) == listed
        index.optimize()
        assert index.stats().segments == len(streams) and index.stats().tombstones == 0
        final = canon.check(draft, index, canon.CheckSettings(top=1000, min_shared=1)).profiles[0]
    assert final.uniqueness == expected.uniqueness
