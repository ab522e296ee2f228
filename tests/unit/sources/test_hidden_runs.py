"""Runs of a .docx that a reader never sees (hidden, too small to read, white on the page) are
left out of its text, in documents python-docx writes: the check reads what a reader reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pytest
from docx.shared import Pt, RGBColor

import canon

SHOWN = "Большая собака долго лаяла на соседского кота."


def _hidden(run: Any) -> None:
    run.font.hidden = True


def _tiny(run: Any) -> None:
    run.font.size = Pt(1)


def _white(run: Any) -> None:
    run.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)


@pytest.mark.parametrize("hide", [_hidden, _tiny, _white], ids=["vanish", "1pt", "white"])
def test_an_unseen_run_is_left_out(tmp_path: Path, hide: Callable[[Any], None]) -> None:
    document = docx.Document()
    paragraph = document.add_paragraph()
    for i, word in enumerate(SHOWN.split()):
        paragraph.add_run(word + " ")
        hide(paragraph.add_run(f"вставка{i} уникальных слов "))
    table = document.add_table(rows=1, cols=1)
    cell = table.rows[0].cells[0].paragraphs[0]
    cell.add_run("Ячейка таблицы ")
    hide(cell.add_run("спрятанная "))
    cell.add_run("видна.")
    path = tmp_path / "draft.docx"
    document.save(str(path))
    text = canon.read_source(str(path)).text
    assert text.split() == [*SHOWN.split(), "Ячейка", "таблицы", "видна."]


def test_runs_shown_in_colour_and_at_a_readable_size_stay(tmp_path: Path) -> None:
    document = docx.Document()
    paragraph = document.add_paragraph()
    paragraph.add_run("Красный ").font.color.rgb = RGBColor(0xC0, 0, 0)
    paragraph.add_run("мелкий ").font.size = Pt(6)
    run = paragraph.add_run("виден")
    run.font.hidden = False
    path = tmp_path / "shown.docx"
    document.save(str(path))
    assert canon.read_source(str(path)).text == "Красный мелкий виден"
