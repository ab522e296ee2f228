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

from ..report.language import N_
from . import cli
from .options import language_option, spoken

__all__ = ["users_group"]

_FILE = click.argument("users", type=click.Path(dir_okay=False, path_type=Path))
_NAME = click.argument("name")
_STDIN = click.option(
    "--password-stdin", is_flag=True, help="Read the password from one line of standard input."
)


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    said = spoken()
    return str(
        click.prompt(said._("Password"), hide_input=True, err=True,
                     confirmation_prompt=said._("Repeat for confirmation"))
    )  # fmt: skip


_LIST_HEADER = (N_("name"), N_("queries/day"), N_("left today"), N_("audits"), N_("tokens"),
                N_("added"))  # fmt: skip
_JOBS_HEADER = (N_("started (UTC)"), N_("user"), N_("job"), N_("id"))


@cli.group("users")
def users_group() -> None:
    """Who may sign in to canon serve: users with passwords and API tokens, kept in one file."""


@users_group.command("add")
@_FILE
@language_option
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
    click.echo(spoken()._("added %(name)s to %(users)s", name=user.name, users=users))


@users_group.command("remove")
@_FILE
@language_option
@_NAME
def users_remove(users: Path, name: str) -> None:
    """Remove the user NAME, its tokens and its sessions."""
    from ..web.accounts import Accounts

    Accounts(users).remove(name)
    click.echo(spoken()._("removed %(name)s", name=name))


@users_group.command("list")
@_FILE
@language_option
def users_list(users: Path) -> None:
    """The users: name, queries a day (left today), audits at once, tokens, added."""
    from ..web.accounts import Accounts

    accounts = Accounts(users)
    said = spoken()
    click.echo("\t".join(said._(h) for h in _LIST_HEADER))
    for user in accounts.users():
        left, _ = accounts.left(user.name)
        added = datetime.fromtimestamp(user.created, UTC).date().isoformat()
        click.echo(
            f"{user.name}\t{user.queries_per_day}\t{left}\t{user.audits_at_once}\t"
            f"{user.tokens}\t{added}"
        )


@users_group.command("jobs")
@_FILE
@language_option
@click.argument("name", required=False)
@click.option("--last", type=click.IntRange(1, 100_000), default=50, show_default=True)
def users_jobs(users: Path, name: str | None, last: int) -> None:
    """The checks against the web and the audits started on the server, newest first (those
    of NAME, when given): when, who, what, the job's id."""
    from ..web.accounts import Accounts

    said = spoken()
    click.echo("\t".join(said._(h) for h in _JOBS_HEADER))
    for user, kind, job, at in Accounts(users).started(name, last):
        when = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"{when}\t{user}\t{kind}\t{job}")


@users_group.command("password")
@_FILE
@language_option
@_NAME
@_STDIN
def users_password(users: Path, name: str, password_stdin: bool) -> None:
    """Give NAME a new password; its sessions end."""
    from ..web.accounts import Accounts

    Accounts(users).set_password(name, _password(password_stdin))
    click.echo(spoken()._("changed the password of %(name)s; its sessions have ended", name=name))


@users_group.command("limits")
@_FILE
@language_option
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
    said = spoken()
    click.echo(
        said._("%(name)s: %(queries)s queries a day, %(audits)s audits at once", name=user.name,
               queries=said.count(user.queries_per_day), audits=said.count(user.audits_at_once))
    )  # fmt: skip


@users_group.command("token")
@_FILE
@language_option
@_NAME
@click.option("--label", default="", help="What the token is for (shown by list as a count).")
@click.option("--revoke", is_flag=True, help="Remove every token of NAME instead.")
def users_token(users: Path, name: str, label: str, revoke: bool) -> None:
    """Print a new API token for NAME (sent as 'Authorization: Bearer TOKEN'); it is shown
    only now."""
    from ..web.accounts import Accounts

    accounts = Accounts(users)
    if revoke:
        revoked = spoken()._("revoked %(num)s tokens of %(name)s",
                             num=accounts.revoke_tokens(name), name=name)  # fmt: skip
        click.echo(revoked)
        return
    click.echo(accounts.new_token(name, label))
