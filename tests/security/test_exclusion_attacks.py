"""Hostile ``exclude`` entries: catastrophic-backtracking patterns, huge lists, patterns that
leave out everything.  RE2 searches in linear time, so none of them may hold a check."""

from __future__ import annotations

import json
import random
import string
import time
from pathlib import Path

import pytest
from command import run_cli

import canon
from canon.index.store import Index
from canon.uniqueness.exclusion import MAX_ENTRIES, Exclusion

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Зелёный чай заваривают водой около восьмидесяти градусов и не дольше трёх минут"
# Each of these takes hours in a backtracking engine against the names below.
REDOS = [r"re:(.|\S)*#", r"re:(a+)+$", r"re:(a|aa)+$", r"re:(a|a?)+b", r"re:(.*a){25}#"]
LONG_NAMES = ["a" * 100_000 + "!", "https://x.ru/" + "a" * 100_000 + "\u0430", "ab" * 50_000]
# Which long names each pattern matches: only (a|a?)+b finds its "b", in the third.
EXPECTED = {pattern: [False, False, pattern == r"re:(a|a?)+b"] for pattern in REDOS}


@pytest.mark.parametrize("pattern", REDOS)
def test_backtracking_patterns_run_in_linear_time(pattern: str) -> None:
    started = time.perf_counter()
    exclusion = Exclusion([pattern])
    answers = [exclusion(name) for name in LONG_NAMES]
    elapsed = time.perf_counter() - started
    assert elapsed < 0.5, f"{pattern}: {elapsed:.2f} s"
    assert answers == EXPECTED[pattern]


def test_a_check_against_sources_with_long_names_stays_fast(tmp_path: Path) -> None:
    records = [{"id": name, "text": TEXT} for name in LONG_NAMES]
    records.append({"id": "aaaa", "text": TEXT})
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), "utf-8")
    db = tmp_path / "long.db"
    with Index(db, create=True) as index:
        assert not canon.add_sources(
            index, [str(path)], canon.IndexRules([canon.get_profile("raw")], k=3)
        ).failures
    with Index(db, readonly=True) as index:
        started = time.perf_counter()
        result = canon.check(TEXT, index, canon.CheckSettings(exclude=[*REDOS, r"re:^a+$"]))
        elapsed = time.perf_counter() - started
    sources = {m.source for m in result.profiles[0].sources}
    # "aaaa" matches ^a+$ and "abab..." matches (a|a?)+b: the other two stay
    assert sources == set(LONG_NAMES[:2])
    assert elapsed < 3, f"{elapsed:.2f} s"


def _pattern(rng: random.Random, number: int) -> str:
    """About 1 KB of RE2 that matches none of the names below."""
    parts = [f"re:^x{number}-"]
    while True:
        word = "".join(rng.choice(string.ascii_lowercase) for _ in range(6))
        part = rng.choice(
            [f"(?:{word}|{word[::-1]})", f"{word}.*", f"[{word}]+z", rf"{word}\d?", f"(?:{word})+q"]
        )
        if sum(map(len, parts)) + len(part) > 1_000:
            return "".join(parts)
        parts.append(part)


def test_a_thousand_patterns_of_a_kilobyte() -> None:
    rng = random.Random(11)
    letters = string.ascii_lowercase
    words = "|".join("".join(rng.choice(letters) for _ in range(9)) for _ in range(96))
    patterns = [_pattern(rng, n) for n in range(MAX_ENTRIES - 1)]
    patterns.append(rf"re:^https://site7\.ru/(?:{words})?")  # the one that matches a name
    assert min(map(len, patterns)) > 950
    names = [
        f"https://site{n}.ru/" + "".join(rng.choice(letters + "/-") for _ in range(100))
        for n in range(1_000)
    ]
    started = time.process_time()  # this process's work: other tests share the cores
    exclusion = Exclusion(patterns)
    left_out = [exclusion(name) for name in names]
    elapsed = time.process_time() - started
    # Measured: about 1.1 s to check the patterns and group them, 0.2 s for the 1,000 names.
    assert elapsed < 4, f"{elapsed:.2f} s of processor time"
    assert left_out == [name.startswith("https://site7.ru/") for name in names]
    assert sum(left_out) == 1


def test_forty_thousand_entries_are_refused_at_once() -> None:
    started = time.perf_counter()
    with pytest.raises(canon.OptionError, match="more than 1,000") as info:
        Exclusion([f"re:pattern{n}" for n in range(40_000)])
    assert time.perf_counter() - started < 0.5
    assert info.value.option == "exclude"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("re:", "empty"),
        ("re:.", "matches every source"),
        ("re:|", "matches every source"),
        ("re:" + "(" * 200_000 + ")" * 200_000, "characters, more than"),
        ("re:" + "(?:" * 600 + "a" + ")" * 600, "characters, more than"),
        ("re:" + "(" * 990 + "a" + ")" * 990, None),  # deep but within the length: RE2 copes
        ("re:" + "(" * 990 + ")" * 990, "matches every source"),
        ("re:((a{100}){100}){100}", "not a valid regular expression"),
        ("re:[", "not a valid regular expression"),
    ],
)
def test_refusals(entry: str, message: str | None) -> None:
    started = time.perf_counter()
    if message is None:
        assert Exclusion([entry])("a")
    else:
        with pytest.raises(canon.OptionError, match=message):
            Exclusion([entry])
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize("entry", ["", ".", "|"])
def test_plain_entries_that_used_to_exclude_everything(entry: str, tmp_path: Path) -> None:
    """``.`` and ``|`` are names now (they exclude nothing); the empty entry is refused."""
    if entry:
        assert not any(Exclusion([entry])(s) for s in ("https://rival.ru/", "draft-7", "a"))
    else:
        with pytest.raises(canon.OptionError, match="is empty"):
            Exclusion([entry])


def test_the_cli_answers_one_line_and_exit_2(tmp_path: Path, examples: Path) -> None:
    db = tmp_path / "cli.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index,
            [str(examples / "original.txt")],
            canon.IndexRules([canon.get_profile("raw")], k=3),
        )
    draft = examples / "original.txt"
    command = ["check", str(draft), "--index", str(db)]
    for entry in ("re:.", "re:(", "re:" + "(" * 100_000):
        run = run_cli(*command, "--exclude", entry, cwd=ROOT)
        assert run.returncode == 2, run.stderr
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and "exclude" in lines[0], run.stderr
        assert "Traceback" not in run.stderr
