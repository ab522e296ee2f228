"""canon.sources.collection: SOURCE arguments → items (URLs, files, folders, lists, JSON Lines)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canon.sources.collection import FOLDER_SUFFIXES, Failure, Item, expand


def _write(path: Path, text: str = "текст") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def test_a_folder_gives_its_text_files_recursively_in_order(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    wanted = [
        _write(corpus / "a.txt"),
        _write(corpus / "b.MD"),  # suffixes in any case
        _write(corpus / "deep" / "er" / "c.html"),
        _write(corpus / "deep" / "d.htm"),
        _write(corpus / "e.docx"),
    ]
    for other in ("notes.pdf", "data.json", "x.jsonl", "script.py", "README"):
        _write(corpus / other)
    (corpus / "empty-folder").mkdir()
    (corpus / "folder.txt").mkdir()  # a folder named like a text file is not a file
    found = list(expand([str(corpus)]))
    items = [entry for entry in found if isinstance(entry, Item)]
    assert items == [Item(str(p)) for p in sorted(wanted)]
    assert {Path(i.source).suffix.lower() for i in items} <= FOLDER_SUFFIXES
    others = {Path(e.source).name for e in found if not isinstance(e, Item)}
    assert others == {"notes.pdf", "data.json", "x.jsonl", "script.py", "README"}  # left out


def test_a_list_file_with_comments_and_blank_lines(tmp_path: Path) -> None:
    listed = tmp_path / "sources.txt"
    listed.write_text(
        "# pages to compare\n"
        "https://example.org/a\n"
        "\n"
        "   /data/b.txt   \n"
        "  # an indented comment\n"
        "http://example.org/c?q=1#part\n",
        "utf-8",
    )
    assert list(expand([f"@{listed}"])) == [
        Item("https://example.org/a"),
        Item("/data/b.txt"),
        Item("http://example.org/c?q=1#part"),
    ]


def test_a_list_that_cannot_be_read_is_one_failure(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    legacy = tmp_path / "legacy.txt"
    legacy.write_bytes("страница\n".encode("cp1251"))
    out = list(expand([f"@{missing}", f"@{legacy}", "https://example.org/"]))
    assert [type(x) for x in out] == [Failure, Failure, Item]
    assert out[0].source == f"@{missing}" and "cannot read the list" in out[0].reason
    assert out[1].source == f"@{legacy}"
    assert out[2] == Item("https://example.org/")


def test_json_lines_good_and_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    lines = [
        json.dumps({"id": "doc-1", "text": "Первый текст"}, ensure_ascii=False),
        "",
        json.dumps({"url": "https://example.org/p", "html": "<p>Страница</p>"}, ensure_ascii=False),
        "{not json",
        json.dumps({"id": 7, "text": "Номер как id", "extra": True}, ensure_ascii=False),
        json.dumps({"id": "no-text"}),
        json.dumps({"text": "no id"}),
        json.dumps({"id": "x", "text": 5}),
        json.dumps(["id", "text"]),
        json.dumps({"url": "https://example.org/q", "html": None}),
        "   ",
    ]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    out = list(expand([str(path)]))
    assert out[0] == Item("doc-1", text="Первый текст")
    assert out[1] == Item("https://example.org/p", html="<p>Страница</p>")
    assert out[2] == Failure(f"{path}:4", out[2].reason) and "not valid JSON" in out[2].reason
    assert out[3] == Item("7", text="Номер как id")  # the id is a name: always a string
    failures = out[4:]
    assert [f.source for f in failures] == [f"{path}:{n}" for n in (6, 7, 8, 9, 10)]
    assert all(isinstance(f, Failure) and '{"id": ..., "text": ...}' in f.reason for f in failures)


def test_json_lines_that_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"id": "a", "text": "\xff\xfe"}\n')
    (out,) = expand([str(path)])
    assert isinstance(out, Failure) and out.source == str(path)
    assert out.reason.startswith("cannot read")


@pytest.mark.parametrize(
    "source",
    [
        "https://example.org/page",
        "http://127.0.0.1:8000/a?b=c",
        "HTTPS://EXAMPLE.ORG/",
        "-",  # standard input
        "no-such-file.txt",  # reading it fails later, with the reason
        "missing.jsonl",  # not a file: not read as JSON Lines
    ],
)
def test_urls_stdin_and_plain_paths_pass_as_they_are(source: str) -> None:
    assert list(expand([source])) == [Item(source)]


def test_the_order_of_the_arguments_is_kept(tmp_path: Path) -> None:
    folder = tmp_path / "f"
    one, two = _write(folder / "1.txt"), _write(folder / "2.txt")
    listed = _write(tmp_path / "l.txt", "https://example.org/from-list\n")
    records = _write(tmp_path / "r.jsonl", json.dumps({"id": "rec", "text": "т"}) + "\n")
    out = list(expand(["https://example.org/first", str(folder), f"@{listed}", str(records), "-"]))
    assert out == [
        Item("https://example.org/first"),
        Item(str(one)),
        Item(str(two)),
        Item("https://example.org/from-list"),
        Item("rec", text="т"),
        Item("-"),
    ]


def test_nothing_is_read_before_it_is_asked_for(tmp_path: Path) -> None:
    listed = _write(tmp_path / "l.txt", "https://example.org/a\n")
    lazy = expand([f"@{listed}", str(tmp_path / "later.jsonl")])
    assert next(lazy) == Item("https://example.org/a")
    _write(tmp_path / "later.jsonl", json.dumps({"id": "late", "text": "т"}))
    assert list(lazy) == [Item("late", text="т")]


def test_a_folder_lists_its_other_files_as_left_out_and_reads_gzip(tmp_path: Path) -> None:
    import gzip

    from canon.sources.collection import LeftOut, expand

    (tmp_path / "sub").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD.txt").write_text("ref", "utf-8")
    (tmp_path / ".notes.txt").write_text("hidden", "utf-8")
    for name in ("a.txt", "sub/b.HTML", "c.docx", "d.xml", "sub/e.json", "f.md.gz", "g.docx.gz"):
        (tmp_path / name).write_bytes(b"x")
    with gzip.open(tmp_path / "h.html.gz", "wt") as packed:
        packed.write("<p>текст</p>")
    found = {(type(e).__name__, Path(e.source).name) for e in expand([str(tmp_path)])}
    assert found == {
        ("Item", "a.txt"), ("Item", "b.HTML"), ("Item", "c.docx"), ("Item", "f.md.gz"),
        ("Item", "h.html.gz"), ("LeftOut", "d.xml"), ("LeftOut", "e.json"),
        ("LeftOut", "g.docx.gz"),
    }  # fmt: skip
    assert LeftOut("d.xml", "unsupported-type").said == "not a text, HTML or .docx file"


def test_a_gzip_file_is_read_as_the_file_inside_within_the_byte_limit(tmp_path: Path) -> None:
    import gzip

    from canon.errors import InputError
    from canon.sources.documents import read_source
    from canon.sources.limits import ReadLimits

    page = tmp_path / "page.html.gz"
    with gzip.open(page, "wt", encoding="utf-8") as packed:
        packed.write("<html><body><article><p>Зелёный чай заваривают водой, которая едва "
                     "закипела, и настаивают три минуты.</p></article></body></html>")  # fmt: skip
    read = read_source(str(page))
    assert read.method == "trafilatura" and read.text.startswith("Зелёный чай")
    bomb = tmp_path / "bomb.txt.gz"
    with gzip.open(bomb, "wb") as packed:
        packed.write(b" " * 5_000_000)  # 5 MB of spaces: a few KB packed
    with pytest.raises(InputError) as refused:
        read_source(str(bomb), limits=ReadLimits(max_bytes=1_000_000))
    assert refused.value.reason == "too-large" and "unpacks to more than" in refused.value.message
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(b"\x1f\x8b not gzip at all")
    with pytest.raises(InputError) as unreadable:
        read_source(str(broken))
    assert unreadable.value.reason == "unreadable"
