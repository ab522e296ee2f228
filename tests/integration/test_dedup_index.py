"""canon dedup --index: the index's stored signatures and band keys are used when the run's
MinHash settings match, its shingle sets are read a document at a time, and other settings are
recomputed from the stored sets (and said so) — the clusters the same every way."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from command import run_cli
from repo_paths import ROOT

from canon.canonical import canonicalize
from canon.dedup import LocalEngine, MinHashSettings, Origin, dedup
from canon.dedup import reading as reading_module
from canon.dedup.indexed import IndexDocuments, IndexReader
from canon.dedup.run import dedup_corpus
from canon.dedup.stages import DedupResult, Entry
from canon.fingerprints.lsh import optimal_bands
from canon.fingerprints.minhash import Signature
from canon.fingerprints.shingles import shingle_hashes
from canon.index.ingest import add_sources
from canon.index.rules import LSH_THRESHOLD
from canon.index.store import Index

REPO = ROOT
VOCABULARY = (
    "дом улица город река лес поле дорога машина поезд станция школа книга учитель ученик "
    "работа завод рынок цена товар деньги банк окно дверь стол стул лампа свет ночь утро "
    "вечер зима весна лето осень снег дождь ветер солнце небо море берег остров гора"
).split()


def _texts(count: int, seed: int) -> list[tuple[str, str]]:
    """Texts of 80 words; every 5th a near-copy of the one before, every 9th an exact one."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    own: list[str] = []
    for i in range(count):
        if i % 5 == 1:
            own = [rng.choice(VOCABULARY) if rng.random() < 0.04 else w for w in own]
        elif i % 9 != 2:
            own = [rng.choice(VOCABULARY) for _ in range(80)]
        out.append((f"doc-{i:04d}", " ".join(own)))
    return out


def _jsonl(path: Path, texts: list[tuple[str, str]]) -> Path:
    lines = [json.dumps({"id": n, "text": t}, ensure_ascii=False) for n, t in texts]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("indexed")
    db = folder / "corpus.db"
    with Index(db, create=True) as index:
        report = add_sources(index, [str(_jsonl(folder / "corpus.jsonl", _texts(240, 1)))])
    assert report.added == 240
    return db


def _stored_entries(db: Path) -> list[Entry]:
    with Index(db, readonly=True) as index:
        (profile,) = [p for p in index.profiles() if p.name == "lemma"]
        return [Entry(s, h, c) for s, c, h in index.shingle_sets(profile)]


def _same(a: DedupResult, b: DedupResult) -> None:
    assert a.clusters == b.clusters
    assert (a.documents, a.candidate_pairs, a.verified_pairs) == (
        b.documents,
        b.candidate_pairs,
        b.verified_pairs,
    )


class _Counted:
    """Calls of the signature function, and shingle sets read from the index."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.signed = 0
        self.reads = 0
        self.read: set[int] = set()  # the positions whose sets were read
        sign, read = reading_module.signatures, IndexReader.hashes

        def signatures(sets: list[np.ndarray], num_perm: int, seed: int) -> list[Signature]:
            self.signed += len(sets)
            return sign(sets, num_perm, seed)

        def hashes(reader: IndexReader, position: int) -> np.ndarray:
            self.reads += 1
            self.read.add(position)
            return read(reader, position)

        monkeypatch.setattr(reading_module, "signatures", signatures)
        monkeypatch.setattr(IndexReader, "hashes", hashes)


@pytest.mark.parametrize(
    ("settings", "origin"),
    [
        (MinHashSettings(LSH_THRESHOLD), "bands"),  # the index's own banding
        (MinHashSettings(0.8), "signatures"),  # its signatures, other bands
        (MinHashSettings(0.8, 64), "recomputed"),
        (MinHashSettings(0.7, 128, 9), "recomputed"),
    ],
)
def test_stored_or_recomputed_the_clusters_are_the_same(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, settings: MinHashSettings, origin: str
) -> None:
    entries = _stored_entries(indexed)
    want = dedup(entries, settings)
    documents = IndexDocuments.choose(indexed, "lemma")
    with documents.reader() as reader:
        assert reader.keys(settings)[1].kind == origin
    counted = _Counted(monkeypatch)
    run = dedup_corpus(index=indexed, settings=settings)
    _same(run.result, want)
    assert len(want.clusters) > 20
    if origin == "recomputed":
        assert counted.signed == len(entries)  # every set once, in chunks
        (note,) = run.result.notes
        assert "recomputed" in note and f"num_perm {settings.num_perm}" in note
    else:
        assert counted.signed == 0 and run.result.notes == ()
    # Sets are read only for the pairs verified, then once for each member of a cluster (to
    # choose the one to keep), not all at once.
    assert 0 < counted.reads <= 2 * run.result.candidate_pairs + run.result.in_clusters
    assert len(counted.read) < len(entries)


def test_the_stored_band_keys_are_the_index_banding(indexed: Path) -> None:
    documents = IndexDocuments.choose(indexed, "lemma")
    assert (documents.profile.bands, documents.profile.rows) == optimal_bands(LSH_THRESHOLD, 128)
    with documents.reader() as reader:
        stored, _ = reader.keys(MinHashSettings(LSH_THRESHOLD))
        from_signatures = reader._from_signatures(MinHashSettings(LSH_THRESHOLD))
        recomputed = reader._recomputed(MinHashSettings(LSH_THRESHOLD))
    assert stored.shape == (240, documents.profile.bands)
    assert np.array_equal(stored, from_signatures) and np.array_equal(stored, recomputed)


@pytest.mark.parametrize("workers", [1, 2])
def test_an_index_and_sources_together(indexed: Path, tmp_path: Path, workers: int) -> None:
    """Sources that repeat some of the index's documents join their clusters."""
    more = _texts(240, 1)[::7] + _texts(80, 2)
    corpus = _jsonl(tmp_path / "more.jsonl", [(f"new-{n}", t) for n, t in more])
    run = dedup_corpus([str(corpus)], index=indexed, engine=LocalEngine(workers))
    # The sources are the run's first SOURCE argument; the index's documents come before it.
    read = [
        Entry(f"new-{n}", shingle_hashes(canonicalize(t, "lemma").tokens, 4), len(t), Origin(1))
        for n, t in more
    ]
    _same(run.result, dedup([*_stored_entries(indexed), *read]))
    assert any(
        any(m.startswith("new-") for m in c.members)
        and any(m.startswith("doc-") for m in c.members)
        for c in run.result.clusters
    )


def test_the_command_line_says_when_it_recomputes(indexed: Path, tmp_path: Path) -> None:
    command = ["dedup", "--index", str(indexed)]
    stored = run_cli(*command)
    again = run_cli(*command, "--num-perm", "64")
    assert stored.returncode == again.returncode == 0
    assert "recomputed" not in stored.stderr
    assert "note: signatures recomputed from the index's shingle sets" in again.stderr
    assert stored.stdout.count("\n") > 20
