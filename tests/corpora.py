"""Small corpora the index tests share: sentences of the fixture articles drawn into
overlapping documents, a brute-force check to compare with, and a recount of an index's rows."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

from repo_paths import EXAMPLES, FIXTURES

import canon

__all__ = ["SENTENCES", "brute_force", "make_corpus", "recounted"]


def _sentences() -> list[str]:
    texts = [
        p.read_text("utf-8")
        for p in (*(FIXTURES / "site").glob("article-*.txt"), EXAMPLES / "rewrite.txt")
    ]
    found = [s.strip() for t in texts for s in re.split(r"(?<=[.!?])\s+", t)]
    return [s for s in found if len(s.split()) >= 6]


SENTENCES = _sentences()


def make_corpus(folder: Path, count: int, seed: int = 1) -> dict[str, str]:
    """``count`` documents of 4-9 sentences each, drawn from one pool so that they overlap."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    docs = {}
    for i in range(count):
        text = " ".join(rng.sample(SENTENCES, rng.randint(4, 9)))
        path = folder / f"doc-{i:03d}.txt"
        path.write_text(text, "utf-8")
        docs[str(path)] = text
    return docs


def brute_force(draft: str, docs: dict[str, str], profile: str, k: int) -> tuple[float, dict]:
    """Uniqueness and per-source numbers from plain pairwise comparisons."""
    mine = canon.shingles(canon.canonicalize(draft, profile).tokens, k)
    found: set = set()
    per_source = {}
    for source, text in docs.items():
        theirs = canon.shingles(canon.canonicalize(text, profile).tokens, k)
        shared = mine & theirs
        found |= shared
        if shared:
            result = canon.compare(draft, text, k=k, profile=profile)
            per_source[source] = (result.common, result.containment_first, result.jaccard)
    return 1 - len(found) / len(mine), per_source


def recounted(db: Path) -> tuple[int, int, dict[str, int]]:
    """Stored texts, their bytes and each profile's shingles, counted from every row."""
    with sqlite3.connect(db) as raw:
        texts, size = raw.execute(
            "SELECT count(text), coalesce(sum(length(text)), 0) FROM documents"
        ).fetchone()
        rows = raw.execute(
            "SELECT p.name, coalesce(sum(d.shingles), 0) FROM profiles p "
            "LEFT JOIN doc_profiles d ON d.profile_id = p.id GROUP BY p.id"
        ).fetchall()
    return texts, size, dict(rows)
