"""The synonym classes: known synonyms read as one, unrelated words apart, the table's file."""

from __future__ import annotations

from collections import Counter

import pytest

import canon
from canon.text import synonyms
from canon.text.synonyms import MAX_CLASS, classes_of, synonym_classes


@pytest.mark.parametrize(
    "words",
    [
        ("автомобиль", "машина", "авто"),
        ("сказать", "произнести"),
        ("отличный", "великолепный", "замечательный"),
        ("компания", "фирма"),
        ("ключ", "родник"),
    ],
)
def test_synonyms_share_a_class(words: tuple[str, ...]) -> None:
    assert len(set(classes_of(words))) == 1


@pytest.mark.parametrize(
    "first, second",
    [("кошка", "автомобиль"), ("ключ", "понедельник"), ("хороший", "пьяный"), ("сказать", "есть")],
)
def test_unrelated_words_stay_apart(first: str, second: str) -> None:
    one, two = classes_of([first, second])
    assert one != two


def test_a_word_without_synonyms_is_its_own_class_and_a_name_is_itself() -> None:
    assert classes_of(["шмырдяк", "москва", ""]) == ["шмырдяк", "москва", ""]
    table = synonym_classes()
    assert all(table.get(name, name) == name for name in set(table.values()))


def test_no_class_exceeds_its_size_and_yo_is_read_as_e() -> None:
    table = synonym_classes()
    sizes = Counter(v for k, v in table.items() if "ё" not in k)
    assert max(sizes.values()) <= MAX_CLASS
    spelled = [k for k in table if "ё" in k][:50]
    assert spelled
    for word in spelled:
        folded = word.replace("ё", "е")
        assert classes_of([folded])[0].replace("ё", "е") == table[word].replace("ё", "е")


def test_the_table_is_built_once_and_read_back_from_its_file(monkeypatch, tmp_path) -> None:
    built = synonyms._build()
    monkeypatch.setenv("CANON_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(synonyms, "_build", lambda: built)
    synonym_classes.cache_clear()
    try:
        first = dict(synonym_classes())
        (path,) = tmp_path.glob("canon-synonyms-*.tsv")
        monkeypatch.setattr(synonyms, "_build", lambda: pytest.fail("built twice"))
        synonym_classes.cache_clear()
        assert dict(synonym_classes()) == first
        # A damaged file is not read: the table is built anew and the file replaced.
        path.write_text(path.read_text("utf-8")[:1000], "utf-8")
        monkeypatch.setattr(synonyms, "_build", lambda: built)
        synonym_classes.cache_clear()
        assert dict(synonym_classes()) == first
        assert path.read_text("utf-8").endswith("# end\n")
    finally:
        synonym_classes.cache_clear()


def test_a_missing_resource_is_named() -> None:
    with pytest.raises(canon.MissingResource, match="pip install no-such-package") as info:
        synonyms._located("no-such-package", "data.db")
    assert info.value.package == "no-such-package"
