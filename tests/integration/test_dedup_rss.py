"""The dedup's main process stays small when the shingle sets spill to disk, measured in a
fresh process (its peak resident memory) as a user's run grows."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import ROOT

VOCABULARY = [f"слово{i}" for i in range(4000)]  # as tests/unit/dedup/test_dedup_memory.py

_RSS_SCRIPT = """
import json, random, resource, sys
from canon.dedup import Budget, LocalEngine, Reading, dedup_corpus
from canon.profile import get_profile
from canon import canonicalize
canonicalize("проверка связи", "raw")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
engine = LocalEngine(1, Budget(int(sys.argv[2]), None))
run = dedup_corpus([sys.argv[1]], reading=Reading(get_profile("raw")), engine=engine)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grown_kb": after - before, "documents": run.result.documents,
                  "clusters": len(run.result.clusters)}))
"""


@pytest.mark.slow
def test_the_main_process_stays_small_when_sets_spill(tmp_path: Path) -> None:
    """20,000 documents of 300 words: their shingle sets alone are ~48 MB; holding them with
    their signatures grew the process by 125 MB, and spilled it grows by about 11 MB."""
    rng = random.Random(6)
    with (tmp_path / "corpus.jsonl").open("w", encoding="utf-8") as out:
        for i in range(20_000):
            text = " ".join(rng.choice(VOCABULARY) for _ in range(300))
            out.write(json.dumps({"id": f"d{i}", "text": text}, ensure_ascii=False) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", _RSS_SCRIPT, str(tmp_path / "corpus.jsonl"), "0"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    measured = json.loads(done.stdout)
    assert measured["documents"] == 20_000
    assert measured["grown_kb"] < 30_000, measured
