"""What changed between two audits, on rows made here: each kind of change, their order, the
threshold below which a text has changed, and texts whose shingles cannot be compared."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from canon.audit.changes import KINDS, Changes, Side, changes_between
from canon.audit.state import PageRow

BASE = "https://example.ru"

ROW = PageRow(
    url=BASE + "/", status=200, final_url=None, redirects="[]", content_type="text/html",
    canonical=None, meta_robots="", x_robots="", title="t", h1="t", description=None,
    main_words=100, page_words=120, indexable=True, reason="", canonical_hash="0" * 32,
    tries=1, error=None, depth=0,
)  # fmt: skip


def _row(path: str, text: str = "a", status: int = 200, words: int = 100) -> PageRow:
    return replace(ROW, url=BASE + path, status=status, canonical_hash=text, main_words=words)


def _side(
    rows: list[PageRow], twins: dict[str, str] | None = None, sets: dict[str, range] | None = None
) -> Side:
    shingles = {
        BASE + p: np.arange(r.start, r.stop, dtype=np.uint64) for p, r in (sets or {}).items()
    }
    duplicates = {BASE + a: BASE + b for a, b in (twins or {}).items()}
    return Side(rows, duplicates, shingles, "lemma/k=4")


def _found(changes: Changes) -> list[tuple[str, str]]:
    return [(c.url.removeprefix(BASE), c.kind) for c in changes.changes]


def test_every_kind_in_its_order() -> None:
    before = _side(
        [_row("/"), _row("/gone"), _row("/moved"), _row("/edited", "x"), _row("/copy", "c"),
         _row("/printed", "p"), _row("/print", "p")],
        twins={"/printed": "/print", "/print": "/printed"},
        sets={"/edited": range(0, 100)},
    )  # fmt: skip
    now = _side(
        [_row("/"), _row("/new"), _row("/moved", status=404), _row("/edited", "y"),
         _row("/copy", "a"), _row("/printed", "p"), _row("/print", "q")],
        twins={"/copy": "/", "/": "/copy"},
        sets={"/edited": range(50, 150)},
    )  # fmt: skip
    changes = changes_between(before, now, 0.95, "2025-01-01T00:00:00+00:00")
    assert _found(changes) == [
        ("/new", "new"),
        ("/gone", "gone"),
        ("/moved", "status"),
        ("/edited", "text"),
        ("/copy", "text"),  # no shingles on either side: its words differ, so it changed
        ("/print", "text"),
        ("/", "duplicated"),
        ("/copy", "duplicated"),
        ("/printed", "resolved"),
        ("/print", "resolved"),
    ]
    edited = next(c for c in changes.changes if c.kind == "text")
    assert edited.similarity == pytest.approx(50 / 150)
    assert (edited.status_before, edited.status_now, edited.words_now) == (200, 200, 100)
    new = changes.changes[0]
    assert (new.status_before, new.status_now, new.words_before) == (None, 200, None)
    assert changes.changes[6].duplicate_of == BASE + "/copy"
    assert changes.changes[-1].duplicate_of == BASE + "/printed"  # what it duplicated then
    assert changes.summary() == {
        "since": "2025-01-01T00:00:00+00:00", "new": 1, "gone": 1, "status": 1, "text": 3,
        "duplicated": 2, "resolved": 2,
    }  # fmt: skip
    assert list(changes.counts()) == list(KINDS)


def test_a_text_changed_only_below_the_threshold() -> None:
    before = _side([_row("/a", "x")], sets={"/a": range(0, 100)})
    now = _side([_row("/a", "y")], sets={"/a": range(2, 102)})  # Jaccard 98 / 102
    assert _found(changes_between(before, now, 0.95)) == []
    assert _found(changes_between(before, now, 0.99)) == [("/a", "text")]
    same = _side([_row("/a", "x")], sets={"/a": range(50, 150)})
    assert _found(changes_between(before, same, 0.99)) == []  # the same canonical words


def test_shingles_of_other_profiles_are_not_compared() -> None:
    before = _side([_row("/a", "x")], sets={"/a": range(0, 100)})
    now = replace(_side([_row("/a", "y")], sets={"/a": range(0, 100)}), profile="lemma/k=5")
    (change,) = changes_between(before, now, 0.5).changes
    assert (change.kind, change.similarity) == ("text", None)


def test_a_page_that_now_fails_is_a_status_change_not_a_text_change() -> None:
    before = _side([_row("/a", "x")])
    now = _side([_row("/a", None, status=0, words=0)])  # type: ignore[arg-type]
    assert _found(changes_between(before, now)) == [("/a", "status")]


def test_nothing_changed() -> None:
    side = _side([_row("/"), _row("/a", "b")], twins={"/a": "/"})
    changes = changes_between(side, side)
    assert changes.changes == () and set(changes.counts().values()) == {0}
