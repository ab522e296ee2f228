"""canon watch: published pages watched against the web, run after run.

Two stand-ins of tests/search_server.py on 127.0.0.1: one is the watched site (its pages
served, never searched), the other the SearXNG instance and the web it searches, whose pages
change between runs: a copy appears, grows, goes and comes back.  Every query the provider
receives is counted there.
"""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from command import CANON, run_cli
from search_server import StandIn, reset

from canon.errors import CanonError
from canon.sources.fetch import FetchOptions
from canon.sources.search.hits import Hit
from canon.sources.search.searxng import SearXNG
from canon.watch import Change, RunSettings, WatchStore, add_pages, run_watch
from canon.watch.lock import locked

A = [
    "Весной на северных болотах просыпается клюква: под тонким слоем талой воды краснеют "
    "прошлогодние ягоды, пережившие зиму под снегом, и журавли первыми находят эти поляны, "
    "задолго до того, как туда доберутся сборщики с корзинами и заплечными коробами.",
    "Старые лесники определяли глубину трясины длинным берёзовым шестом и никогда не ходили "
    "по мхам в одиночку: зелёный ковёр над окном воды выглядит надёжнее любой тропы, а "
    "выбраться из такого окна без товарища почти невозможно даже крепкому мужчине.",
    "Торфяной мох сфагнум впитывает влаги в двадцать раз больше собственного веса, поэтому "
    "в деревнях его клали между брёвнами срубов и подстилали новорождённым телятам; кроме "
    "того, он медленно гниёт и веками хранит пыльцу растений, по которой учёные читают климат.",
]
B = [
    "Мастер по ремонту часов разбирает механизм на бархатной подушке, чтобы крошечные винты "
    "не отскакивали на пол, и раскладывает детали по часовой стрелке в том порядке, в каком "
    "снимал их, иначе сборка превратится в мучительную головоломку на целый вечер.",
    "Балансовое колесо смазывают каплей масла не толще булавочной головки: лишняя смазка "
    "собирает пыль, густеет на морозе и останавливает ход надёжнее, чем сухие камни, а "
    "хороший хронометр после чистки проверяют в пяти положениях и при разной температуре.",
]


def _text(paragraphs: list[str]) -> str:
    return " ".join(paragraphs)


@pytest.fixture
def site_web(servers: tuple[StandIn, StandIn]) -> tuple[StandIn, StandIn]:
    """The watched site (page A, and page B whose canonical link names a page of the web)
    and the web, with nothing copied yet."""
    site, web = (reset(s) for s in servers)
    web.extras = False
    site.served["/a.html"] = ("Клюква на болотах", A, "")
    canonical = f"<link rel='canonical' href='{web.url('/syndicated/b.html')}'>"
    site.served["/b.html"] = ("Ремонт часов", B, canonical)
    web.served["/syndicated/b.html"] = ("Ремонт часов", B, "")  # the canonical target
    web.also.append((site.url("/a.html"), "own", ""))  # the page itself, found by search
    return site, web


def _watch(tmp_path: Path, site: StandIn) -> Path:
    folder = tmp_path / "watch"
    report = add_pages(folder, [site.url("/a.html"), site.url("/b.html")])
    assert report.added and not report.failed
    return folder


def _provider(web: StandIn) -> SearXNG:
    return SearXNG(web.base)


SETTINGS = RunSettings(queries=5, allow_private_results=True, fetch=FetchOptions(deadline=10))


def _changes(changes: Sequence[Change]) -> set[tuple[str, str, str]]:
    """(change, page, copy) by their file names."""
    return {(c.change, c.page.rsplit("/", 1)[1], c.url.rsplit("/", 1)[1]) for c in changes}


def test_history_across_runs(tmp_path: Path, site_web: tuple[StandIn, StandIn]) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    provider = _provider(web)

    web.served["/thief/one.html"] = ("Болота", [A[0]], "")
    first = run_watch(folder, provider, SETTINGS)
    assert first.sent == len(web.queries) <= 5 and first.checked == 2
    assert _changes(first.changes) == {("new", "a.html", "one.html")}
    share = first.changes[0].share
    assert 0.25 < share < 0.45 and first.changes[0].kind == "copied"

    web.queries.clear()
    web.served["/thief/one.html"] = ("Болота", [A[0], A[1]], "")
    web.served["/thief/two.html"] = ("Часы", [B[0]], "")
    second = run_watch(folder, provider, SETTINGS)
    assert len(web.queries) <= 5
    assert _changes(second.changes) == {
        ("grown", "a.html", "one.html"),
        ("new", "b.html", "two.html"),
    }
    grown = next(c for c in second.changes if c.change == "grown")
    assert grown.previous == share and grown.share > share + 0.2

    web.queries.clear()
    del web.served["/thief/one.html"]
    third = run_watch(folder, provider, SETTINGS)
    assert len(web.queries) <= 5
    assert _changes(third.changes) == {("gone", "a.html", "one.html")}

    web.served["/thief/one.html"] = ("Болота", [A[0], A[1]], "")
    fourth = run_watch(folder, provider, SETTINGS)
    assert _changes(fourth.changes) == {("back", "a.html", "one.html")}

    with WatchStore(folder) as store:
        copies = {c.url.rsplit("/", 1)[1]: c for c in store.copies()}
        runs = [store.run_row(n) for n in (1, 2, 3, 4)]
    assert set(copies) == {"one.html", "two.html"}  # never the page itself or its canonical
    one, two = copies["one.html"], copies["two.html"]
    assert one.first_seen == first.changes[0].first_seen <= runs[1].started
    assert one.gone is None and one.last_seen >= runs[3].started
    assert two.first_seen >= runs[1].started and two.last_seen >= runs[3].started
    assert third.changes[0].previous == one.share  # it was gone with the share it had
    with WatchStore(folder) as store:
        text = next(p.text for _, p in store.pages() if p.url.endswith("/a.html"))
    held = " ".join(text[start:end] for start, end in one.spans)  # what the copy holds
    assert sum(end - start for start, end in one.spans) == pytest.approx(
        one.share * len(text), abs=2
    )
    assert A[0][:60] in held and A[1][-60:-1] in held and A[2][:30] not in held
    assert site.hits["/a.html"] == 1 and web.hits["/syndicated/b.html"] == 0  # never fetched

    rows = list(csv.DictReader((folder / "changes.csv").open(encoding="utf-8")))
    assert [(r["run"], r["change"]) for r in rows] == [("4", "back")]


def test_budget_across_pages(tmp_path: Path, site_web: tuple[StandIn, StandIn]) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    settings = RunSettings(queries=2, allow_private_results=True)
    first = run_watch(folder, _provider(web), settings)
    assert len(web.queries) == first.sent == 2 and first.planned == 1  # page A wants 3
    second = run_watch(folder, _provider(web), settings)
    assert len(web.queries) == 4 and second.planned == 1  # page B, never checked, is next
    with WatchStore(folder) as store:
        assert all(page.checked for _, page in store.pages())


def test_own_sites_and_allowed_partners(tmp_path: Path, site_web: tuple[StandIn, StandIn]) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Болота", A, "")
    partner = web.base.removeprefix("http://")
    add_pages(folder, [], allow=[partner])  # the whole web stand-in republishes by agreement
    report = run_watch(folder, _provider(web), SETTINGS)
    assert report.changes == ()
    fetched = {p for p in web.paths if not p.startswith("/search")}
    assert fetched == set()  # allowed and canonical pages are not even fetched


class _Killed(SearXNG):
    """The provider of a process killed after ``left`` answers."""

    def __init__(self, url: str, left: int) -> None:
        super().__init__(url)
        self.left = left

    def search(self, query: str, count: int, options: FetchOptions) -> list[Hit]:
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().search(query, count, options)


def test_killed_run_resumes_without_sending_again(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Болота", [A[0]], "")
    web.served["/thief/two.html"] = ("Часы", [B[0]], "")
    with pytest.raises(KeyboardInterrupt):
        run_watch(folder, _Killed(web.base, 4), SETTINGS)  # page A done, B midway
    assert len(web.queries) == 4
    report = run_watch(folder, _provider(web), RunSettings(queries=50, allow_private_results=True))
    assert report.resumed and report.run == 1 and report.budget == 5
    sent = Counter(q for _, q in web.queries)
    assert len(web.queries) == 5 and max(sent.values()) == 1  # no query twice
    assert _changes(report.changes) == {
        ("new", "a.html", "one.html"),
        ("new", "b.html", "two.html"),
    }
    assert not (folder / "cache" / "run-1").exists()


def test_killed_process_resumes_without_sending_again(
    tmp_path: Path, site_web: tuple[StandIn, StandIn]
) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    web.served["/thief/one.html"] = ("Болота", [A[0]], "")
    web.slow = 0.5  # each query waits: the process is killed with one in flight
    args = ["watch", "run", folder, "--queries", "5", "--web", f"searxng:{web.base}",
            "--allow-private-results"]  # fmt: skip

    def asked() -> int:  # queries received, answered or not
        return sum(p.startswith("/search") for p in web.paths)

    process = subprocess.Popen([*CANON, *map(str, args)], stdout=subprocess.DEVNULL)
    try:
        ends = time.monotonic() + 60
        while asked() < 3 and time.monotonic() < ends and process.poll() is None:  # 2 answered
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    time.sleep(web.slow + 0.3)  # a query in flight at the kill is answered to no one
    killed = [q for _, q in web.queries]
    assert len(killed) == 3  # two answered, one in flight: answered to no one
    web.slow = 0.0
    web.queries.clear()
    ran = run_cli("watch", "run", folder, "--queries", "9", "--allow-private-results")
    assert ran.returncode == 0, ran.stderr
    assert "taken up where it stopped" in ran.stdout and "one.html" in ran.stdout
    resumed = [q for _, q in web.queries]
    assert len(set(killed + resumed)) == 5 == len(killed[:2] + resumed)  # within the budget
    assert not set(killed[:2]) & set(resumed)  # the answers received are never asked again


def test_cli_run_list_and_notify(tmp_path: Path, site_web: tuple[StandIn, StandIn]) -> None:
    site, web = site_web
    folder = tmp_path / "watch"
    added = run_cli("watch", "add", folder, site.url("/a.html"), site.url("/b.html"))
    assert added.returncode == 0, added.stderr
    web.served["/thief/one.html"] = ("Болота", [A[0]], "")
    told = tmp_path / "told.json"
    notify = (
        f"{sys.executable} -c 'import sys; open(sys.argv[1], \"w\").write(sys.stdin.read())' {told}"
    )
    ran = run_cli(
        "watch", "run", folder, "--queries", "5", "--web", f"searxng:{web.base}",
        "--allow-private-results", "--notify-cmd", notify,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "+ new" in ran.stdout and "one.html" in ran.stdout
    summary = json.loads(told.read_text("utf-8"))
    assert summary["counts"]["new"] == 1 and summary["changes"][0]["url"].endswith("one.html")
    again = run_cli("watch", "run", folder, "--queries", "5", "--allow-private-results")
    assert again.returncode == 0 and "no change" in again.stdout  # the provider was kept
    listed = run_cli("watch", "list", folder, "--json")
    assert [c["url"].rsplit("/", 1)[1] for c in json.loads(listed.stdout)] == ["one.html"]


def test_two_runs_at_once(tmp_path: Path, site_web: tuple[StandIn, StandIn]) -> None:
    site, web = site_web
    folder = _watch(tmp_path, site)
    with locked(folder):
        ran = run_cli("watch", "run", folder, "--web", f"searxng:{web.base}")
    assert ran.returncode == 2
    assert ran.stderr.count("\n") == 1 and "another run of this watch" in ran.stderr
    assert web.queries == []


@pytest.mark.parametrize("case", ["missing", "not-a-watch", "no-provider", "unconfigured"])
def test_refusals_in_one_line(tmp_path: Path, site_web: tuple[StandIn, StandIn], case: str) -> None:
    site, _ = site_web
    folder = tmp_path / "watch"
    env = {"CANON_SEARCH_CONFIG": str(tmp_path / "none.toml"), "CANON_SEARXNG_URL": None}
    args: list[object] = ["watch", "run", folder]
    if case == "not-a-watch":
        folder.mkdir()
    if case in ("no-provider", "unconfigured"):
        add_pages(folder, [site.url("/a.html")])
    if case == "unconfigured":
        args += ["--web", "searxng"]
    ran = run_cli(*args, env=env)
    assert ran.returncode == 2 and ran.stderr.startswith("canon: error: ")
    assert ran.stderr.count("\n") == 1, ran.stderr


def test_bad_settings_are_refused() -> None:
    with pytest.raises(CanonError):
        RunSettings(queries=0)


def test_a_sitemap_names_the_pages_of_a_watch(tmp_path: Path) -> None:
    """A sitemap (served as application/xml, as sites do) lists the pages to watch."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    page = ("<html><head><title>Чай</title></head><body><article><h1>О чае</h1><p>Чай "
            "заваривают водой, которая едва закипела, и настаивают три минуты.</p></article>"
            "</body></html>").encode()  # fmt: skip

    class Site(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            port = self.server.server_address[1]
            entries = "".join(f"<url><loc>http://127.0.0.1:{port}/p{n}.html</loc></url>"
                              for n in range(3))  # fmt: skip
            namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"
            sitemap = f'<urlset xmlns="{namespace}">{entries}</urlset>'.encode()
            body, kind = (
                (sitemap, "application/xml")
                if self.path == "/sitemap.xml"
                else (page, "text/html; charset=utf-8")
            )
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        report = add_pages(tmp_path / "w", [f"{base}/sitemap.xml"],
                           FetchOptions(allow_private=True))  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    assert report.failed == ()
    assert sorted(report.added) == [f"{base}/p{n}.html" for n in range(3)]
    with WatchStore(tmp_path / "w") as store:
        assert sorted(p.url for _, p in store.pages()) == sorted(report.added)
