"""Golden canonical forms: each sentence's tokens under every built-in profile.

The expected forms live in ``golden/canonical.txt`` as ``profile: token|token|...`` lines after
each ``> sentence`` line, so a change in any rule shows up as a readable diff.
"""

from __future__ import annotations

import json
import os

import pytest
from repo_paths import SHARED_DATA, TESTS

import canon

GOLDEN = TESTS / "golden"
PROFILES = ("raw", "lemma", "stem")


def _sentences() -> list[str]:
    lines = (GOLDEN / "sentences.txt").read_text("utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def _render(sentences: list[str]) -> str:
    blocks = []
    for sentence in sentences:
        rows = [f"> {sentence}"]
        for profile in PROFILES:
            rows.append(f"{profile}: {'|'.join(canon.canonicalize(sentence, profile).tokens)}")
        blocks.append("\n".join(rows))
    return "\n\n".join(blocks) + "\n"


def test_golden_canonical_forms() -> None:
    path = GOLDEN / "canonical.txt"
    actual = _render(_sentences())
    if os.environ.get("CANON_UPDATE_GOLDEN"):
        path.write_text(actual, "utf-8")
    assert actual == path.read_text("utf-8")


# pymorphy3's own known answers (read from the shared peer vectors; skipped when absent).
PEER = SHARED_DATA / "peer-test-vectors/pymorphy3"


def _peer_rows(name: str) -> list[dict]:
    path = PEER / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


@pytest.mark.skipif(not PEER.exists(), reason="shared peer test vectors are absent")
def test_lemma_profile_agrees_with_pymorphy3_known_answers() -> None:
    bare = canon.Profile(morphology="lemma")  # no lists, no ё folding: pymorphy3's own output
    rows = [r for r in _peer_rows("normal_forms.jsonl") if r["passes_with_installed"]]
    assert rows
    for row in rows:
        tokens = canon.canonicalize(row["word"], bare.replace(keep_hyphens=True)).tokens
        assert tokens == (row["expected_normal_forms"][0],), row["word"]


@pytest.mark.skipif(not PEER.exists(), reason="shared peer test vectors are absent")
def test_lexemes_collapse_to_one_lemma_where_first_parse_allows() -> None:
    lemma = canon.get_profile("lemma").replace(stopwords=())
    rows = [r for r in _peer_rows("lexemes.jsonl") if r["all_forms_first_parse_lemma_equal"]]
    assert len(rows) >= 10
    for row in rows:
        forms = {canon.canonicalize(form, lemma).tokens for form in row["forms"]}
        assert len(forms) == 1, row["forms"]
