"""SEO analysis: phrases, target keywords, verdicts, stuffing warnings; the CLI, JSON and pages.

Known answers are counted by hand on small texts written here; the stuffing warning is checked
on ``examples/original.txt`` (a normal article) and on copies of it stuffed two ways.
"""

from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path

import pytest
from command import Ran, run_cli
from hypothesis import given
from hypothesis import strategies as st
from webclient import PageClient

from canon.errors import OptionError
from canon.report.model import statistics, stats_view
from canon.textstats import (
    NORM_MIN_WORDS,
    Form,
    Phrase,
    Target,
    TextStats,
    Verdict,
    split_keywords,
    text_stats,
    zipf_fit,
)
from canon.textstats.norms import (
    ACADEMIC_NAUSEA_NORM,
    CLASSIC_NAUSEA_NORM,
    NORM_LONGEST,
    WATER_NORM,
    Norm,
    PowerBound,
    judge,
)
from canon.textstats.phrases import phrase_starts
from canon.textstats.stuffing import (
    LEMMA_STUFFING,
    PHRASE_STUFFING,
    STUFFING_MIN_COUNT,
    counted,
)
from canon.textstats.targets import MAX_KEYWORD_WORDS, MAX_KEYWORDS
from canon.textstats.words import lemma_words
from canon.web import create_app

# Lemma words (17): купить чай без сахар | купить чай без сахар — просто | зеленый чай и черный
# чай : купить чай онлайн.  Water: и, просто.  "без" is negation: never a phrase's edge.
# Phrases of 2: купить чай 3 (once in each sentence); зеленый чай, черный чай, чай онлайн once.
# "чай без", "без сахар" have "без" at an edge; "сахар — просто" and "чай: купить" a break.
# Phrases of 3: чай без сахар 2; чай и черный, купить чай онлайн once; "купить чай без" ends in
# "без", "черный чай купить" crosses the colon.
TEA = (
    "Купить чай без сахара. Купить «чай без сахара» — просто. "
    "Зелёный чай и чёрный чай: купить чай онлайн!"
)

# Every form of купить чай and of чайник; a break and an inserted word stop a match.
SHOP = (
    "Купил чаю. Купите чай! Купить чая? купить чай, ЧАЙНИК и чайники, чайником. "
    "Купить. Чай. Купить зелёный чай."
)


def _stuffed(text: str) -> str:
    """``text`` with «купить» before every word whose lemma is чай."""
    words = lemma_words(text)
    pieces, last = [], 0
    for lemma, (start, _) in zip(words.lemmas, words.spans):
        if lemma == "чай":
            pieces += [text[last:start], "купить "]
            last = start
    return "".join(pieces) + text[last:]


def _per_sentence(text: str) -> str:
    """``text`` with «Чай:» at the head of every sentence."""
    return " ".join(f"Чай: {s}" for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s)


@pytest.fixture
def article(examples: Path) -> str:
    return (examples / "original.txt").read_text("utf-8")


# ---------------------------------------------------------------- phrases


def test_phrases_counted_by_hand() -> None:
    stats = text_stats(TEA)
    assert stats.lemma_words == 17
    assert stats.phrases == (
        Phrase("купить чай", 2, 3, pytest.approx(100 * 3 / 17), "купить чай"),
        Phrase("чай без сахар", 3, 2, pytest.approx(100 * 2 / 17), "чай без сахара"),
    )
    words = lemma_words(TEA)
    two = {" ".join(k): len(v) for k, v in phrase_starts(words, 2).items()}
    assert two == {"купить чай": 3, "зеленый чай": 1, "черный чай": 1, "чай онлайн": 1}
    three = {" ".join(k): len(v) for k, v in phrase_starts(words, 3).items()}
    assert three == {"чай без сахар": 2, "чай и черный": 1, "купить чай онлайн": 1}


def test_quotes_join_and_punctuation_and_line_breaks_break() -> None:
    def pairs(text: str) -> dict[str, int]:
        starts = phrase_starts(lemma_words(text), 2)
        return {" ".join(k): len(v) for k, v in starts.items()}

    assert pairs("«Купить» чай, \u200bкупить «чай»") == {"купить чай": 2}
    assert pairs("«Купить» чай и купить\u200b «чай»") == {"купить чай": 2}
    assert pairs("купить\nчай; купить (чай) купить — чай/купить. чай") == {}
    assert pairs("чай чай чай") == {"чай чай": 2}  # every start counts
    assert pairs("и в на по") == {}  # function words only


def test_top_limits_phrases_and_a_phrase_met_once_is_not_listed() -> None:
    assert [p.phrase for p in text_stats(TEA, top=1).phrases] == ["купить чай", "чай без сахар"]
    assert text_stats(TEA, top=0).phrases == ()
    assert text_stats("Зелёный чай и чёрный кофе.").phrases == ()


_BREAKS = re.compile(r"[.,;:!?()—\n]")
_POOL = ["купить", "чай", "зелёный", "без", "сахара", "и", "в", "не", "2024", "чайник", "дом"]


@given(st.lists(st.tuples(st.sampled_from(_POOL), st.sampled_from([" ", " ", ", ", ". ", "\n"]))))
def test_phrases_equal_a_reference_count(pieces: list[tuple[str, str]]) -> None:
    text = "".join(word + gap for word, gap in pieces)
    words = lemma_words(text)
    expected: dict[tuple[str, ...], int] = {}
    for clause in _BREAKS.split(text):  # the reference: phrases inside each clause
        part = lemma_words(clause)
        for size in (2, 3):
            for i in range(len(part) - size + 1):
                if part.topical[i] and part.topical[i + size - 1]:
                    key = part.lemmas[i : i + size]
                    expected[key] = expected.get(key, 0) + 1
    found = {k: len(v) for size in (2, 3) for k, v in phrase_starts(words, size).items()}
    assert found == expected


# ---------------------------------------------------------------- target keywords


def test_target_keywords_in_every_form() -> None:
    stats = text_stats(SHOP, keywords=["купить чай", "чайник", "Чай", "зелёный чай"])
    buy, kettle, tea, green = stats.targets
    total = stats.lemma_words
    assert buy == Target(
        "купить чай",
        "купить чай",
        4,
        1,
        pytest.approx(100 * 4 / total),
        (Form("купил чаю", 1), Form("купите чай", 1), Form("купить чай", 1), Form("купить чая", 1)),
    )
    assert (kettle.count, kettle.exact) == (3, 1)
    assert kettle.forms == (Form("чайник", 1), Form("чайники", 1), Form("чайником", 1))
    assert (tea.keyword, tea.lemmas, tea.count, tea.exact) == ("Чай", "чай", 6, 4)
    assert (green.count, green.exact) == (1, 1)  # ё and е are one letter for "exact"


def test_keywords_split_deduplicated_and_refused() -> None:
    assert split_keywords(["купить чай, чайник", " вода ,,", "a\nb"]) == [
        "купить чай",
        "чайник",
        "вода",
        "a",
        "b",
    ]
    assert [t.keyword for t in text_stats(SHOP, keywords=["чай", "чая", "чайник"]).targets] == [
        "чай",
        "чайник",
    ]
    for keywords, words in (
        (["!!!"], "has no words"),
        ([f"слово{i}" for i in range(MAX_KEYWORDS + 1)], "more than"),
        ([" ".join(["чай"] * (MAX_KEYWORD_WORDS + 1))], "more than"),
        (["ч" * 201], "longer than"),
    ):
        with pytest.raises(OptionError, match=words) as info:
            text_stats(SHOP, keywords=keywords)
        assert info.value.option == "keywords"


# ---------------------------------------------------------------- verdicts


def test_power_bound_clamps_and_keeps_its_tail() -> None:
    bound = PowerBound(coefficient=2.0, exponent=0.5, longest=400, tail=1)
    assert bound.at(10) == bound.at(NORM_MIN_WORDS) == pytest.approx(2 * math.sqrt(50))
    assert bound.at(100) == pytest.approx(20.0)
    assert bound.at(400) == pytest.approx(40.0)
    assert bound.at(800) == pytest.approx(80.0)  # past ``longest``: the same density
    flat = PowerBound(coefficient=2.0, exponent=0.5, longest=400)
    assert flat.at(5_000) == pytest.approx(40.0)
    assert PowerBound(coefficient=2.0, exponent=0.5).at(1_600) == pytest.approx(80.0)


def test_verdict_thresholds() -> None:
    norm = Norm("x", high=PowerBound(10.0, 0.0), low=PowerBound(5.0, 0.0))
    assert judge(norm, 10.0, 100) == Verdict(10.0, 5.0, 10.0, "norm")  # on the bound: norm
    assert judge(norm, 10.01, 100).verdict == "high"
    assert judge(norm, 5.0, 100).verdict == "norm"
    assert judge(norm, 4.99, 100).verdict == "low"
    assert judge(norm, 99.0, NORM_MIN_WORDS - 1) == Verdict(99.0, None, None, None)
    one_sided = Norm("y", high=PowerBound(10.0, 0.0))
    assert judge(one_sided, 0.0, 100) == Verdict(0.0, None, 10.0, "norm")


def test_the_measured_curves_at_a_few_lengths() -> None:
    # The ranges the README states, from the constants the benchmark measured.
    assert WATER_NORM.low is not None
    assert (WATER_NORM.low.at(300), WATER_NORM.high.at(300)) == pytest.approx(
        (19.3, 37.9), abs=0.05
    )
    assert WATER_NORM.high.at(10 * NORM_LONGEST) == WATER_NORM.high.at(NORM_LONGEST)
    assert CLASSIC_NAUSEA_NORM.low is None and ACADEMIC_NAUSEA_NORM.low is None
    assert CLASSIC_NAUSEA_NORM.high.at(300) == pytest.approx(3.70, abs=0.005)
    assert ACADEMIC_NAUSEA_NORM.high.at(300) == pytest.approx(14.0, abs=0.05)
    # Longer texts repeat their top word more and their top five take a smaller share.
    lengths = (100, 300, 1_000, 3_000)
    classic = [CLASSIC_NAUSEA_NORM.high.at(n) for n in lengths]
    academic = [ACADEMIC_NAUSEA_NORM.high.at(n) for n in lengths]
    assert classic == sorted(classic) and academic == sorted(academic, reverse=True)


def test_verdicts_of_a_text(article: str) -> None:
    stats = text_stats(article)
    v = stats.verdicts
    assert v is not None
    assert v.water == judge(WATER_NORM, stats.water_percent, stats.lemma_words)
    assert [v.water.verdict, v.classic_nausea.verdict, v.academic_nausea.verdict] == ["norm"] * 3
    assert v.classic_nausea.value == stats.classic_nausea
    short = text_stats("Кошка спит на диване. " * 3)
    assert short.lemma_words < NORM_MIN_WORDS
    assert short.verdicts is not None and short.verdicts.water.verdict is None


def test_nausea_high_and_water_low_on_made_up_texts() -> None:
    dense = " ".join(f"Чай {i} чай сорт." for i in range(40))  # чай in 80 of 160 words
    v = text_stats(dense).verdicts
    assert v is not None
    assert (v.classic_nausea.verdict, v.academic_nausea.verdict, v.water.verdict) == (
        "high",
        "high",
        "low",
    )


def test_zipf_verdicts() -> None:
    assert zipf_fit([round(1000 / rank) for rank in range(1, 41)]).verdict == "norm"
    assert zipf_fit([round(100_000 / rank**2.5) for rank in range(1, 41)]).verdict == "steep"
    assert zipf_fit([2] * 5 + [1] * 200).verdict == "flat"
    assert zipf_fit([1, 1]).verdict is None


# ---------------------------------------------------------------- stuffing


def test_a_normal_article_has_no_warning(article: str) -> None:
    assert text_stats(article).stuffing == ()


def test_kupit_chai_throughout_is_stuffing(article: str) -> None:
    stats = text_stats(_stuffed(article))
    (found,) = stats.stuffing
    assert (found.kind, found.text, found.form, found.count) == (
        "phrase",
        "купить чай",
        "купить чай",
        16,
    )
    assert found.limit == pytest.approx(PHRASE_STUFFING.at(stats.lemma_words))
    assert found.count > found.limit
    assert found.density == pytest.approx(100 * 16 / stats.lemma_words)


def test_one_word_at_the_head_of_every_sentence_is_stuffing(article: str) -> None:
    stats = text_stats(_per_sentence(article))
    assert stats.stuffing[0].kind == "lemma" and stats.stuffing[0].text == "чай"
    assert stats.stuffing[0].count > LEMMA_STUFFING.at(stats.lemma_words)


def test_units_after_numbers_are_not_stuffing() -> None:
    sentences = [
        "Стаж {} лет нужен для пенсии.",
        "Мужчины выходят на отдых в {} лет.",
        "Женщины работают {} лет подряд.",
        "Закон продлили на {} лет вперёд.",
        "Реформа идёт уже {} лет.",
        "Выплаты растут {} лет.",
        "Фонд копит деньги {} лет.",
        "Льготы дают после {} лет службы.",
        "Учителя трудятся {} лет.",
        "Врачам хватает {} лет стажа.",
        "Шахтёры уходят через {} лет.",
        "Военные служат {} лет.",
    ]
    figures = " ".join(s.format(20 + i) for i, s in enumerate(sentences))
    words = " ".join(s.format("много") for s in sentences)
    assert text_stats(figures).stuffing == ()
    found = {(s.kind, s.text, s.count) for s in text_stats(words).stuffing}
    assert ("lemma", "год", 12) in found
    lemmas, _ = counted(lemma_words(figures), {})
    assert "год" not in lemmas


def test_a_phrase_needs_the_fewest_repeats() -> None:
    filler = "Магазин работает ежедневно, доставка быстрая, цены низкие, выбор огромный."
    four = " ".join(["Купить чай."] * (STUFFING_MIN_COUNT - 1)) + " " + filler
    five = " ".join(["Купить чай."] * STUFFING_MIN_COUNT) + " " + filler
    assert PHRASE_STUFFING.at(len(lemma_words(four))) < STUFFING_MIN_COUNT - 1
    assert text_stats(four).stuffing == ()
    found = {(s.kind, s.text, s.count) for s in text_stats(five).stuffing}
    assert found == {("phrase", "купить чай", 5), ("lemma", "купить", 5), ("lemma", "чай", 5)}


@pytest.mark.slow
def test_long_hostile_texts_take_bounded_time(article: str) -> None:
    for text in (article * 76, "чай " * 50_000, "купить чай. " * 20_000):
        assert len(text) >= 190_000
        started = time.process_time()  # this process's work: other tests share the cores
        stats = text_stats(text, keywords=["купить чай", "чай"])
        assert time.process_time() - started < 10
        assert len(stats.stuffing) <= 10


# ---------------------------------------------------------------- JSON, CLI and pages


def _run(*args: str) -> Ran:
    return run_cli(*args, env={"COLUMNS": "200"})


def test_json_has_every_field(tmp_path: Path, article: str) -> None:
    path = tmp_path / "stuffed.txt"
    path.write_text(_stuffed(article), encoding="utf-8")
    result = _run(
        "stats", str(path), "--json", "--keywords", "купить чай,чайник", "--keywords", "вода"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    expected = text_stats(_stuffed(article), keywords=["купить чай", "чайник", "вода"])
    assert {k: v for k, v in data.items() if k != "source"} == json.loads(
        json.dumps(expected.to_dict())
    )
    assert list(data)[1:] == list(TextStats.__dataclass_fields__)
    assert [t["keyword"] for t in data["targets"]] == ["купить чай", "чайник", "вода"]
    assert data["targets"][0]["count"] == 16
    assert set(data["verdicts"]) == {"water", "classic_nausea", "academic_nausea"}
    assert set(data["verdicts"]["water"]) == {"value", "low", "high", "verdict"}
    assert data["stuffing"][0]["text"] == "купить чай"
    assert data["zipf"]["verdict"] == "norm"
    assert {p["size"] for p in data["phrases"]} == {2, 3}


def test_cli_output_shows_verdicts_phrases_targets_and_warnings(
    tmp_path: Path, article: str
) -> None:
    path = tmp_path / "stuffed.txt"
    path.write_text(_stuffed(article), encoding="utf-8")
    result = _run("stats", str(path), "--keywords", "купить чай,чайник")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    view = stats_view(text_stats(_stuffed(article), keywords=["купить чай", "чайник"]))
    for name, value in view.rows[:-1]:
        line = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert value in line
        judged = view.verdict_of(name)
        if judged is not None:
            assert judged.verdict in line and judged.usual in line
    assert "Zipf slope" in out and "norm" in out
    assert f"warning: {view.warnings[0]}" in " ".join(out.split())
    assert "phrase of 2 lemmas" in out and "phrase of 3 lemmas" in out
    assert re.search(r"купить чай\s+│\s+16\s+│\s+13\s+│", out)  # count, exact
    assert f"{len(article) + 7 * 16:,}" in out  # thousands separators


def test_cli_refuses_a_bad_keyword(examples: Path) -> None:
    result = _run("stats", str(examples / "original.txt"), "--keywords", "чай, ?!")
    assert result.returncode == 2
    assert result.stderr.strip() == "canon: error: --keywords '?!' has no words"


def test_api_stats_equals_the_cli_json(article: str) -> None:
    client = PageClient(create_app())
    answer = client.post(
        "/api/stats", json={"text": article, "keywords": ["чай", "вода"], "top": 3}
    )
    assert answer.status_code == 200
    data = answer.json()
    expected = text_stats(article, top=3, keywords=["чай", "вода"]).to_dict()
    assert {k: v for k, v in data.items() if k != "source"} == json.loads(json.dumps(expected))
    assert data["source"]["chars"] == len(article)
    for body, field in (
        ({"text": "... !!!"}, "text"),
        ({"text": article, "keywords": ["!!"]}, "keywords"),
        ({"text": article, "keywords": ["ч" * 201]}, "keywords"),
        ({"text": article, "top": -1}, "top"),
    ):
        refused = client.post("/api/stats", json=body)
        assert refused.status_code in (400, 422), body
        assert refused.json()["field"] == field and refused.json()["error"]


def test_the_compare_page_draws_the_same_rows(article: str) -> None:
    stuffed = _stuffed(article)
    client = PageClient(create_app())
    page = client.post("/?lang=en", data={"first_text": stuffed, "second_text": article})
    assert page.status_code == 200
    html = page.text
    for text in (stuffed, article):
        view = statistics(text)
        for name, value in view.rows:
            assert f'<th scope="row">{name}</th><td>{value}</td>' in html
        for judged in view.judged:
            assert f'<span class="judged {judged.verdict}">{judged.verdict}</span>' in html
            assert f"<td>{judged.usual}</td>" in html
        for phrase in view.phrases:
            assert f"<td>{phrase.form}</td><td>{phrase.phrase}</td>" in html
    assert html.count("<strong>warning:</strong>") == 1
    assert statistics(stuffed).warnings[0] in html
    assert "2,633" in html  # the same separators as the CLI


def test_statistics_carry_targets_and_say_why_there_are_none() -> None:
    view = statistics(SHOP, keywords=["купить чай"])
    (row,) = view.targets
    density = f"{100 * 4 / text_stats(SHOP).lemma_words:.1f}%"
    assert (row.keyword, row.count, row.exact, row.density) == ("купить чай", "4", "1", density)
    assert row.forms == "купил чаю 1, купите чай 1, купить чай 1, купить чая 1"
    assert statistics(SHOP, keywords=["!!"]).note.startswith("keywords")
