"""index add streams its inputs: the same index as reading everything first, in bounded memory.

The sources are read as the add goes, so how far reading has got is watched where it happens:
the offset of the JSON Lines file's open descriptor in ``/proc/self/fdinfo`` (Linux), compared,
at every progress call, with the documents the writer has taken.  Reading everything first
(as ``index add`` once did) shows up there as the whole file read before the first document
is written.  Preparation and fetching are watched the same way, by counting how many items
were taken from a generator against how many results came back.
"""

from __future__ import annotations

import io
import json
import os
import time
from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from audit_site import Page, paragraphs, sentences, serve
from hypothesis import given, settings
from hypothesis import strategies as st

import canon
from canon import AddSettings, Index, IndexRules
from canon.index.ingest import Progress, add_sources
from canon.index.prepare import AHEAD, BLOCK_ITEMS, prepare_all
from canon.sources.collection import Item, LeftOut, count_entries, expand
from canon.sources.fetch import FetchOptions
from canon.sources.fetch import Page as FetchedPage
from canon.sources.items import FETCH_BLOCK, Fetched, fetched_ahead

K = 4
RAW = canon.get_profile("raw")


def _text(seed: int, count: int = 8) -> str:
    return " ".join(sentences(seed, count))


def _jsonl(path: Path, records: list[object]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _mix(tmp_path: Path) -> tuple[list[str], dict[str, str], set[str]]:
    """SOURCE arguments of every kind, the documents they name (source → text, in the order an
    add meets them first) and the sources that fail."""
    folder = tmp_path / "folder"
    (folder / "deep").mkdir(parents=True)
    expected: dict[str, str] = {}
    for name in ("a.txt", "deep/b.md", "c.txt"):
        path = folder / name
        path.write_text(_text(len(name)), "utf-8")
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        expected[str(path)] = path.read_text("utf-8")
    single = tmp_path / "single.txt"
    single.write_text(_text(101), "utf-8")
    short = tmp_path / "short.txt"
    short.write_text("два слова", "utf-8")
    corpus = tmp_path / "corpus.jsonl"
    records: list[object] = [
        {"id": "j1", "text": _text(201)},
        {"id": "j2", "text": _text(202)},
        "",
        "{not json",
        {"id": "j1", "text": _text(203)},  # a repeated source: the first one is read
        {"id": "j3", "text": _text(204)},
    ]
    _jsonl(corpus, records)
    expected[str(single)] = single.read_text("utf-8")
    expected.update({"j1": _text(201), "j2": _text(202), "j3": _text(204)})
    sources = [
        str(folder),
        str(single),
        str(short),
        str(corpus),
        str(folder / "a.txt"),  # named again, through its folder first
        str(single),  # named twice
    ]
    return sources, expected, {f"{corpus}:4"}  # short.txt is left out, not failed


def _stored(db: Path) -> tuple[list[str], dict[str, str], dict[str, dict[str, list[int]]]]:
    """What an index holds: its sources in the order added, their texts, their shingle sets."""
    with Index(db, readonly=True) as index:
        ids = {str(d["source"]): int(str(d["id"])) for d in index.documents()}
        texts = index.texts(ids.values())
        sets = {
            p.name: {source: hashes.tolist() for source, _, hashes in index.shingle_sets(p)}
            for p in index.profiles()
        }
    return list(ids), {source: texts[doc] for source, doc in ids.items()}, sets


@pytest.mark.parametrize("workers", [1, 2])
def test_a_streamed_add_stores_what_the_sources_name(tmp_path: Path, workers: int) -> None:
    sources, expected, failing = _mix(tmp_path)
    heard: list[Progress] = []
    db = tmp_path / "mix.db"
    with Index(db, create=True) as index:
        report = add_sources(
            index, sources, settings=AddSettings(workers=workers, batch=3), on_progress=heard.append
        )
    assert (report.added, report.replaced, report.skipped) == (len(expected), 0, 0)
    assert {f.source for f in report.failures} == failing
    assert [(e.source, e.reason) for e in report.left_out] == [(str(tmp_path / "short.txt"),
                                                                 "too-short")]  # fmt: skip
    order, texts, sets = _stored(db)
    assert order == list(expected)  # in the order of the sources, each at its first entry
    assert texts == expected
    for profile in ("raw", "lemma"):
        assert sets[profile] == {
            source: sorted(
                set(canon.shingle_hashes(canon.canonicalize(t, profile).tokens, K).tolist())
            )
            for source, t in expected.items()
        }
    entries = len(list(expand(sources)))  # every entry, the repeated and the failing too
    assert heard[-1].done == heard[-1].total == entries
    assert all(p.total == entries for p in heard)  # the count is exact for these inputs
    assert [p.done for p in heard] == sorted(p.done for p in heard)
    with Index(db) as index:  # added again: every document unchanged
        again = add_sources(index, sources, settings=AddSettings(workers=workers))
    assert (again.added, again.replaced, again.skipped) == (0, 0, len(expected))


def test_workers_one_and_two_make_the_same_index(tmp_path: Path) -> None:
    sources, _, _ = _mix(tmp_path)
    found = []
    for workers in (1, 2):
        db = tmp_path / f"w{workers}.db"
        with Index(db, create=True) as index:
            add_sources(index, sources, settings=AddSettings(workers=workers, batch=2))
        found.append(_stored(db))
    assert found[0] == found[1]


def _open_offset(path: Path) -> int | None:
    """How far this process has read ``path``: its open descriptor's offset (None: not open)."""
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") != str(path):
                continue
            with open(f"/proc/self/fdinfo/{fd}") as info:
                return int(info.readline().split()[1])  # "pos:\t<offset>"
        except OSError:  # closed meanwhile (the listing's own descriptor, say)
            continue
    return None


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("workers", [1, 2])
def test_reading_stays_a_bounded_distance_ahead_of_writing(tmp_path: Path, workers: int) -> None:
    count, batch = 2500, 50
    corpus = _jsonl(
        tmp_path / "big.jsonl", [{"id": f"d{i}", "text": _text(10_000 + i)} for i in range(count)]
    )
    ends = np.cumsum([len(line) for line in corpus.read_bytes().splitlines(keepends=True)])
    shortest = int(np.diff(ends, prepend=0).min())
    ahead: list[int] = []

    def watch(progress: Progress) -> None:
        offset = _open_offset(corpus)
        read = count if offset is None else bisect_right(ends.tolist(), offset)
        ahead.append(read - progress.done)  # closed once done: read to its end

    with Index(tmp_path / "big.db", create=True) as index:
        report = add_sources(
            index,
            [str(corpus)],
            IndexRules([RAW], k=K),
            AddSettings(workers=workers, batch=batch),
            on_progress=watch,
        )
    jobs = max(AHEAD * workers, -(-batch // BLOCK_ITEMS))
    bound = FETCH_BLOCK + (jobs + 1) * BLOCK_ITEMS + io.DEFAULT_BUFFER_SIZE // shortest + 1
    assert max(ahead) <= bound < count / 5, (max(ahead), bound)
    assert report.added == count and len(ahead) == count + 1  # and the last: all done
    assert ahead[-1] == 0


class _Counted:
    """Items, counted as they are taken (a sized input, so a reader that lists it first can
    still be given one)."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.taken = 0

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Item]:
        for item in self.items:
            self.taken += 1
            yield item


def test_preparing_takes_items_only_as_results_are_taken(tmp_path: Path) -> None:
    items = [Item(f"s{i}", text=_text(i, 2)) for i in range(600)]
    counted, workers = _Counted(items), 2
    ahead, order = [], []
    for result in prepare_all(counted, IndexRules([RAW], k=K), AddSettings(workers=workers)):
        order.append(result.source)
        ahead.append(counted.taken - len(order))
        time.sleep(0.002)  # a consumer slower than the workers: a writer, say
    assert order == [item.source for item in items]
    assert max(ahead) <= FETCH_BLOCK + (AHEAD * workers + 1) * BLOCK_ITEMS, max(ahead)


def test_prepared_results_equal_the_serial_ones() -> None:
    items = [Item(f"s{i}", text=_text(i, 3)) for i in range(40)] + [Item("x", text="мало")]
    serial = list(
        prepare_all(items, IndexRules([RAW], k=K), AddSettings(workers=1, store_text=False))
    )
    pooled = list(
        prepare_all(items, IndexRules([RAW], k=K), AddSettings(workers=2, store_text=False))
    )
    assert [type(r) for r in pooled] == [type(r) for r in serial]
    assert pooled[-1] == LeftOut("x", "too-short")  # fewer words than k: left out, reported
    for one, other in zip(serial[:-1], pooled[:-1], strict=True):
        assert (one.source, one.content_hash) == (other.source, other.content_hash)
        (words, hashes), (their_words, theirs) = (
            one.shingles[RAW.fingerprint],
            other.shingles[RAW.fingerprint],
        )
        assert (words, hashes.tolist()) == (their_words, theirs.tolist())


@pytest.mark.network
def test_urls_are_fetched_a_block_at_a_time_and_together_within_one() -> None:
    site = {f"/p/{n}": Page(f"Страница {n}", paragraphs(sentences(n, 10))) for n in range(100)}
    with serve(delay=0.01, site=site) as served:
        items = []
        for n in range(300):
            if n % 3 == 0:
                items.append(Item(served.url(f"/p/{n // 3}")))
            else:
                items.append(Item(f"t{n}", text=_text(n, 2)))
        counted = _Counted(items)
        out, ahead = [], []
        for got in fetched_ahead(counted, FetchOptions(allow_private=True)):
            out.append(got)
            ahead.append(counted.taken - len(out))
        requests, most = list(served.log.requests), served.log.most
    assert [x.source for x in out] == [x.source for x in items]
    fetched = [x for x in out if isinstance(x, Fetched)]
    assert len(fetched) == 100 and all(isinstance(x.page, FetchedPage) for x in fetched)
    assert sorted(requests) == sorted(f"/p/{n}" for n in range(100))  # each URL once
    assert most >= 2  # fetched together
    assert max(ahead) < FETCH_BLOCK


LINES = st.one_of(
    st.builds(lambda i: json.dumps({"id": i, "text": "т"}), st.integers(0, 5)),
    st.builds(lambda u: json.dumps({"url": u, "html": "<p>т</p>"}), st.sampled_from("ab")),
    st.sampled_from(["", "   ", "\t", "\u00a0", " \u2003 ", "{", "[1]", '{"id": 1}', "ъ"]),
)


@settings(max_examples=60, deadline=None)
@given(files=st.lists(st.lists(LINES, max_size=12), min_size=1, max_size=3))
def test_counting_the_entries_agrees_with_listing_them(
    tmp_path_factory: pytest.TempPathFactory, files: list[list[str]]
) -> None:
    folder = tmp_path_factory.mktemp("count")
    (folder / "docs").mkdir()
    (folder / "docs" / "a.txt").write_text("текст", "utf-8")
    (folder / "list.txt").write_text("# a comment\nhttps://example.org/\n\n/x.txt\n", "utf-8")
    sources = [str(folder / "docs"), f"@{folder / 'list.txt'}", "https://example.org/a"]
    sources += [f"@{folder / 'missing.txt'}", str(folder / "missing.jsonl")]
    for n, lines in enumerate(files):
        path = folder / f"f{n}.jsonl"
        path.write_text("".join(f"{line}\n" for line in lines), "utf-8")
        sources.append(str(path))
    assert count_entries(sources) == len(list(expand(sources)))
