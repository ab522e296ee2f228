"""canon check against cheap tricks: an altered copy of an indexed text is no more unique than
each trick's target allows (the untouched copy scores 0).

The index is real (SQLite in a temporary folder, built by ``add_sources`` with the default
rules) and holds the original among other texts; the tricks are ``testkit.tricks``.  A trick
the rules do not see through yet is marked ``xfail(strict=True)``: once it is repaired, the
unexpected pass fails the run until its mark is taken off.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sample_news import FIRST, FRESH, SECOND

import canon
from testkit.tricks import TRICKS, Trick

ORIGINAL = " ".join(FIRST)

# Tricks the verdict does not see through yet, and why.
NOT_YET = {}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[canon.Index]:
    folder = tmp_path_factory.mktemp("tricks")
    records = folder / "texts.jsonl"
    texts = {"original": ORIGINAL, "second": " ".join(SECOND), "other": " ".join(FRESH)}
    lines = [json.dumps({"id": n, "text": t}, ensure_ascii=False) for n, t in texts.items()]
    records.write_text("\n".join(lines), encoding="utf-8")
    with canon.Index(folder / "index.db", create=True) as built:
        canon.add_sources(built, [str(records)])
    with canon.Index(folder / "index.db", readonly=True) as opened:
        yield opened


def test_the_untouched_copy_is_not_unique(index: canon.Index) -> None:
    result = canon.check(ORIGINAL, index)
    assert result.verdict is not None
    assert result.verdict.uniqueness == 0.0 and result.verdict.copied == 1.0
    assert result.tricks == ()


def _cases() -> list[object]:
    return [
        pytest.param(t, id=t.name, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[t.name]))
        if t.name in NOT_YET
        else pytest.param(t, id=t.name)
        for t in TRICKS
    ]


@pytest.mark.parametrize("trick", _cases())
def test_an_altered_copy_stays_within_the_target(index: canon.Index, trick: Trick) -> None:
    altered = trick.alter(ORIGINAL, 1)
    assert altered != ORIGINAL
    result = canon.check(altered, index)
    assert result.verdict is not None
    assert result.verdict.uniqueness <= trick.target
    named = {p.sources[0].source for p in result.profiles if p.sources}
    named |= {r.source for r in result.rewrites}
    assert named == {"original"}
