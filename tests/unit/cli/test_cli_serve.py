"""canon serve's options → the app's settings: each option reaches ``app.state.settings``, a
bad value is one line and exit 2, and the pages offered follow the index and the providers.

The server start (``canon.web.server.serve``, uvicorn bound to a port) is replaced by a
function that keeps the app it is given: the app itself is real, built by ``create_app``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi import FastAPI
from fastapi.testclient import TestClient
from repo_paths import EXAMPLES

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
    assert defaults == ServerSettings()  # the command's defaults are the settings' own


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
    answers = [TestClient(app).get(path).status_code for app in (neither, web_only, both)
               for path in ("/check", "/index")]  # fmt: skip
    assert answers == [404, 404, 200, 404, 200, 200]
    assert [app.state.check_page for app in (neither, web_only, both)] == [False, True, True]
