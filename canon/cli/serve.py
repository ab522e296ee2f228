"""canon serve: the web pages and the JSON API under uvicorn.

A bad option value (``--web-jobs 0``, ``--deadline x``) is one line on stderr and exit 2, as
the library's refusals are, not click's usage block."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from . import cli
from .options import language_option, spoken

__all__ = ["serve"]


class _BadValue(click.ClickException):
    """An option's value refused: ``canon: error: …`` on one line, exit 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        line = spoken()._("canon: error: %(message)s", message=self.format_message())
        click.echo(line, err=True, file=file)


class _ServeCommand(click.Command):
    """``canon serve``, whose refused option values are one line each (:class:`_BadValue`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.BadParameter as exc:
            raise _BadValue(exc.format_message()) from exc


@cli.command("serve", cls=_ServeCommand)
@click.option(
    "--index",
    "db",
    type=click.Path(path_type=Path),
    help="Offer uniqueness checks against this index (opened read-only).",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--allow-private",
    is_flag=True,
    help="Let URL fetches reach loopback, private and link-local addresses.",
)
@click.option(
    "--allow-private-results",
    is_flag=True,
    help="Let checks against the web fetch search results at loopback, private and link-local "
    "addresses (the provider's own address may be private without it).",
)
@click.option("--allow-index-writes", is_flag=True, help="Open the index for writing.")
@click.option(
    "--max-body",
    type=click.IntRange(min=1),
    default=2_000_000,
    show_default=True,
    help="Largest request body in bytes (413 above).",
)
@click.option(
    "--max-text",
    type=click.IntRange(min=1),
    default=200_000,
    show_default=True,
    help="Longest text in characters (413 above).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Worker processes for reading, comparing and checking.",
)
@click.option(
    "--deadline",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds a request's work may take; a worker past it is stopped and replaced (422).",
)
@click.option(
    "--queue",
    type=click.IntRange(min=0),
    default=64,
    show_default=True,
    help="Requests that may wait for a worker; more get 503 with Retry-After.",
)
@click.option(
    "--fetch-deadline",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="Seconds a page named by URL may take to fetch, redirects included.",
)
@click.option(
    "--web-jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Checks against the web run at once (started from the check page or the job API).",
)
@click.option(
    "--web-queue",
    type=click.IntRange(min=0),
    default=4,
    show_default=True,
    help="Checks against the web that may wait; more get 429 with Retry-After.",
)
@click.option(
    "--web-deadline",
    type=click.FloatRange(min=1),
    default=300.0,
    show_default=True,
    help="Seconds a check against the web may take, searching and fetching included.",
)
@click.option(
    "--audits",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Offer site audits from the pages (/audit), kept in this folder.",
)
@click.option(
    "--allowed-host",
    "allowed_host",
    multiple=True,
    metavar="NAME",
    help="A name the server answers to in the Host header (repeatable; *.example.com for its "
    "subdomains, * for any); always the loopback names and the --host address.  Other Host "
    "headers get 400.",
)
@click.option(
    "--users",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Make everyone sign in, as a user of this file (canon users add).  Required when "
    "the server answers beyond this machine (--host or --allowed-host not loopback).",
)
@click.option(
    "--session-hours",
    type=click.FloatRange(min=0.01, max=24 * 90),
    default=12.0,
    show_default=True,
    help="Hours a sign-in lasts.",
)
@click.option(
    "--audits-at-once",
    type=click.IntRange(min=1, max=64),
    default=1,
    show_default=True,
    help="Site audits the server runs at once (each user: at most their own quota).",
)
@click.option(
    "--watches",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Show the watches of canon watch kept in this folder (each subfolder holding "
    "watch.db, or the folder itself), read-only, under /watch.",
)
@language_option
def serve(
    db: Path | None,
    host: str,
    port: int,
    allowed_host: tuple[str, ...],
    users: Path | None,
    **settings: Any,
) -> None:
    """Serve the compare and check pages and the JSON API (FastAPI under uvicorn).

    Served on loopback alone, the server is open to whoever uses this machine; answering
    beyond it (another --host, or --allowed-host names), it needs --users, and every page and
    API call then needs a signed-in user or an API token.  Forms and sessions are signed with
    a secret made at the first start and kept, readable by its owner only, in the --audits
    folder or else in canon's data folder; CANON_SECRET gives it instead."""
    from ..errors import OptionError
    from ..web import create_app
    from ..web.accounts import Accounts
    from ..web.secret import secret_file_for
    from ..web.server import serve as run_server
    from ..web.settings import allowed_hosts, beyond_loopback

    try:
        hosts = allowed_hosts(host, allowed_host)
    except OptionError as exc:
        raise _BadValue(f"--allowed-host {exc.problem}") from exc
    reach = beyond_loopback(host, hosts)
    said = spoken()
    if users is None and reach:
        flag = "--" + reach[0].replace("_", "-")
        raise _BadValue(
            said._(
                "%(flag)s %(value)s lets other machines reach the server: give --users FILE "
                "(made by canon users add FILE NAME) so that everyone signs in",
                flag=flag,
                value=reach[1],
            )
        )
    if users is not None and not Accounts(users).users():
        raise _BadValue(
            said._("%(users)s has no users: add one with canon users add %(users)s NAME",
                   users=users)
        )  # fmt: skip
    secret_file = secret_file_for(settings.get("audits"))
    # create_app refuses a missing, foreign or damaged index (one line) before the server starts
    app = create_app(db, allowed_hosts=hosts, secret_file=secret_file, users=users, **settings)
    if users is None:
        line = said._("no sign-in: whoever uses this machine can use the server")
    else:
        line = said._("sign-in required (users of %(users)s)", users=users)
    click.echo(f"canon: {line}", err=True)
    run_server(app, host, port)
