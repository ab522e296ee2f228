"""CheckSettings and SearchSettings: frozen, validated once, each refusal naming its field."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import canon
from canon import CheckSettings, OptionError, SearchSettings
from canon.index.settings import AddSettings, IndexRules


@pytest.mark.parametrize(
    ("make", "option", "problem"),
    [
        (lambda: CheckSettings(sentence_threshold=0), "sentence_threshold", "a score in (0, 1]"),
        (lambda: CheckSettings(sentence_threshold=1.5), "sentence_threshold", "a score"),
        (lambda: CheckSettings(similar=0), "similar", "a Jaccard in (0, 1], got 0"),
        (lambda: CheckSettings(common=0), "common", "a number of documents, 1 or more"),
        (lambda: CheckSettings(min_shared=0), "min_shared", "1 or more shingles, got 0"),
        (lambda: CheckSettings(top=0), "top", "a whole number, 1 or more, got 0"),
        (lambda: CheckSettings(exclude=["re:("]), "exclude", "not a valid regular expression"),
        (lambda: SearchSettings(queries=0), "queries", "from 1 to 200, got 0"),
        (lambda: SearchSettings(queries=201), "queries", "from 1 to 200, got 201"),
        (lambda: SearchSettings(results=0), "results", "1 or more, got 0"),
        (lambda: SearchSettings(max_pages=True), "max_pages", "1 or more, got True"),
        (lambda: AddSettings(workers=0), "workers", "1 or more, got 0"),
        (lambda: AddSettings(batch=-1), "batch", "1 or more, got -1"),
    ],
)
def test_a_value_out_of_range_is_refused_naming_its_field(make, option, problem) -> None:
    with pytest.raises(OptionError) as refused:
        make()
    assert refused.value.option == option and problem in str(refused.value)


def test_settings_are_frozen_hashable_and_cross_processes() -> None:
    settings = CheckSettings(profiles=["lemma"], exclude=["a.example"], search=SearchSettings(3))
    assert settings.profiles == ("lemma",) and settings.exclude == ("a.example",)
    assert settings == CheckSettings(
        profiles=("lemma",), exclude=("a.example",), search=SearchSettings(queries=3)
    )
    assert hash(settings) == hash(pickle.loads(pickle.dumps(settings)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.top = 3  # type: ignore[misc]
    assert CheckSettings(exclude="a.example").exclude == ("a.example",)  # one entry, not letters
    assert IndexRules([canon.get_profile("raw")], k=3).profiles == (canon.get_profile("raw"),)


def test_the_defaults_are_the_documented_ones() -> None:
    settings = CheckSettings()
    assert (settings.profiles, settings.exclude, settings.skip_quotes) == (None, (), False)
    assert (settings.top, settings.min_shared, settings.common, settings.similar) == (
        10,
        3,
        1000,
        None,
    )
    assert settings.sentence_threshold == pytest.approx(0.55)
    assert (settings.search.queries, settings.search.results, settings.search.max_pages) == (
        None,
        5,
        50,
    )
    assert IndexRules().values()[1:] == (4, 1, 1, 1)
    assert [p.name for p in IndexRules().values()[0]] == ["raw", "lemma"]
