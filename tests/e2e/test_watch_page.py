"""The watches of ``canon watch`` as a site's editor reads them, in a real Chromium against a
real uvicorn: the list, a watch and a page with its copies, at a desk's width and a phone's,
none wider than the window and none with a serious accessibility violation; a copy chosen by
its link marks only the characters it holds, in the check page's colours.

The watch is a real folder written by :class:`~canon.watch.WatchStore` as a run writes it.
The fixtures (Chromium, axe-core) are in tests/e2e/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import uvicorn_serving

from canon.watch import Change, Copy, WatchedPage, WatchStore

pytestmark = pytest.mark.browser

WIDTHS = {"desk": 1280, "phone": 390}
DAY1, DAY2 = "2026-11-02T06:00:00+00:00", "2026-12-01T06:00:00+00:00"
TEXT = (
    "Весной на северных болотах просыпается клюква: под тонким слоем талой воды краснеют "
    "прошлогодние ягоды, пережившие зиму под снегом, и журавли первыми находят эти поляны, "
    "задолго до того, как туда доберутся сборщики с корзинами и заплечными коробами.\n\n"
    "Старые лесники определяли глубину трясины длинным берёзовым шестом и никогда не ходили "
    "по мхам в одиночку: зелёный ковёр над окном воды выглядит надёжнее любой тропы, а "
    "выбраться из такого окна без товарища почти невозможно даже крепкому мужчине."
)
PAGE = "https://blog.example.ru/cranberry/spring-on-the-northern-marshes.html"
COPIES = [  # url, share, kind, spans
    ("https://aggregator.example.com/news/2026/12/01/a-very-long-address-of-a-copied-article",
     0.42, "copied", ((0, 120), (250, 300))),
    ("https://spin.example.net/klyukva", 0.2, "rewritten", ((100, 190),)),
    ("https://forum.example.org/t/5", 0.1, "copied", ((330, 380),)),
]  # fmt: skip
# The marks of the page's text: (class, text, background colour).
MARKS = """() => [...document.querySelectorAll("#page-text mark")].map(
  m => [m.className, m.textContent, getComputedStyle(m).backgroundColor])"""


def _watch(folder: Path) -> None:
    with WatchStore(folder, create=True) as store:
        store.put_page(WatchedPage(PAGE, None, None, "Клюква на болотах", TEXT, DAY1))
        store.put_page(WatchedPage(PAGE + "?2", None, None, "Торф", TEXT[200:], DAY1))
        run = store.start_run(DAY1, 20, [(1, 10), (2, 10)])
        entries = store.plan(run)
        copies = [Copy(PAGE, url, share, kind, DAY1, DAY2, None, spans)
                  for url, share, kind, spans in COPIES]  # fmt: skip
        changes = [
            Change(run, PAGE, c.url, "new", c.share, None, c.kind, DAY1, DAY1) for c in copies
        ]
        store.page_checked(run, entries[0], DAY1, copies, changes, (10, 0))
        store.page_checked(run, entries[1], DAY1, [], [], (4, 0))
        store.finish_run(run, DAY2)


@pytest.fixture(scope="module")
def watches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn showing a folder of one watch, ``blog``."""
    from canon.web import create_app

    root = tmp_path_factory.mktemp("watches")
    _watch(root / "blog")
    with uvicorn_serving(create_app(watches=root)) as url:
        yield url


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
@pytest.mark.parametrize("path", ["/watch", "/watch/blog", "/watch/blog/page/1"])
def test_the_watch_pages_read_at_a_desk_and_on_a_phone(
    audited, watches: str, path: str, width: int
) -> None:
    audited.set_viewport_size({"width": width, "height": 900})
    audited.goto(watches + path)
    assert audited.get_attribute("html", "lang") == "ru"
    overflow = audited.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert overflow[0] <= overflow[1], overflow
    assert audited.violations() == []


def test_a_copy_chosen_is_the_only_one_marked_in_the_check_pages_colours(
    page, watches: str
) -> None:
    page.goto(watches + "/watch")
    page.click("nav a:has-text('Мониторинг')")
    page.click("table.watches a:has-text('blog')")
    assert page.inner_text("#summary").startswith("2 страницы, 1 страница скопирована, 3 копии.")
    page.click("table.pages a:has-text('Клюква на болотах')")
    assert page.inner_text("h1") == "Клюква на болотах"
    marks = page.evaluate(MARKS)
    copied = page.evaluate(
        "() => getComputedStyle(document.querySelector('.legend mark.exact')).backgroundColor"
    )
    assert [m[:2] for m in marks] == [
        ["exact", TEXT[0:120]], ["rewrite", TEXT[120:190]], ["exact", TEXT[250:300]],
        ["exact", TEXT[330:380]],
    ]  # fmt: skip
    assert {m[2] for m in marks if m[0] == "exact"} == {copied} == {"rgb(244, 166, 166)"}
    assert page.inner_text("#copy-count") == "3 копии"
    spin = page.locator("li[data-copy='https://spin.example.net/klyukva']")
    assert spin.locator("mark").inner_text() == "рерайт"
    assert spin.locator("a[rel='noopener noreferrer nofollow']").count() == 1
    spin.locator("p.pick a").click()
    assert [m[:2] for m in page.evaluate(MARKS)] == [["rewrite", TEXT[100:190]]]
    assert "picked" in spin.get_attribute("class")
    page.click("#chosen a:has-text('Выделить то, что есть во всех копиях')")
    assert len(page.evaluate(MARKS)) == 4
