"""``canon serve --watches DIR``: the watches of ``canon watch`` on the web, read-only, in
Russian.  Each watch is a real folder made by :class:`~canon.watch.WatchStore` as a run writes
it (its pages, a run's plan, each page's copies and changes written by ``page_checked``), and
the app is served by FastAPI's TestClient as a browser asks it.
"""

from __future__ import annotations

import html
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from webclient import PageClient

from canon.cli import cli
from canon.watch import Change, Copy, WatchedPage, WatchStore
from canon.web import create_app
from canon.web.accounts import Accounts
from canon.web.service import FieldError
from canon.web.watches import marked_text, watch_folder

DAY1, DAY1_END = "2026-11-02T06:00:00+00:00", "2026-11-02T06:03:00+00:00"
DAY2, DAY2_END = "2026-12-01T06:00:00+00:00", "2026-12-01T06:01:30+00:00"
TEXT = (
    "Весной на северных болотах просыпается клюква: под тонким слоем талой воды краснеют "
    "прошлогодние ягоды, пережившие зиму под снегом, и журавли первыми находят эти поляны, "
    "задолго до того, как туда доберутся сборщики с корзинами и заплечными коробами. "
    "Старые лесники определяли глубину трясины длинным берёзовым шестом и никогда не ходили "
    "по мхам в одиночку: зелёный ковёр над окном воды выглядит надёжнее любой тропы, а "
    "выбраться из такого окна без товарища почти невозможно даже крепкому мужчине. "
    "Торфяной мох сфагнум впитывает влаги в двадцать раз больше собственного веса."
)
SITE = "https://blog.example.ru"
A, B, C, D = (f"{SITE}/{name}.html" for name in ("a", "b", "c", "d"))
X, Y, Z = "https://copy.example.com/x", "https://spin.example.net/y", "https://gone.example.org/z"
PASSWORD = "rose garden at dusk"


def _copy(page: str, url: str, share: float, kind: str, spans: tuple[tuple[int, int], ...],
          last: str = DAY1, gone: str | None = None) -> Copy:  # fmt: skip
    return Copy(page, url, share, kind, DAY1, last, gone, spans)


def _new(run: int, copy: Copy) -> Change:
    return Change(run, copy.page, copy.url, "new", copy.share, None, copy.kind, DAY1, DAY1)


def make_watch(folder: Path, title: str = "Клюква на болотах") -> None:
    """A watch of four pages after two runs: page A copied word for word by X, rewritten by
    Y (whose part overlaps X's), and once copied by Z, gone in the second run; B copied
    once, C five times, D never."""
    pages = [
        WatchedPage(A, None, None, title, TEXT, DAY1),
        WatchedPage(B, None, None, "Ремонт часов", TEXT[:200], DAY1),
        WatchedPage(C, None, None, None, TEXT[:300], DAY1),
        WatchedPage(D, None, None, "Торф", TEXT[300:], DAY1),
    ]
    first = {
        A: [_copy(A, X, 0.2, "copied", ((0, 120),)),
            _copy(A, Y, 0.1667, "rewritten", ((100, 200),)),
            _copy(A, Z, 0.0833, "copied", ((400, 450),))],
        B: [_copy(B, "https://b.example.net/1", 0.5, "copied", ((0, 100),))],
        C: [_copy(C, f"https://c{n}.example.net/p", 0.05 * n, "rewritten", ((0, 15 * n),))
            for n in range(1, 6)],
        D: [],
    }  # fmt: skip
    with WatchStore(folder, create=True) as store:
        for page in pages:
            store.put_page(page)
        ids = {page.url: number for number, page in store.pages()}
        run = store.start_run(DAY1, 40, [(ids[p.url], 5) for p in pages])
        for entry, page in zip(store.plan(run), pages, strict=True):
            copies = first[page.url]
            store.page_checked(run, entry, DAY1, copies, [_new(run, c) for c in copies], (5, 1))
        store.finish_run(run, DAY1_END)
        run = store.start_run(DAY2, 10, [(ids[A], 10)])
        grown = _copy(A, X, 0.3, "copied", ((0, 120), (300, 360)), DAY2)
        seen = _copy(A, Y, 0.1667, "rewritten", ((100, 200),), DAY2)
        gone = _copy(A, Z, 0.0833, "copied", ((400, 450),), gone=DAY2)
        changes = [
            Change(run, A, X, "grown", 0.3, 0.2, "copied", DAY1, DAY2),
            Change(run, A, Z, "gone", 0.0, 0.0833, "copied", DAY1, DAY1),
        ]
        store.page_checked(run, store.plan(run)[0], DAY2, [grown, seen, gone], changes, (9, 0))
        store.finish_run(run, DAY2_END)


@pytest.fixture
def watches(tmp_path: Path) -> Path:
    """A folder of watches: ``blog`` and ``shop`` (readable), ``broken`` (a damaged
    database), ``future`` (another format), and ``notes`` (no watch.db: not a watch)."""
    root = tmp_path / "watches"
    make_watch(root / "blog")
    make_watch(root / "shop", title="<script>alert(1)</script>")
    (root / "broken").mkdir()
    (root / "broken" / "watch.db").write_bytes(b"not a database at all " * 200)
    (root / "future").mkdir()
    with sqlite3.connect(root / "future" / "watch.db") as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('format', '9')")
    db.close()
    (root / "notes").mkdir()
    (root / "notes" / "readme.txt").write_text("not a watch", "utf-8")
    return root


@pytest.fixture
def client(watches: Path) -> PageClient:
    return PageClient(create_app(watches=watches))


def _main(page: str) -> str:
    return page.split("<main>")[1].split("</main>")[0]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment.replace("<br>", " ")))


def _cells(row: str) -> list[str]:
    """The text of each cell of a table row, its spaces collapsed."""
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
    return [re.sub(r"[ \t\r\n]+", " ", _text(cell)).strip() for cell in cells]


def _row(page: str, attribute: str, value: str) -> list[str]:
    found = re.search(rf'<tr {attribute}="{re.escape(value)}".*?</tr>', page, re.S)
    assert found, (attribute, value)
    return _cells(found.group(0))


def _copy_facts(page: str, url: str) -> str:
    """What the list of copies says of the copy at ``url``, its spaces collapsed."""
    found = re.search(rf'<li data-copy="{re.escape(url)}".*?</li>', page, re.S)
    assert found, url
    return re.sub(r"[ \t\r\n]+", " ", _text(found.group(0))).strip()


def _marks(page: str) -> list[tuple[str, str]]:
    """The marked runs of the page's text: (class, text)."""
    body = page.split('id="page-text">')[1].split("</div>")[0]
    found = re.findall(r'<mark class="(\w+)">(.*?)</mark>', body, re.S)
    return [(kind, html.unescape(text)) for kind, text in found]


def test_the_list_shows_each_watch_and_says_why_one_cannot_be_read(client: PageClient) -> None:
    answer = client.get("/watch")
    assert answer.status_code == 200
    page = _main(answer.text)
    assert "<h1>Мониторинг</h1>" in page
    names = re.findall(r'<tr data-watch="([^"]+)"', page)
    assert names == ["blog", "broken", "future", "shop"]  # notes holds no watch.db
    # pages, pages copied, copies there now, the last run, and its new, grown, back, gone
    assert _row(page, "data-watch", "blog") == [
        "blog", "4", "3", "8", "01.12.2026, 06:00", "0", "1", "0", "1"
    ]  # fmt: skip
    assert 'href="/watch/blog"' in page
    assert _row(page, "data-watch", "broken") == [
        "broken", "База наблюдения не читается: она повреждена или это не база наблюдения."
    ]  # fmt: skip
    assert "другого формата (9)" in _row(page, "data-watch", "future")[1]
    assert '<a href="/watch/broken">' in page  # its page says the same


def test_the_navigation_links_the_watches_only_on_a_server_that_has_them(watches: Path) -> None:
    with_watches = PageClient(create_app(watches=watches)).get("/").text
    assert re.search(r'<a href="/watch">Мониторинг</a>', with_watches)
    assert "Мониторинг" not in PageClient(create_app()).get("/").text
    assert PageClient(create_app()).get("/watch").status_code == 404


def test_a_watch_shows_its_runs_its_pages_most_copied_first_and_its_changes(
    client: PageClient,
) -> None:
    page = _main(client.get("/watch/blog").text)
    assert "<h1>Мониторинг: blog</h1>" in page
    summary = _text(re.search(r'<p id="summary">(.*?)</p>', page, re.S).group(1))
    assert " ".join(summary.split()).startswith("4 страницы, 3 страницы скопированы, 8 копий.")
    runs = re.findall(r'<tr><th scope="row" class="num">.*?</tr>', page, re.S)
    assert [_cells(run) for run in runs] == [
        ["2", "01.12.2026, 06:00", "01.12.2026, 06:01", "1 из 1", "9", "0", "1", "0", "1"],
        ["1", "02.11.2026, 06:00", "02.11.2026, 06:03", "4 из 4", "20 (4 из кэша)",
         "9", "0", "0", "0"],
    ]  # fmt: skip
    assert 'id="unfinished"' not in page  # every run finished
    order = re.findall(r'<tr data-page="(\d+)"', page)
    assert order == ["2", "1", "3", "4"]  # B 50 %, A 30 %, C 25 %, D none
    # page, copies there now, the most complete one's share, copies gone, last checked
    assert _row(page, "data-page", "2") == [
        "Ремонт часов https://blog.example.ru/b.html", "1 копия", "50,0\xa0%", "—",
        "02.11.2026, 06:00",
    ]  # fmt: skip
    assert _row(page, "data-page", "1")[1:4] == ["2 копии", "30,0\xa0%", "1"]  # Z is gone
    assert _row(page, "data-page", "3") == [C, "5 копий", "25,0\xa0%", "—", "02.11.2026, 06:00"]
    assert _row(page, "data-page", "4")[1:4] == ["—", "—", "—"]
    changes = re.findall(r'<tr data-change="(\w+)">', page)
    assert changes[:2] == ["grown", "gone"] and changes.count("new") == 9
    assert _row(page, "data-change", "grown") == [
        "01.12.2026, 06:00", "Клюква на болотах", X, "выросла", "20,0\xa0% → 30,0\xa0%",
        "скопировано",
    ]  # fmt: skip
    assert f'<a href="{X}" rel="noopener noreferrer nofollow">' in page


def test_a_page_marks_what_its_copies_hold_beside_its_copies(client: PageClient) -> None:
    answer = client.get("/watch/blog/page/1")
    assert answer.status_code == 200
    page = _main(answer.text)
    # X holds [0, 120) and [300, 360) word for word; Y, rewritten, [100, 200); Z is gone
    assert _marks(page) == [
        ("exact", TEXT[0:120]), ("rewrite", TEXT[120:200]), ("exact", TEXT[300:360])
    ]  # fmt: skip
    assert "".join(text for _, text in _marks(page)) == TEXT[0:200] + TEXT[300:360]
    # the copy, its share, kind, first and last seen, and when it went
    assert _copy_facts(page, X) == (
        f"{X} 30,0\xa0% скопировано впервые 02.11.2026 · в последний раз 01.12.2026 "
        "выделить только её"
    )
    assert _copy_facts(page, Y).startswith(f"{Y} 16,7\xa0% рерайт впервые 02.11.2026")
    assert _copy_facts(page, Z) == (
        f"{Z} 8,3\xa0% скопировано впервые 02.11.2026 · в последний раз 02.11.2026 · "
        "пропала 01.12.2026 выделить только её"
    )
    assert page.index(f'data-copy="{Y}"') < page.index(f'data-copy="{Z}"')  # the gone last
    assert '<p id="copy-count">2 копии; пропавших: 1</p>' in page
    for url in (X, Y, Z):
        assert f'<a href="{url}" rel="noopener noreferrer nofollow">{url}</a>' in page
    history = re.findall(r'<tr data-change="(\w+)">', page)
    assert history == ["grown", "gone", "new", "new", "new"]  # the newest run first


@pytest.mark.parametrize(
    ("copy", "kind", "span"), [(Y, "rewrite", (100, 200)), (Z, "exact", (400, 450))]
)
def test_a_copy_chosen_is_the_only_one_marked(
    client: PageClient, copy: str, kind: str, span: tuple[int, int]
) -> None:
    answer = client.get("/watch/blog/page/1", params={"copy": copy})
    page = _main(answer.text)
    assert _marks(page) == [(kind, TEXT[span[0] : span[1]])]
    assert re.search(rf'<li data-copy="{re.escape(copy)}" class="picked[^"]*" aria-current', page)
    assert _copy_facts(page, copy).endswith(" выделена")
    link = re.search(r'<p class="pick"><a href="([^"]+)"', page).group(1)
    assert link.startswith("/watch/blog/page/1?copy=https%3A%2F%2F")
    chosen = client.get(html.unescape(link))
    assert len(_marks(_main(chosen.text))) >= 1
    unknown = _main(client.get("/watch/blog/page/1", params={"copy": "https://x.test/"}).text)
    assert _marks(unknown) == _marks(_main(client.get("/watch/blog/page/1").text))


def test_the_marks_cover_exactly_the_characters_of_the_spans() -> None:
    copies = [_copy(A, X, 0.1, "copied", ((5, 9), (9, 12), (40, 400))),
              _copy(A, Y, 0.1, "rewritten", ((0, 7), (30, 45)))]  # fmt: skip
    runs = marked_text("0123456789" * 5, copies)
    assert "".join(r.text for r in runs) == "0123456789" * 5  # nothing lost, nothing added
    kinds = [(r.kind, len(r.text)) for r in runs]
    assert kinds == [("rewrite", 5), ("exact", 7), (None, 18), ("rewrite", 10), ("exact", 10)]


@pytest.mark.parametrize(
    "path",
    ["/watch/%2e%2e", "/watch/%2E%2E/page/1", "/watch/%2e", "/watch/%2Fetc", "/watch/%2Fetc/page/1",
     "/watch/..%2F..%2Fetc", "/watch/notes", "/watch/notes/page/1", "/watch/nowhere",
     "/watch/blog%2F..", "/watch/blog/page/99", "/watch/blog/page/abc", "/watch/blog/page/-1",
     "/watch/blog/page/1%2F..%2F..", "/watch/outside", "/watch/outside/page/1"],
)  # fmt: skip
def test_no_name_reaches_beyond_the_folder_of_watches(
    client: PageClient, watches: Path, path: str
) -> None:
    elsewhere = watches.parent / "elsewhere"
    make_watch(elsewhere)
    (watches / "outside").symlink_to(elsewhere, target_is_directory=True)
    answer = client.get(path)
    assert answer.status_code == 404, path
    assert "Клюква" not in answer.text


@pytest.mark.parametrize("name", ["..", ".", "", "/", "/etc", str(Path.home()), "blog/..", "notes"])
def test_a_name_is_a_watch_only_when_it_is_one_of_the_folders(watches: Path, name: str) -> None:
    with pytest.raises(FieldError) as refused:
        watch_folder(watches, name)
    assert refused.value.status == 404
    assert watch_folder(watches, "blog") == (watches / "blog").resolve()


def test_a_damaged_or_foreign_watch_says_so_on_its_page(client: PageClient) -> None:
    broken = client.get("/watch/broken")
    assert broken.status_code == 200
    assert "База наблюдения не читается" in _main(broken.text)
    future = client.get("/watch/future/page/1")
    assert "База наблюдения другого формата (9)" in _main(future.text)
    refused = client.get("/watch/nowhere")
    assert "Такого наблюдения на этом сервере нет" in _main(refused.text)


def test_what_a_watch_holds_is_escaped(client: PageClient) -> None:
    shop = client.get("/watch/shop").text
    assert "<script>alert(1)</script>" not in shop
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shop
    assert "<script>alert" not in client.get("/watch/shop/page/1").text


def test_a_folder_that_is_a_watch_is_served_alone(watches: Path) -> None:
    client = PageClient(create_app(watches=watches / "blog"))
    assert re.findall(r'<tr data-watch="([^"]+)"', client.get("/watch").text) == ["blog"]
    assert client.get("/watch/blog/page/1").status_code == 200
    assert client.get("/watch/shop").status_code == 404


def test_reading_creates_nothing_and_a_watch_being_written_is_read(watches: Path) -> None:
    before = sorted(p.name for p in (watches / "blog").iterdir())
    client = PageClient(create_app(watches=watches))
    for path in ("/watch", "/watch/blog", "/watch/blog/page/1"):
        assert client.get(path).status_code == 200
    assert sorted(p.name for p in (watches / "blog").iterdir()) == before == ["watch.db"]
    with WatchStore(watches / "blog") as store:  # a run going on: its log beside the database
        run = store.start_run("2026-12-02T06:00:00+00:00", 5, [(4, 5)])
        copy = _copy(D, "https://d.example.net/", 0.4, "copied", ((0, 50),))
        store.page_checked(run, store.plan(run)[0], DAY2, [copy], [_new(run, copy)], (5, 0))
        store.db.execute("BEGIN IMMEDIATE")  # and a write under way, not committed
        store.db.execute("UPDATE pages SET title='half-written'")
        page = _main(client.get("/watch/blog").text)
        assert "9 копий" in page and "не закончен" in page and "half-written" not in page
        assert "следующий canon watch run продолжит его" in page
        assert _marks(_main(client.get("/watch/blog/page/4").text)) == [("exact", TEXT[300:350])]
        store.db.execute("ROLLBACK")


def test_the_watches_need_a_signed_in_user_on_a_server_with_users(
    watches: Path, tmp_path: Path
) -> None:
    users = tmp_path / "team.users"
    Accounts(users, create=True).add("anna", PASSWORD)
    with PageClient(create_app(watches=watches, users=users)) as client:
        for path in ("/watch", "/watch/blog", "/watch/blog/page/1"):
            answer = client.get(path, follow_redirects=False)
            assert answer.status_code == 303 and "/signin?next=" in answer.headers["location"]
        signed = client.post("/signin", data={"name": "anna", "password": PASSWORD, "next": "/"},
                             follow_redirects=False)  # fmt: skip
        assert signed.status_code == 303
        assert "Клюква на болотах" in client.get("/watch/blog/page/1").text


def test_the_pages_speak_english_when_asked(client: PageClient) -> None:
    page = _main(client.get("/watch/blog?lang=en").text)
    assert "4 pages, 3 pages copied, 8 copies." in " ".join(page.split())
    assert _row(page, "data-page", "2")[1] == "1 copy"
    assert _row(page, "data-page", "1")[1] == "2 copies"
    assert 'href="/watch/blog/page/1?lang=en"' in page
    copies = _main(client.get("/watch/blog/page/1?lang=en").text)
    assert "?copy=https%3A%2F%2Fcopy.example.com%2Fx&amp;lang=en" in copies
    assert "30.0%" in copies and "2026-12-01" in copies


def test_serve_refuses_a_folder_of_watches_that_is_not_there(tmp_path: Path) -> None:
    answer = CliRunner().invoke(cli, ["serve", "--watches", str(tmp_path / "nowhere")])
    assert answer.exit_code == 2
    assert answer.output.startswith("canon: error:") and "--watches" in answer.output
    assert len(answer.output.strip().splitlines()) == 1
