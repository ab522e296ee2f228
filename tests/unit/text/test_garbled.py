"""Words hidden by several tricks at once are read back; clean text is left as typed."""

from __future__ import annotations

import collections
import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canon
from canon.text.garbled import read_garbled
from testkit.tricks import TRICKS

SENTENCE = (
    "Учёные обнаружили ещё одну опасность для здоровья, вызванную потреблением сахара. "
    "Президент подписал указ о поддержке малого бизнеса в регионах страны."
)


def _tokens(text: str) -> collections.Counter[str]:
    return collections.Counter(canon.canonicalize(text, "lemma").tokens)


def _recovered(altered: str) -> float:
    clean = _tokens(SENTENCE)
    return sum((_tokens(altered) & clean).values()) / sum(clean.values())


@pytest.mark.parametrize(
    ("garbled", "word"),
    [
        ("оʲбнː𝐚рʺужиˌ}лиʰ", "обнаружили"),  # modifier letters, a mathematical а, a bracket
        ("Уːчʲℯнˈыеˀ", "учёные"),  # ё read where the dictionary writes it
        ("pροgοlzhαyuτ", "продолжают"),  # volapuk with Greek look-alikes
        ("раʺ̀змˑ️еˌщʷѐниˀ️яˈ", "размещения"),  # marks, a variation selector, ѐ
        ("Μи️нисτρ", "министр"),
        ("ми'нистр", "министр"),  # an apostrophe put in
        ("мин0истр", "министр"),  # a digit put in
    ],
)
def test_a_word_with_stacked_tricks_is_read_and_reported(garbled: str, word: str) -> None:
    text = f"Вчера {garbled} сказал"
    out, folds = read_garbled(text)
    assert len(out) == len(text)  # one character for one: offsets hold
    assert [f.folded for f in folds] == [word]
    assert text[folds[0].start : folds[0].end] == folds[0].original == garbled


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Г л̣а в̇а   О ф̣и с̇а   п р̣е з̇и д е н т а", ["глава", "офис", "президент"]),
        ("П0ли ц и я   о т к р ы ла", ["полиция", "открыть"]),
        ("Гл@ваㅤОфㅤисаㅤпрㅤе3идㅤента", ["глава", "офис", "президент"]),
        ("ссb|лк0й на пре3иде-\nнта сети", ["ссылка", "президент", "сеть"]),
    ],
)
def test_spaced_letters_and_invisible_gaps_with_tricks_inside_are_words(
    text: str, words: list[str]
) -> None:
    assert list(canon.canonicalize(text, "lemma").tokens) == words


@pytest.mark.parametrize(
    "text",
    [
        "Обычный текст, и в том числе т.е. 30км, COVID-19 и м/с.",
        "Ветер З, 3-5 м/с, ожидается -2…0 градусов.",
        'ГолосUA сообщает, что «Мойка78» и COVIDной режим в Подольск".В конце',
        "a c b, vitamin c",
        "Call of Du\u3164ty",  # English with an invisible character: the other rules'
        "конец.Начало",
        "сети 2G, 3G и 4G LTE, Tele2 и концепт-тизер с KB, AT&T и R&D",
        "2 ст. л. масла и 3 ч. л. соли",  # abbreviations: no word runs across their points
        "Пишут Znak.com, URA.RU, tut.by и Накануне.RU; R.I.P, сказал A.S.Pushkin",
        "Прогресс-М27М, ТУ-154 и д'Артаньян",
    ],
)
def test_clean_text_is_left_as_typed(text: str) -> None:
    assert read_garbled(text) == (text, ())


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # volapuk with signs and modifier letters inside, its spellings first (m is т, g д)
        ("Bo3m0zhnʺ0 0gˈpanu4enuj Ha g@nHym tak>|<e p0cˈmenennoe cH9muʰe",
         ["возможно", "ограничение", "данные", "постепенный", "снятие"]),
        # letters spaced apart, a volapuk digit among them
        ("K a6i n e t   m u H u c m p o B   y k p a u H bl   3 a 9 B u J I",
         ["кабинет", "министр", "украина", "заявить"]),
        # a point, a comma or a colon for a letter inside a transliterated word
        ("Коммунальные so:rudniki zak}nno замазали naris.vannyy портрет Io,ифа Бродского",
         ["коммунальный", "сотрудник", "законно", "замазать", "нарисовать", "портрет", "иосиф",
          "бродский"]),
        # Latin letters spaced apart in Russian text: a Russian word transliterated
        ("О л и м п и й с к и й   c h e m p i o n   п о   f i g u r n o m u   к а т а н и ю",
         ["олимпийский", "чемпион", "фигурный", "катание"]),
    ],
)  # fmt: skip
def test_latin_letters_with_other_tricks_are_read_in_russian_or_volapuk(
    text: str, words: list[str]
) -> None:
    assert list(canon.canonicalize(text, "lemma").tokens) == words


@pytest.mark.parametrize("gap", [" ", "-"])  # word pairs joined by hyphens: no fewer gaps
def test_invisible_characters_put_inside_words_of_a_spaced_text_part_no_words(gap: str) -> None:
    # two in every word outnumber the spaces, but the spaces are whole: put inside, not for
    # them, so на␣ход␣или is находили, not на ходили
    words = ["вы\ufe0fсту\u034fпили", "за\ufe0fяв\u034fили", "по\ufe0fдпи\u034fсали",
             "на\ufe0fход\u034fили"]  # fmt: skip
    text = f"{words[0]}{gap}{words[1]} {words[2]}{gap}{words[3]} в Санкт-Петербурге."
    clean = f"выступили{gap}заявили подписали{gap}находили в Санкт-Петербурге."
    assert canon.canonicalize(text, "lemma").tokens == canon.canonicalize(clean, "lemma").tokens


def test_every_pair_of_letter_tricks_is_read() -> None:
    """Each pair of the letter, spacing and storage tricks (not volapuk, whose Latin words
    other rules read), stacked on our sentence: at least 3 words in 5 read back, and 95% on
    average."""
    stacked = [t for t in TRICKS if t.stage >= 1 and t.target <= 0.05 and "volapuk" not in t.name]
    shares = {}
    for first, second in itertools.combinations(stacked, 2):
        a, b = sorted((first, second), key=lambda t: t.stage)
        shares[a.name, b.name] = _recovered(b.alter(a.alter(SENTENCE, 1), 2))
    low = {pair: share for pair, share in shares.items() if share < 0.6}
    assert not low, low
    assert sum(shares.values()) / len(shares) >= 0.95


@settings(max_examples=60, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("собакаСОБ abco0@3(.-ʰ\u034f\u3164\u0301\ue000ε\n\u2009")),
        max_size=60,
    )
)
def test_any_text_keeps_its_length_and_every_fold_its_place(text: str) -> None:
    out, folds = read_garbled(text)
    assert len(out) == len(text)
    for fold in folds:
        assert text[fold.start : fold.end] == fold.original


@pytest.mark.slow
def test_a_long_garbled_text_is_read_in_bounded_time() -> None:
    text = ("с0з\u034fд а л и   к0р(о н а в и р у с ʰ" * 400)[:20_000]
    started = time.process_time()
    out, _ = read_garbled(text)
    assert len(out) == len(text)
    assert time.process_time() - started < 60  # a few seconds here; the search is bounded


def test_short_words_spaced_apart_in_volapuk_are_read() -> None:
    # in volapuk, Latin letters spaced apart may spell words of two or three letters too
    text = "K a6i n e t   4m o   n a   m u H u c m p o B   y k p a u H bl   3 a 9 B u J I"
    assert {f.folded for f in read_garbled(text)[1]} >= {"что", "на", "кабинет"}
    assert read_garbled("a b c, vitamin c, u B")[1] == ()  # not volapuk: as typed
