"""canon.dedup.outputs and canon dedup --format: the clusters as JSON Lines, or as a keep/remove
list in CSV or XLSX; the summary on standard error; bad formats refused in one line."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest
from command import run_cli

import canon
from canon.dedup import FORMATS, Cluster, write_clusters
from canon.dedup.outputs import COLUMNS, Row, output_format, rows
from canon.fingerprints.measures import exact_jaccard
from canon.fingerprints.shingles import shingle_hashes

ARTICLE = (
    "Библиотека на Садовой улице открылась после ремонта, который длился почти полтора года. "
    "В читальном зале поставили новые столы с лампами, а для детей устроили отдельную комнату "
    "с мягкими креслами и полками до самого пола. Фонд пополнили тремя тысячами книг, среди "
    "них много современной прозы и справочников по истории края. По субботам сотрудники будут "
    "проводить встречи с местными писателями, а по средам обещают бесплатные уроки для тех, "
    "кто хочет научиться пользоваться электронным каталогом."
)
FOOTER = " Реклама на сайте: звоните в отдел продаж, скидки постоянным клиентам."
EDITED = ARTICLE.replace("полтора года", "два года")
X = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def _hashes(text: str) -> np.ndarray:
    return shingle_hashes(canon.canonicalize(text, "lemma").tokens, 4)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "1-footer.txt").write_text(ARTICLE + FOOTER, "utf-8")
    (folder / "2-clean.txt").write_text(ARTICLE, "utf-8")
    (folder / "3-edited.txt").write_text(EDITED, "utf-8")
    (folder / "4-other.txt").write_text(
        "Прогноз погоды на неделю: в понедельник дождь, к выходным солнце и тепло.", "utf-8"
    )
    return folder


def _expected(corpus: Path) -> list[list[str]]:
    """The keep/remove rows, the representative first; Jaccard computed here from the texts."""
    clean = _hashes(ARTICLE)
    footer = round(exact_jaccard(_hashes(ARTICLE + FOOTER), clean), 6)
    edited = round(exact_jaccard(_hashes(EDITED), clean), 6)
    keep = str(corpus / "2-clean.txt")
    return [
        list(COLUMNS),
        ["1", "keep", keep, keep, "1.0", "least-boilerplate"],
        ["1", "remove", str(corpus / "1-footer.txt"), keep, str(footer), "least-boilerplate"],
        ["1", "remove", str(corpus / "3-edited.txt"), keep, str(edited), "least-boilerplate"],
    ]


def _xlsx_rows(path: Path) -> list[list[str]]:
    """The first sheet's cells as text, read from the XML (shared strings resolved)."""
    with zipfile.ZipFile(path) as book:
        shared = [
            "".join(t.text or "" for t in si.iter(f"{X}t"))
            for si in ElementTree.fromstring(book.read("xl/sharedStrings.xml")).iter(f"{X}si")
        ]
        sheet = ElementTree.fromstring(book.read("xl/worksheets/sheet1.xml"))
    table = []
    for row in sheet.iter(f"{X}row"):
        cells = []
        for cell in row.iter(f"{X}c"):
            value = cell.findtext(f"{X}v") or ""
            cells.append(shared[int(value)] if cell.get("t") == "s" else value)
        table.append(cells)
    return table


def test_the_csv_is_the_keep_remove_list(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "dedup.csv"
    result = run_cli("dedup", corpus, "--threshold", "0.7", "--format", "csv", "--out", out)
    assert result.returncode == 0, result.stderr
    with out.open(encoding="utf-8", newline="") as table:
        assert list(csv.reader(table)) == _expected(corpus)
    assert result.stdout == ""


def test_the_xlsx_holds_the_same_rows(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "dedup.xlsx"
    result = run_cli("dedup", corpus, "--threshold", "0.7", "--format", "xlsx", "--out", out)
    assert result.returncode == 0, result.stderr
    got = _xlsx_rows(out)
    want = _expected(corpus)
    assert [row[:4] + row[5:] for row in got] == [row[:4] + row[5:] for row in want]
    assert got[1][4] == "1" and [float(row[4]) for row in got[2:]] == [
        float(row[4]) for row in want[2:]
    ]


def test_the_summary_goes_to_stderr_in_two_lines(corpus: Path) -> None:
    result = run_cli("dedup", corpus, "--threshold", "0.7")
    assert result.returncode == 0, result.stderr
    first, second = result.stderr.splitlines()
    assert first == "documents 4, clusters 1, documents in clusters 3, to remove 2"
    assert second.startswith("candidate pairs ")
    (line,) = result.stdout.splitlines()
    cluster = json.loads(line)
    assert cluster["representative"] == str(corpus / "2-clean.txt")
    assert cluster["chosen_by"] == "least-boilerplate"
    assert cluster["jaccard"][1] == 1.0 and len(cluster["jaccard"]) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "tsv"], "canon: error: --format must be one of jsonl, csv, xlsx, got 'tsv'"),
        (["--format", "csv"], "canon: error: --out is needed for the csv format: name the file"),
        (["--format", "xlsx"], "canon: error: --out is needed for the xlsx format: name the file"),
    ],
)
def test_a_bad_format_is_one_line_and_exit_2(
    corpus: Path, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("a source was read before the format was checked")

    monkeypatch.setattr("canon.dedup.dedup_corpus", unread)
    result = run_cli("dedup", corpus, *args)
    assert result.returncode == 2
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == ""


def test_rows_put_the_keep_first_and_cells_stay_inert(tmp_path: Path) -> None:
    cluster = Cluster(("=cmd", "b", "c"), "b", "shortest-source", (), (0.9, 1.0, 0.85))
    assert list(rows([cluster])) == [
        Row(1, "keep", "b", "b", 1.0, "shortest-source"),
        Row(1, "remove", "=cmd", "b", 0.9, "shortest-source"),
        Row(1, "remove", "c", "b", 0.85, "shortest-source"),
    ]
    out = tmp_path / "list.csv"
    write_clusters([cluster], out, "csv")
    assert out.read_text("utf-8").splitlines()[2] == "1,remove,'=cmd,b,0.9,shortest-source"
    assert FORMATS == ("jsonl", "csv", "xlsx")


def test_an_unwritable_output_is_an_output_error(tmp_path: Path) -> None:
    cluster = Cluster(("a", "b"), "a", "first-read", (("a", "b", 1.0),), (1.0, 1.0))
    with pytest.raises(canon.OutputError, match="cannot write"):
        write_clusters([cluster], tmp_path / "missing" / "out.jsonl")
    with pytest.raises(canon.OptionError) as info:
        output_format("csv", None)
    assert info.value.option == "out"
