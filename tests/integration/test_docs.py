"""The README documents every command, subcommand and option of ``canon``."""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
import pytest
from repo_paths import ROOT

from canon.cli import cli

README = (ROOT / "README.md").read_text("utf-8")


def _commands(
    command: click.Command, path: tuple[str, ...] = ("canon",)
) -> Iterator[tuple[str, click.Command]]:
    yield " ".join(path), command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _commands(sub, (*path, name))


COMMANDS = [(name, command) for name, command in _commands(cli) if not command.hidden]
OPTIONS = [
    (name, flag)
    for name, command in COMMANDS
    for param in command.params
    if isinstance(param, click.Option) and not param.hidden
    for flag in (*param.opts, *param.secondary_opts)
    if flag.startswith("--")
]


def _mentioned(text: str) -> bool:
    """``text`` in the README as a whole word: ``--k`` is not found in ``--keep-hyphens``."""
    return re.search(rf"(?<![\w-]){re.escape(text)}(?![\w-])", README) is not None


def test_the_tree_is_walked() -> None:
    names = {name for name, _ in COMMANDS}
    assert {"canon", "canon compare", "canon index", "canon index add", "canon dedup"} <= names
    assert ("canon dedup", "--threshold") in OPTIONS


@pytest.mark.parametrize("name", [name for name, _ in COMMANDS])
def test_every_command_is_in_the_readme(name: str) -> None:
    assert _mentioned(name), f"README.md does not mention `{name}`"


@pytest.mark.parametrize(("name", "flag"), OPTIONS, ids=[f"{n} {f}" for n, f in OPTIONS])
def test_every_option_is_in_the_readme(name: str, flag: str) -> None:
    assert _mentioned(flag), f"README.md does not mention {flag} of `{name}`"
