"""Checking a draft against the web, through stand-ins of SearXNG, Yandex Search API v2 and
Google Programmable Search.

No test reaches the internet: ``search_server`` runs one real HTTP server on 127.0.0.1 that
speaks each provider's documented format (see its docstring) and serves the pages its
results point to: one copying part of the draft, one rewriting part of it, an unrelated one
and a missing one (404).  Pages are fetched by the real concurrent fetcher, extracted by
trafilatura, and compared in a real SQLite index.
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from search_server import (
    COPIED,
    DRAFT,
    GOOGLE_CX,
    GOOGLE_KEY,
    OWN,
    REWRITTEN,
    YANDEX_KEY,
    StandIn,
    provider_env,
    reset,
    serve,
)
from webclient import PageClient

from canon import CheckSettings, SearchSettings
from canon.cli import cli
from canon.errors import OptionError, SearchError
from canon.index.ingest import add_sources
from canon.index.store import Index
from canon.sources.fetch import FetchOptions
from canon.uniqueness.against_index import CheckResult, check
from canon.uniqueness.web import (
    MAX_BUDGET,
    MAX_PAGES,
    WebCheck,
    WebSource,
    default_budget,
    normalized_url,
    pick_queries,
    provider_of,
    web_check,
)

COPY_END = len(COPIED)
REWRITE_START = DRAFT.index(REWRITTEN)
REWRITE_END = REWRITE_START + len(REWRITTEN)
OWN_START = DRAFT.index(OWN)


@pytest.fixture(scope="module")
def server() -> Iterator[StandIn]:
    with serve() as running:
        yield running


@pytest.fixture
def stand(server: StandIn) -> StandIn:
    return reset(server)


def _env(stand: StandIn, tmp_path: Path) -> dict[str, str]:
    return provider_env(stand, tmp_path)


def _search(**options: object) -> SearchSettings:
    """The stand-in serves its results from 127.0.0.1: a check fetches them only when
    private results are allowed."""
    return SearchSettings(allow_private_results=True, **options)  # type: ignore[arg-type]


LOCAL = CheckSettings(search=_search())


def _provider(name: str, stand: StandIn, tmp_path: Path):
    spec = f"searxng:{stand.base}" if name == "searxng" else name
    return provider_of(spec, _env(stand, tmp_path))


def _sources(found: WebCheck) -> dict[str, dict[str, WebSource]]:
    """profile → source URL (path only) → its match."""
    return {
        p.profile: {m.source.split("/", 3)[3]: m for m in p.sources if isinstance(m, WebSource)}
        for p in found.result.profiles
    }


def _inside(fragments, start: int, end: int) -> bool:
    return bool(fragments) and all(start <= f.start and f.end <= end for f in fragments)


# --------------------------------------------------------------------------- queries


def test_the_default_budget_is_one_query_per_300_characters_capped() -> None:
    assert default_budget("слово " * 10) == 1
    assert default_budget("а" * 601) == 3
    assert default_budget("а" * 1_000_000) == 20


def test_queries_are_quoted_phrases_of_the_draft_spread_within_budget() -> None:
    text = " ".join([COPIED, REWRITTEN, OWN] * 4)
    for budget in (1, 3, 7):
        queries = pick_queries(text, budget)
        assert 1 <= len(queries) <= budget
        for q in queries:
            assert q.text.startswith('"') and q.text.endswith('"')
            assert q.text[1:-1] == " ".join(text[q.start : q.end].split())
            assert 4 <= len(q.text[1:-1].split()) <= 12
        assert [q.start for q in queries] == sorted(q.start for q in queries)
        assert len({q.text for q in queries}) == len(queries)
    spread = pick_queries(text, 4)
    stretch = len(text) / 4
    assert {int(q.start // stretch) for q in spread} == {0, 1, 2, 3}  # every part searched


def test_the_rarest_words_make_the_query() -> None:
    common = "Он сказал, что это было очень хорошо и что все были рады. "
    rare = "Фторированный гидрозоль алюмосиликата коагулирует при нагревании. "
    (query,) = pick_queries(common + rare + common, 1)
    assert "гидрозоль" in query.text


def test_a_bad_budget_is_refused_naming_the_setting() -> None:
    for budget in (0, MAX_BUDGET + 1):
        with pytest.raises(OptionError, match=r"^queries "):
            pick_queries(DRAFT, budget)


def test_query_selection_is_bounded_in_time() -> None:
    text = " ".join([COPIED, REWRITTEN, OWN] * 300)  # 200,000 characters, every phrase 300 times
    started = time.perf_counter()
    queries = pick_queries(text, MAX_BUDGET)
    assert time.perf_counter() - started < 20
    assert len(queries) <= MAX_BUDGET and len({q.text for q in queries}) == len(queries)


def test_urls_are_deduplicated_by_their_normal_form() -> None:
    same = [
        "https://example.ru/a/",
        "HTTPS://www.Example.RU:443/a",
        "https://example.ru/a?utm_source=x&utm_medium=y#top",
        "https://example.ru/a?yclid=1",
    ]
    assert len({normalized_url(u) for u in same}) == 1
    assert normalized_url("https://example.ru/a?id=1") != normalized_url("https://example.ru/a")
    assert normalized_url("http://example.ru/a") != normalized_url("https://example.ru/a")


# --------------------------------------------------------------------------- providers


@pytest.mark.parametrize("name", ["searxng", "yandex", "google"])
def test_the_web_check_finds_the_planted_sources_with_their_fragments(
    name: str, stand: StandIn, tmp_path: Path
) -> None:
    found = web_check(
        DRAFT, _provider(name, stand, tmp_path), CheckSettings(search=_search(queries=3))
    )
    # the queries sent are the check's, quoted phrases of the draft, within the budget
    assert [q for _, q in stand.queries] == [q.query for q in found.queries]
    assert {p for p, _ in stand.queries} == {name}
    assert 1 <= len(found.queries) <= 3 and found.sent == len(found.queries)
    for q in found.queries:
        assert q.query.startswith('"') and q.query[1:-1] in " ".join(DRAFT.split())
    sources = _sources(found)
    copy = sources["raw"]["pages/copy.html"]
    assert _inside(copy.fragments, 0, COPY_END) and copy.query in [q.query for q in found.queries]
    assert set(sources["raw"]) == {"pages/copy.html"}  # the rewrite is not word for word
    rewrite = sources["lemma"]["pages/rewrite.html"]
    assert _inside(rewrite.fragments, REWRITE_START, REWRITE_END)
    assert rewrite.fragments[-1].end - rewrite.fragments[0].start > 0.8 * len(REWRITTEN)
    assert "pages/garden.html" not in sources["lemma"]
    verdict = found.result.verdict
    assert verdict is not None and 0.35 < verdict.copied < 0.5 and 0.2 < verdict.rewritten < 0.35
    assert all(f.end <= REWRITE_END for f in verdict.copied_fragments + verdict.rewritten_fragments)
    # every page found is accounted for: the copy once, though found under two URLs
    status = {p.url.split("/", 3)[3]: (p.status, p.reason) for p in found.pages}
    assert status == {
        "pages/copy.html": ("compared", None),
        "pages/rewrite.html": ("compared", None),
        "pages/garden.html": ("compared", None),
        "pages/gone.html": ("failed", "HTTP 404"),
        "pages/short.html": ("failed", "has 2 canonical words under raw, fewer than k=4"),
    }
    assert stand.hits["/pages/copy.html"] == 1
    assert found.summary() == f"{name}: {found.sent} queries sent, 3 pages compared, 2 failed"


def test_the_web_verdict_is_the_index_verdict_over_the_same_pages(
    stand: StandIn, tmp_path: Path
) -> None:
    found = web_check(DRAFT, _provider("searxng", stand, tmp_path), LOCAL)
    with Index(tmp_path / "pages.canon", create=True) as index:
        pages = [stand.url(p) for p in ("/pages/copy.html", "/pages/rewrite.html",
                                        "/pages/garden.html")]  # fmt: skip
        add_sources(index, pages)
        direct = check(DRAFT, index, CheckSettings(common=None))
    assert found.result.verdict == direct.verdict

    def listed(result: CheckResult) -> list[list[tuple[str, object, int]]]:
        return [[(m.source, m.fragments, m.shared) for m in p.sources] for p in result.profiles]

    assert listed(found.result) == listed(direct)


def test_a_recheck_reuses_the_cached_queries_and_pages(stand: StandIn, tmp_path: Path) -> None:
    options = FetchOptions(cache_dir=tmp_path / "cache")
    provider = _provider("yandex", stand, tmp_path)
    first = web_check(DRAFT, provider, CheckSettings(search=_search(fetch=options)))
    sent, pages = len(stand.queries), stand.hits["/pages/copy.html"]
    assert sent == first.sent == len(first.queries) and pages == 1
    again = web_check(DRAFT, provider, CheckSettings(search=_search(fetch=options)))
    assert len(stand.queries) == sent and stand.hits["/pages/copy.html"] == 1
    assert again.sent == 0 and all(q.cached for q in again.queries)
    assert [q.date for q in again.queries] == [q.date for q in first.queries]
    assert all(q.date for q in again.queries)
    compared = [p for p in again.pages if p.status == "compared"]
    assert compared and all(p.cached and p.fetched for p in compared)
    assert again.result.verdict == first.result.verdict
    assert "3 queries" not in again.summary() and "from the cache" in again.summary()


def test_excluded_sites_are_neither_fetched_nor_counted(stand: StandIn, tmp_path: Path) -> None:
    found = web_check(
        DRAFT,
        _provider("google", stand, tmp_path),
        CheckSettings(exclude=[r"re:/copy\.html"], search=_search()),
    )
    assert stand.hits["/pages/copy.html"] == 0
    assert "pages/copy.html" not in _sources(found).get("raw", {})
    excluded = [p for p in found.pages if p.status == "excluded"]
    assert excluded and all("copy.html" in p.url for p in excluded)
    assert found.result.verdict is not None and found.result.verdict.copied == 0


def test_the_pages_compared_are_capped(stand: StandIn, tmp_path: Path) -> None:
    found = web_check(
        DRAFT,
        _provider("searxng", stand, tmp_path),
        CheckSettings(search=_search(max_pages=1)),
    )
    assert [p.status for p in found.pages] == ["compared"]
    assert MAX_PAGES >= 10


def test_web_and_index_make_one_verdict(stand: StandIn, tmp_path: Path) -> None:
    own = tmp_path / "own.txt"
    own.write_text(OWN, "utf-8")
    with Index(tmp_path / "mine.canon", create=True) as index:
        add_sources(index, [str(own)])
        found = web_check(DRAFT, _provider("searxng", stand, tmp_path), LOCAL, index=index)
    names = [p.profile for p in found.result.profiles]
    assert names == ["raw", "lemma", "raw (web)", "lemma (web)"]
    verdict = found.result.verdict
    assert verdict is not None and verdict.uniqueness < 0.05  # all three parts found
    assert any(f.start <= OWN_START and f.end > OWN_START + 100 for f in verdict.copied_fragments)
    sources = {m.source for p in found.result.profiles for m in p.sources}
    assert str(own) in sources and stand.url("/pages/copy.html") in sources
    assert found.to_dict()["web"]["index"] == str(tmp_path / "mine.canon")


def test_nothing_found_is_a_unique_draft(stand: StandIn, tmp_path: Path) -> None:
    stand.mode = "nothing"  # Yandex's error 15: no results for the query
    found = web_check(DRAFT, _provider("yandex", stand, tmp_path), LOCAL)
    assert found.pages == () and found.result.profiles == ()
    assert found.result.verdict is not None and found.result.verdict.uniqueness == 1.0


def test_the_record_is_plain_data(stand: StandIn, tmp_path: Path) -> None:
    data = web_check(DRAFT, _provider("searxng", stand, tmp_path), LOCAL).to_dict()
    json.dumps(data)
    sources = data["profiles"][0]["sources"]
    assert sources[0]["query"].startswith('"') and sources[0]["fragments"]
    web = data["web"]
    assert web["provider"] == "searxng" and web["pages_compared"] == 3
    assert web["queries_sent"] == len(web["queries"]) and web["pages_failed"] == 2


# --------------------------------------------------------------------------- errors

ERRORS = [
    ("searxng", "no-json", "refused", "search.formats"),
    ("searxng", "rate", "rate-limit", "limiter"),
    ("searxng", "garbage", "bad-answer", "not JSON"),
    ("yandex", "bad-key", "bad-key", "key is refused"),
    ("yandex", "forbidden", "bad-key", "search-api.webSearch.user"),
    ("yandex", "quota", "quota", "quota"),
    ("yandex", "daily", "quota", "daily quota"),
    ("google", "bad-key", "bad-key", "key is refused"),
    ("google", "forbidden", "bad-key", "enable the Custom Search API"),
    ("google", "quota", "quota", "daily quota"),
    ("google", "rate", "rate-limit", "wait a minute"),
]


@pytest.mark.parametrize(("name", "mode", "reason", "said"), ERRORS)
def test_a_refusal_is_one_line_naming_the_provider_and_what_to_do(
    name: str, mode: str, reason: str, said: str, stand: StandIn, tmp_path: Path
) -> None:
    stand.mode = mode
    with pytest.raises(SearchError) as caught:
        web_check(DRAFT, _provider(name, stand, tmp_path), LOCAL)
    error = caught.value
    assert error.provider == name and error.reason == reason
    assert error.message.startswith(f"{name}: ") and said in error.message
    assert "\n" not in error.message
    assert YANDEX_KEY not in error.message and GOOGLE_KEY not in error.message


def test_a_429_is_asked_once_more_after_retry_after(stand: StandIn, tmp_path: Path) -> None:
    stand.mode = "busy-once"
    found = web_check(
        DRAFT,
        _provider("searxng", stand, tmp_path),
        CheckSettings(search=_search(queries=2)),
    )
    assert found.sent == 2 and stand.hits["/search"] == 3
    assert found.compared == 3


@pytest.mark.parametrize(
    ("spec", "variable"),
    [
        ("yandex", "CANON_YANDEX_API_KEY"),
        ("google", "CANON_GOOGLE_CX"),
        ("searxng", "CANON_SEARXNG_URL"),
    ],
)
def test_a_missing_setting_names_its_variable_and_the_file(
    spec: str, variable: str, tmp_path: Path
) -> None:
    env = {"CANON_SEARCH_CONFIG": str(tmp_path / "search.toml"), "CANON_YANDEX_FOLDER_ID": "f"}
    with pytest.raises(SearchError, match=f"set {variable} or .* of {re.escape(str(tmp_path))}"):
        provider_of(spec, env)


def test_settings_come_from_the_config_file(stand: StandIn, tmp_path: Path) -> None:
    config = tmp_path / "search.toml"
    config.write_text(
        f'[google]\napi_key = "{GOOGLE_KEY}"\ncx = "{GOOGLE_CX}"\nendpoint = "{stand.base}"\n'
        f'[searxng]\nurl = "{stand.base}"\n',
        "utf-8",
    )
    env = {"CANON_SEARCH_CONFIG": str(config)}
    google = provider_of("google", env)
    assert GOOGLE_KEY not in repr(google)
    assert web_check(DRAFT, google, CheckSettings(search=_search(queries=1))).sent == 1
    assert provider_of("searxng", env).identity == f"searxng:{stand.base}"
    assert provider_of("google", env | {"CANON_GOOGLE_CX": "other"}).identity == "google:other"


def test_an_unreadable_config_file_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "search.toml"
    config.write_text("[google\n", "utf-8")
    with pytest.raises(SearchError, match="cannot read the config file"):
        provider_of("google", {"CANON_SEARCH_CONFIG": str(config)})


@pytest.mark.parametrize("spec", ["bing", "yandex:http://x", "searxng:ftp://x", ""])
def test_an_unknown_provider_is_refused(spec: str, tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=r"^web "):
        provider_of(spec, {"CANON_SEARCH_CONFIG": str(tmp_path / "none.toml")})


def test_an_unreachable_provider_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = provider_of(f"searxng:http://127.0.0.1:{port}", {})
    with pytest.raises(SearchError) as caught:
        web_check(DRAFT, provider, CheckSettings(search=_search(queries=1)))
    assert caught.value.reason == "unreachable" and "cannot be reached" in caught.value.message


def test_the_keys_go_in_headers_only(stand: StandIn, tmp_path: Path) -> None:
    web_check(DRAFT, _provider("yandex", stand, tmp_path), CheckSettings(search=_search(queries=1)))
    asked = [h for h in stand.headers if "Authorization" in h]
    assert asked and all(h["Authorization"] == f"Api-Key {YANDEX_KEY}" for h in asked)
    page_requests = [h for h in stand.headers if "Authorization" not in h]
    assert page_requests  # pages are fetched without the key
    stand.headers.clear()
    web_check(DRAFT, _provider("google", stand, tmp_path), CheckSettings(search=_search(queries=1)))
    assert stand.paths and not any(GOOGLE_KEY in path for path in stand.paths)
    assert sum(h.get("X-goog-api-key") == GOOGLE_KEY for h in stand.headers) == 1


# --------------------------------------------------------------------------- command line


def _run(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, env=env)
    return result.exit_code, result.stdout, result.stderr


def test_canon_check_web_finds_the_planted_sources(stand: StandIn, tmp_path: Path) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(DRAFT, "utf-8")
    env = _env(stand, tmp_path)
    code, out, _ = _run(
        ["check", str(draft), "--web", f"searxng:{stand.base}", "--allow-private-results"], env
    )
    assert code == 0
    assert "copied 4" in out and stand.url("/pages/copy.html") in out
    assert re.search(r"Web: searxng: \d queries sent, 3 pages compared, 2 failed", out)
    assert f"not compared: {stand.url('/pages/gone.html')}: HTTP 404" in out
    assert f'{stand.url("/pages/rewrite.html")} ← "' in out
    before = len(stand.queries)
    code, out, _ = _run(["check", str(draft), "--web", "google", "--queries", "2", "--json",
                      "--allow-private-results"], env)  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["web"]["queries_sent"] == 2 == len(stand.queries) - before
    assert stand.queries[-1][0] == "google" and data["web"]["provider"] == "google"
    assert data["verdict"]["copied"] > 0.3


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([], "give --index INDEX, --web PROVIDER or both"),
        (["--web", "bing"], "--web must be searxng:URL"),
        (["--web", "yandex", "--queries", "0"], "--queries"),
    ],
)
def test_canon_check_usage_errors(args: list[str], said: str, tmp_path: Path) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(DRAFT, "utf-8")
    code, _, err = _run(["check", str(draft), *args], {"CANON_SEARCH_CONFIG": "/nonexistent"})
    assert code == 2 and said in err and "Traceback" not in err


def test_canon_check_web_errors_are_one_line(stand: StandIn, tmp_path: Path) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(DRAFT, "utf-8")
    env = {"CANON_SEARCH_CONFIG": str(tmp_path / "none.toml"), "CANON_GOOGLE_CX": ""}
    code, _, err = _run(["check", str(draft), "--web", "google"], env)
    assert code == 2 and err.startswith("canon: error: google: no Programmable Search Engine id")
    assert len(err.strip().splitlines()) == 1
    stand.mode = "quota"
    code, _, err = _run(["check", str(draft), "--web", "google"], _env(stand, tmp_path))
    assert code == 2 and "google: the daily quota is spent" in err
    assert GOOGLE_KEY not in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------- web API


def test_api_check_with_a_web_provider(
    stand: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from canon.web import create_app

    for name, value in _env(stand, tmp_path).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("CANON_SEARXNG_URL", stand.base)
    with PageClient(create_app(allow_private_results=True, workers=1)) as client:
        answer = client.post("/api/check", json={"draft": DRAFT, "web": "searxng", "queries": 2})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["web"]["provider"] == "searxng" and data["web"]["queries_sent"] == 2
        assert data["verdict"]["copied"] > 0.3
        assert data["profiles"][0]["sources"][0]["source"] == stand.url("/pages/copy.html")
        refused = client.post("/api/check", json={"draft": DRAFT, "web": f"searxng:{stand.base}"})
        assert refused.status_code == 400 and refused.json()["field"] == "web"
        stand.mode = "quota"
        failed = client.post("/api/check", json={"draft": DRAFT, "web": "google"})
        assert failed.status_code == 502 and failed.json()["field"] == "web"
        assert "daily quota" in failed.json()["error"] and GOOGLE_KEY not in failed.text
        unknown = client.post("/api/check", json={"draft": DRAFT, "web": "bing"})
        assert unknown.status_code == 400 and unknown.json()["field"] == "web"
        no_index = client.post("/api/check", json={"draft": DRAFT})
        assert no_index.status_code == 404
