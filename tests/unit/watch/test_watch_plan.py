"""The order pages of a watch come due in and the plan of a run: never-checked pages first,
then the time since the last check weighed by how likely a page is to be copied; a run never
over its budget, never a page twice, and no page left waiting for ever."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canon.uniqueness.web import default_budget
from canon.watch.plan import Copied, due, plan_run, weight
from canon.watch.records import Change, Copy, WatchedPage
from canon.watch.store import PlanEntry, WatchStore

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
SITE = "https://blog.example.ru"


def _iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def _ago(days: float) -> str:
    return _iso(NOW - timedelta(days=days))


def _page(n: int, chars: int = 900, checked: str | None = None) -> tuple[int, WatchedPage]:
    return n, WatchedPage(f"{SITE}/{n}", None, None, None, "я" * chars, "2026-01-01", checked)


# ---------------------------------------------------------------- the weight


@pytest.mark.parametrize(
    ("copied", "expected"),
    [
        (Copied(), 1),  # never found copied
        (Copied(live=0, ever=3, newest=_ago(90)), 2),  # copied once, every copy gone since
        (Copied(live=3, ever=3, newest=_ago(90)), 5),  # three copies still there
        (Copied(live=9, ever=9, newest=_ago(90)), 6),  # at most four count
        (Copied(live=1, ever=1, newest=_ago(2)), 5),  # a copy first seen lately
        (Copied(live=9, ever=12, newest=_ago(29)), 8),  # the most
        (Copied(live=1, ever=1, newest="d1"), 3),  # a date that cannot be read: long ago
    ],
)
def test_weight(copied: Copied, expected: int) -> None:
    assert weight(copied, NOW) == expected


def test_never_checked_first_then_due_ness() -> None:
    pages = [
        _page(1, checked=_ago(7)),  # never copied, a week ago: 7
        _page(2, checked=_ago(5)),  # never copied: 5
        _page(3, checked=_ago(2)),  # copied, a copy still there: 2 × 3 = 6
        _page(4),  # never checked
        _page(5, checked=_ago(0.5)),  # copied lately, four copies: 0.5 × 8 = 4
        _page(6, checked=_ago(5)),  # never copied, as old as page 2: the first added first
        _page(7),
    ]
    copied = {3: Copied(1, 1, _ago(100)), 5: Copied(4, 4, _ago(1))}
    assert [n for n, _ in due(pages, copied, NOW)] == [4, 7, 1, 3, 2, 6, 5]


def test_a_copied_page_is_checked_again_sooner_than_one_never_copied() -> None:
    pages = [_page(1, checked=_ago(3)), _page(2, checked=_ago(2))]
    assert [n for n, _ in due(pages, {}, NOW)] == [1, 2]
    assert [n for n, _ in due(pages, {2: Copied(1, 1, _ago(60))}, NOW)] == [2, 1]


# ---------------------------------------------------------------- the plan of a run

_pages = st.lists(
    st.tuples(
        st.integers(1, 8_000),  # characters of text
        st.one_of(st.none(), st.floats(0, 400)),  # days since the last check, or never
        st.integers(0, 6),  # copies still there
        st.integers(0, 3),  # copies gone
        st.floats(0, 400),  # days since the newest copy was first seen
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(_pages, st.integers(1, 600), st.booleans())
def test_a_plan_never_exceeds_its_budget_nor_lists_a_page_twice(
    drawn: list[tuple[int, float | None, int, int, float]], budget: int, twice: bool
) -> None:
    pages = [_page(n, chars, None if days is None else _ago(days)) for n, (chars, days, *_) in
             enumerate(drawn, 1)]  # fmt: skip
    copied = {
        n: Copied(live, live + gone, _ago(newest))
        for n, (_, _, live, gone, newest) in enumerate(drawn, 1)
        if live + gone
    }
    order = due(pages, copied, NOW)
    listed = order + order if twice else order  # a page listed twice is planned once
    plan = plan_run(listed, budget)
    ids = [page_id for page_id, _ in plan]
    assert sum(queries for _, queries in plan) <= budget
    assert len(ids) == len(set(ids))
    assert ids == [page_id for page_id, _ in order[: len(ids)]]  # the most due, in order
    texts = dict(pages)
    assert all(1 <= queries <= default_budget(texts[n].text) for n, queries in plan)
    if sum(default_budget(p.text) for _, p in pages) <= budget:
        assert sorted(ids) == sorted(texts)  # a budget that covers every page checks each
    checked = [texts[n].checked is not None for n in ids]
    assert checked == sorted(checked)  # the never checked come first


def test_the_budget_is_shared_in_order() -> None:
    pages = [_page(1, 900), _page(2, 300), _page(3, 6000)]
    assert plan_run(pages, 5) == [(1, 3), (2, 1), (3, 1)]
    assert plan_run(pages, 2) == [(1, 2)]


# ---------------------------------------------------------------- no page waits for ever


def _simulate(
    sizes: list[int], hot: set[int], budget: int, runs: int
) -> tuple[dict[int, list[int]], list[int]]:
    """A run a day for ``runs`` days: the runs each page was checked in, and the pages each
    run checked.  A page of ``hot`` is found copied each time it is checked, four copies
    first seen that day (the most weight there is); the others are never copied."""
    pages = {n: _page(n, chars)[1] for n, chars in enumerate(sizes, 1)}
    copied: dict[int, Copied] = {}
    checks: dict[int, list[int]] = {n: [] for n in pages}
    per_run: list[int] = []
    for run in range(runs):
        now = NOW + timedelta(days=run)
        plan = plan_run(due(list(pages.items()), copied, now), budget)
        per_run.append(len(plan))
        for page_id, _ in plan:
            page = pages[page_id]
            pages[page_id] = WatchedPage(page.url, None, None, None, page.text, page.added,
                                         _iso(now))  # fmt: skip
            checks[page_id].append(run)
            if page_id in hot:
                copied[page_id] = Copied(4, 4, _iso(now))
    return checks, per_run


def _longest_wait(runs: list[int], last: int) -> int:
    """The most runs a page waited between two checks (or since its last one)."""
    marks = [*runs, last]
    return max(b - a for a, b in pairwise(marks))


@pytest.mark.parametrize("hot_share", [0.0, 0.1, 0.5, 0.95])
def test_every_page_is_checked_again_and_again(hot_share: float) -> None:
    rng = random.Random(7)
    sizes = [rng.randint(300, 3000) for _ in range(60)]
    hot = set(rng.sample(range(1, 61), round(60 * hot_share)))
    budget, runs = 30, 400
    checks, per_run = _simulate(sizes, hot, budget, runs)
    k = min(per_run)  # pages a run checks, at least
    assert k >= 3
    bound = 8 * len(sizes) / k
    for page_id, done in checks.items():
        assert done, f"page {page_id} was never checked"
        assert _longest_wait(done, runs) <= bound, (page_id, page_id in hot, done)
    if hot and len(hot) < len(sizes):
        cold = [n for n in checks if n not in hot]
        assert min(len(checks[n]) for n in hot) > max(len(checks[n]) for n in cold)


def test_one_page_never_copied_among_pages_always_copied_is_still_reached() -> None:
    sizes = [900] * 40
    hot = set(range(2, 41))  # every page but the first is copied anew at each check
    checks, per_run = _simulate(sizes, hot, budget=9, runs=300)  # 3 pages a run
    assert set(per_run) == {3}
    assert len(checks[1]) >= 300 // (8 * 40 // 3)
    assert _longest_wait(checks[1], 300) <= 8 * 40 / 3


# ---------------------------------------------------------------- in the watch's database


def _checked(store: WatchStore, run: int, entry: PlanEntry, when: str, copies: list[Copy]) -> None:
    changes = [Change(run, c.page, c.url, "new", c.share, None, c.kind, when, when) for c in copies]
    store.page_checked(run, entry, when, copies, changes, (1, 0))


def test_the_store_gives_pages_in_the_order_they_are_due(tmp_path: Path) -> None:
    now = datetime.now(UTC)
    with WatchStore(tmp_path / "w", create=True) as store:
        for n in (1, 2, 3, 4):
            store.put_page(_page(n)[1])
        run = store.start_run(_iso(now - timedelta(days=3)), 9, [(1, 1), (2, 1), (3, 1)])
        entries = store.plan(run)
        copy = Copy(f"{SITE}/2", "https://thief.example.com/2", 0.5, "copied",
                    _iso(now - timedelta(days=2)), _iso(now - timedelta(days=2)))  # fmt: skip
        _checked(store, run, entries[0], _iso(now - timedelta(days=3)), [])  # 3 days × 1
        _checked(store, run, entries[1], _iso(now - timedelta(days=2)), [copy])  # 2 × 5
        _checked(store, run, entries[2], _iso(now - timedelta(days=4)), [])  # 4 × 1
        store.finish_run(run, _iso(now))
        assert store.copied() == {2: Copied(1, 1, copy.first_seen)}
        assert [n for n, _ in store.pages()] == [4, 2, 3, 1]


def _watch_with_history(folder: Path) -> None:
    when = "2026-05-01T06:00:00+00:00"
    with WatchStore(folder, create=True) as store:
        for n in (1, 2, 3):
            store.put_page(_page(n)[1])
        run = store.start_run(when, 9, [(1, 3), (2, 3), (3, 3)])
        for entry in store.plan(run):
            n = entry.page_id
            copy = Copy(f"{SITE}/{n}", f"https://thief.example.com/{n}", 0.5, "copied", when, when)
            _checked(store, run, entry, when, [copy])
        store.finish_run(run, when)


def _count(store: WatchStore, table: str) -> int:
    return int(store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_a_page_removed_goes_with_its_copies_changes_and_plan(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    _watch_with_history(folder)
    with WatchStore(folder) as store:
        removed = store.remove_pages([f"{SITE}/2", f"{SITE}/9", f"{SITE}/2"])
        assert removed == [f"{SITE}/2"]
        assert sorted(p.url for _, p in store.pages()) == [f"{SITE}/1", f"{SITE}/3"]
        assert {c.page for c in store.copies()} == {f"{SITE}/1", f"{SITE}/3"}
        assert {c.page for c in store.changes(1)} == {f"{SITE}/1", f"{SITE}/3"}
        assert [e.page_id for e in store.plan(1)] == [1, 3]


def test_a_removal_is_one_transaction(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    _watch_with_history(folder)
    with WatchStore(folder) as store:
        store.db.execute("ALTER TABLE plan RENAME TO plan_elsewhere")  # the third delete fails
        with pytest.raises(Exception, match="plan"):
            store.remove_pages([f"{SITE}/2"])
        store.db.execute("ALTER TABLE plan_elsewhere RENAME TO plan")
        assert _count(store, "pages") == 3 and _count(store, "copies") == 3
        assert _count(store, "changes") == 3 and _count(store, "plan") == 3
