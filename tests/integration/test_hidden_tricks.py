"""Words a reader of an HTML or .docx draft never sees are left out of the check and listed
among its tricks as ``hidden``, with the words themselves: an editor sees that the draft was
padded, not only that the padding did not count."""

from __future__ import annotations

import json
from pathlib import Path

import docx
from command import run_cli
from docx.shared import Pt

from canon.report.model.rows import trick_rows
from canon.text.tricks import Trick

SOURCE = (
    "Большая собака долго лаяла на соседского кота возле старого забора. Хозяин вышел во двор "
    "и позвал её домой, но собака не послушалась и продолжала лаять до самого вечера. Соседи "
    "жаловались на шум уже третий день подряд и собирались писать заявление участковому."
)
PADDING = ("уникальные вставки для повышения оригинальности", "ещё немного невидимых слов")


def _indexed(tmp_path: Path) -> str:
    (tmp_path / "source.txt").write_text(SOURCE, "utf-8")
    db = str(tmp_path / "c.db")
    assert run_cli("index", "add", db, str(tmp_path / "source.txt")).returncode == 0
    return db


def _checked(db: str, draft: Path) -> dict[str, object]:
    ran = run_cli("check", str(draft), "--index", db, "--json")
    assert ran.returncode == 0, ran.stderr
    result: dict[str, object] = json.loads(ran.stdout)
    return result


def _hidden(result: dict[str, object]) -> list[str]:
    tricks = result["tricks"]
    assert isinstance(tricks, list)
    return [t["original"] for t in tricks if t["kind"] == "hidden"]


def test_hidden_elements_of_an_html_draft_are_listed(tmp_path: Path) -> None:
    db = _indexed(tmp_path)
    first, second = SOURCE.split(". ", 1)
    page = (
        "<html><head><style>.x { display: none }</style></head><body><article>"
        f'<p>{first}. <span style="color:#fff">{PADDING[0]}</span> {second}</p>'
        f'<p class="x">{PADDING[1]}</p><div hidden><script>var a = 1;</script></div>'
        "</article></body></html>"
    )
    draft = tmp_path / "draft.html"
    draft.write_text(page, "utf-8")
    result = _checked(db, draft)
    assert _hidden(result) == list(PADDING)
    assert result["verdict"]["uniqueness"] < 0.05  # type: ignore[index]
    assert result["draft"]["unseen"] == list(PADDING)  # type: ignore[index]


def test_hidden_runs_of_a_docx_draft_are_listed(tmp_path: Path) -> None:
    db = _indexed(tmp_path)
    document = docx.Document()
    paragraph = document.add_paragraph()
    words = SOURCE.split()
    paragraph.add_run(" ".join(words[:10]) + " ")
    paragraph.add_run(PADDING[0] + " ").font.hidden = True
    paragraph.add_run(" ".join(words[10:]))
    document.add_paragraph().add_run(PADDING[1]).font.size = Pt(1)
    draft = tmp_path / "draft.docx"
    document.save(str(draft))
    result = _checked(db, draft)
    assert _hidden(result) == list(PADDING)
    assert result["verdict"]["uniqueness"] < 0.05  # type: ignore[index]


def test_a_draft_without_hidden_words_lists_none(tmp_path: Path) -> None:
    db = _indexed(tmp_path)
    draft = tmp_path / "draft.html"
    draft.write_text(f"<html><body><article><p>{SOURCE}</p></article></body></html>", "utf-8")
    assert _hidden(_checked(db, draft)) == []
    text = run_cli("check", str(draft), "--index", db)
    assert "hidden text" not in text.stdout


def test_the_report_shows_a_dash_for_where_and_cuts_a_long_passage() -> None:
    long = "слово " * 200
    (row,) = trick_rows([Trick("hidden", 0, 0, long, "")])
    assert row.kind == "hidden text" and row.at == "—"
    assert len(row.original) == 300 and row.original.endswith("…")
    (placed,) = trick_rows([Trick("lookalike", 7, 12, "cобака", "собака")])
    assert placed.at == "7"
