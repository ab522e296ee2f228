"""HTML reports (escaped, self-contained) and the similarity plot (a real PNG of known size)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from command import run_cli
from webclient import PageClient

import canon
from canon import Index
from canon.canonical import Fragment
from canon.comparison import shared_fragments
from canon.report.html import CSS, check_html, compare_html, highlighted, write_html
from canon.report.plot import similarity_curves
from canon.sources.documents import Document
from canon.uniqueness.against_index import CheckResult, ProfileCheck, SourceMatch
from canon.web import create_app

HOSTILE = 'Текст <script>alert("x")</script> и "кавычки" \' onmouseover="alert(1)" & прочее'


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
    result = run_cli("compare", str(a), str(b), "--html", str(html), "--plot", str(png))
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
        canon.add_sources(
            index,
            [str(examples / "original.txt")],
            canon.IndexRules([canon.get_profile("raw"), canon.get_profile("lemma")], k=4),
        )
    draft = tmp_path / "draft.txt"
    draft.write_text((examples / "rewrite.txt").read_text("utf-8") + "\n" + HOSTILE, "utf-8")
    html = tmp_path / "check.html"
    result = run_cli("check", str(draft), str(draft), "--index", str(db), "--html", str(html))
    assert result.returncode == 0, result.stderr
    page = html.read_text("utf-8")
    _assert_safe(page)
    assert "uniqueness" in page.lower() and '<mark class="exact">' in page
    assert (tmp_path / "check-2.html").exists()  # the second draft's report
    # One section a source, open, with the source's own passages marked beside the draft.
    section = _section(page, '<details class="source" id="source-1" open>', "</details>")
    assert str(examples / "original.txt") in section
    assert section.count('<div class="text">') == 2 and '<mark class="rewrite">' in section
    assert 'id="uniqueness" class="unmarked"' in page  # no mark given: judged neither way
    marked = run_cli("check", str(draft), "--index", str(db), "--html", str(html),
                     "--min-uniqueness", "80")  # fmt: skip
    assert marked.returncode == 1
    page = html.read_text("utf-8")
    assert 'id="uniqueness" class="fail"' in page and "below the pass mark of 80%" in page


# --- one set of templates for the pages and the reports ------------------------------------


def _section(page: str, start: str, end: str = "</table>") -> str:
    begin = page.index(start)
    return page[begin : page.index(end, begin) + len(end)]


def test_the_report_is_the_web_page_standalone(examples: Path) -> None:
    texts = [(examples / name).read_text("utf-8") for name in ("original.txt", "rewrite.txt")]
    docs = [Document("first", texts[0]), Document("second", texts[1])]
    table = canon.compare_table(*texts, labels=("first", "second"))
    report = compare_html(table, docs)
    page = PageClient(create_app()).post("/?lang=en", data={"first_text": texts[0],
                                                    "second_text": texts[1]}).text  # fmt: skip
    # the same template draws the same tables, word for word
    for start in ('<table class="similarity">', "<h2>Sources</h2>", "<h2>Rules</h2>"):
        end = "</ul>" if "Rules" in start else "</table>"
        assert _section(report, start, end) == _section(page, start, end)
    # standalone: the site's CSS inline; no form, script, navigation or link to the server
    assert f"<style>{CSS.read_text('utf-8')}</style>" in report
    for absent in ("<form", "<script", "<nav", "<link", "data-shingles", "/static/"):
        assert absent not in report, absent
    assert "<form" in page and "/static/canon.js" in page and "data-shingles" in page


def test_report_escapes_sources_and_titles() -> None:
    evil = '"><i onmouseover="alert(1)">x</i>'
    text = "Кошка ловила мышей в старом амбаре у реки. " + HOSTILE
    docs = [Document(evil, text, title=evil), Document("<b>b</b>", text, title="</title><script>")]
    page = compare_html(canon.compare_table(text, text), docs)
    _assert_safe(page)
    assert "<i " not in page and "&lt;i onmouseover" in page and "</title><script>" not in page
    profile = ProfileCheck(
        "raw", "f" * 16, 3, 8, 6, 6,
        (SourceMatch(evil, evil, 6, 1.0, 1.0, 6),),
        (Fragment(0, len(text)),), word_for_word=True,
    )  # fmt: skip
    page = check_html(CheckResult(text, (profile,)), Document(evil, text, title=evil))
    _assert_safe(page)
    assert "<i " not in page and page.count("&lt;i onmouseover") >= 3
    assert '<mark class="exact">' in page


def test_write_html_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(canon.OutputError, match="cannot write the report") as refused:
        write_html(tmp_path, "<p>x</p>")
    assert refused.value.path == tmp_path


def test_similarity_curves_reuse_the_tables_canonical_forms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, second = "Кошка ловила мышей в старом амбаре у реки", "Кошки ловят мышь в амбарах"
    table = canon.compare_table(first, second)
    expected = canon.compare_table(first, second, ks=range(1, 11))

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("canonicalized again")

    monkeypatch.setattr(canon.comparison, "canonicalize", refused)
    curves = similarity_curves(table)
    assert curves.ks == tuple(range(1, 11))
    assert curves.to_dict() == expected.to_dict()


def test_a_line_at_100_percent_is_drawn_clear_of_the_frame(examples: Path) -> None:
    """Two identical texts: every curve is at 100%, and must not hide under the top spine."""
    import io

    import numpy as np
    from matplotlib.image import imread

    from canon.report.plot import plot_png

    text = (examples / "original.txt").read_text("utf-8")
    image = imread(io.BytesIO(plot_png(canon.compare_table(text, text, profiles=["raw"]))))
    rgb = image[:, :, :3]
    first_colour = np.array([0x1F, 0x77, 0xB4]) / 255  # matplotlib's first line colour
    line_rows = np.where(np.all(np.abs(rgb - first_colour) < 0.08, axis=2).any(axis=1))[0]
    frame_rows = np.where(np.all(rgb < 0.2, axis=2).sum(axis=1) > rgb.shape[1] // 2)[0]
    assert len(line_rows) and len(frame_rows) >= 2
    assert line_rows.min() > frame_rows.min() + 3  # below the top of the frame, visible


def test_the_html_report_follows_the_environment_and_lang(tmp_path: Path, examples: Path) -> None:
    from click.testing import CliRunner

    from canon.cli import cli

    files = [str(examples / "original.txt"), str(examples / "rewrite.txt")]
    for env, args, lang in (({"LANG": "ru_RU.UTF-8", "LC_ALL": ""}, [], "ru"),
                            ({"LANG": "C", "LC_ALL": ""}, [], "en"),
                            ({"LC_ALL": "ru_RU.UTF-8"}, ["--lang", "en"], "en"),
                            ({"LANG": "C", "LC_ALL": ""}, ["--lang", "ru"], "ru")):  # fmt: skip
        report = tmp_path / f"{lang}-{len(args)}.html"
        done = CliRunner().invoke(cli, ["compare", *files, "--html", str(report), *args], env=env)
        assert done.exit_code == 0, done.output
        page = report.read_text("utf-8")
        assert f'<html lang="{lang}">' in page
        assert ("<h2>Сходство</h2>" in page) is (lang == "ru"), (env, args)
        assert ("Jaccard" in done.stdout) is (lang == "en")  # the terminal speaks it too
        assert ("Жаккар" in done.stdout) is (lang == "ru")


# --- Russian number typography, formatted when a page or a report is drawn ------------------

NBSP = "\u00a0"


def test_the_compare_report_and_page_write_figures_as_their_language_does(examples: Path) -> None:
    texts = [(examples / name).read_text("utf-8") for name in ("original.txt", "rewrite.txt")]
    docs = [Document("first", texts[0]), Document("second", texts[1])]
    table = canon.compare_table(*texts, labels=("first", "second"), ks=(3,))
    client = PageClient(create_app())
    form = {"first_text": texts[0], "second_text": texts[1]}
    for lang in ("ru", "en"):
        report = compare_html(table, docs, locale=lang)
        page = client.post(f"/?lang={lang}", data=form).text
        for drawn in (report, page):
            similarity = _section(drawn, '<table class="similarity">')
            figures = _section(drawn, '<table class="figures">')
            if lang == "ru":
                assert f'<td class="num">12,6{NBSP}%</td>' in similarity
                assert f"<td>2{NBSP}633</td>" in figures and f"<td>28,7{NBSP}%</td>" in figures
                assert "12.6%" not in drawn and "2,633" not in drawn
            else:
                assert '<td class="num">12.6%</td>' in similarity
                assert "<td>2,633</td>" in figures and "<td>28.7%</td>" in figures
    russian = compare_html(table, docs, locale="ru")
    assert "<h1>canon: first и second</h1>" in russian
    assert f"<td>19,9–39,1{NBSP}%</td>" in russian  # the usual range of water


def test_the_check_report_in_russian(tmp_path: Path, examples: Path) -> None:
    db = tmp_path / "c.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index,
            [str(examples / "original.txt")],
            canon.IndexRules([canon.get_profile("raw"), canon.get_profile("lemma")], k=4),
        )
    draft = tmp_path / "draft.txt"
    draft.write_text((examples / "rewrite.txt").read_text("utf-8"), "utf-8")
    pages = {}
    for lang in ("ru", "en"):
        html = tmp_path / f"{lang}.html"
        done = run_cli("check", str(draft), "--index", str(db), "--html", str(html), "--lang",
                       lang, "--min-uniqueness", "80")  # fmt: skip
        assert done.returncode == 1, done.stderr
        pages[lang] = html.read_text("utf-8")
    ru, en = pages["ru"], pages["en"]
    assert f"<h1>canon: уникальность {draft}</h1>" in ru
    assert f"<h1>canon: uniqueness of {draft}</h1>" in en
    figure = re.search(r'id="uniqueness" class="fail">([^<]+)<', ru)
    assert figure and re.fullmatch(rf"\d+,\d{NBSP}%", figure.group(1)), figure
    english = re.search(r'id="uniqueness" class="fail">([^<]+)<', en)
    assert english and re.fullmatch(r"\d+\.\d%", english.group(1)), english
    assert figure.group(1).replace(",", ".").replace(NBSP, "") == english.group(1)
    chars = f"{len(draft.read_text('utf-8')):,}"
    assert f'<td class="num">{chars.replace(",", NBSP)}</td>' in ru  # the draft's characters
    assert f'<td class="num">{chars}</td>' in en
    assert "uniqueness = 1" not in ru  # the formula said in Russian too
