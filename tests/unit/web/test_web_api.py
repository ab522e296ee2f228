"""The web app: JSON API, pages, limits and escaping, through FastAPI's TestClient."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from webclient import PageClient

import canon
from canon.web import create_app

EVIL = '<script>alert(1)</script> "><img src=x onerror=alert(2)> '


@pytest.fixture
def texts(examples: Path) -> tuple[str, str]:
    return (
        (examples / "original.txt").read_text(encoding="utf-8"),
        (examples / "rewrite.txt").read_text(encoding="utf-8"),
    )


@pytest.fixture
def client() -> TestClient:
    return PageClient(create_app())


@pytest.fixture
def db(tmp_path: Path, examples: Path) -> Path:
    path = tmp_path / "corpus.db"
    with canon.Index(path, create=True) as index:
        profiles = [canon.get_profile("raw"), canon.get_profile("lemma")]
        canon.add_sources(index, [str(examples / "original.txt")], canon.IndexRules(profiles, k=4))
    return path


@pytest.fixture
def indexed(db: Path) -> TestClient:
    return PageClient(create_app(db))


# ------------------------------------------------------------------ /api/compare


def test_api_compare_equals_the_library(client: TestClient, texts: tuple[str, str]) -> None:
    answer = client.post("/api/compare", json={"first": texts[0], "second": texts[1]})
    assert answer.status_code == 200
    table = canon.compare_table(*texts, labels=("first", "second"))
    expected = json.loads(json.dumps(table.to_dict()))  # tuples become lists
    data = answer.json()
    assert data["first"]["chars"] == len(texts[0])
    assert data["second"]["method"] == "text"
    assert {key: data[key] for key in expected} == expected
    assert data["ks"] == [3, 4, 5]


def test_api_compare_one_k_and_profile(client: TestClient, texts: tuple[str, str]) -> None:
    body = {"first": texts[0], "second": texts[1], "k": 4, "profile": "lemma"}
    data = client.post("/api/compare", json=body).json()
    cell = canon.compare(texts[0], texts[1], k=4, profile="lemma")
    assert data["ks"] == [4]
    assert data["rows"][0]["lemma"]["jaccard"] == cell.jaccard
    body = {"first": texts[0], "second": texts[1], "ks": [2, 3], "profiles": ["raw"]}
    data = client.post("/api/compare", json=body).json()
    assert [row["k"] for row in data["rows"]] == [2, 3]
    assert [p["profile"] for p in data["profiles"]] == ["raw"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"first": "", "second": "один два три четыре"}, "first"),
        ({"first": "один два три четыре", "second": "   "}, "second"),
        ({"first": "один два три", "second": "один два три", "profile": "nope"}, "profiles"),
    ],
)
def test_api_compare_errors_name_the_field(
    client: TestClient, body: dict[str, str], field: str
) -> None:
    answer = client.post("/api/compare", json=body)
    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert answer.json()["error"]


def test_api_compare_missing_field_is_422(client: TestClient) -> None:
    answer = client.post("/api/compare", json={"first": "текст"})
    assert answer.status_code == 422
    assert set(answer.json()) == {"error", "field"} and answer.json()["field"] == "second"
    zero = client.post("/api/compare", json={"first": "секрет-1", "second": "b", "k": 0})
    assert zero.status_code == 422 and zero.json()["field"] == "k"
    assert "секрет-1" not in zero.text  # the input is not echoed back


def test_api_compare_refuses_loopback_urls_by_default(client: TestClient, site) -> None:
    answer = client.post("/api/compare", json={"first": site.url("/blog/tea"), "second": "текст"})
    assert answer.status_code == 400
    assert answer.json()["field"] == "first"
    assert "127.0.0.1" in answer.json()["error"] or "private" in answer.json()["error"]
    answer = client.post("/api/compare", json={"first": "текст", "second": site.url("/news/tea")})
    assert answer.status_code == 400
    assert answer.json()["field"] == "second"


def test_api_compare_fetches_urls_when_allowed(site) -> None:
    client = PageClient(create_app(allow_private=True))
    body = {"first": site.url("/blog/tea"), "second": site.url("/news/tea"), "k": 3}
    answer = client.post("/api/compare", json=body)
    assert answer.status_code == 200
    data = answer.json()
    assert data["first"]["source"] == site.url("/blog/tea")
    assert data["first"]["method"] != "text"
    assert data["rows"][0]["lemma"]["jaccard"] > 0.95


# ------------------------------------------------------------------ limits and errors


def test_body_over_the_limit_is_413() -> None:
    client = PageClient(create_app(max_body=1000))
    answer = client.post("/api/compare", json={"first": "а" * 2000, "second": "б"})
    assert answer.status_code == 413
    assert "1,000 bytes" in answer.json()["error"]


def test_streamed_body_over_the_limit_is_413() -> None:
    client = PageClient(create_app(max_body=1000))

    def chunks():
        yield b'{"first": "'
        for _ in range(20):
            yield b"x" * 100
        yield b'", "second": "y"}'

    answer = client.post(
        "/api/compare", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413
    assert "larger than the limit" in answer.json()["error"]


def test_upload_over_the_limit_is_413() -> None:
    client = PageClient(create_app(max_body=1000))
    files = {"first_file": ("big.txt", "слово ".join([""] * 500).encode())}
    answer = client.post("/", files=files, data={"second_text": "текст"})
    assert answer.status_code == 413


def test_text_over_the_limit_is_413_naming_the_field() -> None:
    client = PageClient(create_app(max_text=100))
    answer = client.post("/api/compare", json={"first": "короткий текст", "second": "я" * 101})
    assert answer.status_code == 413
    assert answer.json()["field"] == "second"
    assert "100" in answer.json()["error"]


def test_internal_error_leaks_no_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from canon.web.routes import api

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret detail")

    # An unforeseen failure on the server's side of the worker pool (in a worker, the same
    # exception comes back through the job's future and meets the same handler).
    monkeypatch.setattr(api, "in_worker", broken)
    client = PageClient(create_app(), raise_server_exceptions=False)
    answer = client.post("/api/compare", json={"first": "один два", "second": "три"})
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal server error", "field": None}
    assert "secret" not in answer.text and "Traceback" not in answer.text


# ------------------------------------------------------------------ check and index


def test_api_check_against_an_index(indexed: TestClient, db: Path, texts: tuple[str, str]) -> None:
    answer = indexed.post("/api/check", json={"draft": texts[1]})
    assert answer.status_code == 200
    data = answer.json()
    with canon.Index(db, readonly=True) as index:
        expected = json.loads(json.dumps(canon.check(texts[1], index).to_dict()))
    assert data["profiles"] == expected["profiles"]
    assert (data["verdict"], data["tricks"]) == (expected["verdict"], expected["tricks"])
    assert data["verdict"]["uniqueness"] < 1 and data["profiles"][0]["sources"][0]["fragments"]
    assert data["draft"]["chars"] == len(texts[1])
    assert data["profiles"][0]["sources"][0]["source"].endswith("original.txt")


def test_api_check_exclude_and_errors(indexed: TestClient, texts: tuple[str, str]) -> None:
    answer = indexed.post("/api/check", json={"draft": texts[1], "exclude": [r"re:original\.txt$"]})
    assert answer.status_code == 200
    assert all(not p["sources"] for p in answer.json()["profiles"])
    answer = indexed.post("/api/check", json={"draft": texts[1], "exclude": ["re:("]})
    assert answer.status_code == 400
    assert answer.json()["field"] == "exclude"
    answer = indexed.post("/api/check", json={"draft": texts[1], "similar": 2})
    assert answer.status_code == 422
    for name in ("min_shared", "common"):
        answer = indexed.post("/api/check", json={"draft": texts[1], name: 0})
        assert answer.status_code == 422 and answer.json()["field"] == name
    strict = {"draft": texts[1], "min_shared": 10**6, "sentence_threshold": None}
    # No source holds a million shingles, and no sentence is looked up.
    assert indexed.post("/api/check", json=strict).json()["verdict"]["uniqueness"] == 1.0
    by_sentences = indexed.post("/api/check", json={**strict, "sentence_threshold": 0.55}).json()
    assert by_sentences["verdict"]["uniqueness"] < 0.5 and by_sentences["rewrites"]
    bad = indexed.post("/api/check", json={**strict, "sentence_threshold": 1.5})
    assert bad.status_code == 422 and bad.json()["field"] == "sentence_threshold"
    answer = indexed.post("/api/check", json={"draft": ""})
    assert answer.status_code == 400
    assert answer.json()["field"] == "draft"
    assert indexed.post("/api/check", json={}).status_code == 422


def test_api_check_without_an_index_is_404(client: TestClient) -> None:
    answer = client.post("/api/check", json={"draft": "текст"})
    assert answer.status_code == 404
    assert "no index" in answer.json()["error"]
    assert client.get("/api/index/stats").status_code == 404
    assert client.get("/check").status_code == 404


def test_index_stats(indexed: TestClient, db: Path) -> None:
    answer = indexed.get("/api/index/stats")
    assert answer.status_code == 200
    with canon.Index(db, readonly=True) as index:
        assert answer.json() == index.stats().to_dict()
    assert answer.json()["documents"] == 1
    page = indexed.get("/index")
    assert page.status_code == 200
    assert "lemma" in page.text


def test_a_missing_index_fails_at_start(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="no such index"):
        create_app(tmp_path / "missing.db")


def test_the_index_is_opened_read_only(
    indexed: TestClient, db: Path, texts: tuple[str, str]
) -> None:
    before = db.stat().st_mtime_ns, db.stat().st_size
    indexed.post("/api/check", json={"draft": texts[1]})
    indexed.post("/check", data={"draft_text": texts[1]})
    assert (db.stat().st_mtime_ns, db.stat().st_size) == before


# ------------------------------------------------------------------ misc endpoints


def test_healthz_docs_and_static(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/docs").status_code == 200
    assert "/api/compare" in client.get("/openapi.json").json()["paths"]
    css = client.get("/static/canon.css")
    assert css.status_code == 200 and "mark.twin" in css.text
    js = client.get("/static/canon.js")
    assert js.status_code == 200 and "twin" in js.text


# ------------------------------------------------------------------ pages


def test_compare_page_form(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for name in ("first_text", "first_url", "first_file", "second_text", "second_file"):
        assert f'name="{name}"' in page.text
    assert "/static/canon.js" in page.text


def test_compare_page_result_is_escaped(client: TestClient, texts: tuple[str, str]) -> None:
    data = {"first_text": EVIL + texts[0], "second_text": texts[1] + " \"onclick='x' </textarea>"}
    page = client.post("/", data=data)
    assert page.status_code == 200
    assert "<script>alert" not in page.text
    assert "<img src=x" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert "</textarea> " not in page.text and "&lt;/textarea&gt;" in page.text
    table = canon.compare_table(data["first_text"], data["second_text"])
    jaccard = table.cell("lemma", 3).jaccard  # type: ignore[union-attr]
    # a Russian page: a decimal comma and a no-break space before the sign
    assert f"{jaccard * 100:.1f}".replace(".", ",") + "\u00a0%" in page.text
    assert '<mark class="exact"' in page.text and '<mark class="rewrite"' in page.text


def test_compare_page_marks_twins(client: TestClient, texts: tuple[str, str]) -> None:
    page = client.post("/", data={"first_text": texts[0], "second_text": texts[1]}).text
    sides = page.split('data-side="1"')
    ids = [
        {i for m in re.findall(r'data-shingles="([^"]*)"', side) for i in m.split()}
        for side in sides
    ]
    assert ids[0] and ids[1]
    assert ids[0] == ids[1]


def test_compare_page_upload(client: TestClient, examples: Path, texts: tuple[str, str]) -> None:
    files = {"first_file": ("draft.txt", (examples / "original.txt").read_bytes())}
    page = client.post("/", files=files, data={"second_text": texts[1]})
    assert page.status_code == 200
    assert "draft.txt" in page.text
    files = {"first_file": ("evil.exe", b"MZ")}
    page = client.post("/", files=files, data={"second_text": texts[1]})
    assert page.status_code == 400
    assert "evil.exe" in page.text


def test_compare_page_shows_errors(client: TestClient) -> None:
    page = client.post("/", data={"first_text": "", "second_text": "один два три четыре"})
    assert page.status_code == 400
    assert 'class="error"' in page.text
    page = client.post("/", data={"first_url": "http://127.0.0.1:1/", "second_text": "текст"})
    assert page.status_code == 400
    assert 'class="error"' in page.text


def test_check_page_is_escaped(indexed: TestClient, texts: tuple[str, str]) -> None:
    assert indexed.get("/check").status_code == 200
    page = indexed.post("/check", data={"draft_text": EVIL + texts[1], "exclude": EVIL})
    assert page.status_code == 200
    assert "<script>alert" not in page.text
    assert "<img src=x" not in page.text
    assert "&lt;script&gt;" in page.text
    assert "original.txt" in page.text
    assert "<a href=" not in page.text.split("<main>")[1]  # a file source is no link
    assert '<mark class="exact">' in page.text
    page = indexed.post("/check", data={"draft_text": ""})
    assert page.status_code == 400


def test_a_fetched_page_title_is_escaped_on_the_page(site) -> None:
    client = PageClient(create_app(allow_private=True))
    form = {"first_url": site.url("/hostile-title"), "second_url": site.url("/blog/garden")}
    response = client.post("/", data=form)
    assert response.status_code == 200, response.text
    assert "<script>alert(1)</script>" not in response.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text


def test_an_all_quoted_draft_names_the_draft(indexed: TestClient) -> None:
    quoted = "«" + "Зелёный чай заваривают водой около восьмидесяти градусов. " * 3 + "»"
    answer = indexed.post("/api/check", json={"draft": quoted, "skip_quotes": True})
    assert answer.status_code == 400 and answer.json()["field"] == "draft"
    assert "quotations" in answer.json()["error"]
