"""A site audited twice into one folder: the finished audit is kept in ``previous/`` and
``changes.csv`` lists what changed, URL by URL.  The fixture site (tests/audit_site.py) is
served on 127.0.0.1 and changed between the two audits: a page added, one removed, one
removed but still linked, one text rewritten, one page made a copy of another, one print
version given a text of its own.  A stopped audit is resumed instead, never made a baseline."""

from __future__ import annotations

import csv
import json
import re
import zipfile
from pathlib import Path

import pytest
from audit_site import Page, pages, paragraphs, sentences, serve
from command import run_cli

from canon.audit.state import State

pytestmark = pytest.mark.network

# (path, change) of every row changes.csv must hold after the site is changed as below.
EXPECTED = {
    ("/blog/post-21", "new"),
    ("/catalog/item-3", "gone"),
    ("/catalog/item-4", "status"),
    ("/blog/post-10", "text"),
    ("/catalog/item-5", "text"),
    ("/print/post-2", "text"),
    ("/catalog/item-5", "duplicated"),
    ("/catalog/item-6", "duplicated"),
    ("/blog/post-2", "resolved"),
    ("/print/post-2", "resolved"),
}


def _change(site: dict[str, Page]) -> None:
    """The site between the two audits."""
    blog, catalog = site["/blog/"], site["/catalog/"]
    site["/blog/post-21"] = Page("Запись 21: заметки садовника", paragraphs(sentences(121, 45)))
    site["/blog/"] = Page(blog.title, blog.text, (*blog.links, "/blog/post-21"))
    del site["/catalog/item-3"]  # and no longer linked: gone
    del site["/catalog/item-4"]  # still linked: it answers 404 now
    site["/catalog/"] = Page(
        catalog.title, catalog.text, tuple(u for u in catalog.links if u != "/catalog/item-3")
    )
    post = site["/blog/post-10"]  # half of its sentences rewritten
    site["/blog/post-10"] = Page(
        post.title, paragraphs(sentences(110, 45)[:22] + sentences(990, 23)), h1=post.h1,
        description=post.description,
    )  # fmt: skip
    item = site["/catalog/item-5"]
    site["/catalog/item-5"] = Page(item.title, site["/catalog/item-6"].text)
    printed = site["/print/post-2"]
    site["/print/post-2"] = Page(
        printed.title, paragraphs(sentences(995, 45)), h1=printed.h1, template=False
    )


def _audit(site, out: Path, *extra: str):
    return run_cli("audit", site.url("/"), "--out", out, "--allow-private", *extra)


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def audited_twice(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("audit")
    site = pages()
    with serve(delay=0.0, site=site) as served:
        first = _audit(served, out)
        assert first.returncode == 0, first.stderr
        assert not (out / "changes.csv").exists()  # nothing to compare with yet
        assert "changes since" not in first.stderr
        _change(site)
        second = _audit(served, out, "--json")
        assert second.returncode == 0, second.stderr
        yield served, out, second


def test_changes_csv_holds_exactly_what_changed(audited_twice) -> None:
    site, out, _ = audited_twice
    rows = _csv(out / "changes.csv")
    found = [(row["url"].removeprefix(site.base), row["change"]) for row in rows]
    assert len(found) == len(set(found))
    assert set(found) == EXPECTED
    kinds = ["new", "gone", "status", "text", "duplicated", "resolved"]
    assert [kinds.index(change) for _, change in found] == sorted(
        kinds.index(change) for _, change in found
    )  # by kind
    by = {(row["url"].removeprefix(site.base), row["change"]): row for row in rows}

    def statuses(path: str, change: str) -> tuple[str, str]:
        return by[path, change]["status_before"], by[path, change]["status_now"]

    assert statuses("/blog/post-21", "new") == ("", "200")
    assert statuses("/catalog/item-3", "gone") == ("200", "")
    assert statuses("/catalog/item-4", "status") == ("200", "404")
    assert statuses("/blog/post-10", "text") == ("200", "200")
    assert 0.2 < float(by["/blog/post-10", "text"]["similarity"]) < 0.6  # half of it rewritten
    assert float(by["/catalog/item-5", "text"]["similarity"]) < 0.1  # another text altogether
    assert by["/catalog/item-5", "duplicated"]["duplicate_of"] == site.url("/catalog/item-6")
    assert by["/catalog/item-6", "duplicated"]["duplicate_of"] == site.url("/catalog/item-5")
    assert by["/blog/post-2", "resolved"]["duplicate_of"] == site.url("/print/post-2")
    assert by["/print/post-2", "resolved"]["duplicate_of"] == site.url("/blog/post-2")


def test_the_last_audit_is_kept_whole_in_previous(audited_twice) -> None:
    site, out, _ = audited_twice
    previous = out / "previous"
    for name in ("audit.db", "pages.csv", "clusters.jsonl", "pages.xlsx", "report.html"):
        assert (previous / name).is_file(), name
    assert (previous / "audit.db-segments").is_dir()  # the index's segments went with it
    assert not (previous / "changes.csv").exists()  # the first audit had none
    then = {row["url"] for row in _csv(previous / "pages.csv")}
    now = {row["url"] for row in _csv(out / "pages.csv")}
    assert now - then == {site.url("/blog/post-21")}
    assert then - now == {site.url("/catalog/item-3")}
    with State(out / "audit.db", readonly=True) as state:
        assert len(list(state.pages())) == 56  # a new audit: one page more, one fewer
    code = run_cli("index", "verify", previous / "audit.db")
    assert code.returncode == 0, code.stderr  # still an index, whole


def test_the_changes_are_said_in_one_line_and_in_every_output(audited_twice) -> None:
    _, out, ran = audited_twice
    (line,) = [x for x in ran.stderr.splitlines() if x.startswith("changes since")]
    assert re.fullmatch(
        r"changes since the last audit \(finished \S+\): 1 new, 1 gone, 1 status changed, "
        r"3 text changed, 2 newly duplicated, 2 resolved",
        line,
    ), line
    payload = json.loads(ran.stdout)
    changes = payload["summary"]["changes"]
    assert {k: v for k, v in changes.items() if k != "since"} == {
        "new": 1, "gone": 1, "status": 1, "text": 3, "duplicated": 2, "resolved": 2,
    }  # fmt: skip
    assert str(out / "changes.csv") in payload["files"]
    report = (out / "report.html").read_text("utf-8")
    assert '<h2 id="changes">Changes since the last audit</h2>' in report
    assert report.count("<td>newly duplicated</td>") == 2
    book = zipfile.ZipFile(out / "pages.xlsx")
    names = re.findall(r'<sheet name="([^"]+)"', book.read("xl/workbook.xml").decode())
    assert names[-1] == "Changes"


def test_analysing_again_compares_again(audited_twice, tmp_path: Path) -> None:
    site, out, _ = audited_twice
    ran = run_cli("audit", "--reanalyze", out, "--changed-below", "0.2")
    assert ran.returncode == 0, ran.stderr
    found = {(r["url"].removeprefix(site.base), r["change"]) for r in _csv(out / "changes.csv")}
    assert found == EXPECTED - {("/blog/post-10", "text")}  # half rewritten: above 0.2
    assert run_cli("audit", "--reanalyze", out).returncode == 0
    assert len(_csv(out / "changes.csv")) == len(EXPECTED)


@pytest.mark.timeout(120)
def test_a_stopped_audit_is_resumed_and_a_finished_one_becomes_the_baseline(
    tmp_path: Path,
) -> None:
    with serve(delay=0.05) as site:
        stopped = _audit(site, tmp_path, "--max-time", "1", "--concurrency", "1")
        assert stopped.returncode == 0, stopped.stderr
        assert "stopped after --max-time" in stopped.stdout
        with State(tmp_path / "audit.db", readonly=True) as state:
            done = {p.url for p in state.pages()}
        asked = len(site.log.requests)
        resumed = _audit(site, tmp_path)  # the same audit goes on
        assert resumed.returncode == 0, resumed.stderr
        assert not (tmp_path / "previous").exists() and "changes since" not in resumed.stderr
        again = [r for r in site.log.requests[asked:] if not r.startswith(("/robots", "/sitemap"))]
        assert not {site.url(r) for r in again} & done  # no page done is fetched again
        asked = len(site.log.requests)
        new = _audit(site, tmp_path)  # finished: this is a new audit of the site
        assert new.returncode == 0, new.stderr
        assert "/robots.txt" in site.log.requests[asked:]  # a crawl from the start
    assert (tmp_path / "previous" / "audit.db").is_file()
    rows = _csv(tmp_path / "changes.csv")
    assert rows == []  # the same site: nothing changed
    assert "0 new, 0 gone, 0 status changed, 0 text changed" in new.stderr
