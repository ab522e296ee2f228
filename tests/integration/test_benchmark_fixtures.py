"""The tricks and the labelled drafts of the benchmarks: each does what it says, and no more.

A trick must change what a checker sees and leave what a reader sees: the tests undo each one
(drop the inserted characters, map the letters back) and get the original again.  A labelled
draft must be what its truth says, character by character, and the same for the same seed.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from razdel import sentenize
from sample_news import FIRST, FRESH, SECOND

from benchmarks import verdict
from benchmarks.data import Pair
from testkit import drafts, tricks
from testkit.drafts import KINDS, TRUTH, make_draft, raw_words, reinflect, rewritten

TEXT = (
    "Московские синоптики пообещали жителям столицы тёплую погоду на ближайших выходных. "
    "По их словам, днём воздух прогреется до двадцати градусов, а дожди обойдут город стороной. "
    "В воскресенье к вечеру с запада придёт облачность, и в понедельник возможен слабый дождь. "
    "Специалисты советуют не убирать зонты далеко: погода в мае часто меняется за один день. "
    "А у нас в области, как и в прошлом году, ждут заморозков к середине месяца."
)


def _words(text: str) -> list[str]:
    return raw_words(text)


# ---------------------------------------------------------------- letters and marks


def test_greek_changes_letters_into_their_twins_and_nothing_else() -> None:
    altered = tricks.greek_lookalikes(TEXT)
    assert len(altered) == len(TEXT)
    twins = {chr(a): chr(b) for a, b in tricks.GREEK.items()}
    changed = [(a, b) for a, b in zip(TEXT, altered) if a != b]
    assert len(changed) > len(TEXT) // 5
    assert all(twins[a] == b and unicodedata.name(b).startswith("GREEK") for a, b in changed)
    assert all(a not in twins for a, b in zip(TEXT, altered) if a == b)


@pytest.mark.parametrize("char", ["\u0323", "\u0331", "\u0307", "\u034f", "\ufe0f", "\u3164"])
def test_a_character_goes_inside_every_word_of_three_letters(char: str) -> None:
    altered = tricks.inside_words(TEXT, char)
    assert altered.replace(char, "") == TEXT
    assert altered.count(char) == sum(len(w) > 2 for w in re.findall(r"[^\W\d_]+", TEXT))
    assert all(not w.startswith(char) and not w.endswith(char) for w in altered.split())


def test_grave_stress_marks_one_vowel_of_each_long_word() -> None:
    altered = tricks.grave_stress(TEXT, seed=3)
    assert altered.replace("\u0300", "") == TEXT
    for before, after in zip(TEXT.split(), altered.split()):
        vowels = len(re.findall("[аеёиоуыэюя]", before, re.IGNORECASE))
        assert after.count("\u0300") == (1 if vowels >= 2 else 0)
        if "\u0300" in after:
            assert after[after.index("\u0300") - 1].lower() in "аеёиоуыэюя"
    assert tricks.grave_stress(TEXT, seed=3) == altered


def test_one_letter_words_are_typed_in_latin() -> None:
    altered = tricks.latin_one_letter(TEXT)
    pairs = list(zip(TEXT.split(), altered.split(), strict=True))
    changed = [(a, b) for a, b in pairs if a != b]
    assert set(changed) == {("с", "c"), ("а", "a"), ("А", "A"), ("у", "y"), ("к", "k")}
    assert all(b.isascii() for _, b in changed)
    assert "в" in altered.split()  # only c o a y k have Latin twins of their own


def test_hangul_filler_takes_every_space() -> None:
    altered = tricks.hangul_spaces(TEXT)
    assert " " not in altered
    assert altered.replace("\u3164", " ") == TEXT


def test_transliteration_writes_about_half_the_words_in_latin() -> None:
    altered = tricks.transliterate(TEXT, seed=1)
    pairs = list(zip(TEXT.split(), altered.split(), strict=True))
    latin = [(a, b) for a, b in pairs if a != b]
    assert 0.3 < len(latin) / len(pairs) < 0.7
    for before, after in latin:
        assert not re.search("[а-яё]", after, re.IGNORECASE)
        word = re.sub(r"\W", "", before)
        assert re.sub(r"\W", "", after).lower() == "".join(tricks.LATIN[c] for c in word.lower())
    assert tricks.transliterate(TEXT, seed=1) == altered
    assert tricks.transliterate(TEXT, seed=2) != altered


def test_a_hyphen_cuts_every_long_word() -> None:
    altered = tricks.hyphen_inside(TEXT, seed=4)
    assert altered.replace("-", "") == TEXT
    for before, after in zip(TEXT.split(), altered.split()):
        letters = re.sub(r"[^\w]", "", before)
        if len(letters) >= 8:
            head, tail = re.sub(r"[^\w-]", "", after).split("-")
            assert len(head) >= 3 and len(tail) >= 3
        else:
            assert after == before


def test_word_pairs_are_joined_by_hyphens_two_at_a_time() -> None:
    altered = tricks.hyphen_pairs(TEXT)
    assert altered.replace("-", " ") == TEXT
    assert not re.search(r"\w+-\w+-\w+", altered)  # never three words in one chain
    assert altered.count("-") >= len(TEXT.split()) // 3


def test_filler_words_come_every_three_to_five_words() -> None:
    altered = tricks.filler_words(TEXT, seed=5)
    tokens = altered.split(" ")
    fillers = [i for i, t in enumerate(tokens) if t in tricks.FILLERS]
    assert [t for t in tokens if t not in tricks.FILLERS] == TEXT.split(" ")
    gaps = np.diff([-1, *fillers]) - 1
    assert set(gaps.tolist()) <= {3, 4, 5}
    assert len(tokens) - 1 - fillers[-1] <= 5


# ---------------------------------------------------------------- word order


def _sentence_words(text: str) -> list[list[str]]:
    return [_words(s.text) for s in sentenize(text)]


def test_a_shuffle_keeps_each_sentence_s_words() -> None:
    altered = tricks.shuffle_sentences(TEXT, seed=6)
    before, after = _sentence_words(TEXT), _sentence_words(altered)
    assert len(before) == len(after)
    assert all(Counter(a) == Counter(b) for a, b in zip(before, after))
    assert before != after
    assert all(s.text[0].isupper() and s.text[-1] == "." for s in sentenize(altered))


def test_pair_swaps_swap_each_sentence_s_words_two_by_two() -> None:
    altered = tricks.adjacent_swaps(TEXT)
    for before, after in zip(_sentence_words(TEXT), _sentence_words(altered), strict=True):
        expected = list(before)
        for i in range(0, len(expected) - 1, 2):
            expected[i], expected[i + 1] = expected[i + 1], expected[i]
        assert after == expected


def test_a_name_keeps_its_capital_when_moved() -> None:
    moved = tricks.swap_pairs("Москва и Петербург готовятся к празднику.")
    assert moved == "И Москва готовятся Петербург празднику к."
    moved = tricks.swap_pairs("Вчера Иван пришёл домой.")
    assert moved == "Иван вчера домой пришёл."


def test_every_trick_is_seeded_and_changes_the_text() -> None:
    names = [t.name for t in tricks.TRICKS]
    assert len(set(names)) == len(names) == 27
    for trick in tricks.TRICKS:
        altered = trick.alter(TEXT, 9)
        assert altered != TEXT, trick.name
        assert trick.alter(TEXT, 9) == altered, trick.name
    loose = {t.name for t in tricks.TRICKS if t.target == 0.25}
    assert loose == {"half the words in Latin letters", "words shuffled inside sentences"}
    assert all(t.target == 0.05 for t in tricks.TRICKS if t.name not in loose)


# ---------------------------------------------------------------- labelled drafts


def test_reinflect_gives_other_forms_of_the_lexeme() -> None:
    forms = reinflect("машина")
    assert {"машины", "машиной", "машине"} <= set(forms) and "машина" not in forms
    assert "Машины" in reinflect("Машина")
    assert "пошла" in reinflect("пошёл")
    assert reinflect("ТАСС") == reinflect("шмурдяк") == reinflect("2020") == ()


def test_endings_leave_no_run_of_four_words() -> None:
    rng = random.Random(1)
    for sentence in FIRST:
        changed = drafts.rewrite_endings(sentence, rng)
        assert changed is not None
        before, after = _words(sentence), _words(changed)
        assert len(before) == len(after)
        for old, new in zip(before, after):
            assert old == new or new in {f.lower() for f in reinflect(old)}
        assert rewritten(sentence, changed)
    assert drafts.rewrite_endings("В 2019 и 2020 годах", rng) is None


def _draft(seed: int) -> drafts.Draft:
    return make_draft(("A", FIRST), ("B", SECOND), FRESH, seed)


def _from(piece_text: str, kind: str) -> bool:
    """Whether a piece of this kind could come from the sentences its kind names."""
    words = _words(piece_text)
    if kind in ("copied", "second", "new"):
        pool = {"copied": FIRST, "second": SECOND, "new": FRESH}[kind]
        return piece_text.strip() in pool
    originals = [s for s in FIRST if len(_words(s)) == len(words) and rewritten(s, piece_text)]
    if kind in ("shuffle", "swaps"):
        return any(Counter(_words(s)) == Counter(words) for s in originals)
    return bool(originals)  # endings, both: the same number of words, no run of four kept


def test_a_draft_s_truth_covers_every_character() -> None:
    for seed in range(20):
        draft = _draft(seed)
        assert draft.pieces[0].start == 0 and draft.pieces[-1].end == len(draft.text)
        assert all(a.end == b.start for a, b in zip(draft.pieces, draft.pieces[1:]))
        assert len(draft.labels()) == len(draft.kinds()) == len(draft.text)
        assert sum(draft.share(label) for label in drafts.LABELS) == pytest.approx(1.0)
        for piece in draft.pieces:
            assert piece.kind in KINDS and piece.truth == TRUTH[piece.kind]
            assert _from(draft.text[piece.start : piece.end], piece.kind), piece


def test_drafts_are_seeded_and_their_mixes_vary() -> None:
    assert _draft(3) == _draft(3)
    mixes = [Counter(p.kind for p in _draft(seed).pieces) for seed in range(30)]
    assert len({tuple(sorted(m.items())) for m in mixes}) >= 25
    assert set().union(*mixes) == set(KINDS)
    new = [_draft(seed).share("new") for seed in range(30)]
    assert max(new) - min(new) > 0.4


# ---------------------------------------------------------------- the evaluation


def test_stories_stay_on_one_side_of_the_split() -> None:
    stories = [[f"Статья {n} {side} " + " ".join(FIRST) for side in "ab"] for n in range(12)]
    pairs = [Pair(a, b, "OK") for a, b in stories] + [Pair(stories[0][0], stories[1][1], "BAD")]
    corpus = verdict.split_corpus(pairs, seed=1)
    indexed = set(corpus.indexed.values())
    assert len(indexed) == 18  # a quarter of the 24 articles is held out, story by story
    assert all((a in indexed) == (b in indexed) for a, b in stories)
    assert all(len(p) == 1 for p in corpus.partners.values())
    assert corpus.fresh == []  # every held-out sentence is also in an indexed article


def test_precision_and_recall_count_letters_and_digits() -> None:
    copied, new = FIRST[0] + " ", FRESH[0]
    pieces = (
        drafts.Piece(0, len(copied), "copied"),
        drafts.Piece(len(copied), len(copied + new), "new"),
    )
    draft = drafts.Draft(copied + new, pieces, "A", "B")
    marked = np.zeros(len(draft.text), dtype=bool)
    marked[: len(copied) + 10] = True  # the copied sentence and 10 characters of the new one
    right = sum(c.isalnum() for c in copied)
    wrong = sum(c.isalnum() for c in new[:10])
    fresh = sum(c.isalnum() for c in new)
    nothing = np.zeros(len(draft.text), dtype=bool)
    marks = verdict.Marks(marked, nothing)
    rest = ~marked  # with sentences, the rest of the new sentence is found rewritten
    scored = verdict.Scored(
        draft,
        np.array(draft.counted()),
        np.array(draft.labels()),
        np.array(draft.kinds()),
        {},
        {verdict.SHINGLES: marks, verdict.VERDICT: verdict.Marks(marked, rest)},
    )
    assert verdict.precision_recall([scored], verdict.SHINGLES, "copied") == (
        pytest.approx(right / (right + wrong)),
        1.0,
    )
    assert verdict.precision_recall([scored], verdict.SHINGLES, "rewritten") == (0.0, 0.0)
    assert verdict.precision_recall([scored], verdict.VERDICT, "rewritten") == (0.0, 0.0)
    assert verdict.Marks(marked, rest).share("new", scored.counted) == 0.0
    assert scored.share("new") == pytest.approx(fresh / (right + fresh))
    assert draft.share("new") == pytest.approx(fresh / (right + fresh))
    assert marks.share("new", scored.counted) == pytest.approx((fresh - wrong) / (right + fresh))
    rows = {row[0]: row for row in verdict.kind_rows([scored])}
    assert set(rows) == {"copied", "new"}
    assert rows["copied"][3:] == ["100.0%", "0.0%", "0.0%", "0.0%"]
    assert rows["new"][3:] == [
        f"{wrong / fresh * 100:.1f}%",
        "0.0%",
        f"{(fresh - wrong) / fresh * 100:.1f}%",
        "0.0%",
    ]


def test_verdict_skips_absent_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    verdict.main(["--data", str(tmp_path), "--quick"])
    assert "skipped:" in capsys.readouterr().out


def _news_folder(root: Path) -> Path:
    """A small stand-in for the news pairs: 16 articles of 8 sentences each, in 8 stories."""
    pool = FIRST + SECOND + FRESH
    rng = random.Random(4)
    articles = [f"Новость номер {n}. " + " ".join(rng.sample(pool, 8)) for n in range(16)]
    columns = ("first_url", "second_url", "first_text", "second_text")
    header = "\t".join([*(f"INPUT:{c}" for c in columns), "GOLDEN:quality"])
    rows = [
        f"u{i}\tu{i + 1}\t{articles[i]}\t{articles[i + 1]}\t{'OK' if i % 4 == 0 else 'BAD'}"
        for i in range(0, 16, 2)
    ]
    folder = root / "ru-news-same-story-pairs"
    folder.mkdir()
    (folder / "pool.tsv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return root


def test_verdict_runs_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    verdict.main(["--data", str(_news_folder(tmp_path)), "--quick"])
    out = capsys.readouterr().out
    assert "12 indexed articles" in out
    for title in ("## Labelled drafts", "## Tricks", "## Cost", "bytes/document"):
        assert title in out
    lines = {line.split(" | ")[0].strip("| "): line for line in out.splitlines() if "|" in line}
    assert "| **0.0%** |" in lines["untouched copy"]
    assert lines["copied"].startswith("| copied | copied |")
    assert "| 100.0% | 0.0% | 0.0% |" in lines["copied"]
    assert len([name for name in lines if name in {t.name for t in tricks.TRICKS}]) == 27
    assert out.count("PASS") + out.count("MISS") == 4 + 1 + 27 + 4
