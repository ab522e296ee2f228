"""canon.text.wordlists: built-in and user word lists, comments, synonym groups."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_paths import ROOT

import canon
from canon.text.wordlists import (
    NEGATION_LIST,
    builtin_lists,
    list_words,
    read_synonyms,
    resolve_list,
)


def test_builtin_lists_are_the_shipped_files() -> None:
    shipped = {p.stem for p in (ROOT / "stopwords").glob("*.txt")}
    assert set(builtin_lists()) == shipped
    assert list(builtin_lists()) == sorted(shipped)
    assert {"ru", "en", NEGATION_LIST, "synonyms-ru"} <= shipped


@pytest.mark.parametrize("name", ["ru", " ru ", "en", "ru-negation", "nltk:russian"])
def test_builtin_and_nltk_names_resolve_to_themselves(name: str) -> None:
    assert resolve_list(name) == name.strip()


def test_builtin_lists_have_their_words_and_no_comments() -> None:
    russian = list_words(resolve_list("ru"))
    assert {"в", "на", "и", "во"} <= set(russian)
    assert "не" not in russian  # negation lives in its own list
    assert {"не", "ни", "нет", "без"} <= set(list_words(NEGATION_LIST))
    assert {"the", "a"} <= set(list_words("en"))
    for name in builtin_lists():
        for word in list_words(name):
            assert word and "#" not in word and " " not in word and "," not in word


def test_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text(
        "# my list\n\nчай  # the drink\nкофе, какао\n  молоко   сливки  \n#сахар\nмёд\n",
        "utf-8",
    )
    key = resolve_list(str(path))
    assert key == str(path.resolve())
    assert list_words(key) == ("чай", "кофе", "какао", "молоко", "сливки", "мёд")


def test_a_user_file_by_a_relative_and_home_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "list.txt").write_text("чай\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    assert resolve_list("list.txt") == str((tmp_path / "list.txt").resolve())
    monkeypatch.setenv("HOME", str(tmp_path))
    assert resolve_list("~/list.txt") == str((tmp_path / "list.txt").resolve())


@pytest.mark.parametrize("name", ["no-such-list", "ru.txt", "/no/such/file.txt", ""])
def test_an_unknown_list_is_a_profile_error_for_stopwords(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty folder: no relative path can exist
    with pytest.raises(canon.ProfileError) as info:
        resolve_list(name)
    error = info.value
    assert error.option == "stopwords"
    assert error.value == name.strip()
    assert repr(name.strip()) in str(error)
    assert all(known in str(error) for known in ("ru", "en", "nltk:russian"))
    assert "--" not in str(error)  # the library names no command-line flag


def test_a_file_that_is_not_utf8_is_a_profile_error(tmp_path: Path) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes("чай\nкофе\n".encode("cp1251"))
    key = resolve_list(str(path))
    with pytest.raises(canon.ProfileError, match="UTF-8") as info:
        list_words(key)
    assert info.value.option == "stopwords"


def test_synonym_groups(tmp_path: Path) -> None:
    path = tmp_path / "synonyms.txt"
    path.write_text(
        "# groups\n"
        "большой, крупный, огромный\n"
        "важный значимый  # spaces separate too\n"
        "одинокий\n"  # one word is no group
        "\n"
        "чай,  напиток,\n",
        "utf-8",
    )
    assert read_synonyms(resolve_list(str(path))) == (
        ("большой", "крупный", "огромный"),
        ("важный", "значимый"),
        ("чай", "напиток"),
    )


def test_builtin_synonyms() -> None:
    groups = read_synonyms("synonyms-ru")
    assert ("большой", "крупный", "огромный", "значительный") in groups
    assert all(len(group) > 1 for group in groups)
    # a word stands for one group only, or the first group would win silently
    words = [w for group in groups for w in group]
    assert len(words) == len(set(words))
