"""Comparing pages by main text vs whole page, .docx drafts, and the CLI on URLs."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import docx
import pytest
from command import Ran, run_cli
from site_server import article

import canon

pytestmark = pytest.mark.network


def _compare(site, a: str, b: str, whole_page: bool, profile: str = "lemma") -> canon.Comparison:
    first = canon.read_source(site.url(a), whole_page=whole_page)
    second = canon.read_source(site.url(b), whole_page=whole_page)
    return canon.compare(first.text, second.text, k=3, profile=profile)


@pytest.mark.parametrize("profile", ["raw", "lemma"])
def test_two_articles_in_one_template(site, profile: str) -> None:
    # Observed: whole pages Jaccard 0.48 (63-68% of each page found in the other), main text 0.
    whole = _compare(site, "/blog/tea", "/blog/garden", whole_page=True, profile=profile)
    main = _compare(site, "/blog/tea", "/blog/garden", whole_page=False, profile=profile)
    assert whole.jaccard > 0.40
    assert min(whole.containment_first, whole.containment_second) > 0.55
    assert main.jaccard < 0.02


@pytest.mark.parametrize("profile", ["raw", "lemma"])
def test_one_article_on_two_templates(site, profile: str) -> None:
    # Observed: main text identical (Jaccard 1.0); whole pages about 0.3.
    main = _compare(site, "/blog/tea", "/news/tea", whole_page=False, profile=profile)
    whole = _compare(site, "/blog/tea", "/news/tea", whole_page=True, profile=profile)
    assert main.jaccard > 0.95
    assert whole.jaccard < 0.45


def _write_docx(path: Path, title: str, paragraphs: list[str]) -> Path:
    document = docx.Document()
    document.core_properties.title = title
    document.add_heading(title, level=1)
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    table = document.add_table(rows=1, cols=1)
    table.rows[0].cells[0].text = "Ячейка таблицы с текстом"
    document.save(str(path))
    return path


def test_docx_draft_reads_paragraphs_and_tables(tmp_path: Path) -> None:
    title, paragraphs = article("tea")
    doc = canon.read_source(str(_write_docx(tmp_path / "draft.docx", title, paragraphs)))
    assert doc.method == "docx"
    assert doc.title == title
    assert all(p in doc.text for p in paragraphs)
    assert "Ячейка таблицы" in doc.text
    plain = tmp_path / "tea.txt"
    plain.write_text("\n".join([title, *paragraphs]), "utf-8")
    text = canon.read_source(str(plain)).text
    assert canon.compare(doc.text, text, k=3).containment_second == 1.0


@pytest.mark.parametrize("content", [b"this is not a zip", b"PK\x03\x04broken zip"])
def test_docx_that_is_not_a_zip(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "draft.docx"
    path.write_bytes(content)
    with pytest.raises(canon.InputError, match=r"not a valid \.docx file"):
        canon.read_source(str(path))


# --- the command line on URLs ------------------------------------------------------------


def canon_cli(*args: str) -> Ran:
    return run_cli(*args)


def test_compare_two_urls(site) -> None:
    result = canon_cli("compare", site.url("/blog/tea"), site.url("/news/tea"), "-k", "3")
    assert result.returncode == 0, result.stderr
    title = article("tea")[0]
    assert result.stdout.count(title) == 2
    assert result.stdout.count("trafilatura") == 2
    assert "100.0%" in result.stdout


def test_compare_url_json_and_whole_page(site) -> None:
    args = ["compare", site.url("/redirect-one"), site.url("/blog/garden"), "--json", "-k", "3"]
    data = json.loads(canon_cli(*args, "--whole-page").stdout)
    assert data["first"]["method"] == "whole-page"
    assert data["first"]["final_url"] == site.url("/utf8")
    assert data["second"]["title"].startswith(article("garden")[0])  # the page's <title>
    assert data["rows"][0]["raw"]["jaccard"] > 0.3


def test_compare_url_with_a_file_and_cache(site, tmp_path: Path) -> None:
    title, paragraphs = article("tea")
    draft = _write_docx(tmp_path / "draft.docx", title, paragraphs)
    cache = tmp_path / "cache"
    args = ["compare", site.url("/news/tea"), str(draft), "--json", "--cache", str(cache)]
    first = json.loads(canon_cli(*args).stdout)
    second = json.loads(canon_cli(*args).stdout)
    assert (first["first"]["cached"], second["first"]["cached"]) == (False, True)
    assert second["rows"][0]["lemma"]["containment_first"] > 0.95


def _refused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize(
    ("path", "flags", "message"),
    [
        ("/404", [], "HTTP 404 Not Found"),
        ("/500", [], "HTTP 500 Internal Server Error"),
        ("/redirect-loop", [], "redirect loop"),
        ("/many-1", [], "more than 5 redirects"),
        ("/slow", ["--timeout", "0.5"], "no answer within 0.5 s"),
        ("/big-unsized", ["--max-bytes", "100000"], "over the 100,000-byte cap"),
        ("/pdf", [], "content type is application/pdf"),
        ("/empty-main", [], "no main text found"),
        ("/utf8", ["--no-allow-private"], "private or local address"),
        ("/plain-koi8", ["-k", "500"], "fewer than k=500"),
    ],
)
def test_cli_web_errors_are_one_line_exit_2(site, path, flags, message) -> None:
    good = site.url("/blog/tea")
    result = canon_cli("compare", site.url(path), good, *flags)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"canon: error: {site.url(path)}")
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://canon-test.invalid/", "cannot resolve host"),
        ("http://127.0.0.1:{refused}/", "connection refused"),  # a port chosen at run time
    ],
)
def test_cli_network_errors(url: str, message: str, tmp_path: Path) -> None:
    url = url.format(refused=_refused_port())
    other = tmp_path / "a.txt"
    other.write_text("раз два три четыре", "utf-8")
    result = canon_cli("compare", url, str(other))
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_cli_bad_docx(tmp_path: Path) -> None:
    bad = tmp_path / "draft.docx"
    bad.write_bytes(b"not a zip")
    result = canon_cli("compare", str(bad), str(bad))
    assert result.returncode == 2
    assert "not a valid .docx file" in result.stderr and "Traceback" not in result.stderr
