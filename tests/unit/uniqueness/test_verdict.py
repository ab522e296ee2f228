"""The verdict: one uniqueness over the draft's characters, copied and rewritten parts that add
up, every fragment tied to the sources that hold it, chance phrases kept out."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from command import run_cli
from hypothesis import given
from hypothesis import strategies as st
from repo_paths import FIXTURES

import canon
from canon import Fragment, Index
from canon.errors import InputError, OptionError
from canon.text.lemmatize import base_forms
from canon.uniqueness.evidence import BACK_SCORE, WEAK_BACKERS, supported
from canon.uniqueness.rewrites import Rewrite
from canon.uniqueness.verdict import counted, verdict_of

SITE = FIXTURES / "site"
GARDEN = (SITE / "article-garden.txt").read_text("utf-8")
TEA = (SITE / "article-tea.txt").read_text("utf-8")
NEW = (
    "Квантовые компьютеры моделируют молекулы белков быстрее обычных суперкомпьютеров. "
    "Инженеры из Цюриха охлаждают кубиты почти до абсолютного нуля, чтобы сохранить их "
    "состояние дольше миллисекунды."
)


def _sentences(text: str) -> list[str]:
    found = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text)]
    return [s for s in found if len(s.split()) >= 8]


# ------------------------------------------------------------------ verdict_of alone


def test_the_parts_are_shares_of_letters_and_digits() -> None:
    text = "аааа, бббб! вввв 1234"  # 16 counted characters
    verdict = verdict_of(text, copied=[Fragment(0, 4)], rewritten=[Fragment(0, 11)], formula="")
    assert verdict.chars == 16
    assert (verdict.copied, verdict.rewritten) == (4 / 16, 4 / 16)
    assert verdict.uniqueness == pytest.approx(0.5)
    assert verdict.copied_fragments == (Fragment(0, 4),)
    assert verdict.rewritten_fragments == (Fragment(4, 11),)  # copied text is not rewritten


def test_left_out_text_is_not_counted_unless_matched() -> None:
    text = "свой текст «чужая цитата» и ещё"
    quote = (text.index("«"), text.index("»") + 1)
    verdict = verdict_of(text, copied=[], rewritten=[], left_out=[quote], formula="")
    assert verdict.chars == len("свойтекстиещё")
    matched = verdict_of(text, copied=[Fragment(*quote)], rewritten=[], left_out=[quote],
                         formula="")  # fmt: skip
    assert matched.chars == len("свойтекстчужаяцитатаиещё")


def test_nothing_left_to_count_names_the_draft() -> None:
    with pytest.raises(InputError, match=r"^essay\.txt has nothing left to check") as caught:
        verdict_of("«всё в кавычках»", copied=[], rewritten=[], left_out=[(0, 16)], formula="",
                   name="essay.txt")  # fmt: skip
    assert caught.value.source == "essay.txt" and "\n" not in str(caught.value)


ranges = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)).map(sorted), max_size=8)


@given(
    text=st.text(alphabet="аб в,1 ", min_size=1, max_size=60).filter(lambda t: any(
        c.isalnum() for c in t)),
    copied=ranges, rewritten=ranges,
)  # fmt: skip
def test_the_parts_add_up_and_never_overlap(text, copied, rewritten) -> None:
    size = len(text)
    clip = lambda rs: [Fragment(min(a, size), min(b, size)) for a, b in rs]  # noqa: E731
    verdict = verdict_of(text, copied=clip(copied), rewritten=clip(rewritten), formula="")
    assert verdict.uniqueness + verdict.copied + verdict.rewritten == pytest.approx(1)
    assert verdict.chars == int(counted(text).sum())
    copy = {i for f in verdict.copied_fragments for i in range(f.start, f.end)}
    rewrite = {i for f in verdict.rewritten_fragments for i in range(f.start, f.end)}
    assert not copy & rewrite


# ------------------------------------------------------------------ check on an index


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("verdict")
    (folder / "garden.txt").write_text(GARDEN, "utf-8")
    (folder / "tea.txt").write_text(TEA, "utf-8")
    db = folder / "i.db"
    with Index(db, create=True) as opened:
        canon.add_sources(opened, [str(folder / "garden.txt"), str(folder / "tea.txt")])
    return db


def _check(db: Path, text: str, name: str = "draft", **options) -> canon.CheckResult:
    with Index(db, readonly=True) as opened:
        return canon.check(text, opened, canon.CheckSettings(**options), name=name)


def test_a_verbatim_copy_is_copied_and_not_unique(index: Path) -> None:
    verdict = _check(index, GARDEN).verdict
    assert verdict.uniqueness == 0.0 and verdict.copied == 1.0 and verdict.rewritten == 0.0


def test_a_new_text_is_unique(index: Path) -> None:
    result = _check(index, NEW)
    assert result.verdict.uniqueness == 1.0
    assert all(not p.sources and not p.fragments for p in result.profiles)


def _reinflected(sentence: str) -> str:
    """Every word of four letters or more replaced by its lemma: the endings change."""
    words = re.findall(r"\w+|\W+", sentence)
    lemmas = base_forms([w.lower() for w in words], "lemma", True)
    return "".join(lemma if len(w) >= 4 and w.isalpha() else w for w, lemma in zip(words, lemmas))


def test_changed_endings_are_rewritten_not_copied(index: Path) -> None:
    draft = " ".join(_reinflected(s) for s in _sentences(GARDEN)[:4])
    verdict = _check(index, draft).verdict
    assert verdict.rewritten > 0.6
    assert verdict.copied < 0.25
    assert verdict.uniqueness < 0.2


def test_a_mixed_draft_counts_each_part(index: Path) -> None:
    copied = " ".join(_sentences(GARDEN)[2:4])
    draft = f"{NEW} {copied}"
    verdict = _check(index, draft).verdict
    share = int(counted(copied).sum()) / int(counted(draft).sum())
    assert verdict.copied == pytest.approx(share, abs=0.03)
    assert verdict.uniqueness == pytest.approx(1 - share, abs=0.03)
    start = draft.index(copied)
    marked = "".join(draft[f.start : f.end] for f in verdict.copied_fragments)
    assert verdict.copied_fragments[0].start == start
    assert re.sub(r"\W", "", marked) == re.sub(r"\W", "", copied)  # every letter, no other


def test_each_fragment_is_tied_to_its_source(index: Path) -> None:
    from_garden, from_tea = _sentences(GARDEN)[3], _sentences(TEA)[3]
    draft = f"{from_garden} {NEW} {from_tea}"
    result = _check(index, draft, profiles=["raw"])
    (raw,) = result.profiles
    by_source = {Path(m.source).name: m for m in raw.sources}
    assert set(by_source) == {"garden.txt", "tea.txt"}
    for name, sentence in (("garden.txt", from_garden), ("tea.txt", from_tea)):
        match = by_source[name]
        (fragment,) = match.fragments
        assert draft[fragment.start : fragment.end].rstrip(".") == sentence.rstrip(".")
        (passage,) = match.passages
        own = GARDEN if name == "garden.txt" else TEA
        assert own[passage.start : passage.end].rstrip(".") == sentence.rstrip(".")
        assert match.to_dict()["excerpts"] == [own[passage.start : passage.end]]
    # Each merged fragment names the one listed source it came from.
    owners = {draft[f.start : f.end][:20]: o for f, o in zip(raw.fragments, raw.fragment_sources)}
    names = [Path(m.source).name for m in raw.sources]
    assert {names[i] for o in owners.values() for i in o} == {"garden.txt", "tea.txt"}
    assert all(len(o) == 1 for o in owners.values())


def test_a_chance_phrase_lists_no_source(index: Path) -> None:
    # Two shingles in common with the garden text ("перекопка и удобрение почвы" at k=4).
    draft = f"{NEW} Перекопка и удобрение почвы тоже помогают."
    result = _check(index, draft, profiles=["raw"])
    assert not result.profiles[0].sources and not result.profiles[0].fragments
    assert result.verdict.uniqueness == 1.0
    loose = _check(index, draft, profiles=["raw"], min_shared=1)
    assert [Path(m.source).name for m in loose.profiles[0].sources] == ["garden.txt"]
    # ... and a run of four words in a new sentence is shown, not counted
    assert loose.verdict.uniqueness == 1.0
    assert [draft[f.start : f.end] for f in loose.verdict.uncounted] == [
        "Перекопка и удобрение почвы"
    ]


def test_without_stored_text_there_are_no_passages(tmp_path: Path) -> None:
    (tmp_path / "garden.txt").write_text(GARDEN, "utf-8")
    with Index(tmp_path / "i.db", create=True) as opened:
        canon.add_sources(
            opened, [str(tmp_path / "garden.txt")], settings=canon.AddSettings(store_text=False)
        )
        result = canon.check(_sentences(GARDEN)[3], opened)
    match = result.profiles[0].sources[0]
    assert match.fragments and match.passages is None
    assert match.to_dict()["passages"] is None


def test_excluded_text_is_left_out_of_the_count(index: Path) -> None:
    copied = _sentences(GARDEN)[3]
    draft = f"{NEW} {copied}"
    verdict = _check(index, draft, exclude=[str(index.parent / "garden.txt")]).verdict
    assert verdict.uniqueness == 1.0
    assert verdict.chars == pytest.approx(int(counted(NEW).sum()), abs=2)


def test_a_draft_only_in_excluded_sources_is_refused(index: Path) -> None:
    with pytest.raises(InputError, match=r"^essay has nothing left to check"):
        _check(index, GARDEN, exclude=[str(index.parent / "garden.txt")], name="essay")


@pytest.mark.parametrize(
    ("options", "option"),
    [({"min_shared": 0}, "min_shared"), ({"common": 0}, "common"),
     ({"min_shared": -2}, "min_shared")],
)  # fmt: skip
def test_bad_thresholds_are_refused_naming_the_option(index: Path, options, option) -> None:
    with pytest.raises(OptionError) as caught:
        _check(index, NEW, **options)
    assert caught.value.option == option


def test_tricks_are_reported_at_the_top(index: Path) -> None:
    tricked = _sentences(GARDEN)[3].replace("о", "o")  # Latin o throughout
    result = _check(index, tricked)
    assert result.tricks and {t.kind for t in result.tricks} == {"lookalike"}
    assert all(tricked[t.start : t.end] == t.original for t in result.tricks)
    assert result.verdict.uniqueness < 0.05
    data = result.to_dict()
    assert set(data["verdict"]) >= {"uniqueness", "copied", "rewritten", "chars", "formula"}
    assert data["tricks"][0].keys() == {"kind", "start", "end", "original", "repaired"}


def test_set_phrases_are_shown_as_such(tmp_path: Path) -> None:
    from canon.report.model import check_view
    from canon.sources.documents import Document

    phrase = "в том числе и по выходным дням"
    topics = ["Библиотека работает", "Бассейн открыт", "Музей принимает гостей"]
    rows = [{"id": f"doc-{i}", "text": f"{t} {phrase}, а вход свободный для всех {i}."}
            for i, t in enumerate(topics)]  # fmt: skip
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), "utf-8")
    draft = f"{NEW} Каток закрыт {phrase}."
    with Index(tmp_path / "i.db", create=True) as opened:
        canon.add_sources(opened, [str(corpus)], canon.IndexRules([canon.get_profile("raw")]))
        result = canon.check(draft, opened, canon.CheckSettings(common=2, min_shared=1))
    (raw,) = result.profiles
    assert [draft[f.start : f.end] for f in raw.set_phrases] == [phrase]
    assert not raw.sources and not raw.fragments  # it ties the draft to no source
    assert result.verdict.uniqueness == 1.0
    doc = Document("draft", draft, method="text", encoding=None)
    assert check_view(result, doc).set_phrases == (phrase,)


def _shuffled(sentence: str, seed: int) -> str:
    import random

    words = re.findall(r"\w+", sentence)
    random.Random(seed).shuffle(words)
    return " ".join(words).capitalize() + "."


def test_sentences_with_their_words_shuffled_are_rewritten(index: Path) -> None:
    sentences = _sentences(GARDEN)[1:6]
    draft = " ".join(_shuffled(s, i) for i, s in enumerate(sentences))
    shingles_only = _check(index, draft, sentence_threshold=None).verdict
    result = _check(index, draft)
    assert shingles_only.uniqueness > 0.6  # shingles alone are fooled by the new order
    assert result.verdict.uniqueness <= 0.25 and result.verdict.copied < 0.1
    assert {Path(r.source).name for r in result.rewrites} == {"garden.txt"}
    for r in result.rewrites:  # each rewritten sentence points at its own source sentence
        words = set(re.findall(r"\w+", GARDEN[r.source_start : r.source_end].lower()))
        assert words <= set(re.findall(r"\w+", draft[r.start : r.end].lower()))
    assert "sentence" in result.verdict.formula
    data = result.to_dict()
    assert data["rewrites"][0].keys() >= {"start", "end", "source", "source_start", "score"}


def test_a_shuffled_sentence_in_quotes_is_left_out(index: Path) -> None:
    shuffled = " ".join(_shuffled(s, 7) for s in _sentences(GARDEN)[2:4])
    draft = f"{NEW} Как пишут садоводы, «{shuffled}»"
    assert _check(index, draft).rewrites
    quoted = _check(index, draft, skip_quotes=True)
    assert not quoted.rewrites and quoted.verdict.uniqueness == 1.0


def test_sources_found_by_sentences_alone_are_listed(index: Path) -> None:
    from canon.report.model import check_view
    from canon.sources.documents import Document

    draft = f"{NEW} {_shuffled(_sentences(TEA)[4], 3)}"
    result = _check(index, draft)
    assert not any(p.sources for p in result.profiles) and result.rewrites
    view = check_view(result, Document("draft", draft, method="text", encoding=None))
    (source,) = view.sources
    assert source.source.endswith("tea.txt") and "1 sentence" in source.shared
    assert source.passages is not None and any(run.level for run in source.passages)


@pytest.mark.parametrize("bad", [0, -0.5, 1.5])
def test_a_bad_sentence_threshold_is_refused(index: Path, bad: float) -> None:
    with pytest.raises(OptionError) as caught:
        _check(index, NEW, sentence_threshold=bad)
    assert caught.value.option == "sentence_threshold"


def test_sentences_the_shingles_explain_are_not_judged_again(index: Path) -> None:
    """The sentence measure judges only sentences holding text the shingles left unexplained:
    the figures are those judging every sentence gives, and a copied sentence is not listed
    as rewritten too."""
    from canon.uniqueness.rewrites import find_rewrites

    sentences = _sentences(GARDEN)
    copied = " ".join(sentences[1:3])
    draft = f"{copied} {_shuffled(sentences[4], 5)} {NEW}"
    result = _check(index, draft)
    assert result.rewrites and all(r.start >= len(copied) for r in result.rewrites)
    with Index(index, readonly=True) as opened:
        lemma = next(p for p in opened.profiles() if p.name == "lemma")
        every = find_rewrites(draft, opened, lemma).rewrites
    assert any(r.end <= len(copied) for r in every)  # judged alone, copied ones match too
    checks = result.profiles
    judged_all = verdict_of(
        draft,
        copied=[f for p in checks if p.word_for_word for f in p.fragments],
        rewritten=[f for p in checks if not p.word_for_word for f in p.fragments]
        + [Fragment(r.start, r.end) for r in every],
        formula="",
    )
    figures = ("uniqueness", "copied", "rewritten", "chars")
    assert [getattr(judged_all, f) for f in figures] == [
        getattr(result.verdict, f) for f in figures
    ]


# ------------------------------------------------------------------ synonyms

# Two sentences of GARDEN with content words swapped for synonyms (and inflected as the
# originals were), the rest kept: runs of the original's words remain between the swaps.
SYNONYMIZED = (
    "Владельцы, которые истратят на участок несколько октябрьских выходных, весной освободят "
    "себя от множества тревог и неприятных сюрпризов. "
    "Ботву, сорняки и упавшие плоды устраняют целиком: в растительных остатках охотно зимуют "
    "вредители и споры грибковых болезней."
)


def test_a_synonymized_sentence_is_rewritten_never_copied(index: Path) -> None:
    result = _check(index, SYNONYMIZED)
    assert any(p.fragments for p in result.profiles if p.profile == "raw")  # runs kept
    verdict = result.verdict
    assert verdict.copied == 0.0 and verdict.uniqueness == 0.0 and verdict.rewritten == 1.0
    assert len(result.rewrites) == 2
    for rewrite in result.rewrites:  # each names its own source sentence
        assert Path(rewrite.source).name == "garden.txt"
        said = GARDEN[rewrite.source_start : rewrite.source_end]
        assert said.split()[-1] == SYNONYMIZED[rewrite.start : rewrite.end].split()[-1]
    assert "synonym classes" in verdict.formula


def test_the_classes_give_a_synonymized_sentence_its_source_score(
    index: Path, tmp_path: Path, monkeypatch
) -> None:
    with_classes = _check(index, SYNONYMIZED).rewrites
    from canon.fingerprints import sentences

    monkeypatch.setattr(sentences, "_words", lambda canonical: canonical.tokens)
    (tmp_path / "garden.txt").write_text(GARDEN, "utf-8")
    with Index(tmp_path / "plain.db", create=True) as opened:
        canon.add_sources(opened, [str(tmp_path / "garden.txt")])
    plain = _check(tmp_path / "plain.db", SYNONYMIZED).rewrites
    assert len(with_classes) == len(plain) == 2  # the two back each other: one source
    assert all(r.score == pytest.approx(1.0) for r in with_classes)
    assert min(r.score for r in plain) < 0.7  # the first: four of its words swapped


def test_words_of_the_same_classes_in_another_sense_are_not_merged(index: Path) -> None:
    # осень ~ весна, хозяин, выходной, парк ~ огород: a few classes shared, another story
    other = "Осенью хозяева собак тратят выходные на долгие прогулки в городском парке."
    result = _check(index, f"{NEW} {other}")
    assert not result.rewrites and result.verdict.uniqueness == 1.0


# ------------------------------------------------------------------ what is evidence

# A GARDEN sentence told again in part: some of its words, others new, in another order.
RETOLD = (
    "Подальше от участка лучше вывезти больные стебли фитофторой, а здоровые можно отправить "
    "в компостную яму у забора."
)


def test_a_short_shared_run_in_a_new_sentence_is_shown_not_counted(index: Path) -> None:
    run = "охотно зимуют вредители и споры грибковых"  # six words of GARDEN
    draft = f"{NEW} Мы знаем, что {run} растений — тема для отдельной статьи о лесах Сибири."
    result = _check(index, draft)
    assert any(p.fragments for p in result.profiles)  # the shingles do match
    verdict = result.verdict
    assert verdict.uniqueness == 1.0
    assert [draft[f.start : f.end] for f in verdict.uncounted] == [run]
    assert verdict.to_dict()["uncounted"] == [[f.start, f.end] for f in verdict.uncounted]


def test_a_short_sentence_copied_whole_counts(index: Path) -> None:
    copied = "Первым делом стоит навести порядок на огороде."
    verdict = _check(index, f"{NEW} {copied}").verdict
    assert verdict.copied == pytest.approx(
        counted(copied).sum() / counted(f"{NEW} {copied}").sum(), abs=0.01
    )
    assert not verdict.uncounted


def test_a_weakly_rewritten_sentence_counts_only_beside_more_of_its_source(index: Path) -> None:
    alone = _check(index, f"{NEW} {RETOLD}")
    assert not alone.rewrites and alone.verdict.uniqueness == 1.0
    assert [alone.text[f.start : f.end] for f in alone.verdict.uncounted] == [RETOLD]
    shuffled = " ".join(_shuffled(s, i) for i, s in enumerate(_sentences(GARDEN)[8:10]))
    beside = _check(index, f"{NEW} {RETOLD} {shuffled}")
    retold = beside.text.index(RETOLD)
    assert any(r.start == retold and r.score < 0.95 for r in beside.rewrites)
    assert not beside.verdict.uncounted


def test_what_is_not_counted_is_shown_to_the_editor(index: Path, tmp_path: Path) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(f"{NEW} {RETOLD}", "utf-8")
    out = run_cli("check", draft, "--index", index, env={"COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    assert "Found but not counted" in out.stdout and "в компостную яму у забора" in out.stdout


def test_a_short_quotation_inside_a_copied_sentence_is_left_out_not_relabelled(
    index: Path,
) -> None:
    sentence = _sentences(GARDEN)[2]
    words = sentence.split()
    name = words[len(words) // 2]
    quoted = sentence.replace(f" {name} ", f" «{name}» ", 1)
    draft = f"{NEW} {quoted}"
    plain = _check(index, f"{NEW} {sentence}").verdict
    skipped = _check(index, draft, skip_quotes=True).verdict
    assert plain.copied + plain.rewritten > 0.3
    # the sentence keeps its label around the quotation: nothing moves from copied to rewritten
    assert (skipped.copied > 0, skipped.rewritten > 0) == (plain.copied > 0, plain.rewritten > 0)
    start = draft.index(f"«{name}»")
    for run in (*skipped.copied_fragments, *skipped.rewritten_fragments):
        assert run.end <= start or run.start >= start + len(name) + 2  # the quotation: neither
    assert skipped.chars == plain.chars - len(name.strip(".,"))


def _rewrite(text: str, sentence: str, source: str, score: float) -> Rewrite:
    start = text.index(sentence)
    return Rewrite(start, start + len(sentence), 1, source, None, 0, 10, score)


def test_two_fair_sentences_of_one_source_back_each_other() -> None:
    """Below ALONE_SCORE, a sentence counts beside another of its source at BACK_SCORE or
    more (or one holding a long run of it); never beside a weaker one, or one of another
    source.  Each sentence is long enough that SUPPORT alone backs none of them."""
    sentences = [f"Предложение номер {n} о совсем разных вещах и людях." for n in range(12)]
    text = " ".join(sentences)
    fair, also_fair, weaker, other = (
        _rewrite(text, sentences[0], "a", BACK_SCORE + 0.05),
        _rewrite(text, sentences[3], "a", BACK_SCORE),
        _rewrite(text, sentences[6], "b", BACK_SCORE - 0.1),
        _rewrite(text, sentences[9], "c", BACK_SCORE + 0.1),
    )
    kept, weak = supported(text, [fair, also_fair, weaker, other], {})
    assert (set(kept), set(weak)) == ({fair, also_fair}, {weaker, other})
    kept, weak = supported(text, [fair, weaker], {})  # its only companion is weaker
    assert (kept, set(weak)) == ((), {fair, weaker})
    run = Fragment(text.index(sentences[11]), text.index(sentences[11]) + 20)
    kept, weak = supported(text, [other], {"c": [run]})  # a long run of c elsewhere
    assert (kept, weak) == ((other,), ())
    assert supported(text, [_rewrite(text, sentences[9], "c", 0.96)], {})[0]  # strong alone


def test_two_weak_sentences_of_one_source_do_not_back_each_other_three_do() -> None:
    """A short text on the same story: two sentences of it rewritten weakly from one source
    (below BACK_SCORE) explain far more than SUPPORT of it together, and still count for
    nothing; a sentence at BACK_SCORE explains for a weak one; three weak ones of one source
    (a synonymizer's copy) back one another."""
    sentences = ["Сквер открыли в ноябре.", "Губернатор был на церемонии.", "Жители рады."]
    text = " ".join(sentences)
    weak = [_rewrite(text, sentences[n], "a", BACK_SCORE - 0.1) for n in range(3)]
    assert supported(text, weak[:2], {}) == ((), tuple(weak[:2]))
    fair = _rewrite(text, sentences[1], "a", BACK_SCORE)
    kept, left = supported(text, [weak[0], fair], {})
    assert set(kept) == {weak[0], fair} and left == ()
    assert WEAK_BACKERS == 2
    assert supported(text, weak, {}) == (tuple(weak), ())
