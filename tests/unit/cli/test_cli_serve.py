"""canon serve's options → the app's settings: each option reaches ``app.state.settings``, a
bad value is one line and exit 2, and the pages offered follow the index and the providers.

The server start (``canon.web.server.serve``, uvicorn bound to a port) is replaced by a
function that keeps the app it is given: the app itself is real, built by ``create_app``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi import FastAPI
from repo_paths import EXAMPLES
from webclient import PageClient

import canon
from canon.cli import cli
from canon.web.settings import ServerSettings


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[FastAPI, str, int]]:
    """The apps ``canon serve`` would have served, with their host and port; no provider."""
    kept: list[tuple[FastAPI, str, int]] = []
    monkeypatch.setattr("canon.web.server.serve", lambda app, host, port: kept.append(
        (app, host, port)))  # fmt: skip
    monkeypatch.setenv("CANON_SEARCH_CONFIG", str(tmp_path / "none.toml"))
    for name in ("SEARXNG_URL", "YANDEX_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(f"CANON_{name}", raising=False)
    return kept


def _serve(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, ["serve", *args], env=env)


def test_the_web_options_reach_the_apps_settings(started: list) -> None:
    done = _serve("--web-jobs", "3", "--web-queue", "0", "--web-deadline", "42.5",
                  "--port", "8123")  # fmt: skip
    assert done.exit_code == 0, done.output
    ((app, host, port),) = started
    settings: ServerSettings = app.state.settings
    assert (settings.web_jobs, settings.web_queue, settings.web_deadline) == (3, 0, 42.5)
    assert app.state.web_jobs.capacity == 3  # the job pool is sized by them
    assert (host, port) == ("127.0.0.1", 8123)
    _serve()
    defaults = started[-1][0].state.settings
    assert (defaults.web_jobs, defaults.web_queue, defaults.web_deadline) == (1, 4, 300.0)
    # the command's defaults are the settings' own, and a secret kept in canon's data folder
    assert replace(defaults, secret_file=None) == ServerSettings()
    assert defaults.secret_file is not None and defaults.secret_file.parent.name == "canon"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--web-jobs", "0"], "'--web-jobs': 0 is not in the range x>=1"),
        (["--web-jobs", "two"], "'--web-jobs': 'two' is not a valid integer"),
        (["--web-queue", "-1"], "'--web-queue': -1 is not in the range x>=0"),
        (["--web-deadline", "0.5"], "'--web-deadline': 0.5 is not in the range x>=1"),
        (["--web-deadline", "soon"], "'--web-deadline': 'soon' is not a valid float"),
        (["--workers", "0"], "'--workers': 0 is not in the range x>=1"),
    ],
)
def test_a_bad_value_is_one_line_and_exit_2(started: list, args: list[str], said: str) -> None:
    refused = _serve(*args)
    assert refused.exit_code == 2 and not started
    assert refused.stderr.startswith("canon: error: Invalid value for ") and said in refused.stderr
    assert refused.stderr.count("\n") == 1 and refused.stdout == "", refused.stderr


def test_the_pages_follow_the_index_and_the_providers(
    started: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.db"
    with canon.Index(db, create=True) as index:
        canon.add_sources(
            index, [str(EXAMPLES / "original.txt")], canon.IndexRules([canon.get_profile("raw")])
        )
    _serve()  # neither: no check page
    monkeypatch.setenv("CANON_SEARXNG_URL", "http://127.0.0.1:9")
    _serve()  # a provider alone: the check against the web
    _serve("--index", str(db))  # an index and a provider
    (neither, _, _), (web_only, _, _), (both, _, _) = started
    answers = [PageClient(app).get(path).status_code for app in (neither, web_only, both)
               for path in ("/check", "/index")]  # fmt: skip
    assert answers == [404, 404, 200, 404, 200, 200]
    assert [app.state.check_page for app in (neither, web_only, both)] == [False, True, True]


# ------------------------------------------------------------------ Host names and the secret


@pytest.fixture
def users(tmp_path: Path) -> Path:
    """A users file with one user, as ``canon users add`` makes it."""
    path = tmp_path / "team.users"
    added = CliRunner().invoke(cli, ["users", "add", str(path), "anna", "--password-stdin"],
                               input="correct horse battery\n")  # fmt: skip
    assert added.exit_code == 0, added.output
    return path


def test_the_allowed_hosts_are_the_loopback_names_the_address_and_those_given(
    started: list, users: Path
) -> None:
    signed = ("--users", str(users))
    assert _serve("--host", "0.0.0.0", "--allowed-host", "Canon.Example", *signed).exit_code == 0
    assert _serve("--host", "10.1.2.3", "--allowed-host", "*.corp.example", *signed).exit_code == 0
    (first, _, _), (second, _, _) = started
    assert first.state.settings.allowed_hosts == ("localhost", "127.0.0.1", "[::1]",
                                                  "canon.example")  # fmt: skip
    assert second.state.settings.allowed_hosts[-2:] == ("10.1.2.3", "*.corp.example")
    for base, status in (("http://canon.example:8000", 200), ("http://localhost", 200),
                         ("http://evil.example", 400), ("http://0.0.0.0", 400)):  # fmt: skip
        assert PageClient(first, base_url=base).get("/healthz").status_code == status, base
    signin = PageClient(second, base_url="http://a.corp.example").get("/", follow_redirects=False)
    assert signin.status_code == 303 and signin.headers["location"] == "/signin?next=/"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--host", "0.0.0.0"], "--host 0.0.0.0 lets other machines reach the server"),
        (["--host", "192.168.1.5"], "--host 192.168.1.5 lets other machines reach the server"),
        (["--allowed-host", "canon.example"], "--allowed-host canon.example lets other"),
    ],
)
def test_a_server_reachable_beyond_this_machine_needs_users(
    started: list, args: list[str], said: str
) -> None:
    refused = _serve(*args)
    assert refused.exit_code == 2 and not started
    assert said in refused.stderr and "--users FILE" in refused.stderr
    assert refused.stderr.count("\n") == 1


def test_loopback_alone_may_stay_open_and_says_so(started: list, users: Path) -> None:
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        opened = _serve("--host", host)
        assert opened.exit_code == 0, opened.stderr
        assert "no sign-in" in opened.stderr
    assert all(app.state.accounts is None for app, _, _ in started)
    signed = _serve("--users", str(users), "--session-hours", "2", "--audits-at-once", "3")
    assert signed.exit_code == 0 and "sign-in required" in signed.stderr
    settings = started[-1][0].state.settings
    assert (settings.users, settings.session_hours, settings.audits_at_once) == (users, 2.0, 3)


def test_a_users_file_that_is_missing_empty_or_foreign_is_refused_in_one_line(
    started: list, tmp_path: Path, users: Path
) -> None:
    foreign = tmp_path / "notes.txt"
    foreign.write_text("не база", "utf-8")
    empty = tmp_path / "empty.users"
    CliRunner().invoke(cli, ["users", "add", str(empty), "bob", "--password-stdin"],
                       input="correct horse battery\n")  # fmt: skip
    CliRunner().invoke(cli, ["users", "remove", str(empty), "bob"])
    for path, said in ((tmp_path / "none.users", "no users file here"),
                       (foreign, "not a users file of canon"),
                       (empty, "has no users: add one with canon users add")):  # fmt: skip
        refused = _serve("--users", str(path))
        assert refused.exit_code == 2 and said in refused.stderr, refused.stderr
        assert refused.stderr.count("\n") == 1
    assert not started


@pytest.mark.parametrize("name", ["canon.example:8000", "http://canon.example", "a b", "a.*"])
def test_a_bad_allowed_host_is_one_line_and_exit_2(started: list, name: str) -> None:
    refused = _serve("--allowed-host", name)
    assert refused.exit_code == 2 and not started
    assert refused.stderr.startswith("canon: error: --allowed-host must be a host name")
    assert refused.stderr.count("\n") == 1, refused.stderr


def _token_cookie(app: FastAPI) -> tuple[str, str]:
    client = PageClient(app)
    return client.form_token(), client.cookies["canon_form"]


def _accepts(app: FastAPI, token: str, cookie: str) -> bool:
    client = PageClient(app, cookies={"canon_form": cookie})
    form = {"csrf_token": token, "first_text": "один два три четыре", "second_text": "пять"}
    return client.post("/", data=form).status_code != 403


def test_the_secret_is_made_once_beside_the_audits_readable_by_its_owner_only(
    started: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CANON_SECRET", raising=False)
    audits = tmp_path / "audits"
    for _ in range(2):
        assert _serve("--audits", str(audits)).exit_code == 0
    kept = audits / ".canon-secret"
    assert kept.is_file() and kept.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in audits.iterdir()] == [".canon-secret"]  # no draft left behind
    (before, _, _), (after, _, _) = started
    assert _accepts(after, *_token_cookie(before))  # a page opened before a restart submits
    assert not _accepts(before, "forged", "forged")


def test_canon_secret_replaces_the_file(started: list, tmp_path: Path) -> None:
    env = {"CANON_SECRET": "a secret of the operator's choosing"}
    for folder in ("one", "two"):
        assert _serve("--audits", str(tmp_path / folder), env=env).exit_code == 0
    assert not (tmp_path / "one" / ".canon-secret").exists()
    (one, _, _), (two, _, _) = started
    assert _accepts(two, *_token_cookie(one))
    assert _serve("--audits", str(tmp_path / "three")).exit_code == 0
    assert not _accepts(started[-1][0], *_token_cookie(one))  # another secret: refused
