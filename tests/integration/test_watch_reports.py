"""canon watch's reports: each run's ``report.html`` (Russian or English, as the command line
speaks), ``changes.csv`` and ``changes.xlsx``, the latest in the watch's folder and each run's
kept in ``runs/N/``.

Two stand-ins of tests/search_server.py on 127.0.0.1, as in test_watch.py: the watched site
and the SearXNG instance with the web it searches, whose pages change between runs.  The
workbook is read back from its XML (zipfile), as a spreadsheet program would read it.
"""

from __future__ import annotations

import csv
import os
import re
import zipfile
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from xml.etree import ElementTree

import pytest
from command import run_cli, run_process
from repo_paths import ROOT
from search_server import StandIn, reset

from canon.report.language import catalog
from canon.sources.search.searxng import SearXNG
from canon.watch import Change, Copy, RunSettings, WatchStore, add_pages, run_watch
from canon.watch.records import RunReport
from canon.watch.report import PageCopies, RunView, report_html

A = [
    "Пасечники старой школы никогда не открывали ульи в ветреную погоду: пчёлы злятся, "
    "матка может улететь вместе с роем, а застуженный расплод гибнет за несколько часов, "
    "и семья, которая обещала богатый взяток, к середине лета едва сводит концы с концами.",
    "Липовый мёд кристаллизуется медленнее гречишного, потому что в нём больше фруктозы; "
    "крупные белые кристаллы в банке говорят не о подделке, а о зрелом продукте, который "
    "хозяин не перегревал и не разбавлял сиропом перед тем, как отвезти его на ярмарку.",
    "Восковую моль из старых сот выводят морозом: рамки на ночь выносят в холодный сарай, "
    "и личинки погибают без всякой химии, а весной соты снова ставят в улей, где пчёлы за "
    "пару дней вычищают ячейки и заливают их свежим нектаром с первых цветущих ив.",
]
B = [
    "Переплётчик сначала сшивает тетради суровой ниткой на тесьму, затем проклеивает корешок "
    "мездровым клеем и только потом обтягивает крышки кожей, которую заранее вымачивает и "
    "разглаживает костяной палочкой, чтобы на ней не осталось ни складки, ни пузыря.",
    "Золотое тиснение на корешке делают горячими латунными штампами через тонкую сусальную "
    "фольгу; если металл перегреть, буквы расплывутся, а если недогреть, золото не пристанет "
    "и осыплется при первом же прикосновении читателя к переплёту старинной книги.",
]
NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
BLOCKER = """
import sys


class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "xlsxwriter":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Blocker())
"""
RU = {"LANG": "ru_RU.UTF-8", "LC_ALL": None, "LC_MESSAGES": None}
EN = {"LANG": "C", "LC_ALL": None, "LC_MESSAGES": None}


@pytest.fixture
def site_web(servers: tuple[StandIn, StandIn]) -> tuple[StandIn, StandIn]:
    """The watched site (pages A and B) and the web, nothing copied yet."""
    site, web = (reset(s) for s in servers)
    web.extras = False
    site.served["/a.html"] = ("Пасека", A, "")
    site.served["/b.html"] = ("Переплёт", B, "")
    return site, web


def _watch(tmp_path: Path, site: StandIn) -> Path:
    folder = tmp_path / "watch"
    report = add_pages(folder, [site.url("/a.html"), site.url("/b.html")])
    assert report.added and not report.failed
    return folder


def _run(folder: Path, web: StandIn, env: dict[str, str | None]) -> str:
    ran = run_cli("watch", "run", folder, "--queries", "5", "--web", f"searxng:{web.base}",
                  "--allow-private-results", env=env)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def _percent(share: float, locale: str) -> str:
    figure = f"{share * 100:.1f}"
    return f"{figure}%" if locale == "en" else figure.replace(".", ",") + "\u00a0%"


def _text(html: str) -> str:
    """The words a reader sees: tags out, entities as written, spaces as one (a no-break
    space kept)."""
    words = re.sub(r"<[^>]+>", " ", html.split("</style>")[-1]).replace("&amp;", "&")
    return re.sub(r"[ \t\r\n]+", " ", words).strip()


# ------------------------------------------------------------------ files of each run


def test_each_run_keeps_its_files_and_the_latest_are_in_the_folder(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Пасека", [A[0]], "")
    first = _run(folder, web, EN)
    web.served["/thief/one.html"] = ("Пасека", [A[0], A[1]], "")
    second = _run(folder, web, EN)
    for printed in (first, second):
        assert f"Changes written to {folder / 'changes.csv'}." in printed
    assert (
        f"Report written to {folder / 'report.html'} and {folder / 'changes.xlsx'} "
        f"(this run's files in {folder / 'runs' / '2'})." in second
    )
    names = ("report.html", "changes.csv", "changes.xlsx")
    for run in ("1", "2"):
        assert sorted(p.name for p in (folder / "runs" / run).iterdir()) == sorted(names)
    for name in names:
        assert (folder / name).read_bytes() == (folder / "runs" / "2" / name).read_bytes()
    rows = [list(csv.DictReader((folder / "runs" / n / "changes.csv").open(encoding="utf-8")))
            for n in ("1", "2")]  # fmt: skip
    assert [[r["change"] for r in run] for run in rows] == [["new"], ["grown"]]
    assert not list(folder.rglob("*.tmp"))  # every file written whole, then put in place
    latest = (folder / "report.html").read_text("utf-8")
    assert "1 copy grew" in latest and "1 new copy" not in latest
    assert "1 new copy" in (folder / "runs" / "1" / "report.html").read_text("utf-8")


def test_without_xlsxwriter_the_other_files_are_written(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    """A process where XlsxWriter (the audit extra) cannot be imported, as if not installed."""
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Пасека", [A[0]], "")
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(BLOCKER, "utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), str(ROOT)]), "LANG": "C"}
    ran = run_process("watch", "run", folder, "--queries", "5", "--web", f"searxng:{web.base}",
                      "--allow-private-results", env=env)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert f"Report written to {folder / 'report.html'} (this run's files in" in ran.stdout
    assert sorted(p.name for p in (folder / "runs" / "1").iterdir()) == [
        "changes.csv",
        "report.html",
    ]
    assert not (folder / "changes.xlsx").exists()


# ------------------------------------------------------------------ the workbook


def _cells(book: zipfile.ZipFile, sheet: int) -> list[list[object]]:
    """The rows of a sheet: strings as written, numbers as numbers, blanks as None."""
    shared = ElementTree.fromstring(book.read("xl/sharedStrings.xml"))
    strings = ["".join(t.text or "" for t in si.iter(f"{NS}t")) for si in shared.iter(f"{NS}si")]
    rows = []
    for row in ElementTree.fromstring(book.read(f"xl/worksheets/sheet{sheet}.xml")).iter(
        f"{NS}row"
    ):
        cells: dict[int, object] = {}
        for cell in row.iter(f"{NS}c"):
            letters = re.match(r"[A-Z]+", cell.get("r", "")).group()  # type: ignore[union-attr]
            column = ord(letters) - ord("A")
            value = cell.find(f"{NS}v")
            if value is not None and value.text is not None:
                shown = strings[int(value.text)] if cell.get("t") == "s" else float(value.text)
                cells[column] = shown
        rows.append([cells.get(n) for n in range(max(cells, default=-1) + 1)])
    return rows


def _date(serial: object) -> str:
    when = datetime(1899, 12, 30) + timedelta(days=float(serial))  # type: ignore[arg-type]
    return (when + timedelta(milliseconds=500)).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def test_the_workbook_holds_the_runs_changes_and_every_copy(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    settings = RunSettings(queries=5, allow_private_results=True)
    web.served["/thief/one.html"] = ("Пасека", [A[0]], "")
    web.served["/thief/two.html"] = ("Переплёт", [B[0]], "")
    run_watch(folder, SearXNG(web.base), settings)
    web.served["/thief/one.html"] = ("Пасека", A, "")
    del web.served["/thief/two.html"]
    report = run_watch(folder, SearXNG(web.base), settings)
    assert {c.change for c in report.changes} == {"grown", "gone"}
    with WatchStore(folder) as store:
        live = store.copies(gone=False)
    with zipfile.ZipFile(folder / "changes.xlsx") as book:
        changes, copies = _cells(book, 1), _cells(book, 2)
        workbook = book.read("xl/workbook.xml").decode()
        sheet = book.read("xl/worksheets/sheet1.xml").decode()
        styles = book.read("xl/styles.xml").decode()
        links = book.read("xl/worksheets/_rels/sheet1.xml.rels").decode()
    assert '<sheet name="Changes"' in workbook and '<sheet name="Copies"' in workbook
    assert changes[0] == ["Run", "Page", "Copy", "Change", "Share", "Before", "Kind",
                          "First seen (UTC)", "Last seen (UTC)"]  # fmt: skip
    expected = [
        [float(c.run), c.page, c.url, c.change, pytest.approx(c.share), c.previous, c.kind,
         c.first_seen, c.last_seen]
        for c in report.changes
    ]  # fmt: skip
    shown = [[*row[:7], _date(row[7]), _date(row[8])] for row in changes[1:]]
    assert shown == expected
    assert copies[0] == ["Page", "Copy", "Share", "Kind", "First seen (UTC)", "Last seen (UTC)"]
    assert [[*row[:4], _date(row[4]), _date(row[5])] for row in copies[1:]] == [
        [c.page, c.url, pytest.approx(c.share), c.kind, c.first_seen, c.last_seen] for c in live
    ]
    assert 'state="frozen"' in sheet and '<autoFilter ref="A1:I3"/>' in sheet  # header, filter
    assert 'formatCode="0.0%"' in styles and "<b/>" in styles  # percents, a bold header
    assert all(c.url in links for c in report.changes)  # the addresses are links


def test_the_workbook_speaks_russian_under_a_russian_locale(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Пасека", [A[0]], "")
    _run(folder, web, RU)
    with zipfile.ZipFile(folder / "changes.xlsx") as book:
        changes, copies = _cells(book, 1), _cells(book, 2)
        workbook = book.read("xl/workbook.xml").decode()
    assert '<sheet name="Изменения"' in workbook and '<sheet name="Копии"' in workbook
    assert changes[0][:4] == ["Прогон", "Страница", "Копия", "Изменение"]
    assert changes[1][3] == "новая" and changes[1][6] == "скопировано"
    assert copies[0][:3] == ["Страница", "Копия", "Доля"]


# ------------------------------------------------------------------ the HTML report


def test_the_report_speaks_russian_under_a_russian_locale(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Пасека", [A[0]], "")
    web.served["/thief/two.html"] = ("Переплёт", [B[0]], "")
    printed = _run(folder, web, RU)
    assert "+ новая" in printed  # the terminal speaks the locale's language too
    html = (folder / "report.html").read_text("utf-8")
    text = _text(html)
    assert '<html lang="ru">' in html
    assert "Сводка" in text and "Изменения с прошлого прогона" in text
    assert "Изменения 2 новые копии" in text and "Страниц с копиями 2 из 2" in text
    with WatchStore(folder) as store:
        one = next(c for c in store.copies() if c.url.endswith("/one.html"))
    assert _percent(one.share, "ru") in html  # «33,1 %»: a decimal comma, a no-break space
    assert "скопировано" in text and "новая" in text
    assert not re.search(r"\b(Summary|Changes|copied|new copies)\b", text)

    web.served["/thief/one.html"] = ("Пасека", A, "")
    del web.served["/thief/two.html"]
    _run(folder, web, RU)
    text = _text((folder / "report.html").read_text("utf-8"))
    assert "1 копия выросла, 1 копия пропала" in text
    assert "Страниц с копиями 1 из 2" in text and "1 копия" in text
    assert "Было" in text and _percent(one.share, "ru") in text  # the share before


def test_the_report_speaks_english_under_lang_c(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Пасека", [A[0]], "")
    _run(folder, web, EN)
    html = (folder / "report.html").read_text("utf-8")
    text = _text(html)
    assert '<html lang="en">' in html
    assert "Summary" in text and "Changes 1 new copy" in text and "copied" in text
    with WatchStore(folder) as store:
        one = store.copies()[0]
    assert _percent(one.share, "en") in html
    assert not re.search("[а-яё]", text.replace("Пасека", "").lower())


def test_the_lang_option_wins_over_the_environment(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Пасека", [A[0]], "")
    ran = run_cli("watch", "run", folder, "--queries", "5", "--web", f"searxng:{web.base}",
                  "--allow-private-results", "--lang", "ru", env=EN)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert '<html lang="ru">' in (folder / "report.html").read_text("utf-8")


def test_addresses_are_escaped(tmp_path: Path, site_web: tuple[StandIn, StandIn]) -> None:
    """A copy's address as the search engine gave it, ``<script>`` and all, is shown as text."""
    site, web = site_web
    folder = _watch(tmp_path, site)
    hostile = web.url("/thief/<script>alert(1)</script>.html")
    web.also.append((hostile, "x", ""))  # the result, as given
    web.served["/thief/%3Cscript%3Ealert(1)%3C/script%3E.html"] = ("x", [B[0]], "")  # fetched
    _run(folder, web, RU)
    with WatchStore(folder) as store:
        assert hostile in {c.url for c in store.copies()}
    html = (folder / "report.html").read_text("utf-8")
    assert "<script" not in html
    assert "/thief/&lt;script&gt;alert(1)&lt;/script&gt;.html" in html


# ------------------------------------------------------------------ the report's figures


def _view(counts: dict[str, int], budget: int = 20, sent: int = 20) -> RunView:
    page = "https://blog.example.ru/tea.html"
    date = "2026-12-01T06:00:09+00:00"
    changes = tuple(
        Change(3, page, f"https://copy.example.com/{kind}/{n}", kind,
               0.0 if kind == "gone" else 0.0812, 0.0415 if kind != "new" else None,
               "copied", date, date)
        for kind, many in counts.items()
        for n in range(many)
    )  # fmt: skip
    report = RunReport(3, False, 4, 4, budget, sent, 0, changes, date, date)
    live = tuple(Copy(page, c.url, c.share, c.kind, date, date) for c in changes
                 if c.change != "gone")  # fmt: skip
    return RunView("blog", report, 4, (PageCopies(page, "Чай", live),) if live else ())


@pytest.mark.parametrize(
    ("counts", "russian", "english"),
    [
        ({"new": 1}, "1 новая копия", "1 new copy"),
        ({"new": 2}, "2 новые копии", "2 new copies"),
        ({"new": 5}, "5 новых копий", "5 new copies"),
        ({"new": 21}, "21 новая копия", "21 new copies"),
        ({"grown": 3, "gone": 11}, "3 копии выросли, 11 копий пропало",
         "3 copies grew, 11 copies gone"),
        ({"back": 1, "gone": 22}, "1 копия вернулась, 22 копии пропали",
         "1 copy is back, 22 copies gone"),
    ],
)  # fmt: skip
def test_counts_take_their_plural_form(counts: dict[str, int], russian: str, english: str) -> None:
    view = _view(counts)
    assert f'<td id="counts">{russian}</td>' in report_html(view, "ru")
    assert f'<td id="counts">{english}</td>' in report_html(view, "en")


def test_numbers_and_dates_are_written_as_the_language_writes_them() -> None:
    view = _view({"new": 1, "grown": 1}, budget=2320, sent=1204)
    russian, english = _text(report_html(view, "ru")), _text(report_html(view, "en"))
    assert "1\u00a0204 из 2\u00a0320" in russian and "1,204 of 2,320" in english
    assert "8,1\u00a0%" in russian and "4,2\u00a0%" in russian and "8.1%" in english
    assert "1 декабря 2026, 06:00 UTC" in russian and "1 December 2026, 06:00 UTC" in english
    assert "2026-12-01 06:00" in russian  # the tables' dates


def test_no_copy_and_no_change_are_said() -> None:
    russian = _text(report_html(_view({}), "ru"))
    assert "изменений нет" in russian and "Копий страниц в сети не найдено." in russian
    assert "Страниц с копиями 0 из 4" in russian


def test_the_report_speaks_from_the_pages_catalogs() -> None:
    """Its messages are the pages' (tests/unit/web: every one has its Russian, with the same
    figures); the template is a page template, the plurals ngettext's."""
    ru = catalog("ru")
    assert ru.gettext("Changes since the last run") == "Изменения с прошлого прогона"
    forms = [ru.ngettext("%(num)s new copy", "%(num)s new copies", n) for n in (1, 2, 5)]
    assert forms == ["%(num)s новая копия", "%(num)s новые копии", "%(num)s новых копий"]
    assert "Изменения с прошлого прогона" in report_html(_view({"new": 1}), "ru")


# ------------------------------------------------------------------ in a browser


@pytest.mark.browser
def test_long_addresses_wrap_and_never_widen_the_page(tmp_path: Path) -> None:
    import shutil

    chromium = "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed")
    if not shutil.which(chromium):
        pytest.skip(f"{chromium} is missing: apt-get install chromium")
    view = _view({"new": 1})
    long = "https://copy.example.com/" + "очень-длинный-адрес-без-пробелов-" * 30 + ".html"
    report = replace(view.report, changes=(replace(view.report.changes[0], page=long, url=long),))
    copies = (Copy(long, long, 0.5, "copied", "", ""),)
    wide = RunView(view.folder, report, view.watched, (PageCopies(long, "Чай", copies),))
    path = tmp_path / "report.html"
    path.write_text(report_html(wide, "ru"), "utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            shown = browser.new_page(viewport={"width": 800, "height": 600})
            shown.goto(path.as_uri())
            widths = shown.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            requests: list[str] = []
            shown.on("request", lambda r: requests.append(r.url))
            shown.reload()
        finally:
            browser.close()
    assert widths[0] <= widths[1], widths  # nothing wider than the window
    assert requests == [path.as_uri()]  # nothing fetched but the file itself
