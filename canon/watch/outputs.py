"""What a run leaves for people and programs: ``changes.csv`` in the watch's folder, and a
command told of the changes (a JSON summary on its standard input)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ..errors import OutputError
from .records import RunReport

__all__ = ["CHANGES_CSV", "COLUMNS", "NOTIFY_TIMEOUT", "notify", "write_changes"]

CHANGES_CSV = "changes.csv"
COLUMNS = (
    "run", "page", "url", "change", "share", "previous", "kind", "first_seen", "last_seen",
)  # fmt: skip
NOTIFY_TIMEOUT = 60.0  # seconds the command told of changes may take


def write_changes(folder: Path, report: RunReport) -> Path:
    """``changes.csv``: the changes of the run, one a row (only the header when none)."""
    path = folder / CHANGES_CSV
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(COLUMNS)
            for change in report.changes:
                row = change.to_dict()
                writer.writerow(["" if row[c] is None else row[c] for c in COLUMNS])
        os.replace(temporary, path)
    except OSError as exc:
        raise OutputError(path, f"cannot be written ({exc.strerror or exc})") from None
    return path


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
