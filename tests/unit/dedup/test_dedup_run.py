"""canon.dedup.run and canon.dedup.settings: one dedup run over sources and an index."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

import canon
from canon import IndexRules
from canon.dedup import DedupResult, Entry, LocalEngine, MinHashSettings, Reading, dedup
from canon.dedup.run import dedup_corpus
from canon.fingerprints.lsh import optimal_bands
from canon.fingerprints.shingles import shingle_hashes
from canon.index.ingest import add_sources
from canon.index.store import Index
from canon.profile import get_profile
from canon.sources.documents import read_source

SHORT = "Короткая заметка о погоде на завтра и выходные дни в городе."


@pytest.fixture
def corpus(tmp_path: Path, examples: Path) -> Path:
    """a and b are near-duplicates, c is a rewrite of a, d is unrelated."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    original = (examples / "original.txt").read_text("utf-8")
    (folder / "a.txt").write_text(original, "utf-8")
    (folder / "b.txt").write_text(original.replace("Чай", "Напиток", 1) + " Конец.", "utf-8")
    (folder / "c.txt").write_text((examples / "rewrite.txt").read_text("utf-8"), "utf-8")
    (folder / "d.txt").write_text(SHORT, "utf-8")
    return folder


def _entry(path: Path, profile: str = "lemma", k: int = 4) -> Entry:
    doc = read_source(str(path))
    tokens = canon.canonicalize(doc.text, profile).tokens
    return Entry(str(path), shingle_hashes(tokens, k), doc.chars)


def _same(a: DedupResult, b: DedupResult) -> None:
    assert a.clusters == b.clusters
    assert (a.documents, a.candidate_pairs, a.verified_pairs, a.bands, a.rows) == (
        b.documents,
        b.candidate_pairs,
        b.verified_pairs,
        b.bands,
        b.rows,
    )


@pytest.mark.parametrize(
    ("settings", "reading"),
    [
        (MinHashSettings(), Reading()),
        (MinHashSettings(0.6, 64, 7), Reading(get_profile("raw"), k=3)),
    ],
)
def test_the_local_run_equals_dedup_on_the_same_entries(
    corpus: Path, settings: MinHashSettings, reading: Reading
) -> None:
    run = dedup_corpus([str(corpus)], settings=settings, reading=reading)
    entries = [_entry(p, reading.profile.name, reading.k) for p in sorted(corpus.iterdir())]
    _same(run.result, dedup(entries, settings))
    assert run.failures == ()
    members = {m for c in run.result.clusters for m in c.members}
    assert {str(corpus / "a.txt"), str(corpus / "b.txt")} <= members
    assert str(corpus / "d.txt") not in members


def test_worker_processes_give_the_same_run(corpus: Path) -> None:
    one = dedup_corpus([str(corpus)], engine=LocalEngine(workers=1))
    two = dedup_corpus([str(corpus)], engine=LocalEngine(workers=2))
    _same(one.result, two.result)


def test_an_index_and_sources_are_deduplicated_together(corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "corpus.db"
    with Index(db, create=True) as index:
        report = add_sources(index, [str(corpus / "a.txt"), str(corpus / "c.txt")])
    assert report.added == 2 and not report.failures
    run = dedup_corpus([str(corpus / "b.txt"), str(corpus / "d.txt")], index=db)
    # the index's stored lemma sets stand for its documents: the same as reading them again
    everything = [_entry(corpus / name) for name in ("a.txt", "c.txt", "b.txt", "d.txt")]
    _same(run.result, dedup(everything))
    assert run.result.documents == 4
    (cluster,) = [c for c in run.result.clusters if str(corpus / "b.txt") in c.members]
    assert str(corpus / "a.txt") in cluster.members  # an indexed document meets a source


def test_an_index_without_the_readings_profile_uses_its_last(corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "raw.db"
    with Index(db, create=True) as index:
        add_sources(index, [str(corpus)], IndexRules([get_profile("raw")], k=3))
    run = dedup_corpus(index=db, reading=Reading(get_profile("lemma")))
    entries = [_entry(p, "raw", 3) for p in sorted(corpus.iterdir())]
    _same(run.result, dedup(entries))


def test_an_empty_index_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    Index(db, create=True).close()
    with pytest.raises(canon.IndexFileError) as info:
        dedup_corpus(index=db)
    assert info.value.reason == "empty" and Path(info.value.path) == db


def test_nothing_to_deduplicate_is_an_option_error() -> None:
    with pytest.raises(canon.OptionError) as info:
        dedup_corpus([])
    assert info.value.option == "sources"
    assert "--" not in str(info.value)


def test_sources_that_fail_are_reported_and_the_rest_still_run(
    corpus: Path, tmp_path: Path
) -> None:
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("два слова", "utf-8")
    missing = tmp_path / "missing.txt"
    sources = [str(corpus), str(missing), f"@{tmp_path / 'no-list.txt'}", str(tiny)]
    run = dedup_corpus(sources)
    failed = {f.source: f.reason for f in run.failures}
    assert set(failed) == {str(missing), f"@{tmp_path / 'no-list.txt'}"}
    assert [(e.source, e.reason) for e in run.left_out] == [(str(tiny), "too-short")]
    _same(run.result, dedup_corpus([str(corpus)]).result)


def test_entries_pass_through_the_local_engine(corpus: Path) -> None:
    from canon.sources.collection import Item

    given = _entry(corpus / "a.txt")
    inputs = [given, Item(str(corpus / "b.txt")), Item(str(corpus / "d.txt"))]
    result, failures = LocalEngine().run(inputs, MinHashSettings(), Reading(), lambda _: None)
    assert failures == []
    expected = [given, _entry(corpus / "b.txt"), _entry(corpus / "d.txt")]
    _same(result, dedup(expected))


def test_stages_are_reported_in_order(corpus: Path) -> None:
    seen: list[str] = []
    dedup_corpus([str(corpus)], on_stage=seen.append)
    assert seen == [
        "reading and shingling",
        "signatures",
        "candidates",
        "verification",
        "components",
        "",  # the run is over
    ]


def test_settings_defaults_and_banding() -> None:
    settings = MinHashSettings()
    assert (settings.threshold, settings.num_perm, settings.seed) == (0.8, 128, 1)
    assert settings.banding == optimal_bands(0.8, 128)
    assert MinHashSettings(0.5, 64).banding == optimal_bands(0.5, 64)
    assert MinHashSettings(1.0, 1, 0).banding == (1, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.threshold = 0.5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"threshold": 0}, "threshold"),
        ({"threshold": -0.1}, "threshold"),
        ({"threshold": 1.01}, "threshold"),
        ({"threshold": math.nan}, "threshold"),
        ({"num_perm": 0}, "num_perm"),
        ({"num_perm": -5}, "num_perm"),
        ({"num_perm": 64.0}, "num_perm"),
        ({"num_perm": True}, "num_perm"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": "1"}, "seed"),
    ],
)
def test_bad_settings_name_their_option(kwargs: dict[str, object], option: str) -> None:
    with pytest.raises(canon.OptionError) as info:
        MinHashSettings(**kwargs)  # type: ignore[arg-type]
    error = info.value
    assert error.option == option
    value = next(iter(kwargs.values()))
    assert error.value is value or (math.isnan(value) and math.isnan(error.value))  # type: ignore[arg-type]
    assert str(error).startswith(f"{option} ") and "--" not in str(error)


def test_dedup_takes_a_number_or_whole_settings() -> None:
    entries = [Entry(f"d{i}", shingle_hashes(list("абвгдеж" * (i + 1)), 2), 10) for i in range(3)]
    _same(dedup(entries, 0.5, num_perm=64, seed=3), dedup(entries, MinHashSettings(0.5, 64, 3)))
    with pytest.raises(canon.OptionError):
        dedup(entries, 2.0)


def test_short_texts_and_other_files_are_left_out_not_failed(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from canon.cli import cli
    from canon.sources.collection import LeftOut

    story = "Чай кажется самым простым из напитков, но заварить его хорошо умеют немногие."
    (tmp_path / "a.txt").write_text(story, "utf-8")
    (tmp_path / "b.txt").write_text(story + " Так говорят.", "utf-8")
    (tmp_path / "title.txt").write_text("Заголовок", "utf-8")
    (tmp_path / "feed.xml").write_text("<rss/>", "utf-8")
    run = dedup_corpus([str(tmp_path)], reading=Reading(k=4))
    assert run.failures == ()
    assert set(run.left_out) == {LeftOut(str(tmp_path / "feed.xml"), "unsupported-type"),
                                 LeftOut(str(tmp_path / "title.txt"), "too-short")}  # fmt: skip
    assert run.result.summary()["documents"] == 2
    said = CliRunner().invoke(cli, ["dedup", str(tmp_path)])
    assert said.exit_code == 0 and "left out: 1 not a text, HTML or .docx file; 1 fewer" in (
        said.stderr
    )
    assert CliRunner().invoke(cli, ["dedup", str(tmp_path), "--strict"]).exit_code == 3
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "map.xml").write_text("<urlset/>", "utf-8")
    refused = CliRunner().invoke(cli, ["dedup", str(tmp_path / "only")])
    assert refused.exit_code == 2 and "only 1 files of other types (.xml)" in refused.stderr
