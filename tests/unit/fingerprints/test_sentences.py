"""The sentence measure: sentences as content-lemma sets, IDF weights, and the lookup of
rewritten sentences in a real index: known answers, a brute-force reference, exclusion, spans."""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path

import numpy as np
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from repo_paths import FIXTURES, ROOT

import canon
from canon import Index, canonicalize
from canon.fingerprints.sentences import (
    MAX_LEMMAS,
    MIN_LEMMAS,
    THRESHOLD,
    SentenceSets,
    dice,
    idf,
    sentence_sets,
)
from canon.hashing import token_hashes
from canon.text.sentences import PIECE_CHARS, sentence_parts, sentence_spans
from canon.text.synonyms import classes_of
from canon.uniqueness.exclusion import Exclusion
from canon.uniqueness.rewrites import PER_SENTENCE, RewriteCheck, find_rewrites
from testkit.tricks import TRICKS

ARTICLES = FIXTURES / "site"


def lemmas(text: str) -> set[int]:
    """The content lemmas of a whole text, hashed (the reference for one sentence)."""
    tokens = canonicalize(text, "lemma").tokens
    return set(token_hashes(tokens).tolist()) if tokens else set()


# ---------------------------------------------------------------- sentences of a text


def test_sentences_know_abbreviations_initials_and_quotes() -> None:
    text = (
        "В 2020 г. школы закрыли, т.е. учились дома. А. С. Пушкин родился в Москве! "
        "«Хватит. Пора домой», — сказал он."
    )
    found = [text[a:b] for a, b in sentence_spans(text)]
    assert found == [
        "В 2020 г. школы закрыли, т.е. учились дома.",
        "А. С. Пушкин родился в Москве!",
        "«Хватит.",
        "Пора домой», — сказал он.",
    ]


def test_a_line_break_ends_a_sentence_unless_the_next_line_goes_on() -> None:
    text = "Заголовок без точки\nПервая фраза текста, перенесённая\nна другую строку.\n\n- пункт"
    found = [text[a:b] for a, b in sentence_spans(text)]
    assert found == [
        "Заголовок без точки",
        "Первая фраза текста, перенесённая\nна другую строку.",
        "- пункт",
    ]


def test_a_text_without_stops_takes_linear_time() -> None:
    """razdel alone needs seconds for 200,000 characters of ``т.е.`` (its time grows with the
    square of an unsplittable stretch); cut into pieces it stays linear."""
    for unit in ("т.е. ", "а. ", "слово "):
        text = unit * (200_000 // len(unit))
        start = time.perf_counter()
        spans = sentence_spans(text)
        assert time.perf_counter() - start < 5.0, unit
        assert all(b - a <= PIECE_CHARS for a, b in spans)
        assert "".join(text[a:b] for a, b in spans).replace(" ", "") == text.replace(" ", "")


texts = st.text(
    alphabet=st.sampled_from(list('абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙ.,!?…«»"- \n\t')),
    max_size=400,
)


@given(texts)
def test_sentence_spans_are_ordered_disjoint_and_hold_text(text: str) -> None:
    spans = sentence_spans(text)
    previous = 0
    for start, end in spans:
        assert previous <= start < end <= len(text)
        assert text[start:end] == text[start:end].strip() != ""
        previous = end


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("Он ушёл. потом вернулся.", ["Он ушёл.", "потом вернулся."]),
        ("Выслушать жителей с. А доля растёт!", ["Выслушать жителей с.", "А доля растёт!"]),
        ("В г. Москве тепло.", ["В г.", "Москве тепло."]),
        ("«Да?» — спросил он.", ["«Да?»", "— спросил он."]),
        ("Одно предложение без точек внутри.", []),
        ("Конец... ", []),
    ],
)
def test_the_parts_a_stop_inside_a_sentence_divides(text: str, parts: list[str]) -> None:
    found = sentence_parts(text, sentence_spans(text))
    assert [text[start:end] for start, end in found] == parts


_TERMINALS = [chr(c) for c in range(0x110000) if regex.match(r"\p{STerm}", chr(c))] + ["…"]


def test_every_sentence_terminal_divides_a_sentence_run_into_the_next() -> None:
    """The sweep of the class: each of Unicode's sentence terminals (and the ellipsis) before
    a small letter ends the first sentence, by razdel or as a part."""
    wrong = []
    for stop in _TERMINALS:
        text = f"Он ушёл{stop} потом вернулся."
        spans = sentence_spans(text)
        pieces = sentence_parts(text, spans) or spans
        if [text[a:b] for a, b in pieces] != [f"Он ушёл{stop}", "потом вернулся."]:
            wrong.append(f"U+{ord(stop):04X}")
    assert not wrong


@given(texts)
def test_sentence_parts_lie_in_their_sentences_in_order(text: str) -> None:
    spans = sentence_spans(text)
    previous = 0
    for start, end in sentence_parts(text, spans):
        assert previous <= start < end and any(a <= start and end <= b for a, b in spans)
        assert text[start:end] == text[start:end].strip() and any(
            c.isalpha() for c in text[start:end]
        )
        previous = end


# ---------------------------------------------------------------- sentences as lemma sets


def test_a_sentence_is_the_set_of_its_content_lemmas() -> None:
    text = "Кошки ловят мышей в старом сарае. И кошка ловила!"
    sets = sentence_sets(canonicalize(text, "lemma"))
    assert [(s.start, s.end) for s in sets] == [(0, 33), (34, 49)]
    expected = token_hashes(classes_of(["кошка", "ловить", "мышь", "старый", "сарай"]))
    assert sets[0].lemmas == tuple(sorted(expected.tolist()))
    # "и" is a stop word; a lemma said twice is held once
    assert sets[1].lemmas == tuple(sorted(token_hashes(classes_of(["кошка", "ловить"])).tolist()))


def test_word_order_and_word_forms_give_the_same_set() -> None:
    source = "Министр финансов объявил о повышении налогов на дорогие автомобили."
    rewritten = "О повышении налога на дорогие автомобили объявил министр финансов."
    one, two = (sentence_sets(canonicalize(t, "lemma")) for t in (source, rewritten))
    assert len(one) == len(two) == 1
    assert one[0].lemmas == two[0].lemmas and len(one[0].lemmas) == 7


def test_a_sentence_without_stops_is_cut_into_pieces() -> None:
    words = [f"слово{i}" for i in range(3 * MAX_LEMMAS + 5)]
    text = " ".join(words)
    sets = sentence_sets(canonicalize(text, "lemma"))
    assert sets.sizes.tolist() == [MAX_LEMMAS, MAX_LEMMAS, MAX_LEMMAS, 5]
    assert sets.spans[0, 0] == 0 and sets.spans[-1, 1] == len(text)
    assert all(sets.spans[i, 1] < sets.spans[i + 1, 0] for i in range(len(sets) - 1))


def test_a_text_without_content_words_has_no_sentences() -> None:
    for text in ("", "   ", "И в на. Но, а!", "..."):
        assert len(sentence_sets(canonicalize(text, "lemma"))) == 0


@given(texts)
@settings(max_examples=80)
def test_each_sentence_holds_the_tokens_inside_it(text: str) -> None:
    canonical = canonicalize(text, "lemma")
    sets = sentence_sets(canonical)
    hashes = token_hashes(classes_of(canonical.tokens)).tolist() if canonical.tokens else []
    for i, sentence in enumerate(sets):
        assert 0 <= sentence.start < sentence.end <= len(text)
        inside = {
            h
            for h, (a, b) in zip(hashes, canonical.spans)
            if sentence.start <= a and b <= sentence.end
        }
        assert set(sentence.lemmas) <= inside
        if sets.sizes[i] < MAX_LEMMAS:
            assert set(sentence.lemmas) == inside
    assert set(sets.lemmas.tolist()) == set(hashes)  # every token is in some sentence


@given(
    st.lists(
        st.tuples(
            st.integers(0, 2**31),
            st.integers(1, 2**20),
            arrays(np.uint64, st.integers(0, 20), elements=st.integers(0, 2**64 - 1), unique=True),
        ),
        max_size=12,
    )
)
def test_sentence_sets_round_trip_through_bytes(rows: list) -> None:
    spans = np.array([(a, a + n) for a, n, _ in rows], dtype=np.int64).reshape(-1, 2)
    lemmas_ = [np.sort(h) for _, _, h in rows]
    offsets = np.concatenate(([0], np.cumsum([len(h) for h in lemmas_]))).astype(np.int64)
    flat = np.concatenate(lemmas_) if lemmas_ else np.zeros(0, np.uint64)
    sets = SentenceSets(spans, offsets, flat.astype(np.uint64))
    back = SentenceSets.from_bytes(sets.to_bytes())
    assert back.spans.tolist() == spans.tolist()
    assert back.offsets.tolist() == offsets.tolist()
    assert back.lemmas.dtype == np.uint64 and back.lemmas.tolist() == flat.tolist()


def test_a_damaged_blob_is_refused() -> None:
    sets = sentence_sets(canonicalize("Кошки спали на тёплом подоконнике.", "lemma"))
    with pytest.raises(ValueError, match="has 3 hashes"):
        SentenceSets.from_bytes(sets.to_bytes()[:-8])


# ---------------------------------------------------------------- IDF weights


def test_idf_known_values() -> None:
    assert idf(np.array([0, 9, 99]), 99).tolist() == pytest.approx(
        [math.log(100) + 1, math.log(10) + 1, 1.0]
    )


@given(st.integers(1, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_idf_falls_as_a_lemma_gets_common(documents: int, a: int, b: int) -> None:
    low, high = sorted((min(a, documents), min(b, documents)))
    assert idf(np.array([low]), documents)[0] >= idf(np.array([high]), documents)[0] >= 1.0


@given(
    st.sets(st.integers(0, 50), min_size=1, max_size=12),
    st.sets(st.integers(0, 50), min_size=1, max_size=12),
    st.dictionaries(st.integers(0, 50), st.integers(0, 1_000), min_size=51, max_size=51),
    st.integers(1, 5_000),
)
def test_a_shared_lemma_counts_less_the_commoner_it_is(
    draft: set[int], source: set[int], df: dict[int, int], more: int
) -> None:
    """Making one lemma that both sentences hold commoner never raises their score, and
    making a lemma only one holds commoner never lowers it."""
    documents = 10_000
    weights = {h: float(idf(np.array([d]), documents)[0]) for h, d in df.items()}
    score = dice(draft, source, weights)
    for lemma in draft | source:
        commoner = dict(weights, **{})
        commoner[lemma] = float(idf(np.array([df[lemma] + more]), documents)[0])
        changed = dice(draft, source, commoner)
        if lemma in draft & source:
            assert changed <= score + 1e-12
        else:
            assert changed >= score - 1e-12


def test_idf_lowers_a_sentence_that_shares_only_common_words() -> None:
    """Flat, both drafts share as many lemmas with the source; weighted, the one sharing the
    rare lemmas scores higher than the one sharing the common ones."""
    source = {1, 2, 3, 4, 5, 6}
    common_shared, rare_shared = {1, 2, 3, 7, 8, 9}, {4, 5, 6, 7, 8, 9}
    df = {1: 900, 2: 800, 3: 700, 4: 1, 5: 2, 6: 3, 7: 10, 8: 10, 9: 10}
    weights = {h: float(idf(np.array([d]), 1_000)[0]) for h, d in df.items()}
    flat = dict.fromkeys(df, 1.0)
    assert dice(common_shared, source, flat) == dice(rare_shared, source, flat) == 0.5
    assert dice(common_shared, source, weights) < 0.35 < 0.65 < dice(rare_shared, source, weights)


# ---------------------------------------------------------------- the lookup in an index


def paragraphs() -> dict[str, str]:
    docs = {}
    for name in ("garden", "tea"):
        text = (ARTICLES / f"article-{name}.txt").read_text("utf-8")
        for i, part in enumerate(p for p in text.split("\n\n") if p.strip()):
            docs[f"{name}-{i:02d}"] = part
    return docs


DOCS = paragraphs()


@pytest.fixture(scope="module")
def articles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real index of the two fixture articles, a paragraph a document (raw and lemma, k=4)."""
    folder = tmp_path_factory.mktemp("rewrites")
    lines = [json.dumps({"id": k, "text": v}, ensure_ascii=False) for k, v in DOCS.items()]
    (folder / "docs.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    with Index(folder / "articles.db", create=True) as index:
        report = canon.add_sources(index, [str(folder / "docs.jsonl")])
    assert (report.added, report.failures) == (len(DOCS), ())
    return folder / "articles.db"


def lemma(index: Index) -> canon.IndexedProfile:
    return next(p for p in index.profiles() if p.name == "lemma")


SOURCE = (
    "Не стоит кипятить одну и ту же воду несколько раз: она теряет кислород, и чай получается "
    "плоским."
)


def test_the_source_sentence_is_where_the_test_expects() -> None:
    assert SOURCE in DOCS["tea-02"]


@pytest.mark.parametrize(
    "draft",
    [
        # the words shuffled
        "Чай получается плоским, и она теряет кислород: кипятить одну и ту же воду несколько раз "
        "не стоит.",
        # shuffled and re-inflected
        "Воду одну и ту же кипятить несколько раз не стоило: теряла кислород она, и чаи "
        "получались плоскими.",
    ],
)
def test_a_shuffled_or_reinflected_sentence_is_rewritten_from_its_source(
    articles: Path, draft: str
) -> None:
    with Index(articles, readonly=True) as index:
        result = find_rewrites(draft, index, lemma(index))
    assert (result.sentences, result.judged, result.too_common) == (1, 1, ())
    (found,) = result.rewrites
    start = DOCS["tea-02"].index(SOURCE)
    assert (found.source, found.source_start, found.source_end) == (
        "tea-02", start, start + len(SOURCE),
    )  # fmt: skip
    assert (found.start, found.end) == (0, len(draft))
    assert found.score == pytest.approx(1.0)


def test_a_sentence_run_into_the_next_is_judged_by_its_parts(articles: Path) -> None:
    """Shuffled words that put a small letter after the stop (or a preposition before it) run
    two sentences into one: the rewritten one is found, the new one is not."""
    rewritten = (
        "Чай получается плоским, и она теряет кислород: кипятить одну воду несколько раз не стоит."
    )
    new = "весной садовод перекапывает грядки и вносит удобрения в почву."
    draft = f"{rewritten} {new}"
    assert len(sentence_spans(draft)) == 1  # razdel goes on past a stop before a small letter
    with Index(articles, readonly=True) as index:
        result = find_rewrites(draft, index, lemma(index))
    assert (result.sentences, result.judged) == (1, 1)
    assert {(r.start, r.end, r.source) for r in result.rewrites} == {(0, len(rewritten), "tea-02")}
    assert result.rewrites[0].score > 0.9


def test_a_sentence_with_an_abbreviation_is_read_whole(articles: Path) -> None:
    start = DOCS["tea-02"].index(SOURCE)
    draft = (
        "Кипятить одну и ту же воду т. е. несколько раз не стоит: она теряет кислород, и чай "
        "получается плоским."
    )
    with Index(articles, readonly=True) as index:
        result = find_rewrites(draft, index, lemma(index))
    assert [(r.start, r.end, r.source_start) for r in result.rewrites] == [(0, len(draft), start)]


@pytest.mark.parametrize(
    "draft",
    [
        "Чай лучше заваривать водой из родника, которую не нужно кипятить несколько раз.",
        "Зелёный чай заваривают в стеклянном чайнике, а чёрный пьют с лимоном и сахаром.",
        "Весной садовод перекапывает грядки и вносит удобрения в почву.",
    ],
)
def test_a_new_sentence_on_the_same_subject_is_not_rewritten(articles: Path, draft: str) -> None:
    with Index(articles, readonly=True) as index:
        result = find_rewrites(draft, index, lemma(index))
        loose = find_rewrites(draft, index, lemma(index), threshold=0.25)
    assert result.judged == 1 and result.rewrites == ()
    assert loose.rewrites, "the sentence should share words with the articles"
    assert max(r.score for r in loose.rewrites) < THRESHOLD


def test_the_rewritten_example_is_found_sentence_by_sentence(articles: Path) -> None:
    draft = (ROOT / "examples" / "rewrite.txt").read_text("utf-8")
    with Index(articles, readonly=True) as index:
        result = find_rewrites(draft, index, lemma(index))
    sentences = {(r.start, r.end) for r in result.rewrites}
    assert result.judged >= 25 and len(sentences) >= 0.7 * result.judged
    assert {r.source for r in result.rewrites} <= {k for k in DOCS if k.startswith("tea")}
    second = draft.index("Второе из правил")
    found = [r for r in result.rewrites if r.start == second]
    assert [(r.source, r.score) for r in found] == [("tea-03", pytest.approx(1.0))]


# ---------------------------------------------------------------- the brute force reference


def brute_force(
    draft: str, docs: dict[str, str], threshold: float, min_lemmas: int
) -> dict[tuple[int, int, str], float]:
    """Every draft sentence against every sentence of every document, in plain sets, the
    document frequencies counted from the texts themselves."""
    sources = {name: list(sentence_sets(canonicalize(t, "lemma"))) for name, t in docs.items()}
    df: dict[int, int] = {}
    for sentences in sources.values():
        for h in {h for s in sentences for h in s.lemmas}:
            df[h] = df.get(h, 0) + 1
    found = {}
    for sentence in sentence_sets(canonicalize(draft, "lemma")):
        if len(sentence.lemmas) < min_lemmas:
            continue
        every = set(sentence.lemmas) | {h for ss in sources.values() for s in ss for h in s.lemmas}
        weights = {h: float(idf(np.array([df.get(h, 0)]), len(docs))[0]) for h in every}
        for name, sentences in sources.items():
            best = max((dice(sentence.lemmas, s.lemmas, weights) for s in sentences), default=0)
            if best >= threshold:
                found[(sentence.start, sentence.end, name)] = best
    return found


def mixed_draft(seed: int) -> str:
    """Sentences of the articles shuffled, some re-inflected by hand-free means (words
    dropped), and sentences of another text."""
    rng = random.Random(seed)
    pool = [s for text in DOCS.values() for s in text.replace("\n", " ").split(". ") if s]
    other = (ROOT / "examples" / "rewrite.txt").read_text("utf-8").split(". ")
    parts = []
    for _ in range(8):
        words = rng.choice(pool).split()
        rng.shuffle(words)
        if rng.random() < 0.5:
            words = words[: max(3, len(words) * 2 // 3)]
        parts.append(" ".join(words).capitalize() + ".")
        parts.append(rng.choice(other) + ".")
    return " ".join(parts)


def as_found(result: RewriteCheck) -> dict[tuple[int, int, str], float]:
    return {(r.start, r.end, r.source): r.score for r in result.rewrites}


@pytest.mark.parametrize(("seed", "threshold", "min_lemmas"), [(1, THRESHOLD, MIN_LEMMAS),
                         (2, 0.3, 2), (3, 0.8, 5), (4, 0.45, 1)])  # fmt: skip
def test_lookup_equals_the_brute_force(
    articles: Path, seed: int, threshold: float, min_lemmas: int
) -> None:
    draft = mixed_draft(seed)
    with Index(articles, readonly=True) as index:
        result = find_rewrites(
            draft, index, lemma(index), threshold=threshold, min_lemmas=min_lemmas,
            per_sentence=10**6,
        )  # fmt: skip
    expected = brute_force(draft, DOCS, threshold, min_lemmas)
    assert result.too_common == ()
    assert expected, "the draft should have rewritten sentences"
    found = as_found(result)
    assert found.keys() == expected.keys()
    assert all(found[k] == pytest.approx(expected[k], abs=1e-9) for k in found)


def test_a_canonical_of_the_draft_gives_the_same_answer(articles: Path) -> None:
    draft = mixed_draft(5)
    with Index(articles, readonly=True) as index:
        indexed = lemma(index)
        from_text = find_rewrites(draft, index, indexed)
        from_canonical = find_rewrites(
            canonicalize(draft, canon.get_profile("lemma")), index, indexed
        )
    assert from_text == from_canonical and from_text.rewrites


def test_sources_per_sentence_are_bounded_best_first(articles: Path, tmp_path: Path) -> None:
    sentence = "Опытные любители чая советуют выбирать фарфоровый или стеклянный чайник."
    variants = [sentence] + [sentence.replace("фарфоровый или ", "")] * 3 + [sentence] * 5
    lines = [
        json.dumps({"id": f"copy-{i}", "text": v}, ensure_ascii=False)
        for i, v in enumerate(variants)
    ]
    (tmp_path / "copies.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    with Index(tmp_path / "copies.db", create=True) as index:
        canon.add_sources(index, [str(tmp_path / "copies.jsonl")])
        everything = find_rewrites(sentence, index, lemma(index), per_sentence=100)
        bounded = find_rewrites(sentence, index, lemma(index))
    assert len(everything.rewrites) == len(variants)
    exact = sorted(f"copy-{i}" for i, v in enumerate(variants) if v == sentence)
    assert [r.source for r in bounded.rewrites] == exact[:PER_SENTENCE]
    assert all(r.score == pytest.approx(1.0) for r in bounded.rewrites)
    assert min(r.score for r in everything.rewrites) < 1.0


# ---------------------------------------------------------------- exclusion and settings


def test_excluded_sources_are_left_out(articles: Path) -> None:
    draft = "Второе правило касается температуры. Следующий шаг - удобрение и перекопка почвы."
    with Index(articles, readonly=True) as index:
        indexed = lemma(index)
        everything = find_rewrites(draft, index, indexed)
        no_tea = find_rewrites(draft, index, indexed, Exclusion(["re:^tea-"]))
        none = find_rewrites(draft, index, indexed, Exclusion(["tea-03", "garden-03"]))
    assert [r.source for r in everything.rewrites] == ["tea-03", "garden-03"]
    assert [r.source for r in no_tea.rewrites] == ["garden-03"]
    assert none.rewrites == () and none.judged == 2


def test_short_sentences_are_not_judged(articles: Path) -> None:
    draft = "Посуда - третье условие. Начнём с воды."  # 3 and 2 content lemmas
    with Index(articles, readonly=True) as index:
        default = find_rewrites(draft, index, lemma(index))
        two = find_rewrites(draft, index, lemma(index), min_lemmas=2)
    assert MIN_LEMMAS == 3
    assert (default.sentences, default.judged) == (2, 1)
    assert [r.source for r in default.rewrites] == ["tea-04"]
    assert (two.sentences, two.judged) == (2, 2)
    assert [r.source for r in two.rewrites] == ["tea-04", "tea-02"]


@pytest.mark.parametrize(
    ("settings_", "option"),
    [
        ({"threshold": 0.0}, "threshold"),
        ({"threshold": 1.5}, "threshold"),
        ({"threshold": float("nan")}, "threshold"),
        ({"min_lemmas": 0}, "min_lemmas"),
        ({"min_lemmas": 2.5}, "min_lemmas"),
        ({"per_sentence": 0}, "per_sentence"),
    ],
)
def test_bad_settings_are_refused_naming_the_option(
    articles: Path, settings_: dict, option: str
) -> None:
    with Index(articles, readonly=True) as index, pytest.raises(canon.OptionError) as info:
        find_rewrites("Второе правило касается температуры.", index, lemma(index), **settings_)
    assert info.value.option == option


def test_other_rules_are_refused(articles: Path) -> None:
    with Index(articles, readonly=True) as index:
        raw = next(p for p in index.profiles() if p.name == "raw")
        with pytest.raises(canon.OptionError, match="has no morphology") as info:
            find_rewrites("Второе правило касается температуры.", index, raw)
        assert info.value.option == "profile"
        stemmed = canonicalize("Второе правило касается температуры.", "stem")
        with pytest.raises(canon.OptionError, match="not under the index's lemma"):
            find_rewrites(stemmed, index, lemma(index))


# ---------------------------------------------------------------- spans


pieces = st.lists(
    st.tuples(st.sampled_from(sorted(DOCS)), st.integers(0, 30), st.booleans(), st.randoms()),
    min_size=1,
    max_size=6,
)


@given(pieces, st.sampled_from([0.3, THRESHOLD, 0.9]))
@settings(max_examples=25, deadline=None)
def test_spans_lie_in_the_draft_and_in_the_source(
    articles: Path, chosen: list, threshold: float
) -> None:
    parts = []
    for name, number, shuffle, rng in chosen:
        sentences = sentence_spans(DOCS[name])
        start, end = sentences[number % len(sentences)]
        words = DOCS[name][start:end].split()
        if shuffle:
            rng.shuffle(words)
        parts.append(" ".join(words))
    draft = "\n".join(parts)
    with Index(articles, readonly=True) as index:
        result = find_rewrites(draft, index, lemma(index), threshold=threshold)
    whole = sentence_spans(draft)
    bounds = set(whole) | set(sentence_parts(draft, whole))  # sentences, or their parts
    for r in result.rewrites:
        assert (r.start, r.end) in bounds
        assert 0 <= r.source_start < r.source_end <= len(DOCS[r.source])
        assert (r.source_start, r.source_end) in set(sentence_spans(DOCS[r.source]))
        assert threshold <= r.score <= 1 + 1e-12


def test_a_long_draft_is_looked_up_in_bounded_time(articles: Path) -> None:
    """200,000 characters of copied paragraphs: every sentence is looked up, none is slow."""
    whole = " ".join(DOCS.values())
    draft = " ".join([whole] * (200_000 // len(whole) + 1))
    with Index(articles, readonly=True) as index:
        start = time.perf_counter()
        result = find_rewrites(draft, index, lemma(index))
        assert time.perf_counter() - start < 20.0
    rewritten = {(r.start, r.end) for r in result.rewrites}
    assert result.judged > 2_000 and len(rewritten) >= 0.97 * result.judged
    assert (
        max(sum(1 for r in result.rewrites if r.start == s) for s, _ in rewritten) <= PER_SENTENCE
    )


def test_the_documents_read_are_capped_best_bound_first(articles: Path, monkeypatch) -> None:
    """Past MAX_CANDIDATES, the documents sharing most of a sentence's weight are read: with
    room for one document, a shuffled sentence still finds its own source."""
    from canon.uniqueness import rewrites

    picked = rewrites._likeliest(np.array([7, 3, 7, 5, 9]), np.array([0.5, 2.0, 3.0, 2.0, 1.0]), 2)
    assert picked == {7, 3}  # 7 by its best bound 3.0, then 3 before 5 (a tie, by id)
    monkeypatch.setattr(rewrites, "MAX_CANDIDATES", 1)
    draft = (
        "Чай получается плоским, и она теряет кислород: кипятить одну и ту же воду несколько "
        "раз не стоит."
    )
    with Index(articles, readonly=True) as index:
        (found,) = find_rewrites(draft, index, lemma(index)).rewrites
    assert found.source == "tea-02"


@pytest.mark.parametrize("gap", ["\u3164", "\u200b", "\u2060", "\u115f"])
def test_a_text_typing_invisible_characters_for_spaces_splits_as_the_spaced_one(gap: str) -> None:
    plain = "Первое предложение. Второе предложение здесь. Третье и последнее."
    typed = plain.replace(" ", gap)
    assert sentence_spans(typed) == sentence_spans(plain)


def test_a_line_stored_backwards_under_an_override_splits_as_shown() -> None:
    plain = "Первое предложение. Второе предложение здесь."
    stored = "\u202e" + plain[::-1] + "\u202c"
    spans = sentence_spans(stored)
    assert len(spans) == 2 == len(sentence_spans(plain))


# ---------------------------------------------------------------- sentences as read

FOUR = (
    "Вчера в Москве прошёл городской фестиваль уличной еды. Организаторы собрали больше сотни "
    "поваров из разных регионов страны. Посетители пробовали блюда и голосовали за лучших. "
    "Победителя объявят в воскресенье вечером на главной сцене парка."
)
_BY_NAME = {t.name: t for t in TRICKS}
# Letters spaced apart make every stop follow one letter (an initial to razdel); signs put
# inside words put stops inside them; marks and invisible characters hide a capital.
_PARTING = ("letters spaced apart", "signs inside words")
_LETTER_TRICKS = [t for t in TRICKS if t.stage in (1, 2)]


def _as_read(text: str) -> list[tuple[int, int]]:
    return sentence_spans(text, canonicalize(text, "lemma").joined)


@pytest.mark.parametrize("second", [None, *_LETTER_TRICKS], ids=lambda t: t.name if t else "alone")
@pytest.mark.parametrize("first", _PARTING)
def test_a_tricked_text_has_the_sentences_of_the_plain_one(first: str, second) -> None:
    """Every trick on letters, stacked on letters spaced apart or signs inside words: the
    sentences as read are the plain text's four, each ending at a stop."""
    assert len(sentence_spans(FOUR)) == 4
    for seed in range(3):
        text = _BY_NAME[first].alter(FOUR, seed)
        if second is not None and second.name != first:
            text = second.alter(text, seed + 1)
        spans = _as_read(text)
        assert len(spans) == 4, (seed, text)
        assert all(text[a:b].rstrip("\u3164")[-1] == "." for a, b in spans), (seed, text)


def test_letters_spaced_apart_end_their_sentence_at_their_stop() -> None:
    """``х.`` of a spaced word is an initial to razdel; read as ``лучших.``, it ends a
    sentence."""
    text = "Гости\u3164голосовали\u3164за\u3164л у ч ш и х.\u3164П о б е д и т е л я объявят."
    assert len(sentence_spans(text)) == 1  # as typed
    spans = sentence_spans(text, canonicalize(text, "lemma").joined)
    assert [text[a:b] for a, b in spans] == [
        "Гости\u3164голосовали\u3164за\u3164л у ч ш и х.",
        "П о б е д и т е л я объявят.",
    ]


def test_a_stop_inside_a_word_read_whole_divides_no_part() -> None:
    text = "Мы д.оставили все п!исьма вовремя. Потом ушли домой."
    canonical = canonicalize(text, "lemma")
    assert "доставить" in canonical.tokens
    whole = sentence_spans(text, canonical.joined)
    assert [text[a:b] for a, b in whole] == [
        "Мы д.оставили все п!исьма вовремя.",
        "Потом ушли домой.",
    ]
    assert sentence_parts(text, whole, canonical.joined) == []
    spaced = "Мы д. оставили все п! исьма вовремя."  # stops before a space: parts as typed
    assert len(sentence_parts(spaced, sentence_spans(spaced))) == 3


def test_a_text_without_tricks_splits_as_typed() -> None:
    for page in sorted(ARTICLES.rglob("*.txt"))[:10] or [Path(ROOT / "examples/original.txt")]:
        text = page.read_text(encoding="utf-8")
        assert _as_read(text) == sentence_spans(text)
