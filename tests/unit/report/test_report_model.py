"""The presentation model: highlight levels and runs, twin ids, fragment k and the rows every
renderer draws, checked against known answers and brute-force references."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import canon
from canon.canonical import Fragment
from canon.comparison import Table
from canon.report import model
from canon.report.model import (
    EXACT,
    REWRITE,
    Level,
    check_runs,
    compare_runs,
    compare_view,
    fragment_k,
    level_runs,
    runs_of,
    twin_ids,
)
from canon.sources.documents import Document
from canon.uniqueness.against_index import CheckResult, ProfileCheck, SimilarDocument, SourceMatch

# ------------------------------------------------------------------ brute-force references


def reference_levels(length: int, groups) -> list[int]:
    """Per character: the highest level of any fragment covering it (the former per-char way)."""
    levels = [0] * length
    for exact, fragments in groups:
        for fragment in fragments:
            for i in range(max(fragment.start, 0), min(fragment.end, length)):
                levels[i] = max(levels[i], 2 if exact else 1)
    return levels


def reference_runs(levels: list[int]) -> list[tuple[int, int, int]]:
    runs: list[tuple[int, int, int]] = []
    for i, level in enumerate(levels):
        if runs and runs[-1][2] == level:
            runs[-1] = (runs[-1][0], i + 1, level)
        else:
            runs.append((i, i + 1, level))
    return runs


def reference_ids(start: int, end: int, windows) -> tuple[str, ...]:
    """Every window scanned for one mark: the quadratic definition of a mark's twin ids."""
    return tuple(sorted({n for s, e, n in windows if s < end and e > start}))


def reference_windows(table: Table, k: int) -> tuple[list, list]:
    """Shared k-word windows of each text, ids ``profile-rank`` of the sorted shared shingles."""
    found: tuple[list, list] = ([], [])
    for profile in table.profiles:
        sides = table.canonicals[profile.name]
        if min(len(s) for s in sides) < k:
            continue
        grams = [{i: tuple(s.tokens[i : i + k]) for i in range(len(s) - k + 1)} for s in sides]
        common = sorted(set(grams[0].values()) & set(grams[1].values()))
        for side, canonical, windows in zip(found, sides, grams):
            for i, gram in windows.items():
                if gram in common:
                    span = (canonical.spans[i][0], canonical.spans[i + k - 1][1])
                    side.append((*span, f"{profile.name}-{common.index(gram)}"))
    return found


# ------------------------------------------------------------------ levels and runs


def test_exact_wins_over_rewrite_and_runs_tile_the_text() -> None:
    groups = [(False, [Fragment(0, 7)]), (True, [Fragment(2, 5)])]
    runs = runs_of("a <b> c", groups)
    assert [(r.start, r.end, r.level, r.text) for r in runs] == [
        (0, 2, REWRITE, "a "),
        (2, 5, EXACT, "<b>"),
        (5, 7, REWRITE, " c"),
    ]
    assert [r.kind for r in runs] == ["rewrite", "exact", "rewrite"]


def test_plain_text_and_empty_text() -> None:
    assert [(r.level, r.text) for r in runs_of("без меток", [])] == [(Level.PLAIN, "без меток")]
    assert runs_of("", [(True, [Fragment(0, 3)])]) == ()
    # a fragment past the end is clipped; touching fragments of one level make one run
    runs = runs_of("abcdef", [(True, [Fragment(0, 2), Fragment(2, 4), Fragment(5, 99)])])
    assert [(r.start, r.end, r.level) for r in runs] == [(0, 4, EXACT), (4, 5, 0), (5, 6, EXACT)]


fragments = st.lists(
    st.tuples(st.integers(-2, 40), st.integers(0, 42)).map(lambda p: Fragment(*p)), max_size=8
)
groups_strategy = st.lists(st.tuples(st.booleans(), fragments), max_size=4)


@given(st.integers(0, 40), groups_strategy)
def test_level_runs_equal_the_per_character_reference(length: int, groups) -> None:
    expected = [r for r in reference_runs(reference_levels(length, groups))]
    assert [(s, e, int(level)) for s, e, level in level_runs(length, groups)] == expected


windows_strategy = st.lists(
    st.tuples(st.integers(0, 40), st.integers(0, 45), st.sampled_from("abcdefgh")), max_size=30
)


@given(st.integers(1, 40), groups_strategy, windows_strategy)
def test_twin_ids_equal_the_brute_force_scan(length: int, groups, windows) -> None:
    runs = runs_of("x" * length, groups, windows)
    for run in runs:
        expected = reference_ids(run.start, run.end, windows) if run.level else ()
        assert run.twins == expected, run


def test_twin_ids_of_disjoint_ranges() -> None:
    bounds = [(0, 3), (5, 8), (10, 12)]
    windows = [(1, 6, "a"), (3, 5, "gap"), (7, 11, "b"), (12, 20, "after"), (0, 12, "all")]
    assert twin_ids(bounds, windows) == [("a", "all"), ("a", "all", "b"), ("all", "b")]


# ------------------------------------------------------------------ comparisons

WORDS = "кошка кошки ловила ловят мышей мышь в старом амбаре у реки".split()


@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=25),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=25),
    st.integers(1, 4),
)
def test_twins_of_a_comparison_equal_the_brute_force(first, second, k) -> None:
    texts = (" ".join(first) + ".", ", ".join(second))
    table = canon.compare_table(*texts, ks=(k,), profiles=("raw", "lemma"))
    runs = compare_runs(table, texts, k, twins=True)
    expected_windows = reference_windows(table, k)
    for text, side, windows in zip(texts, runs, expected_windows):
        assert "".join(r.text for r in side) == text
        for run in side:
            assert run.twins == (reference_ids(run.start, run.end, windows) if run.level else ())
    assert runs_of(texts[0], model.fragment_groups(table, k)[0]) == tuple(
        model.Run(r.start, r.end, r.level, r.text) for r in runs[0]
    )


def test_twin_ids_name_the_same_shingles_on_both_sides() -> None:
    first = "Кошка ловила мышей в старом амбаре. Потом она спала."
    second = "Вчера кошки ловят мышь в старых амбарах!"
    table = canon.compare_table(first, second, ks=(3,))
    a, b = compare_runs(table, (first, second), 3, twins=True)
    ids = [{i for run in side for i in run.twins} for side in (a, b)]
    assert ids[0] == ids[1] and ids[0]
    assert {i.split("-")[0] for i in ids[0]} == {"lemma"}  # raw shares no 3 words here
    marked = [r.text for r in a if r.level]
    assert marked == ["Кошка ловила мышей в старом амбаре"]
    assert [r.kind for r in a if r.level] == ["rewrite"]


def test_highlights_use_the_tables_canonical_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = "Кошка ловила мышей в амбаре у реки", "Кошки ловят мышь в амбаре у рек"
    table = canon.compare_table(first, second)

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("canonicalized again")

    monkeypatch.setattr(canon.comparison, "canonicalize", refused)
    monkeypatch.setattr(canon.canonical, "canonicalize", refused)
    a, b = compare_runs(table, (first, second), 3, twins=True)
    assert any(r.level == EXACT for r in a) and any(r.level == REWRITE for r in b)


def test_fragment_k_is_the_smallest_k_every_profile_measures() -> None:
    short, long = "кошка ловила мышей", "кошка ловила мышей амбаре реки"
    assert fragment_k(canon.compare_table(short, long, ks=(4, 3, 2))) == 3
    assert fragment_k(canon.compare_table(short, long, ks=(5, 6))) == 5  # none: the first


@pytest.mark.slow
def test_twin_marking_is_linear_on_200k_characters() -> None:
    """Thousands of marks on two ~200k-character texts: the former scan of every window for
    every mark took 5-8 s here; the sweep takes about 0.5 s."""
    rng = random.Random(7)
    syllables = "ба ве го ду жи зо ка ле ми но пу ро са ту фи хо це чу ша".split()

    def word() -> str:
        return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))

    shared = [" ".join(word() for _ in range(5)) + "." for _ in range(400)]

    def text() -> str:
        parts: list[str] = []
        while sum(map(len, parts)) + len(parts) < 195_000:
            fresh = " ".join(word() for _ in range(4)) + "."
            parts.append(rng.choice(shared) if rng.random() < 0.5 else fresh)
        return " ".join(parts)

    texts = (text(), text())
    table = canon.compare_table(*texts, ks=(3,), profiles=("raw", "lemma"))
    started = time.process_time()  # CPU time: a shared machine's load does not count
    a, b = compare_runs(table, texts, 3, twins=True)
    elapsed = time.process_time() - started
    assert sum(1 for r in a if r.level) > 2000 and sum(1 for r in b if r.level) > 2000
    assert elapsed < 2.0, f"{elapsed:.1f} s of CPU"  # a scan per mark took 5-6 s


# ------------------------------------------------------------------ rows


def test_metric_rows_known_answer() -> None:
    table = canon.compare_table("кот пёс сыч ёж", "кот пёс сыч уж", ks=(2, 9), profiles=["raw"])
    measured, short = model.metric_rows(table)
    (cell,) = measured.cells
    assert (measured.k, cell.profile) == (2, "raw")
    assert cell.values == ("50.0%", "66.7%", "66.7%", "66.7%")
    assert (cell.shared, cell.shingles, cell.message) == ("2", "3/3", "")
    assert short.k == 9 and short.cells[0].values == () and "9" in short.cells[0].message


def test_uniqueness_rows_known_answer() -> None:
    match = SourceMatch("https://example.org/a", None, 3, 0.25, 0.1, 12)
    local = SourceMatch("corpus/b.txt", "Заголовок", 1234, 0.5, 0.125, 3000)
    check = ProfileCheck("lemma", "f" * 16, 4, 20, 2000, 500, (match, local), (Fragment(0, 3),),
                         similar=(SimilarDocument("x", None, 0.9, 0.875),))  # fmt: skip
    (row,) = model.uniqueness_rows(CheckResult("abc", (check,)))
    assert (row.uniqueness, row.borrowed, row.k) == ("75.0%", "500/2,000", 4)
    assert [(s.share, s.jaccard, s.shared, s.link, s.title) for s in row.sources] == [
        ("25.0%", "10.0%", "3", True, ""),
        ("50.0%", "12.5%", "1,234", False, "Заголовок"),
    ]
    assert row.similar is not None and row.similar[0].jaccard == "87.5%"
    assert [r.level for r in check_runs(CheckResult("abcd", (check,)))] == [REWRITE, 0]


def test_statistics_rows_and_their_absence() -> None:
    stats = model.statistics("Кошка ловила мышей. Кошка спала. " * 20)
    names = [name for name, _ in stats.rows]
    assert names[:3] == ["characters", "characters without spaces", "words"]
    assert names[-1] == "keywords" and "кошка" in stats.rows[-1][1]
    assert dict(stats.rows)["characters"] == f"{len('Кошка ловила мышей. Кошка спала. ' * 20):,}"
    empty = model.statistics("  ...  ")
    assert empty.rows == () and empty.note


def test_profile_description_and_document_row() -> None:
    assert model.describe(canon.get_profile("raw")) == "NFKC, casefold, hyphens split words"
    assert "pymorphy3 lemmas" in model.describe(canon.get_profile("lemma"))
    doc = Document("https://example.org/", "текст " * 300, "Т", method="trafilatura")
    row = model.document_row("A", doc)
    assert (row.method, row.chars, row.title) == ("main text by trafilatura", "1,800", "Т")


def test_compare_view_holds_one_result() -> None:
    docs = [Document("a", "Кошка ловила мышей в амбаре"), Document("b", "Кошки ловят мышь")]
    table = canon.compare_table(docs[0].text, docs[1].text, ks=(3, 4))
    view = compare_view(table, docs)
    assert view.k == 3 and [r.k for r in view.metrics] == [3, 4]
    assert [p.name for p in view.profiles] == ["raw", "lemma"]
    assert [d.label for d in view.documents] == ["A", "B"]
    assert all(not r.twins for side in view.texts for r in side)


@pytest.mark.slow
def test_the_model_and_html_load_neither_rich_nor_click() -> None:
    probe = (
        "import sys, canon.report.model; assert 'jinja2' not in sys.modules; "
        "import canon.report.html; "
        "print(sorted({'rich', 'click', 'fastapi'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
