"""The examples of README.md and docs/, run as tests (sybil), with their shown output compared.

- A ``console`` block is a terminal session: each ``$ `` line is a command for bash (a line
  ending in ``\\`` goes on, and so do the ``> `` lines right after it), and the lines up to the
  next ``$ `` are its expected output, standard output and standard error together. ``...`` in
  the expected output stands for any text (doctest's ellipsis); trailing spaces do not count.
  A command that exits with a status other than 0 fails, unless the session shows the status
  (``; echo "exit $?"``).
- A ``bash`` block is a script: it runs with ``set -e`` and must succeed; nothing is compared.
- A ``python`` block runs in the document's namespace; one that starts with ``>>>`` is a
  doctest, its shown values compared (ellipsis on).
- A server an example starts in the background (``... & echo $! > NAME.pid``) is ended when the
  document is done, if the example did not end it itself.
- ``<!-- skip: next "why" -->`` before a block leaves it out, reported as skipped with the
  reason: for what needs a network service, a search provider's keys, or runs for minutes.

Each document runs in a temporary folder of its own holding a copy of ``examples/``, with the
lemma cache in a temporary folder, ``canon`` and ``python`` those of the running interpreter,
and no search provider configured but a ``search.toml`` the example itself writes.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

__all__ = ["COLUMNS", "Session", "docs_sybil", "parse_session"]

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = 100  # the terminal width the shown outputs were taken at
TIMEOUT = 300  # seconds a command may take
_CWD = "__example_folder__"
_FLAGS = doctest.ELLIPSIS
# The reader's own search providers never take part in an example.
_PRIVATE = frozenset(
    {
        "CANON_SEARCH_CONFIG",
        "CANON_SEARXNG_URL",
        "CANON_YANDEX_API_KEY",
        "CANON_YANDEX_FOLDER_ID",
        "CANON_YANDEX_ENDPOINT",
        "CANON_GOOGLE_API_KEY",
        "CANON_GOOGLE_CX",
        "CANON_GOOGLE_ENDPOINT",
    }
)


@dataclass(frozen=True)
class Session:
    """One command of a console block and the output shown after it."""

    command: str
    expected: str


def parse_session(source: str) -> list[Session]:
    """The commands of a console block, each with the output shown below it."""
    sessions: list[Session] = []
    command: list[str] = []
    output: list[str] = []
    continued = False
    for line in source.splitlines():
        if command and not output and (continued or line.startswith("> ")):
            command.append(line[2:] if line.startswith("> ") else line)  # "> ": the shell's PS2
        elif line.startswith("$ "):
            if command:
                sessions.append(Session("\n".join(command), "\n".join(output)))
            command, output = [line[2:]], []
        elif command:
            output.append(line)
        elif line.strip():
            raise ValueError(f"a console block starts with a '$ ' command, not {line!r}")
        continued = bool(command) and line.endswith("\\") and not output
    if command:
        sessions.append(Session("\n".join(command), "\n".join(output)))
    return sessions


def _environment(cwd: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _PRIVATE}
    env["CANON_SEARCH_CONFIG"] = str(Path(cwd) / "search.toml")  # no search provider but the page's
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(COLUMNS=str(COLUMNS), LINES="50", TERM="dumb", NO_COLOR="1", PYTHONUNBUFFERED="1")
    env.pop("FORCE_COLOR", None)
    return env


def _run(command: str, cwd: str, *, script: bool = False) -> subprocess.CompletedProcess[str]:
    argv = ["bash", "-e", "-c", command] if script else ["bash", "-c", command]
    return subprocess.run(
        argv,
        cwd=cwd,
        env=_environment(cwd),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def _clean(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()) + "\n"


def _mismatch(session: Session, got: str) -> str | None:
    want = _clean(session.expected) if session.expected.strip() else ""
    got = _clean(got) if got.strip() else ""
    if doctest.OutputChecker().check_output(want, got, _FLAGS):
        return None
    return f"$ {session.command}\nexpected:\n{want}got:\n{got}"


def _evaluate_console(example: Example) -> str | None:
    cwd = example.namespace[_CWD]
    for session in parse_session(example.parsed):
        done = _run(session.command, cwd)
        if done.returncode != 0:
            return f"$ {session.command}\nexited with {done.returncode}:\n{done.stdout}"
        mismatch = _mismatch(session, done.stdout)
        if mismatch is not None:
            return mismatch
    return None


def _evaluate_script(example: Example) -> str | None:
    done = _run(example.parsed, example.namespace[_CWD], script=True)
    if done.returncode != 0:
        return f"{example.parsed}\nexited with {done.returncode}:\n{done.stdout}"
    return None


_CACHE: dict[str, str] = {}


def _setup(namespace: dict[str, Any]) -> None:
    folder = tempfile.mkdtemp(prefix="canon-docs-")
    shutil.copytree(ROOT / "examples", Path(folder) / "examples")
    if "lemma-cache" not in _CACHE:
        _CACHE["lemma-cache"] = tempfile.mkdtemp(prefix="canon-docs-cache-")
    namespace[_CWD] = folder
    namespace["__previous__"] = (os.getcwd(), os.environ.get("CANON_CACHE_DIR"))
    os.environ["CANON_CACHE_DIR"] = _CACHE["lemma-cache"]
    os.chdir(folder)


def _end_servers(folder: Path) -> None:
    """End the background processes an example started and named in a ``*.pid`` file."""
    for pid_file in folder.glob("*.pid"):
        with contextlib.suppress(ValueError, ProcessLookupError, PermissionError):
            os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)


def _teardown(namespace: dict[str, Any]) -> None:
    _end_servers(Path(namespace[_CWD]))
    cwd, cache = namespace.pop("__previous__")
    os.chdir(cwd)
    if cache is None:
        os.environ.pop("CANON_CACHE_DIR", None)
    else:
        os.environ["CANON_CACHE_DIR"] = cache
    shutil.rmtree(namespace.pop(_CWD), ignore_errors=True)


def docs_sybil() -> Sybil:
    """The examples of README.md and of every page under docs/."""
    return Sybil(
        parsers=[
            SkipParser(),
            CodeBlockParser("console", _evaluate_console),
            CodeBlockParser("bash", _evaluate_script),
            PythonCodeBlockParser(doctest_optionflags=_FLAGS),
        ],
        patterns=["README.md", "docs/*.md", "docs/**/*.md"],
        path=str(ROOT),
        setup=_setup,
        teardown=_teardown,
    )
