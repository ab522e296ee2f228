"""Writes and lookups against a reference: what the tables answer equals what the documents hold.

The reference is the hash sets themselves, computed directly from the corpus texts.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from corpora import make_corpus

import canon
import canon.fingerprints.minhash
from canon import Index, IndexRules
from canon.index.prepare import prepare_all
from canon.index.segments import BANDS
from canon.sources.collection import Item

RAW = canon.get_profile("raw")
K = 3


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, set[int]]]:
    folder = tmp_path_factory.mktemp("lookups")
    texts = make_corpus(folder / "docs", 12, seed=5)
    db = folder / "l.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index, [str(folder / "docs")], canon.IndexRules([RAW], k=K), canon.AddSettings(batch=5)
        )
    sets = {
        source: set(canon.shingle_hashes(canon.canonicalize(text, RAW).tokens, K).tolist())
        for source, text in texts.items()
    }
    return db, sets


def test_stored_sets_are_the_documents_sets(built) -> None:
    db, sets = built
    with Index(db, readonly=True) as index:
        (profile,) = index.profiles()
        stored = {source: set(h.tolist()) for source, _, h in index.shingle_sets(profile)}
        ids = {d["source"]: d["id"] for d in index.documents()}
        counts = index.shingle_counts(profile, ids.values())
        names = index.sources(ids.values())
    assert stored == sets
    assert {s: counts[i] for s, i in ids.items()} == {s: len(h) for s, h in sets.items()}
    assert {i: name for i, (name, _) in names.items()} == {i: s for s, i in ids.items()}


@pytest.mark.parametrize("common", [None, 1, 2, 5])
def test_postings_equal_a_scan_of_every_document(built, common: int | None) -> None:
    db, sets = built
    draft = set().union(*list(sets.values())[:3]) | {12345, 2**64 - 7}  # two hashes none hold
    with Index(db, readonly=True) as index:
        (profile,) = index.profiles()
        ids = {d["source"]: d["id"] for d in index.documents()}
        rows, frequent = index.postings(profile, np.array(sorted(draft), dtype=np.uint64), common)
    holders = Counter(h for h in draft for s in sets.values() if h in s)
    expected_frequent = {h for h, n in holders.items() if common is not None and n > common}
    expected = {
        (h, ids[s]) for s, hs in sets.items() for h in hs & draft if h not in expected_frequent
    }
    as_unsigned = {(int(np.int64(h).view(np.uint64)), d) for h, d in rows}
    assert as_unsigned == expected and len(rows) == len(expected)
    assert {int(np.int64(h).view(np.uint64)) for h in frequent} == expected_frequent


def test_a_source_twice_in_one_batch_is_stored_once(tmp_path: Path) -> None:
    first = "Первый вариант текста о прогулках по осеннему парку и пользе свежего воздуха"
    second = "Второй вариант текста о рыбалке на рассвете и тишине над спокойной рекой"
    items = [Item("same", text=first), Item("same", text=second)]
    prepared = list(prepare_all(items, IndexRules([RAW], k=K)))
    with Index(tmp_path / "twice.db", create=True) as index:
        profiles = index.use_profiles([RAW], K, 1)
        assert index.write_batch(prepared, profiles) == 1
        (profile,) = profiles
        ((source, _, hashes),) = list(index.shingle_sets(profile))
        rows = len(index.posting_rows(profile)[0])
        bands = len(index.posting_rows(profile, BANDS)[0])
    assert source == "same"
    expected = canon.shingle_hashes(canon.canonicalize(second, RAW).tokens, K)
    assert hashes.tolist() == sorted(set(expected.tolist()))
    assert rows == len(hashes) and bands == profile.bands


def test_similar_returns_band_neighbours_with_their_sets(built) -> None:
    db, sets = built
    source, own = sorted(sets.items())[0]
    with Index(db, readonly=True) as index:
        (profile,) = index.profiles()
        ids = {d["source"]: d["id"] for d in index.documents()}
        own_hashes = np.array(sorted(own), dtype=np.uint64)
        signature = canon.fingerprints.minhash.signatures([own_hashes])[0]
        found = index.similar(profile, signature)
    by_id = {doc: (sig, hashes) for doc, sig, hashes in found}
    assert ids[source] in by_id  # a document is its own neighbour
    sig, hashes = by_id[ids[source]]
    assert set(hashes.tolist()) == own and np.array_equal(sig.values, signature.values)
