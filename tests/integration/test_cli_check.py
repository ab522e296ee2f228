"""canon check --web on a terminal: its stages on one line of stderr, rewritten in place and
erased at the end; nothing when stderr is a pipe; stdout (``--json`` or not) the same either
way.

The terminal is a real pseudo-terminal (``pty``) holding the command's stderr, its stdout a
pipe; the search provider is the SearXNG stand-in of tests/search_server.py (a real HTTP
server on 127.0.0.1 that also serves the pages its results point to).
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from repo_paths import ROOT
from search_server import DRAFT, StandIn, serve

from canon.cli import cli
from canon.cli.check import stage_text
from canon.uniqueness.web.run import WebProgress

QUERIES = 2
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def stand() -> Iterator[StandIn]:
    with serve() as running:
        yield running


@pytest.fixture(scope="module")
def draft(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "draft.txt"
    path.write_text(DRAFT, "utf-8")
    return path


def _env(folder: Path) -> dict[str, str]:
    env = {**os.environ, "CANON_SEARCH_CONFIG": str(folder / "none.toml"), "COLUMNS": "100"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def _args(draft: Path, stand: StandIn, *more: str) -> list[str]:
    return ["check", str(draft), "--web", f"searxng:{stand.base}", "--queries", str(QUERIES),
            "--allow-private-results", *more]  # fmt: skip


def _on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[str, bytes]:
    """``canon ARGS`` with stderr on a pseudo-terminal: its stdout, and what the terminal got."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "canon", *args], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, env=env)  # fmt: skip
    os.close(slave)
    got: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the command ended: the terminal is closed
                return
            if not chunk:
                return
            got.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        out, _ = proc.communicate(timeout=120)
    finally:
        reader.join(timeout=10)
        os.close(master)
    assert proc.returncode == 0, b"".join(got)
    return out.decode("utf-8"), b"".join(got)


def _answer(out: str) -> dict:
    """The JSON printed, each page's fetch time (an HTTP date) left out."""
    data = json.loads(out)
    for page in data["web"]["pages"]:
        page.pop("fetched")
    return data


def _lines(terminal: bytes) -> list[str]:
    """The texts the stage line showed, in order (each rewrite starts by erasing the line)."""
    said = terminal.decode("utf-8").split("\x1b[2K")
    return [t for t in (CONTROL.sub("", s).strip("\r\n ") for s in said) if t]


def test_the_stages_are_said_in_a_few_words() -> None:
    assert stage_text(WebProgress("queries", 12, 12)) == "queries 12"
    assert stage_text(WebProgress("searching", 3, 12)) == "searching 3/12"
    assert stage_text(WebProgress("fetching", 7, 40)) == "fetching 7/40"
    assert stage_text(WebProgress("checking")) == "checking"


@pytest.mark.parametrize("more", [["--json"], []], ids=["json", "text"])
def test_a_terminal_sees_the_stages_and_stdout_stays_the_same(
    stand: StandIn, draft: Path, tmp_path: Path, more: list[str]
) -> None:
    env = _env(tmp_path)
    out, terminal = _on_a_terminal(_args(draft, stand, *more), env)
    command = [sys.executable, "-m", "canon", *_args(draft, stand, *more)]
    piped = subprocess.run(command, capture_output=True, text=True, env=env, timeout=90, check=True)
    assert piped.stderr == ""  # stderr not a terminal: no stage line
    if more:
        assert _answer(out) == _answer(piped.stdout) and out.count("\n") == 1
    else:
        assert out == piped.stdout and "Web: searxng:" in out
    shown = _lines(terminal)
    searched = [f"searching {n}/{QUERIES}" for n in range(QUERIES + 1)]
    assert shown[: QUERIES + 2] == [f"queries {QUERIES}", *searched], shown
    fetching = [s for s in shown if s.startswith("fetching")]
    pages = int(fetching[0].split("/")[1])
    assert fetching == [f"fetching {n}/{pages}" for n in range(pages + 1)] and pages >= 4
    assert set(shown[QUERIES + 2 + len(fetching) :]) == {"checking"}, shown
    assert terminal.rstrip(b"\x1b[?25h\r\n").endswith(b"\x1b[2K")  # the line erased at the end


def test_an_index_check_on_a_terminal_says_nothing_on_stderr(tmp_path: Path) -> None:
    db, draft = tmp_path / "c.db", tmp_path / "draft.txt"
    draft.write_text(DRAFT, "utf-8")
    made = CliRunner().invoke(cli, ["index", "add", str(db), str(draft)])
    assert made.exit_code == 0, made.output
    out, terminal = _on_a_terminal(["check", str(draft), "--index", str(db)], _env(tmp_path))
    assert terminal == b"" and "uniqueness" in out
