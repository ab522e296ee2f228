"""canon audit on a fixture site served on 127.0.0.1 (tests/audit_site.py): what is fetched
and what is not, every planted finding, the four outputs, analysing again, resuming after a
SIGKILL, requests in flight at once."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from itertools import combinations
from pathlib import Path

import psutil
import pytest
from audit_site import Page, paragraphs, sentences, serve
from click.testing import CliRunner
from repo_paths import ROOT

from canon.audit.state import State
from canon.canonical import canonicalize
from canon.cli import cli
from canon.index.store import Index

pytestmark = pytest.mark.network


def _run(*args: str) -> tuple[int, str]:
    """Exit code and what the user sees (standard output and error)."""
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def _stdout(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("audit")
    with serve(delay=0.01) as site:
        code, output = _run("audit", site.url("/"), "--out", str(out), "--allow-private")
        assert code == 0, output
        yield site, out, output


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "pages.csv").open(encoding="utf-8", newline="") as f:
        return {row["url"]: row for row in csv.DictReader(f)}


def _paths(site, urls) -> set[str]:
    return {u.removeprefix(site.base) for u in urls}


def test_what_is_fetched_and_what_is_not(audited) -> None:
    site, out, _ = audited
    log = site.log
    asked = [r for r in log.requests]
    assert asked.count("/robots.txt") == 1
    for sitemap in ("/sitemap_index.xml", "/sitemap-pages.xml", "/sitemap-blog.xml.gz"):
        assert asked.count(sitemap) == 1
    never = {"/private/secret", "/nofollow-target"}
    assert not never & log.paths()
    assert not [r for r in asked if "utm_" in r or "?" in r]  # tracking parameters stripped
    pages = [r for r in asked if not r.startswith(("/robots", "/sitemap"))]
    twice = {p for p in pages if pages.count(p) > 1}
    assert twice == {"/flaky", "/busy"}  # retried once each; nothing else fetched twice
    expected = set(site.site) - never | {"/old-page", "/moved", "/missing"}
    assert set(pages) == expected
    assert {"/landing-1", "/landing-2"} <= set(pages)  # only in the sitemaps
    rows = _rows(out)
    assert site.url("/private/secret") in rows and rows[site.url("/private/secret")]["status"] == ""
    assert log.most >= 2  # requests overlapped at the server


def test_retry_after_is_honoured(audited) -> None:
    site, out, _ = audited
    first, second = site.log.times["/busy"]
    assert second - first >= 0.95  # Retry-After: 1
    rows = _rows(out)
    assert rows[site.url("/busy")]["status"] == "200"
    assert rows[site.url("/flaky")]["status"] == "200"


def test_statuses_and_indexability(audited) -> None:
    site, out, _ = audited
    rows = _rows(out)
    u = site.url
    assert rows[u("/missing")]["status"] == "404"
    assert rows[u("/old-page")]["status"] == "301"
    assert rows[u("/new-page")]["status"] == "200"
    why = {
        "/search": "noindex",
        "/tag/news": "noindex",
        "/catalog/product-1-red": "canonicalized",
        "/old-page": "redirect",
        "/missing": "status",
        "/private/secret": "blocked",
    }
    for path, reason in why.items():
        assert rows[u(path)]["indexable"] == "false", path
        assert rows[u(path)]["not_indexable_reason"] == reason, path
    assert rows[u("/catalog/product-1-red")]["canonical"] == u("/catalog/product-1")
    assert rows[u("/about")]["indexable"] == "true"
    assert (rows[u("/about")]["not_indexable_reason"], rows[u("/about")]["text"]) == ("", "main")
    assert rows[u("/search")]["text"] == "main"  # what it says is apart from its text
    assert rows[u("/missing")]["text"] == ""
    with State(out / "audit.db", readonly=True) as state:
        by_url = {p.url: p for p in state.pages()}
    assert by_url[u("/old-page")].chain == [(u("/old-page"), 301), (u("/moved"), 302)]
    assert by_url[u("/old-page")].final_url == u("/new-page")
    assert by_url[u("/search")].reason == "noindex"
    assert by_url[u("/tag/news")].reason == "noindex"
    assert by_url[u("/catalog/product-1-red")].reason == "canonicalized"
    assert by_url[u("/private/secret")].reason == "blocked"


def test_every_planted_duplicate(audited) -> None:
    site, out, _ = audited
    rows = _rows(out)
    u = site.url
    exact = {
        url: row["exact_duplicate_of"] for url, row in rows.items() if row["exact_duplicate_of"]
    }
    assert exact == {
        u("/about/"): u("/about"),
        u("/print/post-1"): u("/blog/post-1"),
        u("/print/post-2"): u("/blog/post-2"),
        u("/print/post-3"): u("/blog/post-3"),
    }
    clusters = [
        json.loads(line) for line in (out / "clusters.jsonl").read_text("utf-8").split("\n") if line
    ]
    members = sorted(sorted(_paths(site, c["members"])) for c in clusters)
    products = sorted(f"/catalog/product-{n}" for n in range(1, 6))
    assert members == sorted(
        [
            ["/about", "/about/"],
            ["/blog/post-1", "/print/post-1"],
            ["/blog/post-2", "/print/post-2"],
            ["/blog/post-3", "/print/post-3"],
            products,
        ]
    )
    for path in products:
        assert rows[u(path)]["near_duplicates"] == "4"
        assert 0.9 <= float(rows[u(path)]["closest_similarity"]) < 1
    for n in (1, 2, 3):
        assert rows[u(f"/catalog/variant-{n}")]["cluster"] == ""  # about 0.6: not at 0.9
    # containment: post 3 (and its print version) lie whole inside the digest
    assert float(rows[u("/blog/post-3")]["containment_max"]) == 1.0
    assert 0.4 < float(rows[u("/blog/digest")]["closest_similarity"]) < 0.6
    book = zipfile.ZipFile(out / "pages.xlsx")
    contained = _sheet(book, "Contained")
    assert sorted(r[:2] for r in contained[1:]) == [
        [u("/blog/post-3"), u("/blog/digest")],
        [u("/print/post-3"), u("/blog/digest")],
    ]


def test_thin_pages_and_shared_head_texts(audited) -> None:
    site, out, _ = audited
    book = zipfile.ZipFile(out / "pages.xlsx")
    thin = _sheet(book, "Thin")
    assert [r[0] for r in thin[1:]] == [site.url("/contacts")]
    titles = {r[0]: r[1] for r in _sheet(book, "Same titles")[1:]}
    assert titles["блог компании"] == "3"
    h1 = {r[0]: r[1] for r in _sheet(book, "Same H1")[1:]}
    assert h1["товар для сада"] == "5"  # product 1-red is canonicalized: not counted
    assert h1["новости блога"] == "3"
    descriptions = {r[0]: r[1] for r in _sheet(book, "Same descriptions")[1:]}
    assert descriptions["товары для сада"] == "5"


def _reference_shingles(text: str) -> set[tuple[str, ...]]:
    tokens = canonicalize(text, "lemma").tokens
    return {tuple(tokens[i : i + 4]) for i in range(len(tokens) - 3)}


def test_closest_match_is_the_exact_jaccard(audited) -> None:
    _, out, _ = audited
    rows = _rows(out)
    compared = [url for url, row in rows.items() if row["closest_similarity"] != ""]
    with Index(out / "audit.db", readonly=True) as index:
        ids = {d["source"]: d["id"] for d in index.documents()}
        texts = index.texts(ids[url] for url in compared)
    sets = {url: _reference_shingles(texts[ids[url]]) for url in compared}
    best: dict[str, float] = dict.fromkeys(compared, 0.0)
    for a, b in combinations(compared, 2):
        j = len(sets[a] & sets[b]) / len(sets[a] | sets[b])
        best[a], best[b] = max(best[a], j), max(best[b], j)
    assert len(compared) == 50
    for url in compared:
        row = rows[url]
        assert float(row["closest_similarity"]) == pytest.approx(best[url], abs=1e-6), url
        if row["closest_url"]:
            other = sets[row["closest_url"]]
            j = len(sets[url] & other) / len(sets[url] | other)
            assert j == pytest.approx(best[url], abs=1e-6)


def _sheet(book: zipfile.ZipFile, name: str) -> list[list[str]]:
    """The cells of one sheet as text (shared strings resolved), read from the XML."""
    names = re.findall(
        r'<sheet name="([^"]+)" sheetId="(\d+)"', book.read("xl/workbook.xml").decode()
    )
    number = next(n for title, n in names if title == name.replace("&", "&amp;"))
    shared = [
        re.sub(r"<[^>]+>", "", s)
        for s in re.findall(r"<si>(.*?)</si>", book.read("xl/sharedStrings.xml").decode(), re.S)
    ]
    xml = book.read(f"xl/worksheets/sheet{number}.xml").decode()
    table = []
    for row in re.findall(r"<row [^>]*>(.*?)</row>", xml, re.S):
        cells = []
        for kind, value in re.findall(
            r'<c r="[A-Z]+\d+"(?: s="\d+")?(?: t="(\w+)")?><v>([^<]*)</v></c>', row
        ):
            cells.append(shared[int(value)] if kind == "s" else value)
        table.append(cells)
    return table


def test_outputs_have_their_columns_and_sheets(audited) -> None:
    _, out, _ = audited
    header = (out / "pages.csv").read_text("utf-8").splitlines()[0]
    assert header == (
        "url,status,indexable,not_indexable_reason,canonical,title,text,words,closest_url,"
        "closest_similarity,near_duplicates,exact_duplicate_of,cluster,containment_max"
    )
    book = zipfile.ZipFile(out / "pages.xlsx")
    names = re.findall(r'<sheet name="([^"]+)"', book.read("xl/workbook.xml").decode())
    assert names == [
        "Pages",
        "Clusters",
        "Exact duplicates",
        "Contained",
        "Thin",
        "Same titles",
        "Same H1",
        "Same descriptions",
        "Not indexable",
        "No main text",
    ]
    pages = _sheet(book, "Pages")
    assert pages[0] == header.split(",")
    assert len(pages) - 1 == len(_rows(out))


def test_report_is_escaped_and_self_contained(audited) -> None:
    site, out, _ = audited
    page = (out / "report.html").read_text("utf-8")
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the hostile title, shown
    assert not re.search(r"<(link|img|script)[^>]+(href|src)=", page)  # nothing loaded
    assert page.count("<script>") == 1  # the inline table sorter only
    assert '<mark class="diff">' in page  # the differences inside clusters
    assert "<style>" in page
    assert site.url("/catalog/product-1") in page


def test_terminal_summary(audited) -> None:
    _, _, output = audited
    assert "exact duplicates: 4 pages" in output
    assert "near-duplicate clusters (Jaccard >= 0.9): 5 (13 pages)" in output
    assert "thin pages: 1" in output
    assert "mostly inside another page: 2" in output


def test_reanalyze_without_crawling(audited, tmp_path: Path) -> None:
    site, out, _ = audited
    before = len(site.log.requests)
    code, output = _run("audit", "--reanalyze", str(out), "--threshold", "0.5")
    assert code == 0, output
    rows = _rows(out)
    variants = {rows[site.url(f"/catalog/variant-{n}")]["cluster"] for n in (1, 2, 3)}
    assert len(variants) == 1 and variants != {""}  # about 0.6: a cluster at 0.5
    code, output = _run("audit", "--reanalyze", str(out), "--include-nonindexable")
    assert code == 0, output
    rows = _rows(out)
    red = rows[site.url("/catalog/product-1-red")]
    assert red["cluster"] == rows[site.url("/catalog/product-1")]["cluster"] != ""
    assert red["exact_duplicate_of"] == site.url("/catalog/product-1")
    assert len(site.log.requests) == before  # nothing fetched again
    code, output = _run("audit", "--reanalyze", str(out))  # back to the defaults
    assert code == 0


def test_the_audit_file_is_an_index_check_and_dedup_read(audited, tmp_path: Path) -> None:
    site, out, _ = audited
    code, output = _stdout("dedup", "--index", str(out / "audit.db"), "--threshold", "0.9")
    assert code == 0, output
    sizes = sorted(json.loads(line)["size"] for line in output.splitlines())
    assert sizes == [2, 2, 2, 2, 6]  # dedup sees every stored page: 1-red too
    product = site.site["/catalog/product-2"].text
    draft = tmp_path / "draft.txt"
    draft.write_text("\n\n".join(product), "utf-8")
    code, output = _run("check", "--index", str(out / "audit.db"), str(draft), "--json")
    assert code in (0, 1), output
    assert site.url("/catalog/product-2") in output


def test_scope_depth_and_patterns(tmp_path: Path) -> None:
    with serve(delay=0.0) as site:
        code, output = _run(
            "audit", site.url("/"), "--out", str(tmp_path), "--allow-private",
            "--max-depth", "0", "--exclude", "/catalog/", "--exclude", "landing-2",
        )  # fmt: skip
        assert code == 0, output
        pages = {r for r in site.log.paths() if not r.startswith(("/robots", "/sitemap"))}
    assert pages == {"/", "/about", "/landing-1", "/blog/"}


def test_max_pages(tmp_path: Path) -> None:
    with serve(delay=0.0) as site:
        code, output = _run(
            "audit", site.url("/"), "--out", str(tmp_path), "--allow-private", "--max-pages", "5"
        )
        assert code == 0, output
        pages = [r for r in site.log.requests if not r.startswith(("/robots", "/sitemap"))]
    assert len(pages) == 5
    assert "URLs left past --max-pages" in output


def test_private_sites_need_allow_private(tmp_path: Path) -> None:
    with serve(delay=0.0) as site:
        code, output = _run("audit", site.url("/"), "--out", str(tmp_path))
        assert site.log.requests == []
    assert code == 2
    assert "private" in output and "--allow-private" in output
    assert "Traceback" not in output


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--threshold", "1.5"], "--threshold"),
        (["--content-keep", "[[["], "--content-keep"),
        (["--exclude", "(unclosed"], "--exclude"),
    ],
)
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], flag: str) -> None:
    code, output = _run("audit", "http://127.0.0.1:9/", "--out", str(tmp_path), *args)
    assert code == 2
    assert flag in output and len(output.strip().splitlines()) == 1, output


def _done(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM audit_pages").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_killed_audit_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "audit"
    with serve(delay=0.05) as site:
        command = [
            sys.executable, "-m", "canon", "audit", site.url("/"), "--out", str(out),
            "--allow-private", "--concurrency", "2", "--workers", "1",
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while _done(out / "audit.db") < 20 and time.monotonic() < deadline:
            assert child.poll() is None, child.communicate()
            time.sleep(0.05)
        workers = psutil.Process(child.pid).children(recursive=True)
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        _, alive = psutil.wait_procs(workers, timeout=10)
        assert workers and alive == []  # its worker process dies with it
        with State(out / "audit.db", readonly=True) as state:
            kept = {p.url for p in state.pages()}
        asked_before = list(site.log.requests)
        assert 20 <= len(kept) < 50  # stopped midway
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        asked_after = site.log.requests[len(asked_before) :]
    with State(out / "audit.db", readonly=True) as state:
        urls = {p.url for p in state.pages()}
    assert len(urls) == 56  # every URL of the site, as in a crawl that was never stopped
    assert "/robots.txt" not in asked_after and not [a for a in asked_after if "sitemap" in a]
    assert not {site.url(a) for a in asked_after} & kept  # no page done is fetched again
    assert len(asked_after) < len(asked_before) + 10  # the rest, not a new crawl
    assert "exact duplicates: 4 pages" in result.stdout


def test_the_content_area_is_changed_without_crawling(audited) -> None:
    site, out, _ = audited
    before = len(site.log.requests)
    code, output = _run(
        "audit", "--reanalyze", str(out), "--content-keep", "article > p:first-of-type"
    )
    assert code == 0, output
    rows = _rows(out)
    first = site.site["/blog/post-5"].text[0]
    assert int(rows[site.url("/blog/post-5")]["words"]) == len(canonicalize(first, "raw"))
    products = [site.url(f"/catalog/product-{n}") for n in range(2, 6)]
    # the products differ only past their first paragraph: now they are one text
    assert {rows[u]["exact_duplicate_of"] for u in products} == {site.url("/catalog/product-1")}
    code, output = _run("audit", "--reanalyze", str(out), "--content-drop", "article > p")
    assert code == 0, output
    rows = _rows(out)
    title = site.site["/blog/post-5"].title  # its H1: all that is left of the article
    assert int(rows[site.url("/blog/post-5")]["words"]) == len(canonicalize(title, "raw"))
    code, output = _run("audit", "--reanalyze", str(out))  # the whole main text again
    assert code == 0, output
    assert _rows(out)[site.url("/blog/post-5")]["words"] == "274"
    assert len(site.log.requests) == before


def test_a_list_of_start_urls(tmp_path: Path) -> None:
    with serve(delay=0.0) as site:
        listing = tmp_path / "urls.txt"
        listing.write_text(f"{site.url('/contacts')}\n# a comment\n{site.url('/about')}\n", "utf-8")
        code, output = _run(
            "audit", f"@{listing}", "--out", str(tmp_path / "a"), "--allow-private",
            "--max-depth", "0", "--exclude", "landing|/catalog/|/blog/",
        )  # fmt: skip
        assert code == 0, output
        pages = {r for r in site.log.paths() if not r.startswith(("/robots", "/sitemap"))}
    assert pages == {"/contacts", "/about", "/"}  # the starts, and / from the sitemap
    assert "thin pages: 1" in output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([], "give START"),
        (["notaurl"], "not an http(s) URL"),
        (["@/no/such/list.txt"], "cannot read the list"),
    ],
)
def test_bad_starts_are_usage_errors(tmp_path: Path, args: list[str], said: str) -> None:
    code, output = _run("audit", *args, "--out", str(tmp_path))
    assert code == 2 and said in output, output
    assert "Traceback" not in output


def test_a_page_without_main_text_is_indexable_and_said_to_have_none(tmp_path: Path) -> None:
    """A home page of links has nothing to compare, yet search engines are told to index it:
    ``indexable`` stays true and ``text`` says ``no-text``, in every output."""
    site = {
        "/": Page("Главная", [], ("/article", "/hidden")),
        "/article": Page("Статья", paragraphs(sentences(901, 40))),
        "/hidden": Page(
            "Скрытая", paragraphs(sentences(902, 40)), head='<meta name="robots" content="noindex">'
        ),
    }
    with serve(delay=0.0, site=site) as served:
        code, output = _run(
            "audit", served.url("/"), "--out", str(tmp_path), "--allow-private",
            "--content-keep", "article > p", "--exclude", "landing|about|catalog|blog|contacts",
        )  # fmt: skip
    assert code == 0, output
    rows = _rows(tmp_path)
    home, hidden = rows[served.url("/")], rows[served.url("/hidden")]
    assert (home["indexable"], home["not_indexable_reason"], home["text"]) == (
        "true",
        "",
        "no-text",
    )
    assert home["words"] == "0" and home["closest_url"] == ""  # not compared
    assert (hidden["indexable"], hidden["not_indexable_reason"]) == ("false", "noindex")
    assert hidden["text"] == "main"
    assert "3 indexable" not in output and "2 indexable" in output
    assert "1 not indexable, 1 without main text" in output
    book = zipfile.ZipFile(tmp_path / "pages.xlsx")
    assert [r[0] for r in _sheet(book, "Not indexable")[1:]] == [served.url("/hidden")]
    (without,) = _sheet(book, "No main text")[1:]
    assert without[:4] == [served.url("/"), "200", "true", "no-text"]
    assert int(without[4]) > 0 and "no main text" in without[5]  # its words are all links
    report = (tmp_path / "report.html").read_text("utf-8")
    assert '<h2 id="notext">Without a main text</h2>' in report
    assert (
        f'<td class="url"><span title="{served.url("/")}">/</span></td><td>yes</td><td>no</td>'
        in report
    )
