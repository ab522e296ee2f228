"""The benchmarks package: every script imports, and the shared helpers give known answers.

The scripts themselves are not run here (they measure speed, which tests do not assert); what
they share is: verdicts on the stated side of a target, interleaved timing with medians and
ratios, function clocks, markdown tables, and readers that skip absent data.  Time is a fake
clock where a known answer is needed.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import pkgutil
import random
import tomllib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from repo_paths import ROOT, SHARED_DATA

import benchmarks
import testkit
from benchmarks import _common, data
from benchmarks._common import (
    Step,
    Timing,
    clocked,
    interleaved,
    median,
    quantile,
    ratio,
    runs_text,
    stopwatch,
    table,
    target_text,
    timed,
    timed_call,
    verdict,
)
from testkit import corpus

SCRIPTS = (
    "checks", "codepoints", "crawl", "dedup", "extraction", "fuzz", "index", "index_size",
    "lemmas", "quality",
    "repairs", "sampling", "sentences", "seo_ranges", "signatures", "soak", "speed", "startup",
    "synonyms", "verdict", "watch", "winnowing", "workers",
)  # fmt: skip
SHARED = ("_common", "_skeletons", "data")
TESTKIT = ("corpus", "drafts", "synonymizer", "tricks")  # shared with the tests, in testkit/


class FakeTime:
    """A stand-in for the ``time`` module whose ``perf_counter`` moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(_common, "time", fake)
    return fake


# ---------------------------------------------------------------- the package


def test_package_is_this_checkout() -> None:
    assert Path(benchmarks.__file__).resolve().parent == ROOT / "benchmarks"


def test_every_module_is_known() -> None:
    found = {m.name for m in pkgutil.iter_modules(benchmarks.__path__)}
    assert found == set(SCRIPTS) | set(SHARED)


@pytest.mark.parametrize("name", SCRIPTS + SHARED)
def test_module_imports(name: str) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    assert module.__doc__, f"benchmarks.{name} has no docstring"


def test_the_shared_generators_are_the_testkit() -> None:
    found = {m.name for m in pkgutil.iter_modules(testkit.__path__)}
    assert found == set(TESTKIT)
    assert Path(testkit.__file__).resolve().parent == ROOT / "testkit"
    for name in TESTKIT:
        assert importlib.import_module(f"testkit.{name}").__doc__, f"testkit.{name}"


def test_the_testkit_is_in_the_sdist_not_in_the_wheel() -> None:
    build = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["hatch"]["build"]
    assert build["targets"]["wheel"]["packages"] == ["canon"]
    assert {"testkit", "tests", "benchmarks"} <= set(build["targets"]["sdist"]["include"])


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_says_how_to_run_it(name: str) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    assert f"python -m benchmarks.{name}" in module.__doc__
    assert f"python -m benchmarks.{name} --quick" in module.__doc__
    assert callable(module.main)


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_imports_only_from_the_package(name: str) -> None:
    source = (ROOT / "benchmarks" / f"{name}.py").read_text(encoding="utf-8")
    for line in source.splitlines():
        words = line.split()
        if words[:1] == ["from"] and len(words) > 1:
            assert words[1].split(".")[0] not in SCRIPTS, line


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_has_quick_option(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    with pytest.raises(SystemExit) as exit_info:
        module.main(["--help"])
    assert exit_info.value.code == 0
    usage = capsys.readouterr().out
    assert usage.startswith(f"usage: python -m benchmarks.{name}")
    assert "--quick" in usage


# ---------------------------------------------------------------- verdicts


@pytest.mark.parametrize(
    ("value", "target", "higher", "expected"),
    [
        (10.0, 10.0, True, "PASS"),  # on the target passes
        (12.5, 10.0, True, "PASS"),
        (9.99, 10.0, True, "MISS"),
        (0.0, 1e-9, True, "MISS"),
        (1.0, 1.0, False, "PASS"),
        (0.38, 1.0, False, "PASS"),
        (1.01, 1.0, False, "MISS"),
        (-1.0, 0.0, False, "PASS"),
    ],
)
def test_verdict(value: float, target: float, higher: bool, expected: str) -> None:
    assert verdict(value, target, higher=higher) == expected


def test_verdict_sides_are_opposite() -> None:
    for value in (0.5, 2.0):
        answers = {verdict(value, 1.0, higher=True), verdict(value, 1.0, higher=False)}
        assert answers == {"PASS", "MISS"}


def test_verdict_side_is_required_and_keyword_only() -> None:
    higher = inspect.signature(verdict).parameters["higher"]
    assert higher.kind is inspect.Parameter.KEYWORD_ONLY
    assert higher.default is inspect.Parameter.empty
    with pytest.raises(TypeError):
        verdict(1.0, 2.0)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        verdict(1.0, 2.0, True)  # type: ignore[misc]


def test_target_text_names_the_side_verdict_uses() -> None:
    assert target_text("10×", higher=True) == "≥ 10×"
    assert target_text("1 s", higher=False) == "≤ 1 s"


# ---------------------------------------------------------------- timing


def test_timing_median_and_rate() -> None:
    odd = Timing("odd", (3.0, 1.0, 2.0), 10)
    assert odd.median == 2.0
    assert odd.rate == 5.0
    even = Timing("even", (4.0, 1.0, 3.0, 2.0), 5)
    assert even.median == 2.5
    assert even.rate == 2.0


def test_ratio_of_rates() -> None:
    fast = Timing("fast", (1.0, 1.0, 5.0), 100)  # median 1 s: 100/s; the outlier is ignored
    slow = Timing("slow", (4.0,), 100)  # 25/s
    assert ratio(fast, slow) == 4.0
    assert ratio(slow, fast) == 0.25
    other_units = Timing("other", (2.0,), 1_000)  # 500/s
    assert ratio(other_units, fast) == 5.0


def test_median_and_quantile() -> None:
    assert median([5.0, 1.0, 3.0]) == 3.0
    assert median(iter([1.0, 2.0])) == 1.5
    values = [0.4, 0.1, 0.3, 0.2]
    assert quantile(values, 0.5) == pytest.approx(0.25)
    assert quantile(values, 0.0) == pytest.approx(0.1)
    assert quantile(values, 1.0) == pytest.approx(0.4)
    assert quantile((float(x) for x in range(101)), 0.95) == pytest.approx(95.0)
    rng = np.random.default_rng(1)
    sample = rng.random(37).tolist()
    for q in (0.05, 0.5, 0.95):
        assert quantile(sample, q) == pytest.approx(float(np.percentile(sample, q * 100)))


def test_interleaved_runs_rounds_in_order(clock: FakeTime) -> None:
    calls: list[str] = []

    def work(name: str, seconds: list[float]) -> Step:
        durations = iter(seconds)

        def run() -> None:
            calls.append(name)
            clock.advance(next(durations))

        return Step(name, run, units=6)

    steps = [work("a", [1.0, 3.0, 2.0]), work("b", [0.5, 0.5, 9.0]), work("c", [4.0, 4.0, 4.0])]
    a, b, c = interleaved(steps, repeats=3)
    assert calls == ["a", "b", "c"] * 3
    assert (a.name, a.runs, a.median, a.rate) == ("a", (1.0, 3.0, 2.0), 2.0, 3.0)
    assert (b.runs, b.median) == ((0.5, 0.5, 9.0), 0.5)
    assert c.median == 4.0
    assert ratio(b, a) == 4.0
    assert runs_text(a) == "1.000, 3.000, 2.000"


def test_before_runs_ahead_of_each_run_untimed(clock: FakeTime) -> None:
    calls: list[str] = []

    def before() -> None:
        calls.append("before")
        clock.advance(100.0)

    def run() -> None:
        calls.append("run")
        clock.advance(2.0)

    timing = timed(Step("cold", run, 1, before=before), repeats=2)
    assert calls == ["before", "run", "before", "run"]
    assert timing.runs == (2.0, 2.0)


def test_interleaved_needs_a_run() -> None:
    with pytest.raises(ValueError, match="repeats"):
        interleaved([Step("x", lambda: None, 1)], repeats=0)


def test_timed_call_and_stopwatch(clock: FakeTime) -> None:
    def run() -> str:
        clock.advance(0.25)
        return "result"

    elapsed = stopwatch()
    assert timed_call(run) == (0.25, "result")
    clock.advance(1.0)
    assert elapsed() == 1.25


def test_clocked_adds_up_calls_and_restores(clock: FakeTime) -> None:
    def original(n: int) -> int:
        clock.advance(0.5 * n)
        return n * 2

    owner = SimpleNamespace(work=original)
    with clocked(owner, "work", count=lambda n: n) as work:
        assert owner.work(1) == 2
        assert owner.work(3) == 6
    assert (work.calls, work.seconds, work.units) == (2, 2.0, 4)
    assert owner.work is original


def test_clocked_method_of_a_class_and_restores_on_error(clock: FakeTime) -> None:
    class Store:
        def write(self, rows: list[int]) -> int:
            clock.advance(1.0)
            if not rows:
                raise ValueError("nothing to write")
            return len(rows)

    original = Store.write
    with pytest.raises(ValueError), clocked(Store, "write") as write:
        assert Store().write([1, 2]) == 2
        Store().write([])
    assert (write.calls, write.seconds) == (2, 2.0)  # the failed call is counted too
    assert Store.write is original


# ---------------------------------------------------------------- tables


def test_table_is_markdown() -> None:
    text = table(["a", "b"], [["1", "2"], ["3", "4"]])
    assert text == "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |"


# ---------------------------------------------------------------- the generated corpus


def test_hash_pair_has_the_asked_similarity() -> None:
    rng = np.random.default_rng(7)
    for similarity in (0.2, 0.5, 0.9):
        first, second = corpus.hash_pair(rng, 5_000, similarity)
        shared = len(np.intersect1d(first, second))
        jaccard = shared / (len(first) + len(second) - shared)
        assert jaccard == pytest.approx(similarity, abs=0.01)


def test_sentences_keep_every_word_in_order() -> None:
    words = [f"слово{i}" for i in range(203)]
    sentences = corpus.split_sentences(words, random.Random(3))
    assert all(s[-1] in ".?!…" for s in sentences)
    tokens = [t for s in sentences for t in corpus.WORD.findall(s.lower())]
    kept = [t for t in tokens if t.startswith("слово")]  # a few words become numbers
    assert len(tokens) == len(words)
    assert kept == [w for w in words if w in set(kept)]
    assert all(corpus.count_words(s) >= 4 for s in sentences)


def test_sample_words_follows_the_lexicon() -> None:
    lexicon = [("и",), ("дом", "дома", "дому"), ("идти", "иду", "шёл")]
    words = corpus.sample_words(lexicon, 2_000, 1.1, seed=5)
    assert words == corpus.sample_words(lexicon, 2_000, 1.1, seed=5)
    assert set(words) <= {form for forms in lexicon for form in forms}
    assert words.count("и") > words.count("идти") + words.count("иду") + words.count("шёл")


# ---------------------------------------------------------------- data, read in place


def test_absent_data_set_is_none(tmp_path: Path) -> None:
    assert data.dataset(tmp_path, data.NEWS) is None
    (tmp_path / data.NEWS).mkdir()
    assert data.dataset(tmp_path, data.NEWS) == tmp_path / data.NEWS


def test_read_news_keeps_one_pair_per_url_pair(tmp_path: Path) -> None:
    columns = ["first_url", "second_url", "first_text", "second_text"]
    header = "\t".join([*(f"INPUT:{c}" for c in columns), "GOLDEN:quality"])
    rows = ["u1\tu2\tА\tБ\tOK", "u1\tu2\tА\tБ\tOK", "u3\tu4\tВ\tГ\tBAD"]
    (tmp_path / "pool.tsv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    pairs = data.read_news(tmp_path)
    assert [(p.first, p.label) for p in pairs] == [("А", "OK"), ("В", "BAD")]


def test_read_texts_and_pack_documents(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("один два три\n\nчетыре", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("id\tfirst_text\n1\tпять шесть\n", encoding="utf-8")
    texts = data.read_texts(tmp_path)
    assert texts == ["один два три\n\nчетыре", "пять шесть"]
    assert data.pack_documents(texts, 5, seed=1) == ["один два три\nчетыре\nпять шесть"]


def test_quality_skips_absent_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quality = importlib.import_module("benchmarks.quality")
    quality.main(["--data", str(tmp_path), "--quick"])
    out = capsys.readouterr().out
    assert out.count("skipped:") == 2
    assert str(tmp_path / data.PARAPHRASER) in out


def test_sentences_skips_absent_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sentences = importlib.import_module("benchmarks.sentences")
    sentences.main(["--data", str(tmp_path), "--quick"])
    out = capsys.readouterr().out
    assert out.count("skipped:") == 2
    assert str(tmp_path / data.PARAPHRASER) in out and str(tmp_path / data.NEWS) in out


def test_sentences_threshold_is_the_best_f1_that_keeps_news_recall() -> None:
    sentences = importlib.import_module("benchmarks.sentences")
    scored = sentences.Scored

    def pairs(kind: str, positive: bool | None, scores: list[float]) -> list:
        return [scored(kind, positive, 5, s, s) for s in scores]

    # Train F1 is 1 from 0.70 to 0.75 and 0.8 from 0.30 to 0.65; re-inflected news sentences
    # scoring 0.56 are lost above 0.55, so 0.55 is the best threshold that keeps them.
    train = pairs("precise", True, [0.75, 0.9]) + pairs("non-paraphrase", False, [0.1, 0.65])
    news = pairs("shuffled", True, [1.0] * 10) + pairs("re-inflected", True, [0.56] * 10)
    assert sentences.rates(train, 0.7).f1 == 1.0
    assert sentences.rates(train, 0.5).f1 == pytest.approx(0.8)
    assert sentences.choose(train, news) == 0.55
    assert sentences.choose(train, pairs("shuffled", True, [1.0])) == 0.75


def test_sentences_auc_counts_ties_half() -> None:
    sentences = importlib.import_module("benchmarks.sentences")
    scored = sentences.Scored
    rows = [scored("a", True, 5, 0.8, 0.5), scored("a", True, 5, 0.4, 0.5),
            scored("b", False, 5, 0.4, 0.5), scored("b", False, 5, 0.1, 0.5)]  # fmt: skip
    assert sentences.auc(rows) == pytest.approx((1 + 1 + 0.5 + 1) / 4)
    assert sentences.auc(rows, flat=True) == pytest.approx(0.5)


def test_quality_quick_takes_pairs_evenly() -> None:
    quality = importlib.import_module("benchmarks.quality")
    pairs = [data.Pair(str(i), str(i), "OK" if i % 2 else "BAD") for i in range(10)]
    assert [p.first for p in quality.evenly(pairs, 4)] == ["0", "2", "5", "7"]
    assert quality.evenly(pairs, None) == pairs
    assert quality.evenly(pairs, 50) == pairs


def test_speed_rejects_a_missing_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    speed = importlib.import_module("benchmarks.speed")
    with pytest.raises(SystemExit) as exit_info:
        speed.parse_args(["--corpus", str(tmp_path / "absent")])
    assert exit_info.value.code == 2
    assert "does not exist" in capsys.readouterr().err


# ---------------------------------------------------------------- seo_ranges


def test_seo_fit_recovers_a_power_law() -> None:
    seo = importlib.import_module("benchmarks.seo_ranges")
    words = [50, 100, 200, 400, 800, 1600]
    fitted = seo.fit(words, [3.0 * w**0.5 for w in words])
    assert fitted.exponent == pytest.approx(0.5)
    assert np.allclose(fitted.residuals, 0, atol=1e-9)
    like = seo.PowerBound(coefficient=0, exponent=0, longest=1000, tail=1)
    bound = fitted.bound(0.95, like)
    assert (bound.coefficient, bound.exponent) == (pytest.approx(3.0), pytest.approx(0.5))
    assert (bound.longest, bound.tail) == (1000, 1)
    residuals = [i / 100 for i in range(101)]  # the same spread at both lengths
    spread = seo.fit([100] * 101 + [200] * 101, [math.exp(r) for r in residuals * 2])
    assert spread.exponent == pytest.approx(0.0, abs=1e-9)
    assert spread.bound(1.0, like).coefficient == pytest.approx(math.e)  # the top residual
    assert spread.bound(0.5, like).coefficient == pytest.approx(math.exp(0.5))


def test_seo_stuffed_copies() -> None:
    seo = importlib.import_module("benchmarks.seo_ranges")
    text = "Чай полезен. Зелёный чай вкуснее чая!"
    assert (
        seo.stuff_phrase(text, "чай")
        == "купить Чай полезен. Зелёный купить чай вкуснее купить чая!"
    )
    assert seo.stuff_sentences(text, "чай") == "Чай: Чай полезен. Чай: Зелёный чай вкуснее чая!"
    assert seo.top_keyword(text) == ("чай", 3)


def test_seo_ranges_skips_absent_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seo = importlib.import_module("benchmarks.seo_ranges")
    seo.main(["--data", str(tmp_path), "--quick"])
    out = capsys.readouterr().out
    assert out.count("skipped:") == 3
    assert "nothing to fit" in out


def test_seo_constants_are_the_measurement() -> None:
    """The curves canon holds are what ``benchmarks.seo_ranges`` measures on the real data."""
    if not (SHARED_DATA / data.NEWS).is_dir():
        pytest.skip(f"{SHARED_DATA / data.NEWS} is absent")
    seo = importlib.import_module("benchmarks.seo_ranges")
    measured = [m for a in seo.read_corpus(SHARED_DATA, quick=False) if (m := seo.measure(a.text))]
    words = [m.words for m in measured]
    for _, column, (low_q, high_q), norm in seo.FITTED:
        fitted = seo.fit(words, [getattr(m, column) for m in measured])
        pairs = [(fitted.bound(high_q, norm.high), norm.high)]
        if norm.low is not None:
            pairs.append((fitted.bound(low_q, norm.low), norm.low))
        for got, held in pairs:
            assert got.coefficient == pytest.approx(held.coefficient, rel=1e-3), column
            assert got.exponent == pytest.approx(held.exponent, rel=1e-3), column
    for _, column, held in seo.STUFFING_FITS:
        got = seo.fit(words, [getattr(m, column) for m in measured]).bound(0.99, held)
        assert got.coefficient == pytest.approx(held.coefficient, rel=1e-3), column
        assert got.exponent == pytest.approx(held.exponent, rel=1e-3), column


# ---------------------------------------------------------------- the code-point sweep


def test_skeletons_of_the_confusables_data() -> None:
    from benchmarks import _skeletons

    assert _skeletons.skeleton("о") == _skeletons.skeleton("o")  # Cyrillic and Latin
    assert _skeletons.skeleton("о") != _skeletons.skeleton("а")
    found = _skeletons.imitators("оО", ["o", "0", "O", "о", "a"])
    assert found == {"o": "о", "0": "О", "O": "О"}  # a letter does not imitate itself


@pytest.mark.slow
def test_codepoints_sweep_gives_known_answers(tmp_path: Path) -> None:
    """A small sweep: a soft hyphen or a zero-width space inside a word, Latin o for Cyrillic
    о, and a Latin look-alike letter put into a word break no word."""
    codepoints = importlib.import_module("benchmarks.codepoints")
    out = tmp_path / "sweep.json"
    ranges = ["0000-007F", "00AD", "200B"]
    codepoints.main(
        [arg for r in ranges for arg in ("--range", r)] + ["--confirm", "1", "--out", str(out)]
    )
    found = json.loads(out.read_text("utf-8"))
    assert set(found["modes"]) == {"insertion", "substitution", "signs"}
    rows = {mode: {r[0]: r for r in found["modes"][mode]} for mode in found["modes"]}
    for mode_rows in rows.values():
        assert mode_rows
        for code, category, block, share in mode_rows.values():
            assert code.startswith("U+") and category and block and 0.0 <= share <= 1.0
    insertion = rows["insertion"]
    assert insertion["U+00AD"][1:] == ["Cf", "Latin-1 Supplement", 0.0]
    assert insertion["U+200B"][1:] == ["Cf", "General Punctuation", 0.0]
    assert insertion["U+0041"][3] == 0.0  # a Latin A put inside a Russian word is read
    assert "U+0020" not in insertion  # a separator: not swept, and listed as left out
    assert any(c.startswith("U+0020 ") for c in found["excluded"]["separators"])
    assert found["imitates"]["U+006F"] == "о"
    assert rows["substitution"]["U+006F"][3] == 0.0
    assert found["imitates"]["U+0030"] == "О" and "U+0030" in rows["substitution"]
    assert "U+0030" not in rows["signs"] and "U+0031" in rows["signs"]  # 0 is listed, 1 is not
    assert "U+002D" not in rows["signs"]  # a hyphen has rules of its own
    assert set(found["summary"]) == set(found["modes"])
    untouched, *tricked = found["confirmed"]
    assert untouched["mode"] == "untouched" and untouched["uniqueness"] == 0.0
    assert tricked and all(0.0 <= r["uniqueness"] <= 1.0 for r in tricked)
