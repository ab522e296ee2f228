"""Files of real text → texts, labelled pairs and pages with a ground truth.

The labelled data sets live in ``../shared/data`` (beside the repository, see its README.md),
written by third parties; the benchmarks read them in place and never copy them into the
repository.  A data set that is absent is skipped by the script that wanted it: ``dataset``
returns None for it.
"""

from __future__ import annotations

import csv
import gzip
import json
import random
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks._common import REPO
from testkit.corpus import DOC_WORDS
from testkit.drafts import raw_words

__all__ = [
    "ARTICLES",
    "EVAL_PAGES",
    "NEWS",
    "PARAPHRASER",
    "SHARED_DATA",
    "Page",
    "Pair",
    "dataset",
    "on_news",
    "pack_documents",
    "read_articles",
    "read_eval_pages",
    "read_news",
    "read_news_texts",
    "read_paraphraser",
    "read_russian_articles",
    "read_texts",
    "read_tsv",
    "stories",
    "word_runs",
]

SHARED_DATA = REPO.parent / "shared" / "data"
PARAPHRASER = "paraphraser"
NEWS = "ru-news-same-story-pairs"
ARTICLES = "scrapinghub-article-extraction-benchmark"
EVAL_PAGES = "trafilatura-eval-subset"


def dataset(data: Path, name: str) -> Path | None:
    """The folder ``data/name``, or None if there is none (the caller skips that data set)."""
    folder = Path(data) / name
    return folder if folder.is_dir() else None


def read_tsv(path: Path) -> list[dict[str, str]]:
    """The rows of a tab-separated file with a header line."""
    csv.field_size_limit(10**9)
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


# ---------------------------------------------------------------- real text


def _text_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.suffix.lower() in (".txt", ".tsv"))


def _tsv_texts(path: Path) -> list[str]:
    csv.field_size_limit(10**9)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        columns = [c for c in reader.fieldnames or () if c.lower().endswith("text")]
        if not columns:
            print(f"note: {path} has no *text column; skipped")
            return []
        return [row[c] for row in reader for c in columns if row.get(c)]


def read_texts(path: Path) -> list[str]:
    """Distinct texts of a file or folder (.txt: one text per file; .tsv: *text columns)."""
    texts: list[str] = []
    for file in _text_files(path):
        if file.suffix.lower() == ".tsv":
            texts.extend(_tsv_texts(file))
        else:
            texts.append(file.read_text(encoding="utf-8", errors="replace"))
    return list(dict.fromkeys(t for t in texts if t.strip()))


def pack_documents(texts: Iterable[str], n_words: int, seed: int) -> list[str]:
    """Paragraphs of the texts packed, in order, into documents of ~1,000-5,000 words; stops
    after ``n_words`` words."""
    rng = random.Random(seed)
    documents: list[str] = []
    current: list[str] = []
    size = total = 0
    target = rng.randint(*DOC_WORDS)
    for paragraph in (p for t in texts for p in t.splitlines() if p.strip()):
        current.append(paragraph)
        count = len(paragraph.split())
        size += count
        total += count
        if size >= target or total >= n_words:
            documents.append("\n".join(current))
            current, size, target = [], 0, rng.randint(*DOC_WORDS)
        if total >= n_words:
            break
    if current:
        documents.append("\n".join(current))
    return documents


# ---------------------------------------------------------------- labelled pairs


@dataclass(frozen=True)
class Pair:
    """Two texts and the label a person gave the pair."""

    first: str
    second: str
    label: str


def read_paraphraser(folder: Path, split: str = "test") -> list[Pair]:
    """ParaPhraser's pairs of one split (``test``: the gold test pairs, or ``train``); the
    label is the class: "1", "0" or "-1"."""
    rows = read_tsv(folder / "pairs.tsv")
    return [Pair(r["text_1"], r["text_2"], r["class"]) for r in rows if r["split"] == split]


def read_news(folder: Path) -> list[Pair]:
    """Unique (first_url, second_url) news pairs of every pool; the label is OK or BAD."""
    pairs: dict[tuple[str, str], Pair] = {}
    for path in sorted(folder.glob("*.tsv")):
        for row in read_tsv(path):
            key = (row["INPUT:first_url"], row["INPUT:second_url"])
            pair = Pair(row["INPUT:first_text"], row["INPUT:second_text"], row["GOLDEN:quality"])
            if key in pairs and pairs[key].label != pair.label:
                print(f"note: {key} has labels {pairs[key].label} and {pair.label}; first kept")
            pairs.setdefault(key, pair)
    return list(pairs.values())


def read_news_texts(folder: Path) -> list[str]:
    """The distinct article texts of the news pairs (both sides of every pair)."""
    texts = [text for pair in read_news(folder) for text in (pair.first, pair.second)]
    return list(dict.fromkeys(t for t in texts if t.strip()))


# ---------------------------------------------------------------- pages


@dataclass(frozen=True)
class Page:
    """One HTML page file and the text its main content should give (title excluded)."""

    path: Path
    truth: str
    label: str = ""


def read_articles(folder: Path, out: Path) -> tuple[list[Page], set[str]]:
    """The article-extraction benchmark's pages that have a ground truth, unzipped to
    ``out/<id>.html`` (labelled with their URL), and the ids of the Russian ones."""
    truth = json.loads((folder / "ground-truth.json").read_text("utf-8"))
    pages = []
    for page_id, entry in sorted(truth.items()):
        source = folder / "html" / f"{page_id}.html.gz"
        body = entry.get("articleBody") or ""
        if not source.is_file() or not body.strip():
            continue
        path = out / f"{page_id}.html"
        path.write_bytes(gzip.decompress(source.read_bytes()))
        pages.append(Page(path, body, entry.get("url", "")))
    subset = folder / "russian_subset.tsv"
    russian = {row["id"] for row in read_tsv(subset)} if subset.is_file() else set()
    return pages, russian


def read_russian_articles(folder: Path) -> list[str]:
    """The ground-truth article texts of the Russian pages of the article-extraction
    benchmark (the ids of ``russian_subset.tsv``)."""
    truth = json.loads((folder / "ground-truth.json").read_text("utf-8"))
    ids = [row["id"] for row in read_tsv(folder / "russian_subset.tsv")]
    return [truth[i]["articleBody"] for i in ids if (truth.get(i) or {}).get("articleBody")]


def read_eval_pages(folder: Path) -> list[tuple[str, Path]]:
    """(URL, HTML file) of every page of trafilatura's evaluation subset."""
    entries = json.loads((folder / "evaldata_subset.json").read_text("utf-8"))
    return [(url, folder / "html" / entry["file"]) for url, entry in sorted(entries.items())]


def stories(pairs: Sequence[Pair]) -> list[list[str]]:
    """Articles grouped by story: the connected parts of the same-story (OK) pairs; every
    article of a BAD pair is in some group too."""
    parent: dict[str, str] = {}

    def root(text: str) -> str:
        while parent.setdefault(text, text) != text:
            text = parent[text]
        return text

    for pair in pairs:
        a, b = root(pair.first), root(pair.second)
        if pair.label == "OK" and a != b:
            parent[b] = a
    groups: dict[str, list[str]] = {}
    for text in parent:
        groups.setdefault(root(text), []).append(text)
    return list(groups.values())


def word_runs(text: str, n: int) -> set[tuple[str, ...]]:
    """The runs of ``n`` words of ``text``, as the ``raw`` profile cuts words."""
    words = raw_words(text)
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def on_news(data: Path, title: str, run: Callable[[Path, Path], None]) -> None:
    """``run(news folder, work folder)`` in a temporary folder, or a line saying the news
    pairs are missing from ``data``."""
    folder = dataset(data, NEWS)
    if folder is None:
        print(f"## {title}\n\nskipped: {data / NEWS} does not exist")
        return
    with tempfile.TemporaryDirectory(prefix=f"canon-{title.lower()}-") as work:
        run(folder, Path(work))
