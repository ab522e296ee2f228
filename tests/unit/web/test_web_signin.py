"""Signing in to a server given a users file: every page and the API need a user (a session of
``/signin``, or an API token), sign-in failures are bounded, sessions end with their password,
each user sees only the web checks and audits they started, and each spends their own search
queries (counted by the SearXNG stand-in of tests/search_server.py, a real HTTP server on
127.0.0.1) and audits at once.  Users are made by ``canon users``, as an administrator would.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from search_server import DRAFT, StandIn, reset, serve
from webclient import PageClient

import canon
from canon.cli import cli
from canon.web import create_app
from canon.web.accounts import Accounts
from canon.web.signin import MAX_FAILURES

PASSWORDS = {"anna": "rose garden at dusk", "boris": "seven blue herons"}
TEXT = "Фарфоровый чайник держит тепло дольше стеклянного, а глиняный впитывает аромат заварки."


def _add(users: Path, name: str, *options: str) -> None:
    added = CliRunner().invoke(
        cli, ["users", "add", str(users), name, "--password-stdin", *options],
        input=PASSWORDS[name] + "\n",
    )  # fmt: skip
    assert added.exit_code == 0, added.output


@pytest.fixture
def users(tmp_path: Path) -> Path:
    path = tmp_path / "team.users"
    _add(path, "anna", "--queries-per-day", "5")
    _add(path, "boris")
    return path


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "c.db"
    with canon.Index(path, create=True) as index:
        source = tmp_path / "tea.txt"
        source.write_text(TEXT, "utf-8")
        canon.add_sources(index, [str(source)], canon.IndexRules([canon.get_profile("raw")], k=4))
    return path


def _signed_in(client: PageClient, name: str, password: str | None = None) -> PageClient:
    answer = client.post("/signin", data={"name": name, "password": password or PASSWORDS[name],
                                          "next": "/"}, follow_redirects=False)  # fmt: skip
    assert answer.status_code == 303, answer.text
    return client


def test_an_open_server_has_no_sign_in(db: Path) -> None:
    with PageClient(create_app(db)) as client:
        assert client.get("/").status_code == 200
        assert client.get("/signin").status_code == 404
        assert client.post("/api/check", json={"draft": TEXT}).status_code == 200


def test_every_page_and_call_needs_a_user(db: Path, users: Path, tmp_path: Path) -> None:
    app = create_app(db, users=users, audits=tmp_path / "audits")
    paths = ["/", "/check", "/index", "/audit", "/audit/0123456789ab", "/check/web/x", "/docs",
             "/openapi.json", "/docs/openapi.json", "/api/index/stats", "/api/check/jobs/x",
             "/healthz", "/signin"]  # fmt: skip
    with PageClient(app) as client:
        for path in paths:
            answer = client.get(path, follow_redirects=False)
            if path in ("/healthz", "/signin"):
                assert answer.status_code == 200, path
            elif path.startswith("/api/"):
                assert answer.status_code == 401, path
                assert answer.headers["www-authenticate"].startswith("Bearer")
            else:
                assert answer.status_code == 303, path
                assert answer.headers["location"] == f"/signin?next={path}", path
        assert client.get("/static/canon.css").status_code == 200
        for path, body in (("/api/check", {"draft": TEXT}), ("/api/compare",
                           {"first": TEXT, "second": TEXT})):  # fmt: skip
            refused = client.post(path, json=body)
            assert refused.status_code == 401 and set(refused.json()) == {"error", "field"}
        form = client.post("/", data={"first_text": TEXT, "second_text": TEXT},
                           follow_redirects=False)  # fmt: skip
        assert form.status_code == 303 and form.headers["location"].startswith("/signin")


def test_signing_in_leads_to_the_page_asked_for_and_out_again(db: Path, users: Path) -> None:
    with PageClient(create_app(db, users=users)) as client:
        first = client.get("/index?lang=en", follow_redirects=False)
        where = first.headers["location"]
        assert where == "/signin?next=/index%3Flang%3Den&lang=en"
        form = client.get(where).text
        assert 'name="next" value="/index?lang=en"' in form and "Sign in" in form
        token = re.search(r'name="csrf_token" value="([^"]+)"', form)
        assert token
        answer = client.post("/signin", data={"name": "ANNA", "password": PASSWORDS["anna"],
                                              "next": "/index?lang=en",
                                              "csrf_token": token.group(1)},
                             follow_redirects=False)  # fmt: skip
        assert answer.status_code == 303 and answer.headers["location"] == "/index?lang=en"
        page = client.get("/index?lang=en")
        assert page.status_code == 200 and '<span id="user">anna</span>' in page.text
        assert client.post("/api/check", json={"draft": TEXT}).status_code == 200  # its session
        out = client.post("/signout", follow_redirects=False)
        assert out.status_code == 303 and out.headers["location"] == "/signin"
        assert client.get("/index", follow_redirects=False).status_code == 303
        assert client.post("/api/check", json={"draft": TEXT}).status_code == 401


@pytest.mark.parametrize("asked", ["//evil.example/", "https://evil.example/", "/\\evil.example",
                                   "", "javascript:alert(1)"])  # fmt: skip
def test_after_signing_in_the_browser_stays_on_this_server(
    db: Path, users: Path, asked: str
) -> None:
    with PageClient(create_app(db, users=users)) as client:
        answer = client.post("/signin", data={"name": "anna", "password": PASSWORDS["anna"],
                                              "next": asked}, follow_redirects=False)  # fmt: skip
        assert answer.status_code == 303 and answer.headers["location"] == "/"


def test_a_wrong_password_is_said_in_russian_and_keeps_the_name(db: Path, users: Path) -> None:
    with PageClient(create_app(db, users=users)) as client:
        for name, password in (("anna", "not her password"), ("nobody", "any long password")):
            answer = client.post("/signin", data={"name": name, "password": password})
            assert answer.status_code == 401
            assert "Неверное имя или пароль" in answer.text
            assert f'value="{name}"' in answer.text and password not in answer.text
        assert "canon_session" not in client.cookies


def test_a_sign_in_form_from_another_site_or_without_its_token_is_refused(
    db: Path, users: Path
) -> None:
    with PageClient(create_app(db, users=users)) as client:
        bare = client.post("/signin", data={"name": "anna", "password": PASSWORDS["anna"]},
                           token=False)  # fmt: skip
        assert bare.status_code == 403
        foreign = client.post("/signin", data={"name": "anna", "password": PASSWORDS["anna"]},
                              headers={"Origin": "https://evil.example"})  # fmt: skip
        assert foreign.status_code == 403
        assert "canon_session" not in client.cookies


def test_guessing_is_stopped_after_a_few_failures(db: Path, users: Path) -> None:
    with PageClient(create_app(db, users=users)) as client:
        for _ in range(MAX_FAILURES):
            assert client.post("/signin", data={"name": "boris", "password": "guess" * 3}
                               ).status_code == 401  # fmt: skip
        started = time.monotonic()
        stopped = client.post("/signin", data={"name": "boris", "password": PASSWORDS["boris"]})
        assert time.monotonic() - started < 1  # refused before any hash is computed
        assert stopped.status_code == 429 and int(stopped.headers["retry-after"]) > 0
        assert "Слишком много неудачных попыток входа" in stopped.text
        assert "canon_session" not in client.cookies


def test_the_api_takes_a_bearer_token(db: Path, users: Path) -> None:
    made = CliRunner().invoke(cli, ["users", "token", str(users), "boris", "--label", "ci"])
    token = made.stdout.strip()
    assert made.exit_code == 0 and token.startswith("canon_")
    assert token not in users.read_bytes().decode("latin-1")  # only its hash is kept
    with PageClient(create_app(db, users=users)) as client:
        bearer = {"Authorization": f"Bearer {token}"}
        answer = client.post("/api/check", json={"draft": TEXT}, headers=bearer)
        assert answer.status_code == 200 and answer.json()["profiles"][0]["uniqueness"] == 0
        assert client.get("/api/index/stats", headers=bearer).status_code == 200
        for wrong in (token[:-1] + "x", "canon_", "x" * 5000, token.upper()):
            refused = client.get("/api/index/stats", headers={"Authorization": f"Bearer {wrong}"})
            assert refused.status_code == 401
        CliRunner().invoke(cli, ["users", "token", str(users), "boris", "--revoke"])
        assert client.get("/api/index/stats", headers=bearer).status_code == 401


def test_a_new_password_or_a_removed_user_ends_the_sessions(db: Path, users: Path) -> None:
    with (
        PageClient(create_app(db, users=users)) as anna,
        PageClient(create_app(db, users=users)) as boris,
    ):
        _signed_in(anna, "anna")
        _signed_in(boris, "boris")
        assert anna.get("/index", follow_redirects=False).status_code == 200
        Accounts(users).set_password("anna", "a new long secret")
        assert anna.get("/index", follow_redirects=False).status_code == 303
        _signed_in(anna, "anna", "a new long secret")
        assert anna.get("/index", follow_redirects=False).status_code == 200
        removed = CliRunner().invoke(cli, ["users", "remove", str(users), "boris"])
        assert removed.exit_code == 0
        assert boris.get("/index", follow_redirects=False).status_code == 303


def test_the_session_cookie_is_secure_over_https(db: Path, users: Path) -> None:
    for base, secure in (("http://127.0.0.1", False), ("https://127.0.0.1", True)):
        with PageClient(create_app(db, users=users), base_url=base) as client:
            answer = client.post("/signin", data={"name": "anna", "password": PASSWORDS["anna"]},
                                 follow_redirects=False)  # fmt: skip
            (cookie,) = [c for c in answer.headers.get_list("set-cookie") if "canon_session" in c]
            assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
            assert ("; secure" in cookie.lower()) is secure


def test_a_session_cookie_cannot_be_forged(db: Path, users: Path) -> None:
    import base64
    import json

    with PageClient(create_app(db, users=users)) as client:
        _signed_in(client, "boris")
        _, _, signature = client.cookies["canon_session"].partition(".")
        forged = base64.b64encode(json.dumps({"user": "anna", "gen": 0}).encode()).decode()
        client.cookies.set("canon_session", f"{forged}.{signature}")
        assert client.get("/index", follow_redirects=False).status_code == 303


# ------------------------------------------------------------------ jobs and quotas


@pytest.fixture(scope="module")
def stand() -> Iterator[StandIn]:
    with serve() as running:
        yield running


@pytest.fixture
def searxng(stand: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StandIn:
    monkeypatch.setenv("CANON_SEARCH_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("CANON_SEARXNG_URL", stand.base)
    for name in ("YANDEX_API_KEY", "YANDEX_FOLDER_ID", "GOOGLE_API_KEY", "GOOGLE_CX"):
        monkeypatch.delenv(f"CANON_{name}", raising=False)
    return reset(stand)


def _done(client: PageClient, where: str) -> dict:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        status = client.get(where).json()
        if status["state"] in ("done", "failed"):
            return status
        time.sleep(0.1)
    raise AssertionError("the job did not finish")


@pytest.mark.slow
def test_each_user_sees_their_own_checks_and_spends_their_own_queries(
    db: Path, users: Path, searxng: StandIn
) -> None:
    app = create_app(db, users=users, allow_private=True, allow_private_results=True, workers=1)
    with PageClient(app) as anna, PageClient(app) as boris:
        _signed_in(anna, "anna")
        _signed_in(boris, "boris")
        body = {"draft": DRAFT, "web": "searxng", "queries": 3}
        started = anna.post("/api/check/jobs", json=body)
        assert started.status_code == 202, started.text
        where = started.json()["status"]
        assert boris.get(where).status_code == 404  # not there for another user
        assert boris.get(f"/check/web/{started.json()['id']}").status_code == 404
        status = _done(anna, where)
        assert status["state"] == "done", status
        sent = status["result"]["web"]["queries_sent"]
        assert 1 <= sent <= 3 and len(searxng.queries) == sent
        accounts = Accounts(users)
        assert accounts.left("anna") == (5 - sent, 5)  # what was not sent is given back
        assert accounts.left("boris") == (100, 100)
        # anna has fewer left than this check may send: refused before any query is sent
        asked = anna.post("/api/check/jobs", json={**body, "queries": 5 - sent + 1})
        assert asked.status_code == 429 and asked.json()["field"] == "queries"
        page = anna.post("/check/web", data={"draft_text": DRAFT, "web": "searxng",
                                             "queries": "5"})  # fmt: skip
        assert page.status_code == 429 and "поисковых запросов" in page.text
        direct = anna.post("/api/check", json={**body, "queries": 5})
        assert direct.status_code == 429
        assert len(searxng.queries) == sent  # nothing more reached the provider
        assert boris.post("/api/check", json=body).status_code == 200  # his own quota
        assert accounts.left("anna") == (5 - sent, 5)
    listed = CliRunner().invoke(cli, ["users", "jobs", str(users)]).stdout.splitlines()
    assert listed[0] == "started (UTC)\tuser\tjob\tid"
    assert [line.split("\t")[1:] for line in listed[1:]] == [
        ["anna", "web-check", started.json()["id"]]
    ]  # who started it is kept


@pytest.mark.slow
def test_each_user_sees_their_own_audits_and_runs_their_own_number(
    users: Path, tmp_path: Path
) -> None:
    Accounts(users).set_limits("boris", audits_at_once=0)
    folder = tmp_path / "audits"
    app = create_app(users=users, audits=folder, audits_at_once=2)
    with PageClient(app) as anna, PageClient(app) as boris:
        _signed_in(anna, "anna")
        _signed_in(boris, "boris")
        started = anna.post("/audit", data={"start": "http://127.0.0.1:9/", "max_pages": "1"},
                            follow_redirects=False)  # fmt: skip
        assert started.status_code == 303, started.text
        where = started.headers["location"]
        audit_id = where.rsplit("/", 1)[1]
        assert audit_id in anna.get("/audit").text
        assert audit_id not in boris.get("/audit").text
        for path in (where, f"{where}/status", f"{where}/files/pages.csv"):
            assert boris.get(path).status_code == 404, path
        refused = boris.post("/audit", data={"start": "http://127.0.0.1:9/"})
        assert refused.status_code == 429 and "аудитов" in refused.text
        deadline = time.monotonic() + 60
        while anna.get(f"{where}/status").json()["state"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert (folder / audit_id / "status.json").read_text("utf-8").count('"owner": "anna"') == 1
    assert [job[:3] for job in Accounts(users).started()] == [("anna", "audit", audit_id)]
