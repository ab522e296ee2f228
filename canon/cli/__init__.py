"""The ``canon`` command: thin commands over the library; a user's mistake is one line, exit 2.

Each command parses its options, makes one library call and prints.  Library errors carry
structured attributes (``option``, ``reason``, ``remedy``); :func:`message_of` turns them into
the ``--flag`` hints and the commands of this command line, in its language
(:mod:`canon.cli.refusals`): Russian under a Russian locale or ``--lang ru``, else English.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from .._version import __version__
from ..errors import (
    CanonError,
    ExtractionError,
    FetchError,
    IndexFileError,
    MissingExtra,
    OptionError,
)
from ..report.language import N_, Speech, speech

__all__ = ["cli", "main", "message_of", "missing_extra"]

# Library option names whose command-line flag is spelled otherwise (None: a setting of the
# Python API only, named as the library names it).
_FLAGS: dict[str, str | None] = {
    "connect_timeout": "--timeout",
    "read_timeout": "--timeout",
    "user_agent": None,
}
# Each command, by the module of this package that defines it: a module is imported when its
# command runs (or help lists them all), so ``canon compare`` loads neither the index nor the audit.
_COMMANDS = {
    "audit": "audit",
    "check": "check",
    "compare": "compare",
    "dedup": "dedup",
    "index": "index",
    "profiles": "compare",
    "serve": "serve",
    "stats": "compare",
    "tokens": "compare",
    "users": "users",
    "watch": "watch",
}
# The option that turns on the feature an extra holds, where a command works without it; by
# command too, where the extra is another command's own.
_EXTRA_FLAGS = {"plot": "--plot", "dask": "--engine dask"}
_COMMAND_EXTRA_FLAGS = {("dedup", "audit"): "--format xlsx"}
# What to try, by the reason an error gives.
_HINTS = {
    (FetchError, "private-address"): N_("pass --allow-private to fetch it"),
    (FetchError, "too-large"): N_("raise --max-bytes"),
    (FetchError, "timeout"): N_("raise --timeout"),
    (FetchError, "deadline"): N_("raise --deadline"),
    (ExtractionError, "no-main-text"): N_("try --whole-page to see all its text"),
}
# The command that does what an index error's ``remedy`` asks.
_INDEX_COMMANDS = {
    "create": "canon index add",
    "upgrade": "canon index upgrade",
    "rebuild": "canon index add",
    "verify": "canon index verify",
}


def message_of(exc: CanonError, said: Speech | None = None) -> str:
    """The error as this command line says it (in ``said``'s language, English by default):
    options as flags, and a flag to try."""

    from .refusals import refusal, said_text  # on an error only

    said = said or speech("en")
    if isinstance(exc, OptionError) and not exc.message.startswith(exc.option):
        return refusal(exc, said)  # a ProfileError's own sentence
    if isinstance(exc, OptionError):
        flag = _FLAGS.get(exc.option, "--" + exc.option.replace("_", "-"))
        return refusal(exc, said) if flag is None else f"{flag} {said_text(exc.problem, said)}"
    if isinstance(exc, IndexFileError) and exc.remedy in _INDEX_COMMANDS:
        message = refusal(exc, said)
        return said._("%(message)s with '%(command)s'", message=message,
                      command=_INDEX_COMMANDS[exc.remedy])  # fmt: skip
    for (kind, reason), hint in _HINTS.items():
        if isinstance(exc, kind) and exc.reason == reason:
            return f"{refusal(exc, said)}; {said._(hint)}"
    return refusal(exc, said)


def missing_extra(exc: MissingExtra, command: str | None, said: Speech | None = None) -> str:
    """``serve needs the web extra: pip install 'canon[web]'``: the command (and the option)
    that needs the extra, in place of the library's name for the feature."""
    flag = _COMMAND_EXTRA_FLAGS.get((command or "", exc.extra)) or _EXTRA_FLAGS.get(exc.extra)
    needing = " ".join(filter(None, (command, flag))) or exc.feature
    return (said or speech("en"))._(
        "%(needing)s needs the %(extra)s extra: %(install)s",
        needing=needing,
        extra=exc.extra,
        install=exc.install,
    )


def _spoken() -> Speech:
    """The language the failed command speaks (its options imported on an error only)."""
    from .options import spoken

    return spoken()


class _Group(click.Group):
    """CanonError → a one-line message and its exit code (``--debug`` shows the traceback);
    each command's module imported when the command is looked up (``_COMMANDS``)."""

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        """Every command, each module imported (for what reads them all at once)."""
        for module in sorted(set(_COMMANDS.values())):
            importlib.import_module(f"{__name__}.{module}")
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = dict(value)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        name = name or cmd.name
        if name is None:
            raise TypeError("Command has no name.")
        self._commands[name] = cmd

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _COMMANDS:
            importlib.import_module(f"{__name__}.{_COMMANDS[cmd_name]}")  # it adds its commands
        return self._commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:

        try:
            return super().invoke(ctx)
        except MissingExtra as exc:
            if ctx.params.get("debug"):
                raise
            said = _spoken()
            click.echo(f"canon: {missing_extra(exc, ctx.invoked_subcommand, said)}", err=True)
            sys.exit(exc.exit_code)
        except CanonError as exc:
            if ctx.params.get("debug"):
                raise
            said = _spoken()
            click.echo(said._("canon: error: %(message)s", message=message_of(exc, said)), err=True)
            sys.exit(exc.exit_code)
        except BrokenPipeError:  # output piped into head and the like
            sys.stderr.close()
            sys.exit(0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show a traceback on errors.")
@click.version_option(__version__, package_name="canon")
def cli(debug: bool) -> None:
    """How much do Russian texts share? Word shingles over one canonical form."""


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``canon`` command."""
    cli.main(args=list(argv) if argv is not None else None, prog_name="canon")
