"""Shared fixtures and hypothesis settings."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@contextlib.contextmanager
def _environ(name: str, folder: Path) -> Iterator[None]:
    """``name`` set to ``folder`` for the run, then as it was."""
    before = os.environ.get(name)
    os.environ[name] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


@pytest.fixture(scope="session", autouse=True)
def lemma_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The persisted lemma cache of the whole run (CLI subprocesses too) in a temporary folder,
    never the user's cache directory; one folder for every worker of a parallel run, so the
    synonym classes are built once (the files are written for concurrent processes)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = base.parent / "lemma-cache"
        folder.mkdir(exist_ok=True)
    else:
        folder = tmp_path_factory.mktemp("lemma-cache")
    with _environ("CANON_CACHE_DIR", folder):
        yield folder


@pytest.fixture(scope="session", autouse=True)
def english_locale() -> Iterator[None]:
    """The command line speaks the locale's language: the run is in ``C.UTF-8`` (English),
    whatever the machine's locale; a test wanting Russian says so."""
    names = ("LC_ALL", "LC_MESSAGES", "LANG")
    saved = {name: os.environ.pop(name, None) for name in names}
    os.environ["LANG"] = "C.UTF-8"  # English, and file names in UTF-8 for the browser
    yield
    for name in names:
        os.environ.pop(name, None)
    os.environ.update({name: value for name, value in saved.items() if value is not None})


@pytest.fixture(scope="session", autouse=True)
def user_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's data folder of the whole run (``canon serve`` keeps its secret there) in a
    temporary folder, never the user's own."""
    folder = tmp_path_factory.mktemp("user-data")
    with _environ("XDG_DATA_HOME", folder):
        yield folder


@pytest.fixture
def examples() -> Path:
    return ROOT / "examples"


@pytest.fixture(scope="session")
def site() -> Iterator[object]:
    """A real HTTP server on 127.0.0.1 (a free port) serving the fixture pages."""
    from site_server import serve

    with serve() as running:
        yield running


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Keep each phase's report on the test item, so a fixture can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
