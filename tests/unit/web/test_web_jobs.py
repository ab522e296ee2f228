"""Checks against the web as jobs, without a browser: the stages ``web_check`` reports, the job
API (``/api/check/jobs``) from start to result, a provider's refusal said in Russian with its
field, the bounded queue, the check page's control, library sentences said in Russian on
the pages, and the check page of a server with a provider and no index (the web only).

The search provider is the SearXNG stand-in of tests/search_server.py (a real HTTP server on
127.0.0.1 that also serves the pages its results point to); jobs run in the app's real worker
processes.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from markupsafe import escape
from repo_paths import EXAMPLES
from search_server import DRAFT, StandIn, serve
from webclient import PageClient

import canon
from canon import CheckSettings, SearchSettings
from canon.sources.fetch import FetchOptions
from canon.textstats.words import lemma_words
from canon.uniqueness.web import provider_of, web_check
from canon.uniqueness.web.run import STAGES, WebProgress
from canon.web import create_app
from canon.web.i18n import LOCALE_DIR, translations
from canon.web.said import LIBRARY_SENTENCES, said

QUERIES = 2


@pytest.fixture(scope="module")
def stand() -> Iterator[StandIn]:
    with serve() as running:
        yield running


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("webjobs") / "c.db"
    with canon.Index(path, create=True) as index:
        profiles = [canon.get_profile("raw"), canon.get_profile("lemma")]
        canon.add_sources(index, [str(EXAMPLES / "original.txt")], canon.IndexRules(profiles, k=4))
    return path


@pytest.fixture(scope="module")
def env(stand: StandIn, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The server's configuration: SearXNG only (the stand-in), no config file."""
    patch = pytest.MonkeyPatch()
    patch.setenv("CANON_SEARCH_CONFIG", str(tmp_path_factory.mktemp("cfg") / "none.toml"))
    patch.setenv("CANON_SEARXNG_URL", stand.base)
    for name in ("YANDEX_API_KEY", "YANDEX_FOLDER_ID", "GOOGLE_API_KEY", "GOOGLE_CX"):
        patch.delenv(f"CANON_{name}", raising=False)
    yield
    patch.undo()


@pytest.fixture(scope="module")
def client(db: Path, env: None) -> Iterator[TestClient]:
    with PageClient(
        create_app(db, allow_private=True, allow_private_results=True, workers=1)
    ) as running:
        yield running


def _finished(client: TestClient, where: str, seconds: float = 90) -> tuple[dict, list[dict]]:
    """The job's last status, and every status seen on the way (asked every 50 ms)."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = client.get(where).json()
        seen.append(status)
        if status["state"] in ("done", "failed"):
            return status, seen
        time.sleep(0.05)
    raise AssertionError(f"the job did not finish in {seconds} s: {seen[-1]}")


def _reference(db: Path, stand: StandIn, **options) -> canon.WebCheck:
    fetching = FetchOptions(allow_private=True, max_bytes=2_000_000, deadline=20.0)
    with canon.Index(db, readonly=True) as index:
        search = SearchSettings(queries=QUERIES, fetch=fetching, allow_private_results=True)
        settings = CheckSettings(search=search, **options)
        return web_check(DRAFT, provider_of(f"searxng:{stand.base}"), settings, index=index)


# ------------------------------------------------------------------ the library's stages


@pytest.mark.slow
def test_web_check_reports_its_stages_in_order(stand: StandIn) -> None:
    heard: list[WebProgress] = []
    searxng, options = provider_of(f"searxng:{stand.base}"), FetchOptions(allow_private=True)
    found = web_check(
        DRAFT,
        searxng,
        CheckSettings(search=SearchSettings(queries=3, fetch=options, allow_private_results=True)),
        on_progress=heard.append,
    )
    stages = list(dict.fromkeys(p.stage for p in heard))
    assert stages == list(STAGES)
    assert heard[0] == WebProgress("queries", 3, 3)
    searching = [(p.done, p.total) for p in heard if p.stage == "searching"]
    assert searching == [(0, 3), (1, 3), (2, 3), (3, 3)]
    pages = len(found.pages) - sum(1 for p in found.pages if p.status == "excluded")
    fetching = [(p.done, p.total) for p in heard if p.stage == "fetching"]
    assert fetching == [(n, pages) for n in range(pages + 1)] and pages >= 4
    assert heard[-1] == WebProgress("checking")
    quiet = web_check(
        DRAFT,
        searxng,
        CheckSettings(search=SearchSettings(queries=3, fetch=options, allow_private_results=True)),
    )
    assert quiet.result.verdict == found.result.verdict  # the callback changes nothing


# ------------------------------------------------------------------ the job API


@pytest.mark.slow
def test_a_job_goes_through_the_stages_to_the_result_of_web_check(
    client: TestClient, db: Path, stand: StandIn
) -> None:
    started = client.post("/api/check/jobs", json={"draft": DRAFT, "web": "searxng",
                                                   "queries": QUERIES})  # fmt: skip
    assert started.status_code == 202, started.text
    job = started.json()
    assert job["state"] == "queued" and job["status"] == f"/api/check/jobs/{job['id']}"
    last, seen = _finished(client, job["status"])
    assert last["state"] == "done", last
    assert [s["stage"] for s in last["stages"]] == list(STAGES)
    assert last["stages"][1] == {"stage": "searching", "done": QUERIES, "total": QUERIES}
    states = [s["state"] for s in seen]
    assert states == sorted(states, key=["queued", "running", "done"].index)  # never back
    reached = [s["stage"] for s in seen if s["stage"]]
    assert reached == sorted(reached, key=STAGES.index)
    assert last["message"] == "Готово"
    said = {s["message"] for s in seen}
    assert said <= {"Ждёт своей очереди", "Составляются запросы", "Готово"} | {
        m for m in said if re.match(r"(Запросы составлены|Поиск: запрос|Загрузка найденных"
                                    r" страниц|Сравнение черновика)", m)
    }  # fmt: skip
    expected = _reference(db, stand)
    result = last["result"]
    assert result["verdict"]["uniqueness"] == pytest.approx(expected.result.verdict.uniqueness)
    assert result["web"]["queries_sent"] == QUERIES
    sources = {m["source"]: m.get("query") for p in result["profiles"] for m in p["sources"]}
    assert sources[stand.url("/pages/copy.html")] == expected.queries[0].query
    english = client.get(job["status"] + "?lang=en").json()
    assert english["message"] == "Done"


def test_a_job_without_the_index_is_the_web_alone(
    client: TestClient, db: Path, stand: StandIn
) -> None:
    body = {"draft": DRAFT, "web": "searxng", "queries": QUERIES, "with_index": False}
    started = client.post("/api/check/jobs", json=body)
    last, _ = _finished(client, started.json()["status"])
    alone = web_check(
        DRAFT,
        provider_of(f"searxng:{stand.base}"),
        CheckSettings(
            search=SearchSettings(
                queries=QUERIES, fetch=FetchOptions(allow_private=True), allow_private_results=True
            )
        ),
    )
    assert last["result"]["verdict"]["uniqueness"] == pytest.approx(alone.result.verdict.uniqueness)
    assert last["result"]["web"]["index"] is None
    assert all("(web)" not in p["profile"] for p in last["result"]["profiles"])


@pytest.mark.slow
def test_a_provider_error_is_a_russian_message_naming_the_provider(
    db: Path, env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("CANON_SEARXNG_URL", f"http://127.0.0.1:{port}")  # nobody listens
    with PageClient(
        create_app(db, allow_private=True, allow_private_results=True, workers=1)
    ) as client:
        started = client.post("/api/check/jobs", json={"draft": DRAFT, "web": "searxng"})
        assert started.status_code == 202
        last, _ = _finished(client, started.json()["status"])
        assert last["state"] == "failed" and last["field"] == "web"
        assert last["message"] == "searxng: поисковик недоступен; попробуйте позже"
        assert last["error"].startswith("searxng: ") and last["result"] is None
        english = client.get(started.json()["status"], headers={"accept-language": "en"}).json()
        assert (
            english["message"] == "searxng: the search provider cannot be reached; try again later"
        )
        # the page of the job says the same, as a refusal of the page (not a 500)
        page = client.get(f"/check/web/{last['id']}")
        assert page.status_code == 502
        assert "searxng: поисковик недоступен" in page.text and 'role="alert"' in page.text


def test_requests_the_server_is_not_configured_for_are_refused(client: TestClient) -> None:
    for web in ("google", "yandex", "bing", "searxng:http://127.0.0.1:1"):
        answer = client.post("/api/check/jobs", json={"draft": DRAFT, "web": web})
        assert answer.status_code == 400 and answer.json()["field"] == "web", answer.text
    missing = client.post("/api/check/jobs", json={"draft": DRAFT})
    assert missing.status_code == 422
    unknown = client.get("/api/check/jobs/0123456789abcdef")
    assert unknown.status_code == 404 and unknown.json()["field"] is None
    page = client.get("/check/web/0123456789abcdef")
    assert page.status_code == 404 and "На этом сервере нет такой проверки" in page.text


def test_the_queue_is_bounded(db: Path, env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as silent:  # accepts connections, never answers: a job that waits
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        monkeypatch.setenv("CANON_SEARXNG_URL", f"http://127.0.0.1:{silent.getsockname()[1]}")
        app = create_app(db, allow_private=True, allow_private_results=True, workers=1,
                         web_jobs=1, web_queue=1, fetch_deadline=5.0)  # fmt: skip
        with PageClient(app) as client:
            body = {"draft": DRAFT, "web": "searxng", "queries": 1}
            first, second = (client.post("/api/check/jobs", json=body) for _ in range(2))
            assert first.status_code == second.status_code == 202
            full = client.post("/api/check/jobs", json=body)
            assert full.status_code == 429 and int(full.headers["retry-after"]) >= 1
            assert full.json()["field"] is None and "try again" in full.json()["error"]
            form = {"draft_text": DRAFT, "web": "searxng", "pass_mark": "80",
                    "profiles": ["raw", "lemma"]}  # fmt: skip
            page = client.post("/check/web", data=form)
            assert page.status_code == 429
            assert "Слишком много проверок по интернету в очереди" in page.text
            assert DRAFT.split()[0] in page.text  # the form keeps its values
            queued = client.get(second.json()["status"]).json()
            assert queued["state"] == "queued" and queued["message"] == "Ждёт своей очереди"


def test_the_job_api_is_documented(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    start = schema["paths"]["/api/check/jobs"]["post"]
    assert set(start["responses"]) >= {"202", "400", "429"}
    status = schema["paths"]["/api/check/jobs/{job_id}"]["get"]
    assert set(status["responses"]) >= {"200", "404"}
    fields = schema["components"]["schemas"]["JobStatus"]["properties"]
    assert {"state", "stage", "done", "total", "stages", "message", "field", "result"} <= set(
        fields
    )


# ------------------------------------------------------------------ the check page


def test_the_check_page_offers_the_configured_providers_only(client: TestClient) -> None:
    page = client.get("/check").text
    form = page.split('<fieldset class="web"')[1].split("</fieldset>")[0]
    assert re.findall(r'<option value="(\w+)"', form) == ["searxng"]
    assert re.search(r'formaction="[^"]*/check/web"', form) and "Проверить по интернету" in form
    assert 'name="web_index" value="1" checked' in form


def test_without_a_provider_the_control_is_disabled_and_says_why(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CANON_SEARCH_CONFIG", str(tmp_path / "none.toml"))
    for name in ("SEARXNG_URL", "YANDEX_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(f"CANON_{name}", raising=False)
    with PageClient(create_app(db)) as client:
        form = client.get("/check").text.split('<fieldset class="web"')[1].split("</fieldset>")[0]
        assert "<select" not in form and "disabled" in form
        assert "На этом сервере не настроен ни один поисковик" in form
        refused = client.post("/check/web", data={"draft_text": DRAFT, "web": "searxng"})
        assert refused.status_code == 400
        assert "выберите один из поисковиков, настроенных на этом сервере" in refused.text


def test_the_check_page_runs_a_web_check_to_its_result(
    client: TestClient, db: Path, stand: StandIn
) -> None:
    form = {"draft_text": DRAFT, "web": "searxng", "web_index": "1", "queries": str(QUERIES),
            "pass_mark": "80", "profiles": ["raw", "lemma"], "min_shared": "3"}  # fmt: skip
    started = client.post("/check/web", data=form, follow_redirects=False)
    assert started.status_code == 303
    where = started.headers["location"]
    job_id = where.rsplit("/", 1)[1]
    page = client.get(where).text
    assert 'id="webjob"' in page and 'aria-live="polite"' in page
    _finished(client, f"/api/check/jobs/{job_id}")
    page = client.get(where).text
    assert 'id="webjob"' not in page
    expected = _reference(db, stand)
    headline = re.search(r'<strong id="uniqueness"[^>]*>([^<]+)</strong>', page).group(1)
    # a Russian page: a decimal comma and a no-break space before the sign
    russian = f"{expected.result.verdict.uniqueness * 100:.1f}".replace(".", ",") + "\u00a0%"
    assert headline == russian
    assert f'<a href="{stand.url("/pages/copy.html")}"' in page
    assert f'<td class="query">{escape(expected.queries[0].query)}</td>' in page
    assert 'lang="en"' not in page.split("<main>")[1]  # the formula and the rest in Russian
    assert f'value="{QUERIES}"' in page  # the form keeps its values


# ------------------------------------------------------------------ Russian throughout


def _tricky() -> str:
    """examples/original.txt with «купить» before every word of lemma «чай» (a stuffed
    phrase), look-alike Latin letters in one word, and its rewrite after it (sentences
    rewritten from the indexed original)."""
    text = (EXAMPLES / "original.txt").read_text("utf-8")
    words = lemma_words(text)
    pieces, last = [], 0
    for lemma, (start, _) in zip(words.lemmas, words.spans):
        if lemma == "чай":
            pieces += [text[last:start], "купить "]
            last = start
    stuffed = "".join(pieces) + text[last:]
    rewrite = (EXAMPLES / "rewrite.txt").read_text("utf-8")
    return stuffed.replace("о", "o", 3) + "\n\n" + rewrite


TRICKY = _tricky()


def test_a_russian_check_page_has_no_english_library_sentence(client: TestClient) -> None:
    form = {"draft_text": TRICKY, "pass_mark": "80", "profiles": ["raw", "lemma"],
            "sentence_threshold": "0.3", "min_shared": "1"}  # fmt: skip
    page = client.post("/check", data=form)
    assert page.status_code == 200
    main = page.text.split("<main>")[1]
    assert 'id="uniqueness"' in main and 'class="tricks"' in main
    assert "предложени" in main  # a source found by a rewritten sentence: "N sentences" said
    assert 'class="warning"' in main  # a stuffing warning
    assert 'lang="en"' not in main
    assert "уникальность = 1 − скопировано − рерайт" in main
    for english in ("sentence", "stuffed", "uniqueness =", "shingles matched", " to "):
        assert english not in re.sub(r"<[^>]+>", " ", main.split('<div class="text"')[0]), english
    short = client.post("/check", data={**form, "draft_text": "кошка ловила мышей у реки"}).text
    assert 'lang="en"' not in short.split("<main>")[1]
    rewrite = (EXAMPLES / "rewrite.txt").read_text("utf-8")
    compared = {"first_text": TRICKY, "second_text": rewrite, "k": "3", "profiles": ["lemma"]}
    page = client.post("/", data=compared).text.split("<main>")[1]
    assert 'class="warning"' in page and "переспам фразы «купить чай»" in page
    assert 'lang="en"' not in page


def test_every_library_sentence_has_its_russian_and_says_its_figures() -> None:
    with (LOCALE_DIR / "ru" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = {m.id: m.string for m in read_po(po) if m.id}
    t = translations("ru")
    for msgid in LIBRARY_SENTENCES:
        assert catalog.get(msgid), msgid
        names = re.findall(r"%\((\w+)\)s", msgid)
        sample = msgid % {name: f"<{n}>" for n, name in enumerate(names)}
        shown = str(said(sample, t, "ru"))
        assert ('lang="en"' not in shown and shown != sample) or msgid == "HTTP %(status)s", msgid
        for n in range(len(names)):
            assert f"&lt;{n}&gt;" in shown, (msgid, shown)  # each figure kept, escaped
    assert str(said("something new", t, "ru")) == '<span lang="en">something new</span>'
    assert str(said("<b>", t, "en")) == "&lt;b&gt;"


# ------------------------------------------------------------------ a server with no index


@pytest.fixture(scope="module")
def web_only(env: None) -> Iterator[TestClient]:
    """A server with SearXNG configured (the stand-in) and no index."""
    with PageClient(
        create_app(allow_private=True, allow_private_results=True, workers=1)
    ) as running:
        yield running


def _main(page: str) -> str:
    return page.split("<main>")[1].split("</main>")[0]


def test_a_web_only_server_has_a_check_page_for_the_web_alone(web_only: TestClient) -> None:
    answer = web_only.get("/check")
    assert answer.status_code == 200
    main = _main(answer.text)
    assert "Проверка текста на уникальность по интернету" in main
    assert "проверяет текст только по интернету" in main and 'lang="en"' not in main
    form = re.search(r'<form method="post" action="([^"]+)"', main)
    assert form is not None and form.group(1).endswith("/check/web")  # its main action
    assert re.findall(r'<option value="(\w+)"', main) == ["searxng"]
    for index_control in ('name="profiles"', 'name="web_index"', "по индексу этого сервера",
                          "set by the index", "задаёт индекс"):  # fmt: skip
        assert index_control not in main, index_control
    buttons = re.findall(r"<button[^>]*>([^<]+)</button>", main)
    assert buttons == ["Проверить по интернету"]  # no check against an index
    english = _main(web_only.get("/check?lang=en").text)
    assert "Check a draft against the web" in english and "against the web only" in english
    assert web_only.get("/index").status_code == 404
    assert web_only.post("/check", data={"draft_text": DRAFT}).status_code == 405
    nav = web_only.get("/").text.split("<nav")[1].split("</nav>")[0]
    assert re.search(r'href="[^"]*/check"', nav) and not re.search(r'href="[^"]*/index"', nav)


def test_neither_index_nor_provider_has_no_check_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CANON_SEARCH_CONFIG", str(tmp_path / "none.toml"))
    for name in ("SEARXNG_URL", "YANDEX_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(f"CANON_{name}", raising=False)
    client = PageClient(create_app())
    for path in ("/check", "/index", "/check/web/0123456789abcdef"):
        assert client.get(path).status_code == 404, path
    assert not re.search(r'href="[^"]*/check"', client.get("/").text)


@pytest.mark.slow
def test_a_web_only_job_runs_to_the_result_of_web_check(
    web_only: TestClient, stand: StandIn
) -> None:
    alone = web_check(
        DRAFT,
        provider_of(f"searxng:{stand.base}"),
        CheckSettings(
            search=SearchSettings(
                queries=QUERIES, fetch=FetchOptions(allow_private=True), allow_private_results=True
            )
        ),
    )
    expected = f"{alone.result.verdict.uniqueness * 100:.1f}".replace(".", ",") + "\u00a0%"
    started = web_only.post("/api/check/jobs", json={"draft": DRAFT, "web": "searxng",
                                                     "queries": QUERIES})  # fmt: skip
    assert started.status_code == 202, started.text
    last, _ = _finished(web_only, started.json()["status"])
    assert last["state"] == "done" and [s["stage"] for s in last["stages"]] == list(STAGES)
    result = last["result"]
    assert result["verdict"]["uniqueness"] == pytest.approx(alone.result.verdict.uniqueness)
    assert result["web"]["index"] is None and result["web"]["queries_sent"] == QUERIES
    form = {"draft_text": DRAFT, "web": "searxng", "queries": str(QUERIES), "pass_mark": "80",
            "min_shared": "3", "sentence_threshold": "0.55"}  # fmt: skip
    page = web_only.post("/check/web", data=form, follow_redirects=False)
    assert page.status_code == 303, page.text
    where = page.headers["location"]
    _finished(web_only, "/api/check/jobs/" + where.rsplit("/", 1)[1])
    shown = _main(web_only.get(where).text)
    headline = re.search(r'<strong id="uniqueness"[^>]*>([^<]+)</strong>', shown)
    assert headline is not None and headline.group(1) == expected
    assert f'<a href="{stand.url("/pages/copy.html")}"' in shown
    assert f'value="{QUERIES}"' in shown and 'name="profiles"' not in shown  # kept, web only
    refused = web_only.post("/check/web", data={**form, "draft_text": ""})
    assert refused.status_code == 400 and "пуст" in _main(refused.text)
