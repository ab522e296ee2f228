"""The commands of ``canon`` by module: the table is what the modules define, and a command
imports its own module only (``canon compare`` loads neither the index nor the audit)."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner
from repo_paths import EXAMPLES

from canon import cli as package
from canon.cli import cli


def test_the_table_names_each_command_by_its_module() -> None:
    defined = {name: command.callback.__module__ for name, command in cli.commands.items()}
    assert defined == {name: f"canon.cli.{module}" for name, module in package._COMMANDS.items()}
    assert cli.list_commands(click.Context(cli)) == sorted(defined)


def test_a_command_loads_its_own_module_only() -> None:
    code = (
        "import sys\n"
        "from canon.cli import cli\n"
        "cli.main(sys.argv[1:], standalone_mode=False)\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    args = ["compare", str(EXAMPLES / "original.txt"), str(EXAMPLES / "rewrite.txt"), "--json"]
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("{")
    modules = set(result.stderr.split())
    commands = {m for m in modules if m.startswith("canon.cli.")}
    assert commands == {"canon.cli.compare", "canon.cli.options"}
    for other in ("canon.index", "canon.audit", "canon.dedup", "canon.web", "canon.uniqueness"):
        assert other not in modules, other


def test_an_unknown_command_is_refused_as_before() -> None:
    result = CliRunner().invoke(cli, ["no-such-command"])
    assert result.exit_code == 2 and "No such command 'no-such-command'" in result.output
