"""Cheap tricks against the canonical form: an altered copy canonicalizes like the original."""

from __future__ import annotations

import json
import re
import time
import unicodedata

import pytest
import regex
from hypothesis import example, given
from hypothesis import strategies as st

import canon
from canon.errors import OptionError
from canon.profile import BUILTIN_PROFILES

ORIGINAL = (
    "Московские синоптики пообещали жителям столицы тёплую погоду на выходных. "
    "По их словам, днём воздух прогреется до двадцати градусов, а дожди обойдут город стороной."
)


def _every_word(text: str, mark: str) -> str:
    """``mark`` after the second letter of every word of three letters or more."""
    return " ".join(w[:2] + mark + w[2:] if len(w) > 2 else w for w in text.split(" "))


@pytest.mark.parametrize("profile", ["lemma", "stem"])
@pytest.mark.parametrize(
    "mark",
    ["\u0300", "\u0301", "\u0323", "\u0331", "\u0307", "\u0304", "\u0330"],
)
def test_marks_inside_words_leave_the_tokens(profile: str, mark: str) -> None:
    altered = _every_word(ORIGINAL, mark)
    assert altered != ORIGINAL
    assert (
        canon.canonicalize(altered, profile).tokens == canon.canonicalize(ORIGINAL, profile).tokens
    )


def test_a_grave_stress_composed_by_nfkc_leaves_the_tokens() -> None:
    altered = ORIGINAL.replace("тёплую", "те\u0300плую").replace("жителям", "жи\u0300телям")
    assert "тѐплую" in canon.canonicalize(altered, "raw").tokens
    assert (
        canon.canonicalize(altered, "lemma").tokens == canon.canonicalize(ORIGINAL, "lemma").tokens
    )
    assert canon.canonicalize("мѐл", "lemma").tokens == ("мел",)


def test_marks_spans_cover_the_marked_words() -> None:
    altered = _every_word("синоптики пообещали", "\u0323")
    result = canon.canonicalize(altered, "lemma")
    assert [altered[s:e] for s, e in result.spans] == altered.split(" ")


def test_raw_keeps_the_marks() -> None:
    altered = _every_word(ORIGINAL, "\u0323")
    assert canon.canonicalize(altered, "raw").tokens != canon.canonicalize(ORIGINAL, "raw").tokens


def test_the_mark_switch_is_in_the_fingerprint() -> None:
    lemma = BUILTIN_PROFILES["lemma"]
    assert lemma.strip_all_marks and not BUILTIN_PROFILES["raw"].strip_all_marks
    assert lemma.replace(strip_all_marks=False).fingerprint != lemma.fingerprint


_INVISIBLE = ["\u034f", "\ufe0f", "\u3164", "\uffa0", "\u115f", "\u1160", "\u200b", "\u00ad"]


@pytest.mark.parametrize("char", _INVISIBLE)
def test_invisible_characters_inside_words_leave_the_tokens(char: str) -> None:
    altered = _every_word(ORIGINAL, char)
    assert (
        canon.canonicalize(altered, "lemma").tokens == canon.canonicalize(ORIGINAL, "lemma").tokens
    )
    assert canon.canonicalize(altered, "stem").tokens == canon.canonicalize(ORIGINAL, "stem").tokens


@pytest.mark.parametrize("char", _INVISIBLE)
def test_invisible_characters_around_spaces_leave_the_tokens(char: str) -> None:
    altered = ORIGINAL.replace(" ", f"{char} {char}{char}")
    assert (
        canon.canonicalize(altered, "lemma").tokens == canon.canonicalize(ORIGINAL, "lemma").tokens
    )


_WHITE_SPACE = [chr(c) for c in range(0x110000) if chr(c).isspace()]


@pytest.mark.parametrize("space", _WHITE_SPACE, ids=lambda c: f"U+{ord(c):04X}")
def test_every_white_space_character_is_a_space(space: str) -> None:
    altered = ORIGINAL.replace(" ", space)
    assert (
        canon.canonicalize(altered, "lemma").tokens == canon.canonicalize(ORIGINAL, "lemma").tokens
    )


_WORDS = ORIGINAL.replace(",", "").replace(".", "").split()


@given(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=8),
    st.lists(st.tuples(st.integers(0, 100), st.sampled_from(_INVISIBLE)), max_size=6),
)
@example(["на", "на", "до"], [(0, "\u034f")])  # one invisible character: на до is no надо
@example(["а", "а", "а"], [(0, "\u3164")])  # nor а а а one word
def test_inserting_ignorables_into_words_never_changes_the_lemma_tokens(
    chosen: list[str], inserts: list[tuple[int, str]]
) -> None:
    words = list(chosen)
    for at, char in inserts:
        i = at % len(words)
        cut = 1 + at % (len(words[i]) - 1) if len(words[i]) > 1 else 1
        words[i] = words[i][:cut] + char + words[i][cut:]
    text, altered = " ".join(chosen), " ".join(words)
    result = canon.canonicalize(altered, "lemma")
    assert result.tokens == canon.canonicalize(text, "lemma").tokens
    assert [altered[s:e] for s, e in result.spans] == [
        w for w, c in zip(words, chosen) if canon.canonicalize(c, "lemma").tokens
    ]


_SHORT_WORDS = ["на на до", "и на от", "по до за", "а на до", "на до за", "а а а"]
_IGNORABLES = ["\u034f", "\u200b", "\u2060", "\u00ad", "\ufe0f", "\u3164"]


def _ignorable_in_a_word(text: str, char: str) -> list[str]:
    """``text`` with ``char`` put at the start, inside and at the end of each word in turn."""
    words = text.split(" ")
    out = []
    for i, word in enumerate(words):
        for cut in range(len(word) + 1):
            altered = [*words[:i], word[:cut] + char + word[cut:], *words[i + 1 :]]
            out.append(" ".join(altered))
    return out


@pytest.mark.parametrize("char", _IGNORABLES, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("text", _SHORT_WORDS)
def test_an_ignorable_in_a_short_word_joins_no_words_around_it(text: str, char: str) -> None:
    # short words stay words: one invisible character does not make them letters spaced apart
    clean = canon.canonicalize(text, "lemma").tokens
    for altered in _ignorable_in_a_word(text, char):
        assert canon.canonicalize(altered, "lemma").tokens == clean, altered


def _quiet_characters() -> list[str]:
    """Every assigned character a word may carry that no reader sees as a letter: the
    default-ignorable ones but the bidirectional controls (they change the order a line is
    shown in, and the text is read as shown), and every combining mark but the two that make
    й and ё of и and е."""
    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    bidi = regex.compile(r"\p{Bidi_Control}")
    found = []
    for code in range(0x110000):
        char = chr(code)
        category = unicodedata.category(char)
        if category == "Cn" or bidi.match(char) or char in "\u0306\u0308\u0344":
            continue
        if ignorable.match(char) or category in ("Mn", "Me"):
            found.append(char)
    return found


@pytest.mark.parametrize("text", ["на на до", "а а а"])
def test_no_quiet_character_in_a_short_word_joins_the_words_around_it(text: str) -> None:
    """The sweep of the class: every such character (about 2,400), at every place of every
    word."""
    clean = canon.canonicalize(text, "lemma").tokens
    broken = [
        altered
        for char in _quiet_characters()
        for altered in _ignorable_in_a_word(text, char)
        if canon.canonicalize(altered, "lemma").tokens != clean
    ]
    assert not broken, broken[:5]


def test_the_invisible_switch_is_in_the_fingerprint() -> None:
    lemma = BUILTIN_PROFILES["lemma"]
    assert lemma.drop_ignorables and not BUILTIN_PROFILES["raw"].drop_ignorables
    assert lemma.replace(drop_ignorables=False).fingerprint != lemma.fingerprint


_GREEK = str.maketrans("оаеркхтОАЕРКХТВНМ", "οαερκχτΟΑΕΡΚΧΤΒΗΜ")


@pytest.mark.parametrize("profile", ["lemma", "stem"])
def test_greek_look_alikes_leave_the_tokens(profile: str) -> None:
    altered = ORIGINAL.translate(_GREEK)
    assert altered != ORIGINAL
    assert (
        canon.canonicalize(altered, profile).tokens == canon.canonicalize(ORIGINAL, profile).tokens
    )


def test_greek_folds_are_reported_with_their_spans() -> None:
    altered = "Мы видели сοбακу"
    result = canon.canonicalize(altered, "lemma")
    assert result.tokens == ("видеть", "собака")
    assert [(f.start, f.end, f.original, f.folded) for f in result.folds] == [
        (10, 16, "сοбακу", "собаку")
    ]


def test_small_capitals_fold() -> None:
    assert canon.canonicalize("ᴍы шли ʙместе", "lemma").tokens == ("идти", "вместе")


@pytest.mark.parametrize(
    ("word", "cyrillic"), [("c", "с"), ("o", "о"), ("a", "а"), ("y", "у"), ("k", "к"), ("B", "в")]
)
def test_short_words_in_latin_letters_fold_in_cyrillic_text(word: str, cyrillic: str) -> None:
    original = f"Вчера мы пришли {cyrillic} друзьями домой"
    altered = f"Вчера мы пришли {word} друзьями домой"
    for profile in ("lemma", "stem"):
        result = canon.canonicalize(altered, profile)
        assert result.tokens == canon.canonicalize(original, profile).tokens
        assert len(result.spans) == len(result.tokens)
    folds = canon.canonicalize(altered, "lemma").folds
    assert [(f.original, f.folded) for f in folds] == [(word, cyrillic.lower())]


def test_short_latin_words_among_latin_words_stay() -> None:
    assert canon.canonicalize("vitamin c", "lemma").tokens == ("vitamin", "c")
    assert canon.canonicalize("a c b", "lemma").folds == ()


def test_look_alike_letters_all_over_leave_the_tokens() -> None:
    latin = str.maketrans("сoaeyк", "coaeyk")
    altered = " ".join(w.translate(latin) if len(w) == 1 else w for w in ORIGINAL.split(" "))
    assert (
        canon.canonicalize(altered, "lemma").tokens == canon.canonicalize(ORIGINAL, "lemma").tokens
    )


def test_raw_keeps_greek_letters() -> None:
    altered = ORIGINAL.translate(_GREEK)
    assert canon.canonicalize(altered, "raw").tokens != canon.canonicalize(ORIGINAL, "raw").tokens


def test_the_look_alike_switch_is_in_the_fingerprint() -> None:
    lemma = BUILTIN_PROFILES["lemma"]
    assert lemma.fold_all_lookalikes and not BUILTIN_PROFILES["raw"].fold_all_lookalikes
    assert lemma.replace(fold_all_lookalikes=False).fingerprint != lemma.fingerprint
    narrow = lemma.replace(fold_all_lookalikes=False)
    assert canon.canonicalize("сοбακа", narrow).tokens != ("собака",)


def test_every_repair_is_reported_as_a_trick() -> None:
    text = "Мы ви\u0323дели со\u200bбаку, \u3164 сοбακу и мѐл c мелом"
    result = canon.canonicalize(text, "lemma")
    got = [(t.kind, t.start, t.end, t.original, t.repaired) for t in result.tricks]
    assert got == [
        ("mark", 3, 10, "ви\u0323дели", "видели"),
        ("invisible", 11, 18, "со\u200bбаку", "собаку"),
        ("invisible", 20, 21, "\u3164", " "),
        ("lookalike", 22, 28, "сοбακу", "собаку"),
        ("mark", 31, 34, "мѐл", "мел"),
        ("lookalike", 35, 36, "c", "с"),
    ]
    for trick in result.tricks:
        assert text[trick.start : trick.end] == trick.original
    assert result.to_dict()["tricks"][0] == {
        "kind": "mark",
        "start": 3,
        "end": 10,
        "original": "ви\u0323дели",
        "repaired": "видели",
    }
    # the Latin look-alikes are still folds too
    assert [(f.original, f.folded) for f in result.folds] == [("сοбακу", "собаку"), ("c", "с")]


def test_a_clean_text_and_raw_have_no_tricks() -> None:
    assert canon.canonicalize(ORIGINAL, "lemma").tricks == ()
    assert canon.canonicalize(ORIGINAL, "lemma").to_dict()["tricks"] == []
    altered = _every_word(ORIGINAL, "\u0323")
    assert canon.canonicalize(altered, "raw").tricks == ()


def test_a_breve_of_yi_and_a_diaeresis_of_yo_are_no_tricks() -> None:
    assert canon.canonicalize("мои\u0306 е\u0308ж", "lemma").tricks == ()


@given(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 100), st.sampled_from([*_INVISIBLE, "\u0323"])), max_size=4),
)
def test_tricks_lie_in_the_text(chosen: list[str], inserts: list[tuple[int, str]]) -> None:
    words = list(chosen)
    for at, char in inserts:
        i = at % len(words)
        words[i] = words[i][:1] + char + words[i][1:]
    altered = " ".join(words)
    tricks = canon.canonicalize(altered, "lemma").tricks
    assert bool(tricks) == bool(inserts)
    for trick in tricks:
        assert altered[trick.start : trick.end] == trick.original != trick.repaired


# --- hyphens and transliteration, reported with the other tricks --------------------------


def test_hyphen_and_translit_repairs_are_tricks() -> None:
    text = "Выбор-зимних шин начин-ается, синоптики poobeshchali морозы, а iPhone подешевел"
    result = canon.canonicalize(text, "lemma")
    got = [(t.kind, t.start, t.end, t.original, t.repaired) for t in result.tricks]
    assert got == [
        ("hyphen", 0, 12, "Выбор-зимних", "выбор зимних"),
        ("hyphen", 17, 28, "начин-ается", "начинается"),
        ("translit", 40, 52, "poobeshchali", "пообещали"),
    ]
    assert result.to_dict()["tricks"][2] == {
        "kind": "translit",
        "start": 40,
        "end": 52,
        "original": "poobeshchali",
        "repaired": "пообещали",
    }
    assert canon.canonicalize(text, "raw").tricks == ()


@pytest.mark.parametrize("switch", ["repair_hyphens", "transliterate"])
def test_each_repair_switch_is_in_the_fingerprint(switch: str) -> None:
    for name in ("lemma", "stem"):
        profile = BUILTIN_PROFILES[name]
        assert getattr(profile, switch) is True
        assert profile.replace(**{switch: False}).fingerprint != profile.fingerprint
    assert getattr(BUILTIN_PROFILES["raw"], switch) is False


# --- filler words -------------------------------------------------------------------------

_FILLERS = ["буквально", "действительно", "конечно", "просто", "вообще", "кстати", "наверное"]


def _with_fillers(text: str) -> str:
    """A filler word after every 3-5 words (a fixed pattern)."""
    out = []
    for i, word in enumerate(text.split(" "), start=1):
        out.append(word)
        if i % 4 == 0 or i % 7 == 0:
            out.append(_FILLERS[i % len(_FILLERS)])
    return " ".join(out)


def test_the_lemma_profiles_drop_fillers() -> None:
    for name in ("lemma", "stem"):
        assert "water-ru" in BUILTIN_PROFILES[name].stopwords
    altered = _with_fillers(ORIGINAL)
    for profile in ("lemma", "stem"):
        copy = canon.compare(altered, ORIGINAL, k=3, profile=profile)
        assert copy.containment_first >= 0.95
    dry = BUILTIN_PROFILES["lemma"].replace(stopwords=("ru", "en"))
    assert canon.compare(altered, ORIGINAL, k=3, profile=dry).containment_first < 0.5
    assert canon.canonicalize("Это действительно буквально хорошо", "lemma").tokens == ("хорошо",)


def test_water_ru_is_a_stop_list_on_the_command_line(tmp_path) -> None:
    from click.testing import CliRunner

    from canon.cli import cli

    path = tmp_path / "t.txt"
    path.write_text("Погода действительно буквально испортилась", "utf-8")
    dry = CliRunner().invoke(cli, ["tokens", str(path), "--stopwords", "ru,en"])
    assert dry.exit_code == 0 and dry.stdout.split() == [
        "погода",
        "действительно",
        "буквально",
        "испортиться",
    ]
    wet = CliRunner().invoke(cli, ["tokens", str(path), "--stopwords", "ru,en,water-ru"])
    assert wet.exit_code == 0 and wet.stdout.split() == ["погода", "испортиться"]


# --- the canonical-form version -----------------------------------------------------------


def test_an_index_of_the_previous_canonical_form_is_refused(tmp_path, monkeypatch) -> None:
    from canon import profile as profile_module

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text(ORIGINAL, "utf-8")
    assert profile_module.CANONICAL_FORM_VERSION == 9
    lemma = BUILTIN_PROFILES["lemma"]
    monkeypatch.setattr(profile_module, "CANONICAL_FORM_VERSION", 8)
    profile_module._fingerprint.cache_clear()
    old = lemma.fingerprint
    with canon.Index(tmp_path / "old.db", create=True) as index:
        canon.add_sources(index, [str(tmp_path / "docs")], canon.IndexRules([lemma], k=3))
    monkeypatch.undo()
    profile_module._fingerprint.cache_clear()
    assert lemma.fingerprint != old
    with canon.Index(tmp_path / "old.db") as index, pytest.raises(canon.IndexFileError) as info:
        canon.check(ORIGINAL, index)
    message = str(info.value)
    assert "\n" not in message and old in message and "rebuild the index" in message
    assert info.value.reason == "rules"


def test_a_hangul_filler_between_words_is_a_space_and_inside_a_word_is_removed() -> None:
    filler = "\u3164"
    text = f"Ко{filler}шка{filler}ловила{filler}мышей{filler}в{filler}старом{filler}ам{filler}баре"
    tokens = canon.canonicalize(text, "lemma").tokens
    assert tokens == canon.canonicalize("Кошка ловила мышей в старом амбаре", "lemma").tokens
    tricks = canon.canonicalize(text, "lemma").tricks
    assert {t.original for t in tricks if t.kind == "invisible"} >= {filler}
    assert all(text[t.start : t.end] == t.original for t in tricks)


@pytest.mark.slow
def test_hangul_fillers_everywhere_stay_linear() -> None:
    text = "а\u3164" * 100_000
    started = time.process_time()  # this process's work: other tests share the cores
    canon.canonicalize(text, "lemma")
    assert time.process_time() - started < 30  # about 5 s here; quadratic would be hours


@pytest.mark.parametrize("char", ["\u3164", "\u200b", "\u034f", "\u2060"])
def test_invisible_characters_typed_for_every_space_are_spaces(char: str) -> None:
    """A text that types an invisible character for its spaces reads as the spaced text,
    two known words staying two (``в ход``, ``во время``) unless one word is far likelier."""
    plain = "Решение пустить в ход резервы приняли во время совещания 25 мая в Москве"
    spaced = plain.replace(" ", char)
    for profile in ("lemma", "stem"):  # raw, the seed's reference, repairs nothing
        expected = canon.canonicalize(plain, profile).tokens
        assert canon.canonicalize(spaced, profile).tokens == expected


def test_an_invisible_character_between_scripts_is_a_space() -> None:
    """Between a digit and a letter, or Latin and Cyrillic letters, a space whatever the
    text does elsewhere; a look-alike letter keeps its word whole."""
    text = "Новые правила с 25\u3164мая, сообщает сайт\u200bnews и пресс-служба"
    tokens = canon.canonicalize(text, "stem").tokens
    assert "25" in tokens and "ма" in tokens
    assert "сайт" in tokens and "news" in tokens
    assert canon.canonicalize("сo\u00adсновый бор", "lemma").tokens[0] == "сосновый"


# --- choosing the repairs ---------------------------------------------------------------------


def test_repair_switches_name_the_profile_switches_of_each_kind() -> None:
    from canon.profile import REPAIRS, repair_switches

    every = {s for switches in REPAIRS.values() for s in switches}
    assert repair_switches(["all"]) == dict.fromkeys(every, True)
    assert repair_switches(["none"]) == dict.fromkeys(every, False)
    chosen = repair_switches(["mark", " Invisible "])
    assert {s for s, on in chosen.items() if on} == {"strip_all_marks", "drop_ignorables"}
    lemma = BUILTIN_PROFILES["lemma"]
    assert lemma.replace(**repair_switches(["all"])).fingerprint == lemma.replace().fingerprint
    assert lemma.replace(**chosen).fingerprint != lemma.fingerprint


@pytest.mark.parametrize("kinds", [["marks"], ["mark", "typo"], [], ["all", "mark"]])
def test_unknown_repair_kinds_are_refused_naming_the_option(kinds: list[str]) -> None:
    from canon.profile import repair_switches

    with pytest.raises(OptionError) as info:
        repair_switches(kinds)
    assert info.value.option == "repairs" and "lookalike, mark" in info.value.message


def test_the_repairs_option_turns_repairs_off_and_refuses_unknown_kinds(tmp_path) -> None:
    from click.testing import CliRunner

    from canon.cli import cli

    tricked, plain = tmp_path / "a.txt", tmp_path / "b.txt"
    tricked.write_text(ORIGINAL.replace("о", "\u03bf"), "utf-8")  # Greek omicron for о
    plain.write_text(ORIGINAL, "utf-8")

    def lemma_jaccard(*options: str) -> float:
        args = ["compare", str(tricked), str(plain), "--json", "-k", "3", "--profile", "lemma",
                *options]  # fmt: skip
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        (row,) = json.loads(result.output)["rows"]
        (figures,) = (v for key, v in row.items() if key.startswith("lemma"))
        return figures["jaccard"]

    assert lemma_jaccard() == 1.0
    assert lemma_jaccard("--repairs", "mark,invisible") < 0.2
    refused = CliRunner().invoke(cli, ["compare", str(tricked), str(plain), "--repairs", "greek"])
    assert refused.exit_code == 2
    assert "--repairs has no repair 'greek'" in refused.output and "Traceback" not in refused.output


@pytest.mark.parametrize("char", ["\u3164", "\u034f"])
def test_invisible_characters_inside_names_and_english_words_stay_inside(char: str) -> None:
    """Put after the second letter of every longer word of a text full of punctuation, they
    stay inside the words, names and English words the dictionary does not know too."""
    plain = "Меган, Маркл и принц Гарри — в Call of Duty, «Касым-Жомарт» (Сассекс)."
    inside = re.sub(r"\w{3,}", lambda m: m[0][:2] + char + m[0][2:], plain)
    assert canon.canonicalize(inside, "lemma").tokens == canon.canonicalize(plain, "lemma").tokens
    assert canon.canonicalize("ca\u034fll", "lemma").tokens == ("call",)
