"""canon.dedup.reading: blocks of items read in worker processes, streamed in order, with
bounded read-ahead; workers leave their lemmas in the persisted cache."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import canon
from canon.canonical import clear_caches
from canon.dedup import LocalEngine
from canon.dedup.reading import AHEAD, BLOCK_ITEMS, read_block
from canon.dedup.run import dedup_corpus
from canon.dedup.settings import Reading
from canon.dedup.stages import Entry, iter_entries, read_entries
from canon.fingerprints.shingles import shingle_hashes
from canon.profile import get_profile
from canon.sources.collection import Failure, Item
from canon.text.lemma_cache import LemmaFile, lemma_file

WORDS = (
    "кошка ловила мышей в старом сарае пока дети читали книги о далёких морях и горах "
    "а взрослые обсуждали новости погоды урожая цен на рынке и планы на выходные дни"
).split()


def _text(i: int) -> str:
    rng = np.random.default_rng(i)
    return " ".join(rng.choice(WORDS, 40)) + "."


def _expected(item: Item, reading: Reading) -> Entry | Failure:
    assert item.text is not None
    tokens = canon.canonicalize(item.text, reading.profile).tokens
    if len(tokens) < reading.k:
        return Failure(item.source, "short")
    return Entry(item.source, shingle_hashes(tokens, reading.k), len(item.text))


def _inputs(n: int) -> list[Item | Entry]:
    """Texts, a few too short to shingle, and entries given as they are, mixed."""
    out: list[Item | Entry] = []
    for i in range(n):
        if i % 17 == 5:
            out.append(Entry(f"given-{i}", np.arange(i, i + 9, dtype=np.uint64), 9))
        elif i % 23 == 7:
            out.append(Item(f"short-{i}", text="два"))
        else:
            out.append(Item(f"doc-{i}", text=_text(i)))
    return out


def _same(got: list[Entry | Failure], want: list[Entry | Failure]) -> None:
    assert [type(x) for x in got] == [type(x) for x in want]
    for a, b in zip(got, want):
        assert a.source == b.source
        if isinstance(a, Entry) and isinstance(b, Entry):
            assert a.chars == b.chars and a.hashes.tolist() == b.hashes.tolist()
        else:
            assert isinstance(a, Failure) and a.reason == "too-short"  # left out by the run


@pytest.mark.parametrize("workers", [1, 2])
def test_blocks_in_workers_give_every_entry_in_input_order(workers: int) -> None:
    reading = Reading(get_profile("lemma"))
    inputs = _inputs(5 * BLOCK_ITEMS + 3)
    want = [x if isinstance(x, Entry) else _expected(x, reading) for x in inputs]
    _same(read_entries(inputs, reading, workers=workers), want)


def test_a_block_is_arrays_end_to_end() -> None:
    reading = Reading(get_profile("raw"), k=3)
    items = [Item("a", text="один два три четыре"), Item("b", text="раз"), Item("c", text=_text(1))]
    block = read_block(items, reading)  # type: ignore[arg-type]
    assert block.hashes.dtype == np.uint64 and block.offsets.tolist()[0] == 0
    assert block.reasons[0] is None and block.reasons[1] is not None and block.reasons[2] is None
    assert block.offsets[2] == block.offsets[1] == 2  # "b" has no hashes
    a, b, c = block.results()
    assert isinstance(b, Failure) and b.reason == "too-short"  # left out by the run
    assert a[2].tolist() == shingle_hashes(["один", "два", "три", "четыре"], 3).tolist()
    assert not isinstance(c, Failure) and c[1] == len(_text(1)) and len(c[2]) > 30


@pytest.mark.parametrize("workers", [1, 2])
def test_items_are_taken_only_as_needed(workers: int) -> None:
    """Texts stream: when the first entry comes out, only a few blocks have been read."""
    taken = 0

    def items() -> Iterator[Item]:
        nonlocal taken
        for i in range(100 * BLOCK_ITEMS):
            taken += 1
            yield Item(f"doc-{i}", text=_text(i % 50))

    stream = iter_entries(items(), Reading(get_profile("raw")), workers=workers)
    first = next(stream)
    assert isinstance(first, Entry) and first.source == "doc-0"
    assert taken <= (AHEAD * workers + 2) * BLOCK_ITEMS
    stream.close()  # abandoning the stream stops its workers


def test_workers_leave_their_lemmas_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CANON_CACHE_DIR", str(tmp_path / "cache"))
    clear_caches()  # the workers fork from a process that knows no lemma
    corpus = tmp_path / "corpus.jsonl"
    lines = [json.dumps({"id": f"d{i}", "text": _text(i)}, ensure_ascii=False) for i in range(99)]
    corpus.write_text("\n".join(lines) + "\n", "utf-8")
    dedup_corpus([str(corpus)], engine=LocalEngine(workers=2))
    cache = lemma_file()
    assert cache is not None
    forms, bases, _ = LemmaFile(cache.path, cache.key).load()
    lemmas = dict(zip(forms, bases))
    assert lemmas["мышей"] == "мышь" and lemmas["морях"] == "море"
    clear_caches()
