"""The browser layer's fixtures: Debian's Chromium through Playwright, a real uvicorn on
127.0.0.1 serving an index of two sources, and axe-core to audit a page's accessibility.

Without Chromium (or axe-core, for the accessibility tests) the browser tests are skipped,
saying how to enable them; CI sets CANON_REQUIRE_BROWSER=1, which turns a missing browser or a
missing axe-core into a failure.  .ci/run installs axe-core from npm and names it in CANON_AXE.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import uvicorn_serving

import canon
from canon import Index

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
REQUIRED = bool(os.environ.get("CANON_REQUIRE_BROWSER"))
ROOT = Path(__file__).resolve().parents[2]
# Where axe-core may be: CANON_AXE (set by .ci/run), else an npm install beside the repository.
AXE_PLACES = (
    ROOT / "node_modules" / "axe-core" / "axe.min.js",
    ROOT / ".ci" / "venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js",
)
# A second source: the rewrite's closing paragraph word for word, among sentences of its own.
SECOND_SOURCE = (
    "Заметки о посуде для чая\n\n"
    "Фарфоровый чайник держит тепло дольше стеклянного, а глиняный со временем впитывает "
    "аромат заварки. Соблюдение этих несложных сoветов не требует ни дорогой посуды, ни "
    "каких-то особых навыков. Попробуйте соблюдать их хоть неделю — и, скорее всего, вы "
    "заметите разницу уже с первой же чашки. Чашки лучше мыть без моющих средств.\n"
)


def _browser_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install playwright"
    if not shutil.which(CHROMIUM):
        return f"{CHROMIUM} is missing: apt-get install chromium (CI does)"
    return None


def _missing(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"CANON_REQUIRE_BROWSER is set but {reason}")
    pytest.skip(reason)


# One Chromium per module: Playwright's synchronous API keeps an event loop running while it is
# open, and later tests (asyncio.run in the crawler) need the main thread without one.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    missing = _browser_missing()
    if missing:
        _missing(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )  # fmt: skip
        yield launched
        launched.close()


class Served:
    def __init__(self, url: str, db: Path) -> None:
        self.url = url
        self.db = db


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return ROOT / "examples"


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory, examples_dir: Path) -> Iterator[Served]:
    """A real uvicorn serving canon's app, with a small index of two sources, on a free port."""
    from canon.web import create_app

    folder = tmp_path_factory.mktemp("web")
    second = folder / "dishes.txt"
    second.write_text(SECOND_SOURCE, "utf-8")
    db = folder / "corpus.db"
    with Index(db, create=True) as index:
        canon.add_sources(
            index,
            [str(examples_dir / "original.txt"), str(second)],
            canon.IndexRules([canon.get_profile("raw"), canon.get_profile("lemma")], k=4),
        )
    with uvicorn_serving(create_app(db)) as url:
        yield Served(url, db)


def _keep_screenshot(opened: object, request: pytest.FixtureRequest) -> None:
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)


# A Russian editor's browser (Chromium's Accept-Language follows its locale; en-US otherwise).
BROWSER = {"viewport": {"width": 1280, "height": 900}, "locale": "ru-RU"}


@pytest.fixture
def page(browser, request: pytest.FixtureRequest) -> Iterator[object]:
    context = browser.new_context(**BROWSER)
    opened = context.new_page()
    yield opened
    _keep_screenshot(opened, request)
    context.close()


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core's script (npm install axe-core@4), found by CANON_AXE or beside the repository."""
    named = os.environ.get("CANON_AXE")
    places = [Path(named)] if named else list(AXE_PLACES)
    for place in places:
        if place.is_file():
            return place
    _missing(f"axe-core is missing at {', '.join(map(str, places))}: npm install axe-core@4")
    raise AssertionError("unreachable")


def _violations(page: object, impacts: tuple[str, ...] = ("serious", "critical")) -> list:
    """axe-core's violations on the page as it is now, of the given impacts: each as
    ``(rule id, impact, help, first target)``."""
    page.add_script_tag(path=str(page.axe_script))
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
             .map(v => [v.id, v.impact, v.help, v.nodes.map(n => n.target.join(" "))[0] || ""])"""
    )
    return [tuple(v) for v in found if v[1] in impacts]


@pytest.fixture
def audited(browser, axe_script: Path, request: pytest.FixtureRequest) -> Iterator[object]:
    """A page whose context lets a test inject axe-core past the pages' script policy (the
    policy allows the app's own scripts only); ``page.violations()`` runs axe on it as it is."""
    context = browser.new_context(**BROWSER, bypass_csp=True)
    opened = context.new_page()
    opened.axe_script = axe_script
    opened.violations = lambda: _violations(opened)
    yield opened
    _keep_screenshot(opened, request)
    context.close()
