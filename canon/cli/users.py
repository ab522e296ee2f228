"""canon users add, remove, list, password, limits and token: who may sign in to ``canon serve``.

The users live in one SQLite file (``canon serve --users FILE``), made by the first ``add``;
passwords are asked twice without echo, or read from one line of standard input with
``--password-stdin`` (for scripts).  A token is printed once: the file keeps only its hash.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from . import cli

__all__ = ["users_group"]

_FILE = click.argument("users", type=click.Path(dir_okay=False, path_type=Path))
_NAME = click.argument("name")
_STDIN = click.option(
    "--password-stdin", is_flag=True, help="Read the password from one line of standard input."
)


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(click.prompt("Password", hide_input=True, confirmation_prompt=True, err=True))


@cli.group("users")
def users_group() -> None:
    """Who may sign in to canon serve: users with passwords and API tokens, kept in one file."""


@users_group.command("add")
@_FILE
@_NAME
@_STDIN
@click.option(
    "--queries-per-day",
    type=click.IntRange(0, 1_000_000),
    default=100,
    show_default=True,
    help="Search queries the user's checks against the web may send a day (UTC).",
)
@click.option(
    "--audits",
    "audits_at_once",
    type=click.IntRange(0, 1000),
    default=1,
    show_default=True,
    help="Site audits the user may run at once.",
)
def users_add(
    users: Path, name: str, password_stdin: bool, queries_per_day: int, audits_at_once: int
) -> None:
    """Add the user NAME to the file USERS (made when missing, readable by its owner only)."""
    from ..web.accounts import Accounts, check_new_user

    password = _password(password_stdin)
    check_new_user(name, password, queries_per_day, audits_at_once)  # before a file is made
    user = Accounts(users, create=True).add(
        name, password, queries_per_day=queries_per_day, audits_at_once=audits_at_once
    )
    click.echo(f"added {user.name} to {users}")


@users_group.command("remove")
@_FILE
@_NAME
def users_remove(users: Path, name: str) -> None:
    """Remove the user NAME, its tokens and its sessions."""
    from ..web.accounts import Accounts

    Accounts(users).remove(name)
    click.echo(f"removed {name}")


@users_group.command("list")
@_FILE
def users_list(users: Path) -> None:
    """The users: name, queries a day (left today), audits at once, tokens, added."""
    from ..web.accounts import Accounts

    accounts = Accounts(users)
    click.echo("name\tqueries/day\tleft today\taudits\ttokens\tadded")
    for user in accounts.users():
        left, _ = accounts.left(user.name)
        added = datetime.fromtimestamp(user.created, UTC).date().isoformat()
        click.echo(
            f"{user.name}\t{user.queries_per_day}\t{left}\t{user.audits_at_once}\t"
            f"{user.tokens}\t{added}"
        )


@users_group.command("jobs")
@_FILE
@click.argument("name", required=False)
@click.option("--last", type=click.IntRange(1, 100_000), default=50, show_default=True)
def users_jobs(users: Path, name: str | None, last: int) -> None:
    """The checks against the web and the audits started on the server, newest first (those
    of NAME, when given): when, who, what, the job's id."""
    from ..web.accounts import Accounts

    click.echo("started (UTC)\tuser\tjob\tid")
    for user, kind, job, at in Accounts(users).started(name, last):
        when = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"{when}\t{user}\t{kind}\t{job}")


@users_group.command("password")
@_FILE
@_NAME
@_STDIN
def users_password(users: Path, name: str, password_stdin: bool) -> None:
    """Give NAME a new password; its sessions end."""
    from ..web.accounts import Accounts

    Accounts(users).set_password(name, _password(password_stdin))
    click.echo(f"changed the password of {name}; its sessions have ended")


@users_group.command("limits")
@_FILE
@_NAME
@click.option("--queries-per-day", type=click.IntRange(0, 1_000_000), default=None)
@click.option("--audits", "audits_at_once", type=click.IntRange(0, 1000), default=None)
def users_limits(
    users: Path, name: str, queries_per_day: int | None, audits_at_once: int | None
) -> None:
    """Change the quotas of NAME (an option not given keeps its value)."""
    from ..web.accounts import Accounts

    user = Accounts(users).set_limits(
        name, queries_per_day=queries_per_day, audits_at_once=audits_at_once
    )
    click.echo(
        f"{user.name}: {user.queries_per_day} queries a day, {user.audits_at_once} audits at once"
    )


@users_group.command("token")
@_FILE
@_NAME
@click.option("--label", default="", help="What the token is for (shown by list as a count).")
@click.option("--revoke", is_flag=True, help="Remove every token of NAME instead.")
def users_token(users: Path, name: str, label: str, revoke: bool) -> None:
    """Print a new API token for NAME (sent as 'Authorization: Bearer TOKEN'); it is shown
    only now."""
    from ..web.accounts import Accounts

    accounts = Accounts(users)
    if revoke:
        click.echo(f"revoked {accounts.revoke_tokens(name)} tokens of {name}")
        return
    click.echo(accounts.new_token(name, label))
