"""Cross-site requests: another site's page makes the user's browser post to canon serve.

Every form a page handles (compare, check, web check, audit) is posted the ways another site
can: without the token, with a forged one, with another browser's, with a foreign ``Origin``
or ``Sec-Fetch-Site: cross-site``.  Each is a 403 and starts nothing: no comparison or check
in the workers, no query to the search provider (the SearXNG stand-in), no audit folder.  The
same form posted from its page goes through.  The JSON API refuses browsers on other sites
and serves clients that are no browser.  A ``Host`` the server does not answer to is a 400,
and the links of the pages are paths whatever ``Host`` a request names.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from repo_paths import EXAMPLES
from search_server import DRAFT, StandIn, serve
from webclient import BASE, PageClient, token_of

import canon
from canon.web import create_app

pytestmark = pytest.mark.timeout(300)

FORMS: dict[str, dict[str, Any]] = {
    "/": {"first_text": "кошка ловила мышей у реки " * 3, "second_text": DRAFT},
    "/check": {"draft_text": DRAFT, "pass_mark": "80", "profiles": ["raw"]},
    "/check/web": {
        "draft_text": DRAFT,
        "web": "searxng",
        "queries": "2",
        "pass_mark": "80",
        "profiles": ["raw"],
    },
    "/audit": {"start": "http://example.com/", "max_pages": "2"},
}
FOREIGN = "https://evil.example"


@pytest.fixture(scope="module")
def stand() -> Iterator[StandIn]:
    with serve() as running:
        yield running


@pytest.fixture(scope="module")
def app(stand: StandIn, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server with every form: an index, a search provider (the stand-in), audits."""
    folder = tmp_path_factory.mktemp("cross-site")
    db = folder / "c.db"
    with canon.Index(db, create=True) as index:
        rules = canon.IndexRules([canon.get_profile("raw")], k=4)
        canon.add_sources(index, [str(EXAMPLES / "original.txt")], rules)
    patch = pytest.MonkeyPatch()
    patch.setenv("CANON_SEARCH_CONFIG", str(folder / "none.toml"))
    patch.setenv("CANON_SEARXNG_URL", stand.base)
    for name in ("YANDEX_API_KEY", "YANDEX_FOLDER_ID", "GOOGLE_API_KEY", "GOOGLE_CX"):
        patch.delenv(f"CANON_{name}", raising=False)
    (folder / "audits").mkdir()
    yield create_app(db, audits=folder / "audits", allow_private_results=True, workers=1)
    patch.undo()


@pytest.fixture
def work(app: Any, stand: StandIn, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What the forms started: calls into the worker pool, queries to the provider, web
    checks, audit folders.  None of the pool's work runs (it is only counted)."""
    started: list[str] = []

    async def counted(request: Any, function: Any, *args: Any) -> Any:
        started.append(function.__name__)
        raise AssertionError("a refused form reached the workers")

    monkeypatch.setattr("canon.web.routes.pages.in_worker", counted)
    stand.queries.clear()
    jobs, audits = set(app.state.web_jobs.jobs), set(Path(app.state.settings.audits).iterdir())
    yield started
    started += [f"query {q}" for _, q in stand.queries]
    started += [f"web check {j}" for j in set(app.state.web_jobs.jobs) - jobs]
    started += [f"audit {p.name}" for p in set(Path(app.state.settings.audits).iterdir()) - audits]


def _refused(answer: Any) -> None:
    assert answer.status_code == 403, (answer.status_code, answer.text[:300])
    assert "<h1>Запрос отклонён</h1>" in answer.text and 'id="back"' in answer.text


@pytest.mark.parametrize("path", list(FORMS))
@pytest.mark.parametrize(
    "attack",
    ["no cookie, no token", "no token", "forged token", "another browser's token",
     "foreign Origin", "Origin null", "Sec-Fetch-Site: cross-site"],
)  # fmt: skip
def test_a_cross_site_form_is_refused_and_starts_nothing(
    app: Any, work: list[str], path: str, attack: str
) -> None:
    browser = PageClient(app)
    token, headers, data = browser.form_token(), {}, dict(FORMS[path])
    if attack == "no cookie, no token":
        browser.cookies.clear()
    elif attack == "no token":
        pass
    elif attack == "forged token":
        data["csrf_token"] = token[:-4] + "AAAA"
    elif attack == "another browser's token":
        data["csrf_token"] = PageClient(app).form_token()
    else:  # a valid token, and a browser saying where the form comes from
        data["csrf_token"] = token
        headers = {
            "foreign Origin": {"Origin": FOREIGN},
            "Origin null": {"Origin": "null"},
            "Sec-Fetch-Site: cross-site": {"Sec-Fetch-Site": "cross-site"},
        }[attack]
    answer = browser.post(path, data=data, headers=headers, token=False, follow_redirects=False)
    _refused(answer)
    assert work == []


def test_the_refusal_speaks_the_pages_language_and_leads_back(app: Any, work: list[str]) -> None:
    client = PageClient(app)
    english = client.post("/check/web?lang=en", data=FORMS["/check/web"], token=False)
    assert english.status_code == 403 and "<h1>Request refused</h1>" in english.text
    assert "open the page again" in english.text
    assert '<a href="/check?lang=en" id="back">' in english.text  # the form's page
    foreign = client.post("/audit", data=FORMS["/audit"], headers={"Origin": FOREIGN})
    _refused(foreign)
    assert "с другого сайта" in foreign.text and '<a href="/audit" id="back">' in foreign.text
    assert "Traceback" not in english.text + foreign.text
    as_json = client.post("/", data=FORMS["/"], token=False, headers={"Accept": "application/json"})
    assert as_json.status_code == 403 and as_json.json()["field"] is None
    assert "token" in as_json.json()["error"]


def test_the_json_api_refuses_other_sites_and_serves_other_clients(
    app: Any, work: list[str]
) -> None:
    client = PageClient(app)
    bodies = {
        "/api/compare": {"first": DRAFT, "second": DRAFT},
        "/api/stats": {"text": DRAFT},
        "/api/check": {"draft": DRAFT},
        "/api/check/jobs": {"draft": DRAFT, "web": "searxng", "queries": 1},
    }
    for path, body in bodies.items():
        for headers in ({"Origin": FOREIGN}, {"Sec-Fetch-Site": "cross-site"},
                        {"Origin": "null"}):  # fmt: skip
            answer = client.post(path, json=body, headers=headers)
            assert answer.status_code == 403, (path, headers, answer.text)
            assert answer.json()["field"] is None and "another site" in answer.json()["error"]
    assert work == []
    # no Origin (a script, curl), or the server's own: served
    for headers in ({}, {"Origin": BASE, "Sec-Fetch-Site": "same-origin"}):
        answer = client.post("/api/stats", json=bodies["/api/stats"], headers=headers)
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.2", "", "a b", "[::2]:80", "1:x", "a@b"]
)
def test_a_foreign_host_is_a_400(app: Any, host: str) -> None:
    client = TestClient(app, base_url=BASE)
    for method, path in (("GET", "/"), ("GET", "/healthz"), ("POST", "/api/stats")):
        answer = client.request(method, path, headers={"Host": host}, json={"text": DRAFT})
        assert answer.status_code == 400, (host, path)
        said = answer.json()  # one line naming the refused name, as every refusal
        assert said["field"] is None and f"host name {host!r}" in said["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "[::1]:8000", "evil.example"])
def test_the_links_of_the_pages_stay_paths_whatever_the_host(app: Any, host: str) -> None:
    open_app = create_app(allowed_hosts=("*",))  # any Host reaches the pages
    client = TestClient(open_app if host == "evil.example" else app, base_url=BASE)
    for path in ("/", "/?lang=en"):
        page = client.get(path, headers={"Host": host})
        assert page.status_code == 200
        links = re.findall(r'(?:href|action|src|data-status)="([^"]*)"', page.text)
        assert links and all(link.startswith(("/", "data:")) for link in links), links
        assert f"//{host}" not in page.text and "evil.example" not in page.text


def _until(check: Any, seconds: float = 120) -> bool:
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.2)
    return bool(check())


def test_the_same_form_from_its_page_goes_through(app: Any, stand: StandIn) -> None:
    """The form flow of a browser: get the page, read its token, post it (with its cookie)."""
    stand.queries.clear()
    audits = Path(app.state.settings.audits)
    with TestClient(app, base_url=BASE) as browser:
        for path, page in (("/", "/"), ("/check", "/check"), ("/check/web", "/check"),
                           ("/audit", "/audit")):  # fmt: skip
            shown = browser.get(page)
            assert "canon_form" in browser.cookies
            data = {**FORMS[path], "csrf_token": token_of(shown.text)}
            same = {"Origin": BASE, "Sec-Fetch-Site": "same-origin"}
            answer = browser.post(path, data=data, headers=same, follow_redirects=False)
            assert answer.status_code in (200, 303), (path, answer.status_code, answer.text[:300])
        assert "<table" in browser.post("/", data={**FORMS["/"], "csrf_token": token_of(
            browser.get("/").text)}).text  # fmt: skip
        assert _until(lambda: len(stand.queries) > 0)  # the web check asked the provider
        assert len(list(audits.iterdir())) == 1  # the audit has its folder
        jobs = app.state.web_jobs.jobs.values()
        assert _until(lambda: all(job.finished is not None for job in jobs))
