"""A search provider as an attacker, or as the unwitting carrier of one: its results point
inside the network, its answers are nested without end, huge or trickled a byte at a time,
its refusals repeat the key it was sent.

The provider is the stand-in of tests/search_server.py (a real HTTP server on 127.0.0.1), in
its hostile modes.  Since it serves on 127.0.0.1 itself, these tests also show that the
provider's own address may be private while its results may not.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from search_server import (
    DRAFT,
    GOOGLE_KEY,
    YANDEX_KEY,
    StandIn,
    provider_env,
    reset,
    serve,
)
from webclient import PageClient

from canon import CheckSettings, SearchSettings
from canon.cli import cli
from canon.errors import SearchError
from canon.sources.fetch import FetchOptions
from canon.uniqueness.web import pick_queries, provider_of, web_check
from canon.uniqueness.web.candidates import PRIVATE_RESULT

PAGES = ("/pages/copy.html", "/pages/rewrite.html", "/pages/garden.html", "/pages/short.html")


@pytest.fixture(scope="module")
def server() -> Iterator[StandIn]:
    with serve() as running:
        yield running


@pytest.fixture
def stand(server: StandIn) -> StandIn:
    return reset(server)


def _env(stand: StandIn, tmp_path: Path) -> dict[str, str]:
    return {**provider_env(stand, tmp_path), "CANON_SEARXNG_URL": stand.base}


def _run(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, env=env)
    return result.exit_code, result.stdout, result.stderr


def _draft(tmp_path: Path) -> Path:
    draft = tmp_path / "draft.txt"
    draft.write_text(DRAFT, "utf-8")
    return draft


# --------------------------------------------------------------------------- private results

QUICK = FetchOptions(connect_timeout=1.0, deadline=3.0)  # the old code connects to 10.0.0.1


@pytest.mark.parametrize("name", ["searxng", "yandex", "google"])
def test_results_at_internal_addresses_are_not_fetched_by_default(
    name: str, stand: StandIn, tmp_path: Path
) -> None:
    stand.mode = "internal"
    provider = provider_of(f"searxng:{stand.base}" if name == "searxng" else name,
                           _env(stand, tmp_path))  # fmt: skip
    for fetch in (QUICK, FetchOptions(allow_private=True, connect_timeout=1.0, deadline=3.0)):
        found = web_check(DRAFT, provider, CheckSettings(search=SearchSettings(
            queries=1, results=20, fetch=fetch)))  # fmt: skip
        assert stand.queries  # the provider, on 127.0.0.1 itself, was asked
        assert not any(stand.hits[path] for path in PAGES)  # no result fetched
        failed = [p for p in found.pages if p.status != "excluded"]
        hosts = {p.url.split("/")[2].rsplit(":", 1)[0] for p in failed}
        assert {"10.0.0.1", "169.254.169.254", "[::1]", "localhost", "127.0.0.1"} <= hosts
        assert "[::ffff:127.0.0.1]" in hosts
        for page in failed:
            assert page.status == "failed" and page.reason.endswith(PRIVATE_RESULT), page
            assert "private or local address" in page.reason or "this machine" in page.reason
        assert found.compared == 0 and found.result.verdict.uniqueness == 1.0


def test_private_results_are_fetched_when_allowed_apart(stand: StandIn, tmp_path: Path) -> None:
    provider = provider_of(f"searxng:{stand.base}", {})
    search = SearchSettings(queries=1, fetch=FetchOptions(allow_private=False),
                            allow_private_results=True)  # fmt: skip
    found = web_check(DRAFT, provider, CheckSettings(search=search))
    assert found.compared == 3 and stand.hits["/pages/copy.html"] == 1


def test_the_command_line_says_why_a_private_result_is_not_compared(
    stand: StandIn, tmp_path: Path
) -> None:
    draft, env = _draft(tmp_path), _env(stand, tmp_path)
    args = ["check", str(draft), "--web", f"searxng:{stand.base}", "--queries", "1"]
    code, out, err = _run([*args, "--allow-private"], env)
    assert code == 0 and err == "" and not any(stand.hits[path] for path in PAGES)
    copy = stand.url("/pages/copy.html")
    assert f"not compared: {copy}: the private or local address 127.0.0.1 is not fetched; " in out
    assert f"{PRIVATE_RESULT} (--allow-private-results)" in out
    assert "0 pages compared" in out
    code, out, _ = _run([*args, "--json"], env)
    pages = json.loads(out)["web"]["pages"]
    assert code == 0 and pages and all(p["status"] == "failed" for p in pages)
    code, out, _ = _run([*args, "--json", "--allow-private-results"], env)
    assert code == 0 and json.loads(out)["web"]["pages_compared"] == 3


def test_the_server_fetches_private_results_only_when_started_to(
    stand: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    from canon.web import create_app
    from canon.web.i18n import translations
    from canon.web.said import said

    for name, value in _env(stand, tmp_path).items():
        monkeypatch.setenv(name, value)
    asked = {"draft": DRAFT, "web": "searxng", "queries": 1}
    with PageClient(create_app(allow_private=True, workers=1)) as client:
        answer = client.post("/api/check", json=asked)
        assert answer.status_code == 200, answer.text
        web = answer.json()["web"]
        assert web["pages_compared"] == 0 and not any(stand.hits[path] for path in PAGES)
        assert all(PRIVATE_RESULT in p["reason"] for p in web["pages"])
        shown = [str(said(p["reason"], translations("ru"), "ru")) for p in web["pages"]]
        assert all("частным или локальным адресом" in s and "lang" not in s for s in shown)
    with PageClient(create_app(allow_private_results=True, workers=1)) as client:
        answer = client.post("/api/check", json=asked)
        assert answer.status_code == 200 and answer.json()["web"]["pages_compared"] == 3


def test_check_settings_refuse_a_non_boolean_allowance() -> None:
    from canon.errors import OptionError

    with pytest.raises(OptionError, match=r"^allow_private_results "):
        SearchSettings(allow_private_results="yes")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- hostile answers


def _provider(name: str, stand: StandIn, tmp_path: Path):
    spec = f"searxng:{stand.base}" if name == "searxng" else name
    return provider_of(spec, _env(stand, tmp_path))


HOSTILE = [
    ("searxng", "deep", "nested deeper than 64 levels"),
    ("yandex", "deep", "nested deeper than 64 levels"),
    ("yandex", "deep-xml", "nested deeper than 64 levels"),
    ("google", "deep", "nested deeper than 64 levels"),
    ("searxng", "huge", "over 2,000,000 bytes"),
    ("yandex", "huge", "over 2,000,000 bytes"),
    ("google", "huge", "over 2,000,000 bytes"),
]


@pytest.mark.parametrize(("name", "mode", "said"), HOSTILE)
def test_a_deep_or_huge_answer_is_a_provider_error(
    name: str, mode: str, said: str, stand: StandIn, tmp_path: Path
) -> None:
    stand.mode = mode
    started = time.monotonic()
    with pytest.raises(SearchError) as caught:
        web_check(DRAFT, _provider(name, stand, tmp_path), CheckSettings(search=SearchSettings(
            queries=1, allow_private_results=True)))  # fmt: skip
    assert time.monotonic() - started < 10
    error = caught.value
    assert error.provider == name and error.reason == "bad-answer", error
    assert error.message.startswith(f"{name}: ") and said in error.message
    assert "\n" not in error.message


@pytest.mark.parametrize("name", ["searxng", "yandex", "google"])
def test_a_deep_answer_ends_the_command_in_one_line(
    name: str, stand: StandIn, tmp_path: Path
) -> None:
    stand.mode = "deep"
    web = f"searxng:{stand.base}" if name == "searxng" else name
    code, out, err = _run(["check", str(_draft(tmp_path)), "--web", web], _env(stand, tmp_path))
    assert code == 2 and out == "", err
    assert err == f"canon: error: {name}: the answer is nested deeper than 64 levels; " \
        "check that the endpoint is the provider's\n"  # fmt: skip


def test_the_depth_bound_counts_only_the_brackets_outside_strings() -> None:
    from canon.sources.search.bounded import MAX_DEPTH, TooDeep, load_json

    inside = json.dumps({"title": "[" * 1000, "snippet": '\\"{' * 1000, "x": [[["]"]]]})
    assert load_json(inside.encode())["title"] == "[" * 1000
    assert load_json(inside.encode("utf-16")) == json.loads(inside)
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_json(nested.encode()) == json.loads(nested)
    for deeper in ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), '{"a":' * 100 + "1"):
        with pytest.raises(TooDeep):
            load_json(deeper.encode())
    started = time.monotonic()
    with pytest.raises(ValueError):  # an unterminated string of escapes: one pass, no more
        load_json(b'"' + b'\\"' * 1_000_000)
    assert time.monotonic() - started < 2


# --------------------------------------------------------------------------- keys said back

SEARXNG_PASSWORD = "s3cret-pass"


def _with_password(stand: StandIn) -> str:
    return stand.base.replace("http://", f"http://canon:{SEARXNG_PASSWORD}@")


def _secret_free(text: str) -> bool:
    return not any(s in text for s in (GOOGLE_KEY, YANDEX_KEY, SEARXNG_PASSWORD))


ECHOES = [("google", "echo"), ("yandex", "echo"), ("searxng", "echo"), ("searxng", "no-json")]


@pytest.mark.parametrize(("name", "mode"), ECHOES)
def test_a_key_said_back_is_masked_in_the_error(
    name: str, mode: str, stand: StandIn, tmp_path: Path
) -> None:
    stand.mode = mode
    spec = f"searxng:{_with_password(stand)}" if name == "searxng" else name
    with pytest.raises(SearchError) as caught:
        web_check(DRAFT, provider_of(spec, _env(stand, tmp_path)),
                  CheckSettings(search=SearchSettings(queries=1)))  # fmt: skip
    error = caught.value
    assert error.provider == name and _secret_free(error.message) and _secret_free(str(error))
    assert "***" in error.message, error.message
    assert _secret_free(repr(error.args))


@pytest.mark.parametrize("name", ["google", "yandex", "searxng"])
def test_the_command_line_never_prints_a_key_said_back(
    name: str, stand: StandIn, tmp_path: Path
) -> None:
    stand.mode = "echo"
    web = f"searxng:{_with_password(stand)}" if name == "searxng" else name
    for more in ([], ["--json"]):
        code, out, err = _run(["check", str(_draft(tmp_path)), "--web", web, *more],
                              _env(stand, tmp_path))  # fmt: skip
        assert code == 2 and out == "" and err.startswith(f"canon: error: {name}: "), err
        assert len(err.splitlines()) == 1 and "***" in err and _secret_free(err), err


def test_results_carrying_the_key_are_neither_fetched_nor_shown(
    stand: StandIn, tmp_path: Path
) -> None:
    stand.mode = "echo-results"
    args = ["check", str(_draft(tmp_path)), "--web", "google", "--queries", "1", "--json",
            "--allow-private-results"]  # fmt: skip
    code, out, err = _run(args, _env(stand, tmp_path))
    assert code == 0 and _secret_free(out) and _secret_free(err)
    pages = json.loads(out)["web"]["pages"]
    assert [p["url"] for p in pages] == [stand.url("/pages/garden.html")]
    assert not any(GOOGLE_KEY in path for path in stand.paths if path.startswith("/pages/"))


def test_the_server_never_answers_with_a_key_said_back(
    stand: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    from canon.web import create_app

    for name, value in _env(stand, tmp_path).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("CANON_SEARXNG_URL", _with_password(stand))
    stand.mode = "echo"
    with PageClient(create_app(workers=1)) as client:
        for name in ("google", "yandex", "searxng"):
            answer = client.post("/api/check", json={"draft": DRAFT, "web": name, "queries": 1})
            assert answer.status_code == 502 and answer.json()["field"] == "web"
            assert "***" in answer.json()["error"] and _secret_free(answer.text), answer.text
            started = client.post("/api/check/jobs", json={"draft": DRAFT, "web": name})
            assert started.status_code == 202, started.text
            job, status = started.json()["id"], started.json()["status"]
            ends = time.monotonic() + 30
            while (done := client.get(status)).json()["state"] not in ("done", "failed"):
                assert time.monotonic() < ends, done.text
                time.sleep(0.05)
            assert done.json()["state"] == "failed" and "***" in done.json()["error"]
            assert _secret_free(done.text), done.text
            for lang in ("ru", "en"):
                page = client.get(f"/check/web/{job}?lang={lang}")
                assert page.status_code == 502 and _secret_free(page.text)  # the failed job


# --------------------------------------------------------------------------- a trickling provider

DEADLINE = 2.0
MARGIN = 1.5  # seconds past the deadline a check may take to end (the draft's queries, output)


@pytest.fixture
def warm() -> None:
    """The dictionaries loaded, as in a process that has checked a draft before: the time
    measured is the check's, not the first load's."""
    pick_queries(DRAFT, 3)


@pytest.mark.parametrize("name", ["searxng", "yandex", "google"])
def test_a_trickling_provider_is_cut_off_at_the_deadline(
    name: str, stand: StandIn, tmp_path: Path, warm: None
) -> None:
    stand.mode = "trickle"  # a byte every 0.5 s: no read ever waits past its timeout
    fetch = FetchOptions(deadline=DEADLINE)
    started = time.monotonic()
    with pytest.raises(SearchError) as caught:
        web_check(DRAFT, _provider(name, stand, tmp_path),
                  CheckSettings(search=SearchSettings(queries=3, fetch=fetch)))  # fmt: skip
    assert time.monotonic() - started < DEADLINE + MARGIN
    error = caught.value
    assert error.reason == "unreachable" and "\n" not in error.message
    assert error.message == (
        f"{name}: no complete answer within the 2-second deadline; check that it runs, "
        "or allow more time"
    )


def test_the_command_line_ends_within_its_deadline(
    stand: StandIn, tmp_path: Path, warm: None
) -> None:
    stand.mode = "trickle"
    args = ["check", str(_draft(tmp_path)), "--web", f"searxng:{stand.base}", "--deadline",
            str(DEADLINE)]  # fmt: skip
    started = time.monotonic()
    code, out, err = _run(args, _env(stand, tmp_path))
    assert time.monotonic() - started < DEADLINE + MARGIN
    assert code == 2 and out == ""
    assert err == "canon: error: searxng: no complete answer within the 2-second deadline; " \
        "check that it runs, or allow more time\n"  # fmt: skip
