"""What a run leaves for people and programs: in the watch's folder, ``changes.csv``,
``changes.xlsx`` (with XlsxWriter, the ``audit`` extra) and ``report.html`` of the latest run,
the same files of each run kept in ``runs/N/``; and a command told of the changes (a JSON
summary on its standard input).

Every file is written whole to a temporary file beside it, then put in place at once
(:func:`os.replace`): a reader never sees half a file."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ..errors import OutputError
from ..files import replacing
from .records import RunReport
from .report import RunView, report_html
from .xlsx import changes_xlsx, xlsx_available

__all__ = [
    "CHANGES_CSV",
    "CHANGES_XLSX",
    "COLUMNS",
    "NOTIFY_TIMEOUT",
    "REPORT_HTML",
    "RUNS_FOLDER",
    "changes_csv",
    "notify",
    "run_folder",
    "write_changes",
    "write_outputs",
]

CHANGES_CSV = "changes.csv"
CHANGES_XLSX = "changes.xlsx"
REPORT_HTML = "report.html"
RUNS_FOLDER = "runs"  # runs/N/ keeps the files of run N
COLUMNS = (
    "run", "page", "url", "change", "share", "previous", "kind", "first_seen", "last_seen",
)  # fmt: skip
NOTIFY_TIMEOUT = 60.0  # seconds the command told of changes may take


def _replace(path: Path, data: bytes) -> None:
    """``data`` written to ``path`` whole (its folder made when missing)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(path, f"cannot write ({exc.strerror or exc})") from None
    with replacing(path, "wb") as out:
        out.write(data)


def changes_csv(report: RunReport) -> bytes:
    """The changes of the run as CSV, one a row (only the header when none)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for change in report.changes:
        row = change.to_dict()
        writer.writerow(["" if row[c] is None else row[c] for c in COLUMNS])
    return out.getvalue().encode("utf-8")


def write_changes(folder: Path, report: RunReport) -> Path:
    """``changes.csv``: the changes of the run, one a row (only the header when none)."""
    path = folder / CHANGES_CSV
    _replace(path, changes_csv(report))
    return path


def run_folder(folder: Path, run: int) -> Path:
    """Where the files of run ``run`` are kept: ``runs/N/`` of the watch's folder."""
    return folder / RUNS_FOLDER / str(run)


def write_outputs(folder: Path, view: RunView, locale: str = "en") -> tuple[Path, ...]:
    """The run's ``report.html``, ``changes.csv`` and ``changes.xlsx`` (when XlsxWriter is
    installed) in ``locale``'s language: kept in ``runs/N/``, and the latest in ``folder``,
    whose paths are returned."""
    files = {
        REPORT_HTML: report_html(view, locale, folder).encode("utf-8"),
        CHANGES_CSV: changes_csv(view.report),
    }
    if xlsx_available():
        files[CHANGES_XLSX] = changes_xlsx(view, locale)
    kept = run_folder(folder, view.report.run)
    for name, data in files.items():
        _replace(kept / name, data)
    for name, data in files.items():
        _replace(folder / name, data)
    return tuple(folder / name for name in files)


def notify(command: Sequence[str], report: RunReport, folder: Path) -> str | None:
    """Run ``command`` (no shell) with the run's summary as JSON on its standard input; why
    it failed, or None."""
    summary = {"folder": str(folder), **report.to_dict()}
    try:
        done = subprocess.run(
            list(command),
            input=json.dumps(summary, ensure_ascii=False).encode("utf-8"),
            capture_output=True,
            timeout=NOTIFY_TIMEOUT,
            check=False,
        )
    except (OSError, ValueError) as exc:
        return f"{command[0]}: cannot be run ({getattr(exc, 'strerror', None) or exc})"
    except subprocess.TimeoutExpired:
        return f"{command[0]}: still running after {NOTIFY_TIMEOUT:g} seconds, stopped"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"{command[0]}: exited with status {done.returncode}" + (
            f" ({said[-1][:200]})" if said else ""
        )
    return None
