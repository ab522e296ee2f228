"""The Dask engine on a real LocalCluster of two worker processes: the local engine's output."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed", reason="install the dask extra: pip install 'canon[dask]'")

import canon
from canon.dedup import Entry, dedup
from canon.dedup.dask import connect, dedup_dask
from canon.dedup.settings import Reading
from canon.sources.collection import Item

pytestmark = pytest.mark.dask


@pytest.fixture(scope="module")
def client():
    with connect(None, workers=2) as running:
        yield running


def _entries(seed: int = 3) -> list[Entry]:
    rng = np.random.default_rng(seed)
    base = [np.unique(rng.integers(0, 2**64 - 1, 300, dtype=np.uint64)) for _ in range(300)]
    entries = [Entry(f"d{i}", b, len(b)) for i, b in enumerate(base)]
    for i in range(40):
        keep = int(300 * rng.uniform(0.9, 1.0))
        fresh = rng.integers(0, 2**64 - 1, 300 - keep, dtype=np.uint64)
        copy = np.unique(np.concatenate([base[i][:keep], fresh]))
        entries.append(Entry(f"copy{i}", copy, len(copy)))
    return entries


def test_same_clusters_as_the_local_engine(client) -> None:
    entries = _entries()
    local = dedup(entries, 0.8)
    distributed, failures = dedup_dask(entries, 0.8, client=client, partitions=5)
    assert failures == []
    assert distributed.clusters == local.clusters
    assert (distributed.candidate_pairs, distributed.verified_pairs) == (
        local.candidate_pairs,
        local.verified_pairs,
    )
    assert len(local.clusters) > 30


def test_a_bucket_of_many_copies_is_walked_not_paired_out(client) -> None:
    """300 copies of one page (and near-copies of it) share every band: paired out, that is
    44,850 pairs; walked against the groups already connected, a few thousand at most."""
    entries = _entries(seed=5)[:60]
    rng = np.random.default_rng(8)
    page = entries[0].hashes
    for i in range(300):
        copy = (
            page
            if i % 3
            else np.unique(np.concatenate([page[:-3], rng.integers(0, 2**63, 3, dtype=np.uint64)]))
        )
        entries.append(Entry(f"page{i}", copy, len(copy)))
    local = dedup(entries, 0.8)
    distributed, failures = dedup_dask(entries, 0.8, client=client, partitions=4)
    assert failures == []
    assert distributed.clusters == local.clusters
    biggest = max(len(c.members) for c in local.clusters)
    assert biggest == 301  # the page and its 300 copies
    assert distributed.candidate_pairs < 10_000 and local.candidate_pairs < 10_000


def test_sources_are_read_on_the_workers(client, tmp_path: Path, examples: Path) -> None:
    text = (examples / "original.txt").read_text("utf-8")
    (tmp_path / "a.txt").write_text(text, "utf-8")
    (tmp_path / "b.txt").write_text(text.replace("Чай", "Напиток", 1), "utf-8")
    (tmp_path / "c.txt").write_text((examples / "rewrite.txt").read_text("utf-8"), "utf-8")
    items = [Item(str(tmp_path / n)) for n in ("a.txt", "b.txt", "c.txt", "missing.txt")]
    result, failures = dedup_dask(items, 0.8, Reading(canon.get_profile("lemma"), 4), client=client)
    (cluster,) = result.clusters
    assert cluster.members == (str(tmp_path / "a.txt"), str(tmp_path / "b.txt"))
    assert [f.source for f in failures] == [str(tmp_path / "missing.txt")]


def test_unreachable_scheduler_fails_fast() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    unreachable = connect(f"tcp://127.0.0.1:{port}", timeout=2)
    with pytest.raises(canon.CanonError, match="cannot reach the Dask scheduler"), unreachable:
        pass


def test_dedup_command_with_the_dask_engine(tmp_path: Path, examples: Path) -> None:
    text = (examples / "original.txt").read_text("utf-8")
    for name, body in (("a", text), ("b", text.replace("Чай", "Напиток", 1)), ("c", "новый")):
        (tmp_path / f"{name}.txt").write_text(body, "utf-8")
    runs = {}
    with _port_taken(8787):  # Dask's default dashboard port, as when another cluster runs
        for engine in ("local", "dask"):
            result = subprocess.run(
                [sys.executable, "-m", "canon", "dedup", str(tmp_path), "--engine", engine,
                 "--workers", "2"],
                capture_output=True, text=True, timeout=180,
            )  # fmt: skip
            runs[engine] = [json.loads(line) for line in result.stdout.splitlines()]
            assert result.returncode == 0  # c.txt is too short: left out, and said
            assert "c.txt (fewer words than k)" in result.stderr
            assert "Warning" not in result.stderr  # canon's lines alone
    assert runs["dask"] == runs["local"] and len(runs["local"]) == 1


@contextmanager
def _port_taken(port: int) -> Iterator[None]:
    with socket.socket() as holder:
        with suppress(OSError):  # taken already: by another cluster, which is the point
            holder.bind(("127.0.0.1", port))
            holder.listen()
        yield


def test_a_worker_killed_mid_job_changes_nothing(tmp_path: Path) -> None:
    """SIGKILL one worker process while it holds tasks: Dask reruns them elsewhere."""
    import os
    import signal
    import threading
    import time

    from corpora import make_corpus

    from canon.dedup.stages import read_entries

    docs = make_corpus(tmp_path / "docs", 400, seed=5)
    items = [Item(path) for path in sorted(docs)]
    ready = read_entries(items, Reading(canon.get_profile("lemma"), 4))
    local = dedup([x for x in ready if isinstance(x, Entry)], 0.3)
    killed: list[int] = []
    with connect(None, workers=2) as own_client:
        pids = own_client.run(os.getpid)

        def kill_a_busy_worker() -> None:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                busy = [w for w, tasks in own_client.processing().items() if tasks]
                if busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])
                    return
                time.sleep(0.01)

        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        reading = Reading(canon.get_profile("lemma"), 4)
        result, failures = dedup_dask(items, 0.3, reading, client=own_client, partitions=8)
        killer.join()
    assert killed, "no worker was busy long enough to be killed"
    assert failures == []
    assert result.clusters == local.clusters and len(local.clusters) > 10


def test_without_dask_the_error_says_how_to_install(tmp_path: Path) -> None:
    """Simulated: the modules are hidden from this one process (Dask is installed for tests)."""
    (tmp_path / "a.txt").write_text("раз два три четыре пять шесть", "utf-8")
    code = (
        "import sys; sys.modules['distributed'] = None; sys.modules['dask.bag'] = None; "
        "from canon.cli import main; main(['dedup', '--engine', 'dask', sys.argv[1]])"
    )
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 2
    assert "pip install 'canon[dask]'" in result.stderr and "Traceback" not in result.stderr
