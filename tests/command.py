"""The ``canon`` command as the tests run it: in this process, or as a real process.

:func:`run_cli` calls the click command in this process with click's ``CliRunner`` (no
interpreter start-up, no second import of canon, the lemma cache already warm); what it gives
back looks like :class:`subprocess.CompletedProcess` (``returncode``, ``stdout``, ``stderr``),
with the traceback of an exception that escaped the command on ``stderr`` and exit code 1, as
``python -m canon`` would show it.  Its stdout and stderr are not terminals, as when piped.

:func:`run_process` starts ``python -m canon`` for the tests that are about the process itself:
its start-up, its exit on a signal, a kill mid-write, a terminal, the memory it uses.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

__all__ = ["CANON", "Ran", "run_cli", "run_process"]

CANON = (sys.executable, "-m", "canon")  # the command line of a real process


@dataclass(frozen=True)
class Ran:
    """What one in-process run of the command gave: its exit code and its two streams."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str


def run_cli(
    *args: object,
    input: str | bytes | None = None,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | str | None = None,
) -> Ran:
    """``canon *args`` in this process; ``env`` entries set (or, as ``None``, unset) variables
    for the run only; ``cwd`` is the working directory of the run."""
    from canon.cli import cli

    words = tuple(map(str, args))
    runner = CliRunner()
    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        result = runner.invoke(cli, list(words), input=input, env=env, prog_name="canon")
    stderr = result.stderr
    code = result.exit_code
    escaped = result.exception
    if escaped is not None and not isinstance(escaped, SystemExit):
        stderr += "".join(traceback.format_exception(escaped))
        code = 1
    return Ran(words, code, result.stdout, stderr)


def run_process(
    *args: object,
    input: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | str | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """``python -m canon *args`` as a real process, its output captured as text; ``env`` is
    the whole environment of the process (this one's when ``None``), as for ``subprocess``."""
    text = input.decode("utf-8") if isinstance(input, bytes) else input
    return subprocess.run(
        [*CANON, *map(str, args)],
        input=text,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )
