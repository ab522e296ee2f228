"""Without an extra, its feature says in one line which extra to install, and exits 2.

Simulated: every extra is installed for the tests, so each run starts ``python -m canon`` (or a
library call) with a ``sitecustomize`` on ``PYTHONPATH`` whose import hook refuses the named
packages, as an environment without them would.  The rest of canon runs for real.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import EXAMPLES, ROOT

from canon.extras import EXTRAS

# A meta-path finder first in line: the packages named in CANON_TEST_BLOCKED cannot be imported.
BLOCKER = """
import os
import sys

BLOCKED = set(filter(None, os.environ.get("CANON_TEST_BLOCKED", "").split(",")))


class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Blocker())
"""

EVERY_EXTRA = sorted({p.module for packages in EXTRAS.values() for p in packages})
ORIGINAL, REWRITE = str(EXAMPLES / "original.txt"), str(EXAMPLES / "rewrite.txt")


@pytest.fixture(scope="module")
def hook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("blocker")
    (folder / "sitecustomize.py").write_text(BLOCKER, "utf-8")
    return folder


def _run(hook: Path, blocked: list[str], *args: str, cwd: Path = ROOT):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(hook), str(ROOT), env.get("PYTHONPATH", "")])
    env["CANON_TEST_BLOCKED"] = ",".join(blocked)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120)  # fmt: skip


def test_the_blocker_blocks(hook: Path) -> None:
    result = _run(hook, ["fastapi"], "-c", "import fastapi")
    assert result.returncode == 1 and "ModuleNotFoundError" in result.stderr
    assert _run(hook, [], "-c", "import fastapi").returncode == 0


@pytest.mark.parametrize(
    ("blocked", "args", "line"),
    [
        ("fastapi", ["serve", "--port", "9"], "serve needs the web extra"),
        ("pebble", ["serve", "--port", "9"], "serve needs the web extra"),
        ("xlsxwriter", ["serve", "--port", "9"], "serve needs the audit extra"),
        ("fastapi,protego", ["serve", "--port", "9"], "serve needs the web extra"),
        ("protego", ["audit", "--out", "{tmp}/audit", "http://127.0.0.1:9/"],
         "audit needs the audit extra"),
        ("usp", ["audit", "--reanalyze", "{tmp}"], "audit needs the audit extra"),
        ("matplotlib", ["compare", ORIGINAL, REWRITE, "--plot", "{tmp}/k.png"],
         "compare --plot needs the plot extra"),
        ("distributed", ["dedup", "--engine", "dask", ORIGINAL, REWRITE],
         "dedup --engine dask needs the dask extra"),
        ("xlsxwriter", ["dedup", ORIGINAL, REWRITE, "--format", "xlsx", "--out", "{tmp}/d.xlsx"],
         "dedup --format xlsx needs the audit extra"),
    ],
)  # fmt: skip
def test_a_command_names_the_extra_it_needs(
    hook: Path, tmp_path: Path, blocked: str, args: list[str], line: str
) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = _run(hook, blocked.split(","), "-m", "canon", *args)
    extra = line.split(" the ")[1].split()[0]
    assert result.stderr == f"canon: {line}: pip install 'canon[{extra}]'\n"
    assert result.returncode == 2 and result.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written, nothing begun


def test_debug_shows_the_import_error_behind_it(hook: Path) -> None:
    result = _run(hook, ["fastapi"], "-m", "canon", "--debug", "serve", "--port", "9")
    assert result.returncode == 1 and "canon.errors.MissingExtra" in result.stderr


def test_an_html_report_without_the_plot_extra_has_no_plot(hook: Path, tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    result = _run(hook, ["matplotlib"], "-m", "canon", "compare", ORIGINAL, REWRITE,
                  "--html", str(report))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == "canon: the report has no plot: pip install 'canon[plot]' draws it\n"
    assert report.is_file() and "data:image/png" not in report.read_text("utf-8")
    with_plot = _run(hook, [], "-m", "canon", "compare", ORIGINAL, REWRITE, "--html", str(report))
    assert with_plot.returncode == 0 and with_plot.stderr == ""
    assert "data:image/png" in report.read_text("utf-8")


def test_without_any_extra_the_quick_start_and_the_help_work(hook: Path) -> None:
    result = _run(hook, EVERY_EXTRA, "-m", "canon", "compare", ORIGINAL, REWRITE)
    assert result.returncode == 0, result.stderr
    assert "Jaccard" in result.stdout or "jaccard" in result.stdout.lower()
    for command in ([], ["serve"], ["audit"], ["dedup"], ["compare"]):
        help_ = _run(hook, EVERY_EXTRA, "-m", "canon", *command, "--help")
        assert help_.returncode == 0 and help_.stdout.startswith("Usage: "), help_.stderr


LIBRARY = """
import sys
import canon

try:
    {call}
except canon.MissingExtra as error:
    print(error.extra, error.package, isinstance(error, ImportError), error, sep="|")
"""


@pytest.mark.parametrize(
    ("blocked", "call", "line"),
    [
        ("fastapi", "import canon.web",
         "web|fastapi|True|the web service needs the web extra: pip install 'canon[web]'"),
        ("protego",
         "canon.audit_site(canon.CrawlSettings(starts=('http://127.0.0.1:9/',)), sys.argv[1])",
         "audit|protego|True|the site audit needs the audit extra: pip install 'canon[audit]'"),
        ("matplotlib",
         "from canon.report.plot import plot_png; "
         "plot_png(canon.compare_table('раз два три', 'раз два три', ks=(1,)))",
         "plot|matplotlib|True|the similarity plot needs the plot extra: "
         "pip install 'canon[plot]'"),
        ("distributed", "from canon.dedup.dask import connect; connect(None).__enter__()",
         "dask|distributed|True|the Dask engine needs the dask extra: pip install 'canon[dask]'"),
    ],
)  # fmt: skip
def test_the_library_raises_missing_extra_naming_the_extra(
    hook: Path, tmp_path: Path, blocked: str, call: str, line: str
) -> None:
    folder = tmp_path / "audit"
    result = _run(hook, [blocked], "-c", LIBRARY.format(call=call), str(folder))
    assert result.returncode == 0, result.stderr
    assert result.stdout == line + "\n"
    assert not folder.exists()
