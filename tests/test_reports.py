"""HTML reports (escaped, self-contained) and the similarity plot (a real PNG of known size)."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from pathlib import Path

import canon
from canon import Index
from canon.canonical import Fragment
from canon.comparison import shared_fragments
from canon.report.html import highlighted

HOSTILE = 'Текст <script>alert("x")</script> и "кавычки" \' onmouseover="alert(1)" & прочее'


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "canon", *args], capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def _assert_safe(page: str) -> None:
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert 'onmouseover="alert' not in page
    # Self-contained: nothing is loaded from anywhere (src/href only as data: URIs or none).
    for attribute in re.findall(r'(?:src|href)\s*=\s*["\']?([^"\'\s>]+)', page):
        assert attribute.startswith("data:"), attribute
    assert "http://" not in page.split("<body>")[0] and "@import" not in page


def test_compare_html_and_plot(tmp_path: Path, examples: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    original = (examples / "original.txt").read_text("utf-8")
    a.write_text(original + "\n" + HOSTILE, "utf-8")
    b.write_text((examples / "rewrite.txt").read_text("utf-8") + "\n" + HOSTILE, "utf-8")
    html, png = tmp_path / "report.html", tmp_path / "sim.png"
    result = run("compare", str(a), str(b), "--html", str(html), "--plot", str(png))
    assert result.returncode == 0, result.stderr
    page = html.read_text("utf-8")
    _assert_safe(page)
    assert '<mark class="exact">' in page and '<mark class="rewrite">' in page
    assert canon.get_profile("lemma").fingerprint in page
    assert 'src="data:image/png;base64,' in page
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (800, 500)


def test_highlights_are_escaped_and_exact_over_rewrite() -> None:
    text = "a <b> c"
    marked = highlighted(text, [(False, [Fragment(0, 7)]), (True, [Fragment(2, 5)])])
    assert marked == (
        '<mark class="rewrite">a </mark><mark class="exact">&lt;b&gt;</mark>'
        '<mark class="rewrite"> c</mark>'
    )


def test_shared_fragments_map_to_each_text() -> None:
    first = canon.canonicalize("Кошка ловила мышей в амбаре. Совсем другое начало", "lemma")
    second = canon.canonicalize("Иной зачин. Кошки ловят мышь в амбарах", "lemma")
    (a,), (b,) = shared_fragments(first, second, 3)
    assert first.text[a.start : a.end] == "Кошка ловила мышей в амбаре"
    assert second.text[b.start : b.end] == "Кошки ловят мышь в амбарах"


def test_check_html(tmp_path: Path, examples: Path) -> None:
    db = tmp_path / "c.db"
    with Index(db, create=True) as index:
        canon.add_sources(index, [str(examples / "original.txt")],
                          [canon.get_profile("raw"), canon.get_profile("lemma")], k=4)  # fmt: skip
    draft = tmp_path / "draft.txt"
    draft.write_text((examples / "rewrite.txt").read_text("utf-8") + "\n" + HOSTILE, "utf-8")
    html = tmp_path / "check.html"
    result = run("check", str(draft), str(draft), "--index", str(db), "--html", str(html))
    assert result.returncode == 0, result.stderr
    page = html.read_text("utf-8")
    _assert_safe(page)
    assert "uniqueness" in page.lower() and '<mark class="exact">' in page
    assert (tmp_path / "check-2.html").exists()  # the second draft's report
