"""Each rule of each profile, the fingerprint, and custom profiles."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import canon
from canon import Profile


def tokens(text: str, profile: str | Profile = "lemma") -> list[str]:
    return list(canon.canonicalize(text, profile).tokens)


# --- raw --------------------------------------------------------------------------------


def test_raw_keeps_everything_and_splits_hyphens() -> None:
    assert tokens("Из-за ёлки НЕ видно_леса", "raw") == ["из", "за", "ёлки", "не", "видно", "леса"]


def test_raw_leaves_lookalike_letters() -> None:
    result = canon.canonicalize("сoбака", "raw")  # Latin o
    assert result.tokens == ("сoбака",)
    assert result.folds == ()


# --- lemma -------------------------------------------------------------------------------


def test_lemma_lemmatizes_and_drops_stop_words() -> None:
    assert tokens("Машиной, машине и машины") == ["машина", "машина", "машина"]


def test_lemma_keeps_hyphenated_words_whole() -> None:
    assert tokens("SEO-специалиста из Йошкар-Олы") == ["seo-специалист", "йошкар-ола"]
    assert tokens("интернет\u2011магазина") == ["интернет-магазин"]  # non-breaking hyphen


def test_lemma_keeps_short_i() -> None:
    # NFD + stripping marks would turn й into и; ours never does.
    assert tokens("Йошкар-Ола") == ["йошкар-ола"]
    assert tokens("И\u0306ошкар-Ола") == ["йошкар-ола"]  # й typed as и + combining breve


def test_lemma_folds_yo() -> None:
    assert tokens("Ёлки, котёнок") == ["елка", "котенок"]
    assert tokens("котенок") == ["котенок"]  # pymorphy3 restores ё in lemmas; folded again


def test_lemma_strips_stress_marks_and_invisible_characters() -> None:
    assert tokens("за\u0301мок сло\u00adво тек\u200bст") == ["замок", "слово", "текст"]


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("сoбака", "собака"),  # Latin o
        ("тeкст", "текст"),  # Latin e
        ("KОТ", "кот"),  # Latin K
        ("рaбoтa", "работа"),  # several Latin letters
        ("ВЕСНA", "весна"),  # Latin A at the end
    ],
)
def test_lemma_folds_latin_lookalikes_and_reports_them(text: str, folded: str) -> None:
    result = canon.canonicalize(f"Вот {text}!", "lemma")
    assert canon.canonicalize(folded, "lemma").tokens[0] in result.tokens
    (fold,) = result.folds
    assert (fold.start, fold.end, fold.original, fold.folded) == (4, 4 + len(text), text, folded)


def test_lemma_leaves_real_latin_words() -> None:
    result = canon.canonicalize("SEO-специалист читает about copywriting", "lemma")
    assert result.folds == ()
    assert "seo-специалист" in result.tokens and "copywriting" in result.tokens
    assert "about" not in result.tokens  # English stop word


def test_mixed_word_with_non_lookalike_latin_is_not_folded() -> None:
    assert canon.canonicalize("сoбакаz", "lemma").folds == ()


def test_lemma_keeps_negation_by_default() -> None:
    assert tokens("Он не знал и ни о чём не жалел") == ["не", "знать", "ни", "не", "жалеть"]


def test_drop_negation_drops_it() -> None:
    profile = canon.get_profile("lemma").replace(keep_negation=False)
    assert tokens("Он не знал и ни о чём не жалел", profile) == ["знать", "жалеть"]


def test_negation_changes_the_verdict() -> None:
    first, second = "Этот текст уникален и полезен", "Этот текст не уникален и полезен"
    kept = canon.compare(first, second, k=2)
    dropped = canon.compare(first, second, k=2, profile=canon.get_profile("lemma").replace(
        keep_negation=False))  # fmt: skip
    assert kept.jaccard < 1.0
    assert dropped.jaccard == 1.0


def test_stop_lists_match_lemmas() -> None:
    # "его" and "ему" are forms of the listed lemma "он"; "было" of "быть".
    assert tokens("Его дом было видно ему") == ["дом", "видно"]


def test_drop_pos_drops_closed_word_classes() -> None:
    profile = Profile(morphology="lemma", drop_pos=("PREP", "CONJ", "PRCL"))
    assert tokens("кот и пёс под столом же", profile) == ["кот", "пёс", "стол"]
    assert tokens("кот не под столом", profile) == ["кот", "не", "стол"]  # negation kept


def test_synonyms_map_to_the_representative(tmp_path: Path) -> None:
    groups = tmp_path / "syn.txt"
    groups.write_text("# test\nбольшой, огромный крупный\nпокупать приобретать\n", "utf-8")
    profile = canon.get_profile("lemma").replace(synonyms=str(groups))
    assert tokens("Огромные дома приобретали", profile) == ["большой", "дом", "покупать"]


def test_builtin_synonyms_load() -> None:
    profile = canon.get_profile("lemma").replace(synonyms="synonyms-ru")
    assert tokens("крупный", profile) == tokens("большой", profile)


def test_user_stop_list_file(tmp_path: Path) -> None:
    extra = tmp_path / "mine.txt"
    extra.write_text("кошка  # too common in our corpus\n", "utf-8")
    profile = canon.get_profile("lemma").replace(stopwords=("ru", str(extra)))
    assert tokens("Кошки и собаки", profile) == ["собака"]


def test_split_hyphens_option() -> None:
    profile = canon.get_profile("lemma").replace(keep_hyphens=False, stopwords=())
    assert tokens("из-за угла", profile) == ["из", "за", "угол"]


def test_no_yo_fold_option() -> None:
    profile = canon.get_profile("lemma").replace(yo_fold=False)
    assert tokens("ёлки", profile) == ["ёлка"]


# --- stem --------------------------------------------------------------------------------


def test_stem_uses_snowball() -> None:
    assert tokens("Машиной, машине и машины", "stem") == ["машин", "машин", "машин"]
    assert tokens("running dogs", "stem") == ["run", "dog"]  # Latin words: English Snowball
    assert tokens("интернет-магазина", "stem") == ["интернет-магазин"]


def test_stem_shares_the_lemma_rules() -> None:
    assert canon.canonicalize("сoбака", "stem").folds
    assert tokens("Йошкар-Ола", "stem")[0].startswith("йошкар-")
    assert "не" in tokens("не видно", "stem")


# --- profile object and fingerprint ------------------------------------------------------


def test_profile_is_frozen_and_hashable() -> None:
    profile = canon.get_profile("lemma")
    with pytest.raises(dataclasses.FrozenInstanceError):
        profile.yo_fold = False  # type: ignore[misc]
    assert {profile: 1}[canon.get_profile("lemma")] == 1


def test_fingerprint_is_stable_and_ignores_the_name() -> None:
    lemma = canon.get_profile("lemma")
    assert len(lemma.fingerprint) == 16
    assert lemma.fingerprint == lemma.replace(name="mine").fingerprint
    others = {p.fingerprint for p in canon.BUILTIN_PROFILES.values()}
    assert len(others) == 3


@pytest.mark.parametrize(
    "change",
    [
        {"yo_fold": False},
        {"keep_hyphens": False},
        {"keep_negation": False},
        {"stopwords": ("ru",)},
        {"drop_pos": ("PREP",)},
        {"synonyms": "synonyms-ru"},
        {"unicode_form": "NFC"},
    ],
)
def test_fingerprint_changes_with_every_rule(change: dict[str, object]) -> None:
    lemma = canon.get_profile("lemma")
    assert lemma.replace(**change).fingerprint != lemma.fingerprint


def test_fingerprint_follows_list_contents(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("кошка\n", "utf-8")
    before = Profile(stopwords=(str(path),)).fingerprint
    path.write_text("собака\n", "utf-8")
    from canon.profile import _fingerprint
    from canon.text.wordlists import list_words

    list_words.cache_clear()
    _fingerprint.cache_clear()
    assert Profile(stopwords=(str(path),)).fingerprint != before


def test_results_carry_the_fingerprint() -> None:
    result = canon.compare("один два три четыре", "один два три пять", k=2, profile="raw")
    assert result.fingerprint == canon.get_profile("raw").fingerprint
    assert result.to_dict()["fingerprint"] == result.fingerprint


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: canon.get_profile("lemmas"), "unknown profile 'lemmas'"),
        (lambda: Profile(stopwords=("klingon",)), "unknown word list 'klingon'"),
        (lambda: Profile(drop_pos=("NOUNS",)), "unknown part-of-speech tag 'NOUNS'"),
        (lambda: Profile(morphology="magic"), "unknown morphology"),  # type: ignore[arg-type]
    ],
)
def test_bad_profile_settings_raise_profile_error(make, message: str) -> None:
    with pytest.raises(canon.ProfileError, match=message):
        make()


def test_nltk_list_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NLTK_DATA", "/nonexistent")
    import nltk

    monkeypatch.setattr(nltk.data, "path", ["/nonexistent"])
    profile = Profile(morphology="lemma", stopwords=("nltk:russian",))
    with pytest.raises(canon.MissingResource, match=r"nltk\.downloader stopwords"):
        canon.canonicalize("текст", profile)
