"""The pages' language and forms without a browser: how the language is chosen, that every
message has its Russian translation, refusals in the page's language (the JSON API keeps its
English), kept values, numbers formatted as the command line formats them, and why a site
audit failed, said in the page's language."""

from __future__ import annotations

import pickle
import re
import time
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from click.testing import CliRunner
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from repo_paths import EXAMPLES
from webclient import PageClient

import canon
from canon.cli import cli
from canon.report.html import compare_html
from canon.report.model.numbers import grouped
from canon.sources.documents import Document
from canon.web import create_app
from canon.web.i18n import LOCALE_DIR, LOCALES, error_text, translations
from canon.web.said import said
from canon.web.service import FieldError

WEB = Path(canon.__file__).parent / "web"
SHORT = "Кошка ловила мышей в старом амбаре у реки, а пёс спал у порога."


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pages") / "c.db"
    examples = EXAMPLES
    with canon.Index(path, create=True) as index:
        profiles = [canon.get_profile("raw"), canon.get_profile("lemma")]
        canon.add_sources(index, [str(examples / "original.txt")], canon.IndexRules(profiles, k=4))
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> TestClient:
    return PageClient(create_app(db))


def _lang(page: str) -> str:
    return re.search(r'<html lang="(\w+)">', page).group(1)


def _error(page: str) -> str:
    return re.search(r'<p class="error"[^>]*>(.*?)</p>', page, re.S).group(1)


# ------------------------------------------------------------------ the language


@pytest.mark.parametrize(
    ("query", "header", "lang"),
    [
        ("", None, "ru"),
        ("", "", "ru"),
        ("", "en", "en"),
        ("", "en-GB,en;q=0.8", "en"),
        ("", "ru;q=0.1, en;q=0.9", "en"),
        ("", "en;q=0, ru", "ru"),
        ("", "de, fr;q=0.9", "ru"),
        ("", "*", "ru"),
        ("", ";;;q=abc,,, en;q=x", "ru"),
        ("?lang=en", "ru", "en"),
        ("?lang=ru", "en", "ru"),
        ("?lang=xx", "en", "en"),  # an unknown choice: the header decides
    ],
)
def test_the_language_of_a_page(client: TestClient, query: str, header: str | None, lang: str):
    headers = {} if header is None else {"accept-language": header}
    for path in ("/", "/check", "/index"):
        page = client.get(path + query, headers=headers)
        assert page.status_code == 200
        assert _lang(page.text) == lang


def test_the_pages_speak_russian_by_default(client: TestClient) -> None:
    compare, check, index = (client.get(p).text for p in ("/", "/check", "/index"))
    assert "<h1>Сравнение двух текстов</h1>" in compare
    assert "<h1>Проверка текста на уникальность по индексу</h1>" in check
    assert "<h1>Индекс</h1>" in index and "шинглов" in index
    for page in (compare, check, index):
        main = page.split("<main>")[1]
        for english in ("Compare", "Check", "Text", "Profiles", "shingles", "Settings"):
            assert not re.search(rf">\s*{english}\b", main), english
    english = client.get("/?lang=en").text
    assert "<h1>Compare two texts</h1>" in english
    assert 'href="/?lang=ru" hreflang="ru"' in english  # the switch back


def test_every_message_of_the_pages_has_its_translation() -> None:
    mapping = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    options = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    keywords = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
    found = {
        message
        # the pages, what reports say, and what the command line prints
        for folder in (WEB, WEB.parent / "report", WEB.parent / "watch", WEB.parent / "cli")
        for _, _, message, _, _ in extract_from_dir(
            folder, mapping, options_map=options, keywords=keywords
        )
    }  # a plural message is its two English forms
    assert len(found) > 100 and any(isinstance(message, tuple) for message in found)
    for locale in LOCALES:
        with (LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po").open("rb") as po:
            catalog = read_po(po, locale=locale)
        ids = {m.id for m in catalog if m.id}
        assert ids == found, (locale, found - ids, ids - found)  # none missing, none stale
        if locale != "ru":
            continue
        for message in catalog:
            if message.id:
                english = message.id if isinstance(message.id, tuple) else (message.id,)
                forms = message.string if isinstance(message.string, tuple) else (message.string,)
                assert len(forms) == (catalog.num_plurals if message.pluralizable else 1)
                keys = sorted(re.findall(r"%\((\w+)\)s", english[-1]))
                for form in forms:
                    assert form, message.id
                    assert sorted(re.findall(r"%\((\w+)\)s", form)) == keys, message.id


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "1 страница"), (2, "2 страницы"), (4, "4 страницы"), (5, "5 страниц"),
     (11, "11 страниц"), (14, "14 страниц"), (21, "21 страница"), (22, "22 страницы"),
     (111, "111 страниц"), (1001, "1001 страница")],
)  # fmt: skip
def test_russian_counts_take_their_plural_form(count: int, expected: str) -> None:
    russian = translations("ru").ngettext("%(num)s page", "%(num)s pages", count)
    assert russian % {"num": count} == expected
    english = translations("en").ngettext("%(num)s page", "%(num)s pages", count)
    assert english % {"num": count} == f"{count} page" + ("s" if count != 1 else "")


def test_a_report_speaks_the_language_asked_english_by_default(examples: Path) -> None:
    texts = [(examples / n).read_text("utf-8") for n in ("original.txt", "rewrite.txt")]
    table = canon.compare_table(*texts)
    docs = [Document("a", texts[0]), Document("b", texts[1])]
    report = compare_html(table, docs)
    assert '<html lang="en">' in report
    assert "<h2>Similarity</h2>" in report and "Сходство" not in report
    russian = compare_html(table, docs, locale="ru")
    assert '<html lang="ru">' in russian and "<h2>Сходство</h2>" in russian
    assert "<h2>Similarity</h2>" not in russian


# ------------------------------------------------------------------ refusals


def test_an_empty_side_is_named_in_the_pages_language(client: TestClient) -> None:
    form = {"first_text": "", "second_text": SHORT, "k": "3", "profiles": ["lemma"]}
    page = client.post("/", data=form)
    assert page.status_code == 400
    assert _error(page.text) == "Текст A пуст: вставьте текст, укажите URL или загрузите файл"
    page = client.post("/?lang=en", data={**form, "first_text": SHORT, "second_text": "!!! ..."})
    assert _error(page.text) == "Text B is empty: paste a text, give a URL or upload a file"
    page = client.post("/", data={**form, "first_text": "кошка ловила"})
    assert _error(page.text) == (
        "Текст A: слов 2, меньше k = 3; выберите k меньше или текст длиннее"
    )


def test_the_json_api_keeps_its_english_and_its_field(client: TestClient) -> None:
    answer = client.post("/api/compare", json={"first": "", "second": SHORT})
    assert answer.status_code == 400
    assert answer.json()["field"] == "first"
    assert answer.json()["error"].startswith("first has 0 canonical words")


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"first_url": "https://example.org/a"}, "first",
         "Текст A: заполните что-то одно — текст, URL или файл"),
        ({"k": "0"}, "k", "k: укажите число от 1 до 10"),
        ({"k": "три"}, "k", "k: укажите число от 1 до 10"),
        ({"profiles": ["raw", "nonsense"]}, "profiles", "Профили: выберите хотя бы один"),
        ({"profiles": []}, "profiles", "Профили: выберите хотя бы один"),
        ({"first_text": "", "first_url": "ftp://x"}, "first",
         "Текст A: в поле URL нужен один адрес http(s)"),
    ],
)  # fmt: skip
def test_compare_form_refusals(client: TestClient, form: dict, field: str, message: str) -> None:
    data = {"first_text": SHORT, "second_text": SHORT, "k": "3", "profiles": ["lemma"], **form}
    page = client.post("/", data=data)
    assert page.status_code == 400
    assert _error(page.text) == message
    assert f">{SHORT}</textarea>" in page.text  # the form comes back filled in


def test_a_text_and_a_file_on_one_side_are_refused(client: TestClient) -> None:
    files = {"first_file": ("a.txt", SHORT.encode())}
    data = {"first_text": SHORT, "second_text": SHORT, "k": "3", "profiles": ["lemma"]}
    page = client.post("/", data=data, files=files)
    assert page.status_code == 400
    assert "заполните что-то одно" in _error(page.text)
    del data["first_text"]
    assert client.post("/", data=data, files=files).status_code == 200


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"pass_mark": "120"}, "Порог уникальности: укажите число от 0 до 100"),
        ({"sentence_threshold": "0"}, "Порог рерайта: укажите число от 0.05 до 1"),
        ({"min_shared": "-1"}, "Общих шинглов для источника, не меньше: укажите число от 1 до 1000"),  # noqa: E501
        ({"profiles": ["stem"]}, "Профили: выберите хотя бы один"),
        ({"draft_text": ""}, "Черновик пуст: вставьте текст, укажите URL или загрузите файл"),
    ],
)  # fmt: skip
def test_check_form_refusals(client: TestClient, form: dict, message: str) -> None:
    data = {"draft_text": SHORT * 3, "pass_mark": "80", "profiles": ["lemma"], **form}
    page = client.post("/check", data=data)
    assert page.status_code == 400
    assert _error(page.text) == message
    assert 'name="pass_mark" min="0" max="100" step="any" value="' + data["pass_mark"] in page.text


def test_a_refusal_without_a_key_keeps_the_librarys_words() -> None:
    error = FieldError("first: something odd", "first")
    assert error_text(error, translations("ru")) == "Запрос отклонён: first: something odd"
    keyed = FieldError("x", "second", key="%(side)s: choose at least one", reason="timeout")
    crossed = pickle.loads(pickle.dumps(keyed))  # as it comes back from a worker
    assert (crossed.key, crossed.reason, crossed.field) == (keyed.key, "timeout", "second")
    assert error_text(crossed, translations("ru")) == "Текст B: выберите хотя бы один"
    by_reason = FieldError("y", "draft", reason="timeout")
    assert error_text(by_reason, translations("ru")) == "Черновик: страница не ответила вовремя"
    assert error_text(by_reason, translations("en")) == "The draft: the page did not answer in time"


# ------------------------------------------------------------------ kept values


def test_the_check_page_keeps_its_values(client: TestClient, examples: Path) -> None:
    draft = (examples / "rewrite.txt").read_text("utf-8")
    data = {"draft_text": draft, "exclude": "a.example\nre:^b", "skip_quotes": "1",
            "profiles": ["lemma"], "pass_mark": "42.5", "sentence_threshold": "0.8",
            "min_shared": "5"}  # fmt: skip
    page = client.post("/check", data=data).text
    assert f'<textarea name="draft_text" rows="12">{draft}</textarea>'.replace("\r\n", "\n") in page
    assert '<textarea name="exclude" rows="2">a.example\nre:^b</textarea>' in page
    assert 'name="skip_quotes" value="1" checked' in page
    assert 'value="lemma" checked' in page and 'value="raw" checked' not in page
    for name, value in (("pass_mark", "42.5"), ("sentence_threshold", "0.8"), ("min_shared", "5")):
        assert re.search(rf'name="{name}"[^>]*value="{re.escape(value)}"', page), name
    assert "42.5%" in page  # the pass mark the figure is judged against


# ------------------------------------------------------------------ numbers


def test_grouped_numbers_read_as_the_command_line_prints_them() -> None:
    assert grouped(3376) == grouped(3376, locale="en") == "3,376"
    assert grouped(11415.7) == "11,416"
    assert grouped(2.5) == "2" and grouped(3.5) == "4"  # Python's rounding, half to even
    assert grouped(1234567.891, 2, "en") == "1,234,567.89"
    assert grouped(3376, locale="ru") == "3\xa0376"
    assert grouped(1234567.891, 2, "ru") == "1\xa0234\xa0567,89"


@given(st.floats(0, 1e12, allow_nan=False), st.integers(0, 3))
def test_grouped_is_one_number_in_every_locale(value: float, digits: int) -> None:
    english = grouped(value, digits)
    assert english == f"{value:,.{digits}f}"
    russian = grouped(value, digits, "ru")
    assert russian.replace("\xa0", "").replace(",", ".") == english.replace(",", "")


def test_the_index_page_prints_what_the_cli_prints(client: TestClient, db: Path) -> None:
    printed = CliRunner().invoke(cli, ["index", "stats", str(db)]).output
    page = client.get("/index?lang=en").text
    for figure in re.findall(r"^(?:documents|file size|per document)\s+([\d,]+)", printed, re.M):
        assert f'<td class="num">{figure}' in page
    for rows in re.findall(r": ([\d,]+) shingles$", printed, re.M):
        assert f'<td class="num">{rows}</td>' in page
    assert "postings" not in page and '<th scope="col">shingles</th>' in page


# ------------------------------------------------------------------ an audit's failure


def _failed_audit(client: TestClient, start: str, seconds: float = 60) -> str:
    """The path of the audit of ``start``, once it has failed (started as soon as the audit
    before it has ended: one runs at a time)."""
    deadline = time.monotonic() + seconds
    while True:
        started = client.post("/audit", data={"start": start, "max_pages": "5"},
                              follow_redirects=False)  # fmt: skip
        if started.status_code != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert started.status_code == 303, started.text
    where = started.headers["location"].split("?")[0]
    while client.get(where + "/status").json()["state"] == "running":
        assert time.monotonic() < deadline, "the audit did not end"
        time.sleep(0.1)
    assert client.get(where + "/status").json()["state"] == "failed"
    return where


@pytest.mark.slow
def test_why_an_audit_failed_is_said_in_russian(tmp_path: Path) -> None:
    from audit_site import serve

    with serve() as site, PageClient(create_app(audits=tmp_path)) as client:  # no private
        port = site.url("/").split(":")[2].split("/")[0]
        for start, russian, english in (
            (site.url("/"), "частный или локальный адрес 127.0.0.1 не загружается",
             "the private or local address 127.0.0.1 is not fetched"),
            (f"http://localhost:{port}/", "localhost — имя этого компьютера",
             "localhost is a name of this machine"),
        ):  # fmt: skip
            where = _failed_audit(client, start)
            error = _error(client.get(where).text)
            assert error.startswith("Аудит не удался: http://") and russian in error, error
            assert "/robots.txt: " in error and "только общедоступные страницы" in error
            assert 'lang="en"' not in error
            assert english in _error(client.get(where + "?lang=en").text)


def test_an_audit_sentence_none_says_stays_english_and_marked() -> None:
    t = translations("ru")
    cause = "the audit failed (OSError: disk full); the pages done so far are kept"
    assert str(said(cause, t, "ru")) == f'<span lang="en">{cause}</span>'
    assert str(said("the audit stopped", t, "ru")) == "аудит остановился"


def test_an_audit_left_running_by_a_dead_process_is_marked_once(tmp_path: Path) -> None:
    import json

    from canon.web.audits import STATUS, audits, status_of

    folder = tmp_path / "0123456789ab"
    folder.mkdir()
    (folder / STATUS).write_text(json.dumps({"start": "http://x/", "started": 1.0,
                                             "state": "running", "done": 3}), "utf-8")  # fmt: skip
    began = time.monotonic()
    (listed,) = audits(tmp_path)
    assert listed[1]["state"] == "failed" and "interrupted" in listed[1]["error"]
    assert json.loads((folder / STATUS).read_text("utf-8"))["state"] == "failed"  # kept so
    assert status_of(folder)["state"] == "failed" and time.monotonic() - began < 1.0
    ru = str(said(listed[1]["error"], translations("ru"), "ru"))
    assert ru == "аудит прерван (его процесс завершился или сервер остановился)"


def test_a_busy_audit_slot_answers_503_with_retry_after_on_the_page_too(tmp_path: Path) -> None:
    import multiprocessing

    from canon.web import audits as audits_module

    busy = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(30,))
    busy.start()
    audits_module._running[tmp_path / "busy"] = (busy, None)
    try:
        with PageClient(create_app(audits=tmp_path)) as client:
            form = {"start": "http://example.com/"}
            page = client.post("/audit", data=form, follow_redirects=False)
            json_asked = {"Accept": "application/json"}
            api = client.post("/audit", data=form, headers=json_asked, follow_redirects=False)
    finally:
        busy.terminate()
        busy.join(5)
        audits_module._running.pop(tmp_path / "busy", None)
    for answer in (page, api):
        assert answer.status_code == 503 and answer.headers["retry-after"].isdigit()


@pytest.mark.slow
def test_an_interrupted_audit_is_resumed_from_its_page(tmp_path: Path) -> None:
    import json
    from urllib.parse import urlsplit

    from audit_site import serve

    from canon.audit.state import State
    from canon.web import audits as audits_module

    def committed(folder: Path) -> set[str]:
        """The paths of the pages the audit's file holds (written, not only fetched)."""
        try:
            with State(folder / "audit.db", readonly=True) as state:
                return {urlsplit(p.url).path for p in state.pages()}
        except Exception:  # not created yet
            return set()

    with (
        serve(delay=0.3) as site,
        PageClient(create_app(audits=tmp_path, allow_private=True)) as client,
    ):
        started = client.post("/audit", data={"start": site.url("/"), "max_pages": "50"},
                              follow_redirects=False)  # fmt: skip
        assert started.status_code == 303, started.text
        where = started.headers["location"].split("?")[0]
        folder = tmp_path / where.rsplit("/", 1)[1]
        deadline = time.monotonic() + 60
        while len(committed(folder)) < 10:  # a batch written
            assert time.monotonic() < deadline, "the audit did not start"
            time.sleep(0.1)
        process = audits_module._running[folder][0]
        process.kill()  # as when the server is killed
        process.join(5)
        kept, before = committed(folder), len(site.log.requests)
        assert client.get(where + "/status").json()["state"] == "failed"
        page = client.get(where + "?lang=ru").text
        assert "Продолжить аудит" in page and "прерван" in page
        resumed = client.post(where + "/resume", follow_redirects=False)
        assert resumed.status_code == 303, resumed.text
        while (status := client.get(where + "/status").json())["state"] == "running":
            assert time.monotonic() < deadline + 60, "the resumed audit did not end"
            time.sleep(0.2)
        assert status["state"] == "done", status
        summary = json.loads((folder / "status.json").read_text("utf-8"))["summary"]
        assert summary["pages"] >= 50
        again = {r.split("?")[0] for r in site.log.requests[before:]}
        assert not (again & (kept - {"/robots.txt"})), again & kept  # done: not fetched again
        refused = client.post(where + "/resume", follow_redirects=False)
        assert refused.status_code == 409  # only an interrupted audit goes on


def _audit_done(client: TestClient, where: str, seconds: float = 90) -> dict:
    deadline = time.monotonic() + seconds
    while (status := client.get(where + "/status").json())["state"] == "running":
        assert time.monotonic() < deadline, "the audit did not end"
        time.sleep(0.2)
    assert status["state"] == "done", status
    return status


@pytest.mark.slow
def test_a_done_audit_is_made_again_and_its_changes_shown_in_russian(tmp_path: Path) -> None:
    from audit_site import Page, paragraphs, sentences, serve

    site = {
        "/": Page("Главная", paragraphs(sentences(1, 30)), ("/a", "/b")),
        "/a": Page("Статья А", paragraphs(sentences(2, 30))),
        "/b": Page("Статья Б", paragraphs(sentences(3, 30))),
    }
    with (
        serve(delay=0.0, site=site) as served,
        PageClient(create_app(audits=tmp_path, allow_private=True)) as client,
    ):
        started = client.post("/audit", data={"start": served.url("/"), "max_pages": "20"},
                              follow_redirects=False)  # fmt: skip
        assert started.status_code == 303, started.text
        where = started.headers["location"].split("?")[0]
        _audit_done(client, where)
        first = client.get(where + "?lang=ru").text
        assert "Провести аудит заново" in first and "Изменения с прошлого аудита" not in first
        site["/"] = Page("Главная", paragraphs(sentences(1, 30)), ("/a", "/c"))
        site["/c"] = Page("Статья В", site["/a"].text)  # a copy, under a new URL
        del site["/b"]
        again = client.post(where + "/again", follow_redirects=False)
        assert again.status_code == 303, again.text
        _audit_done(client, where)
        refused = client.post(where + "/resume", follow_redirects=False)
        assert refused.status_code == 409  # done: made again, never resumed
        page = client.get(where + "?lang=ru").text
        english = client.get(where + "?lang=en").text
    changes = page.split('<h2 id="changes">')[1].split("<h2")[0]
    assert changes.startswith("Изменения с прошлого аудита (4)")
    assert "Прошлый аудит завершён" in changes
    for header in ("изменение", "статус тогда", "статус сейчас", "сходство текста",
                   "дубликат страницы"):  # fmt: skip
        assert f'<th scope="col">{header}</th>' in changes, header
    rows = re.findall(r"<tr><td>(http[^<]+)</td><td>([^<]+)</td>", changes)
    assert sorted((url.removeprefix(served.base), kind) for url, kind in rows) == [
        ("/a", "стала дубликатом"), ("/b", "страница пропала"), ("/c", "новая страница"),
        ("/c", "стала дубликатом"),
    ]  # fmt: skip
    assert '<h2 id="changes">Changes since the last audit (4)</h2>' in english
    assert (tmp_path / where.rsplit("/", 1)[1] / "previous" / "audit.db").is_file()
