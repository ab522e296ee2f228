"""Runs → timings, ratios, tables and verdicts: what every benchmark script shares.

Every time is a wall time (``time.perf_counter``).  Steps that are compared with each other run
interleaved: each round runs every step once, in the order given, so a machine that slows down
for a while (it is shared) slows every step alike and their ratios hold.  A step's figure is the
median of its runs; a rate is its units (words, shingles, pages...) over that median.

A verdict states its side: ``verdict(value, target, higher=True)`` passes at or above the
target, ``higher=False`` at or below it.  There is no default, so every call site says which.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "CANON_BIN",
    "REPO",
    "Clock",
    "Step",
    "Timing",
    "argument_parser",
    "clocked",
    "interleaved",
    "median",
    "quantile",
    "ratio",
    "run_canon",
    "runs_text",
    "stopwatch",
    "table",
    "target_text",
    "timed",
    "timed_call",
    "verdict",
]

REPO = Path(__file__).resolve().parents[1]
# The ``canon`` command installed beside this interpreter.
CANON_BIN = Path(sys.executable).with_name("canon")

T = TypeVar("T")


# ---------------------------------------------------------------- timing


@dataclass(frozen=True)
class Step:
    """One thing to time: ``run`` does ``units`` of work; ``before`` (untimed) precedes each run."""

    name: str
    run: Callable[[], object]
    units: int
    before: Callable[[], None] | None = None


@dataclass(frozen=True)
class Timing:
    """Wall times of repeated runs of one step, and how much work one run does."""

    name: str
    runs: tuple[float, ...]
    units: int

    @property
    def median(self) -> float:
        return median(self.runs)

    @property
    def rate(self) -> float:
        """Units per second of the median run."""
        return self.units / self.median


def stopwatch() -> Callable[[], float]:
    """A function that tells the seconds since ``stopwatch()`` was called."""
    start = time.perf_counter()
    return lambda: time.perf_counter() - start


def timed_call(run: Callable[[], T]) -> tuple[float, T]:
    """The wall time of one call of ``run``, and what it returned."""
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def interleaved(steps: Sequence[Step], repeats: int) -> list[Timing]:
    """``repeats`` rounds, each running every step once in order; one ``Timing`` a step."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    runs: list[list[float]] = [[] for _ in steps]
    for _ in range(repeats):
        for step, times in zip(steps, runs):
            if step.before is not None:
                step.before()
            times.append(timed_call(step.run)[0])
    return [Timing(s.name, tuple(times), s.units) for s, times in zip(steps, runs)]


def timed(step: Step, repeats: int) -> Timing:
    """``repeats`` runs of one step."""
    return interleaved([step], repeats)[0]


def median(values: Iterable[float]) -> float:
    return float(statistics.median(values))


def quantile(values: Iterable[float], q: float) -> float:
    """The ``q`` quantile (0 to 1), interpolated linearly between the closest ranks."""
    return float(np.quantile(np.fromiter(values, dtype=np.float64), q))


def ratio(first: Timing, second: Timing) -> float:
    """How many times ``first``'s rate is ``second``'s (above 1: ``first`` is faster)."""
    return first.rate / second.rate


@dataclass
class Clock:
    """What a wrapped function cost while wrapped: wall seconds, calls, and counted units."""

    seconds: float = 0.0
    calls: int = 0
    units: int = 0


@contextmanager
def clocked(owner: object, name: str, count: Callable[..., int] | None = None) -> Iterator[Clock]:
    """While active, ``owner.name`` (a function of a module or of a class) adds its wall time
    and calls to the yielded ``Clock``; ``count(*args, **kwargs)``, if given, adds units before
    each call.  The original is put back on leaving."""
    original = getattr(owner, name)
    clock = Clock()

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if count is not None:
            clock.units += count(*args, **kwargs)
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            clock.seconds += time.perf_counter() - start
            clock.calls += 1

    setattr(owner, name, wrapper)
    try:
        yield clock
    finally:
        setattr(owner, name, original)


def run_canon(*args: str) -> None:
    """One run of the ``canon`` command in a fresh process, its output discarded; a failure
    raises ``subprocess.CalledProcessError``."""
    subprocess.run([str(CANON_BIN), *args], capture_output=True, check=True)


# ---------------------------------------------------------------- command line


def argument_parser(module: str, doc: str | None) -> argparse.ArgumentParser:
    """The parser of the script ``module`` (``benchmarks.NAME``): its usage names
    ``python -m benchmarks.NAME``, its description is the docstring's first paragraph."""
    description = (doc or "").split("\n\n")[0]
    return argparse.ArgumentParser(prog=f"python -m {module}", description=description)


# ---------------------------------------------------------------- report


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A markdown table, ready to paste into the README."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def runs_text(timing: Timing) -> str:
    """Each run's seconds, in the order run."""
    return ", ".join(f"{t:.3f}" for t in timing.runs)


def verdict(value: float, target: float, *, higher: bool) -> str:
    """PASS if ``value`` is on the passing side of ``target`` or on it, else MISS:
    ``higher=True`` passes ``value >= target``, ``higher=False`` passes ``value <= target``."""
    ok = value >= target if higher else value <= target
    return "PASS" if ok else "MISS"


def target_text(target: str, *, higher: bool) -> str:
    """How a target reads in a table: ``≥ 10×`` or ``≤ 1 s``, the side ``verdict`` uses."""
    return f"{'≥' if higher else '≤'} {target}"
