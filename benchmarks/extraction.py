"""How fast does canon turn an HTML page into a Document, and how good is its main text?

What is measured (each canon timing is repeated ``--repeats`` times, default 3, and the median
is reported, because the machine may be noisy):

- pages/s of ``canon.read_source(path)`` (file → Document: read, decode, main text by
  trafilatura) and of ``canon.read_source(path, whole_page=True)`` (all visible text, no
  trafilatura) over a loop on generated local HTML page files;
- the share of the main-text time spent inside ``trafilatura.bare_extraction``: the function is
  wrapped on the ``trafilatura`` module (canon calls it as ``trafilatura.bare_extraction``)
  by a timer that adds up its wall time.  Reported: total, trafilatura, rest = total −
  trafilatura (medians over the runs), and rest / trafilatura with the target ≤ 20 %;
- if ``scrapinghub-article-extraction-benchmark/`` is in the data folder (181 real pages with
  their full article text as ground truth, 4 of them Russian), the same two measures on those
  pages, and the quality of the main text: the token F1 (bag of lowercased ``\\w+`` tokens,
  Counter intersection) of the extracted text against the ground truth, for canon's
  ``read_source`` and for ``trafilatura.bare_extraction`` called directly on the same
  decoded HTML with its defaults (readers' comments included), with canon's settings, and
  with ``favor_precision``, ``favor_recall`` and ``fast`` (each with ``include_comments=False,
  include_tables=True``).  A page with no text extracted scores 0.  The direct calls are timed
  once per page (one run: they are the slow part of the script); their pages/s excludes
  reading and decoding, which canon's includes.  In the quality tables pages/s is the pages
  over the sum of their times (for canon, each page's median over the runs).

The generated pages: the two site templates of ``tests/fixtures/site/`` (blog and news) filled
with 2-12 paragraphs, each either a paragraph of the fixture articles or of
``examples/*.txt``, or a new one of 2-6 of their sentences in random order; the title is the
start of a random sentence.  Every page is different.  Half are UTF-8, a quarter
windows-1251 and a quarter KOI8-R, each with the matching ``<meta charset>`` (characters KOI8-R
lacks, such as « » —, become HTML character references).  Each page's body text is kept, so
the main text of a generated page is also scored against it (token F1, as above).

Run from the repository root (the data default to ``../shared/data``)::

    python -m benchmarks.extraction
    python -m benchmarks.extraction --quick       # 60 pages, 1 run
    python -m benchmarks.extraction --pages 400 --repeats 5
    python -m benchmarks.extraction --data /path/to/data
"""

from __future__ import annotations

import argparse
import html
import inspect
import random
import re
import statistics
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import trafilatura

import canon
from benchmarks._common import (
    REPO,
    Step,
    Timing,
    argument_parser,
    clocked,
    interleaved,
    median,
    runs_text,
    stopwatch,
    table,
    target_text,
    timed_call,
    verdict,
)
from benchmarks.data import ARTICLES, SHARED_DATA, Page, dataset, read_articles
from canon import Document, InputError
from canon.sources.extract import decode_html
from canon.sources.htmlpage import main_settings

SITE = REPO / "tests" / "fixtures" / "site"
TEXTS = (
    *sorted(SITE.glob("article-*.txt")),
    *sorted((REPO / "examples").glob("*.txt")),
)
TEMPLATES = ("blog", "news")
# Every fourth page: UTF-8, UTF-8, windows-1251, KOI8-R (Python codec, declared charset).
ENCODINGS = (
    ("utf-8", "utf-8"),
    ("utf-8", "utf-8"),
    ("cp1251", "windows-1251"),
    ("koi8_r", "koi8-r"),
)
PARAGRAPHS = (2, 12)
NEW_PARAGRAPH_SENTENCES = (2, 6)
KEEP_PARAGRAPH = 0.3
TITLE_WORDS = (4, 9)
TARGET_REST = 0.20  # rest / trafilatura at most
LOW_F1 = 0.9
WARMUP_PAGES = 4

# What canon passes to bare_extraction (canon/sources/htmlpage.py: no metadata; the title
# comes from trafilatura's title steps alone).
CANON_SETTINGS: dict[str, Any] = {**main_settings(), "with_metadata": False}
MAIN_TEXT = {"include_comments": False, "include_tables": True}
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class PageTiming:
    """A timed loop over pages: its runs, the part of each run spent inside
    ``trafilatura.bare_extraction``, and each page's time (median over the runs)."""

    timing: Timing
    inside: tuple[float, ...]
    per_page: tuple[float, ...]

    @property
    def trafilatura(self) -> float:
        return median(self.inside)

    @property
    def rest(self) -> float:
        return median(r - i for r, i in zip(self.timing.runs, self.inside))


@dataclass(frozen=True)
class Extraction:
    """The texts one extractor gave (None: no text) and its timing."""

    name: str
    settings: str
    texts: tuple[str | None, ...]
    timing: PageTiming


# ---------------------------------------------------------------- the generated pages


def read_paragraphs(paths: Iterable[Path]) -> list[str]:
    """The paragraphs (blank-line separated) of the texts; each text's first line, its title,
    is left out."""
    paragraphs = []
    for path in paths:
        _title, *rest = path.read_text("utf-8").strip().split("\n\n")
        paragraphs += [" ".join(p.split()) for p in rest if p.strip()]
    return paragraphs


def make_body(rng: random.Random, paragraphs: Sequence[str], sentences: Sequence[str]) -> list[str]:
    body = []
    for _ in range(rng.randint(*PARAGRAPHS)):
        if rng.random() < KEEP_PARAGRAPH:
            body.append(rng.choice(paragraphs))
        else:
            body.append(" ".join(rng.sample(sentences, rng.randint(*NEW_PARAGRAPH_SENTENCES))))
    return body


def make_title(rng: random.Random, sentences: Sequence[str]) -> str:
    words = rng.choice(sentences).split()[: rng.randint(*TITLE_WORDS)]
    return " ".join(words).rstrip(",.:;!?…—-« ")


def render(template: str, charset: str, title: str, body: Sequence[str]) -> str:
    paragraphs = "\n".join(f"<p>{html.escape(p, quote=False)}</p>" for p in body)
    return template.format(charset=charset, title=html.escape(title), body=paragraphs)


def generate_pages(n: int, seed: int, folder: Path) -> list[Page]:
    """``n`` different page files in ``folder``, templates and encodings taken in turn."""
    paragraphs = read_paragraphs(TEXTS)
    sentences = sorted({s for p in paragraphs for s in _SENTENCE_END.split(p) if s.strip()})
    templates = [(SITE / f"template-{t}.html").read_text("utf-8") for t in TEMPLATES]
    rng = random.Random(seed)
    pages: list[Page] = []
    seen: set[tuple[str, ...]] = set()
    while len(pages) < n:
        body = make_body(rng, paragraphs, sentences)
        if tuple(body) in seen:
            continue
        seen.add(tuple(body))
        i = len(pages)
        codec, charset = ENCODINGS[i % len(ENCODINGS)]
        template = TEMPLATES[(i // len(ENCODINGS)) % len(TEMPLATES)]
        text = render(
            templates[TEMPLATES.index(template)], charset, make_title(rng, sentences), body
        )
        path = folder / f"page-{i:04d}-{template}-{charset}.html"
        path.write_bytes(text.encode(codec, errors="xmlcharrefreplace"))
        pages.append(Page(path, "\n".join(body), f"{template} {charset}"))
    return pages


# ---------------------------------------------------------------- measurements


def read_once(paths: Sequence[Path], whole_page: bool) -> tuple[list[Document | None], list[float]]:
    """Every page through ``canon.read_source``, each timed; None where canon found no text."""
    docs: list[Document | None] = []
    times = []
    for path in paths:
        seconds, doc = timed_call(partial(read_or_none, path, whole_page))
        docs.append(doc)
        times.append(seconds)
    return docs, times


def read_or_none(path: Path, whole_page: bool) -> Document | None:
    try:
        return canon.read_source(str(path), whole_page=whole_page)
    except InputError:
        return None


class ReadLoop:
    """One call is one run over every page; it keeps the run's time inside
    ``trafilatura.bare_extraction``, each page's time, and the Documents it read."""

    def __init__(self, name: str, paths: Sequence[Path], whole_page: bool) -> None:
        self.name, self.paths, self.whole_page = name, list(paths), whole_page
        self.inside: list[float] = []
        self.per_page: list[list[float]] = []
        self.docs: list[Document | None] = []

    def __call__(self) -> None:
        with clocked(trafilatura, "bare_extraction") as clock:
            self.docs, times = read_once(self.paths, self.whole_page)
        expected = 0 if self.whole_page else len(self.paths)
        if clock.calls != expected:
            print(f"note: {self.name}: {clock.calls} bare_extraction calls for {expected} pages")
        self.inside.append(clock.seconds)
        self.per_page.append(times)

    def timing(self, timing: Timing) -> PageTiming:
        medians = tuple(statistics.median(t) for t in zip(*self.per_page))
        return PageTiming(timing, tuple(self.inside), medians)


def time_read_source(
    pages: Sequence[Page], modes: Sequence[tuple[str, bool]], repeats: int
) -> list[tuple[PageTiming, list[Document | None]]]:
    """``read_source`` over the pages in each (name, whole_page) mode, the modes interleaved;
    each mode's timing and the Documents it gave."""
    paths = [p.path for p in pages]
    loops = [ReadLoop(name, paths, whole_page) for name, whole_page in modes]
    for loop in loops:
        read_once(paths[:WARMUP_PAGES], loop.whole_page)  # imports and first-call set-up
    timings = interleaved([Step(loop.name, loop, len(paths)) for loop in loops], repeats)
    return [(loop.timing(t), loop.docs) for loop, t in zip(loops, timings)]


def direct(name: str, htmls: Sequence[str], settings: dict[str, Any]) -> Extraction:
    """``trafilatura.bare_extraction(html, **settings)`` on every page, timed once."""
    texts: list[str | None] = []
    times = []
    for page in htmls:
        seconds, document = timed_call(partial(trafilatura.bare_extraction, page, **settings))
        times.append(seconds)
        texts.append(getattr(document, "text", None) or None)
    total = sum(times)
    timing = PageTiming(Timing(name, (total,), len(htmls)), (total,), tuple(times))
    shown = ", ".join(f"{k}={v}" for k, v in settings.items()) or "(defaults)"
    return Extraction(name, shown, tuple(texts), timing)


def fast_option() -> str:
    """``fast`` (trafilatura ≥ 1.10) or the older ``no_fallback``."""
    parameters = inspect.signature(trafilatura.bare_extraction).parameters
    return "fast" if "fast" in parameters else "no_fallback"


def variants() -> list[tuple[str, dict[str, Any]]]:
    fast = fast_option()
    return [
        ("bare_extraction, canon's settings", CANON_SETTINGS),
        ("bare_extraction defaults", {}),
        ("defaults, no comments", dict(MAIN_TEXT)),
        ("favor_precision", {"favor_precision": True, **MAIN_TEXT}),
        ("favor_recall", {"favor_recall": True, **MAIN_TEXT}),
        (fast, {fast: True, **MAIN_TEXT}),
    ]


# ---------------------------------------------------------------- scoring


def bag(text: str | None) -> Counter[str]:
    return Counter(_TOKEN.findall(text.lower())) if text else Counter()


def prf(predicted: str | None, truth: str) -> tuple[float, float, float]:
    """Token precision, recall and F1 of ``predicted`` against ``truth`` (bags of words)."""
    pred, gold = bag(predicted), bag(truth)
    common = sum((pred & gold).values())
    if not common:
        return 0.0, 0.0, 0.0
    precision, recall = common / sum(pred.values()), common / sum(gold.values())
    return precision, recall, 2 * precision * recall / (precision + recall)


def doc_text(doc: Document | None) -> str | None:
    return doc.text if doc is not None else None


# ---------------------------------------------------------------- report


def rate_row(loop: PageTiming) -> list[str]:
    timing = loop.timing
    return [
        timing.name,
        f"{timing.units:,}",
        f"{timing.median:.3f}",
        runs_text(timing),
        f"{timing.rate:,.1f}",
    ]


def share_row(corpus: str, loop: PageTiming) -> list[str]:
    share = loop.rest / loop.trafilatura
    return [
        corpus,
        f"{loop.timing.units:,}",
        f"{loop.timing.median:.3f}",
        f"{loop.trafilatura:.3f}",
        f"{loop.rest:.3f}",
        f"{share:.1%}",
        target_text(f"{TARGET_REST:.0%}", higher=False),
        verdict(share, TARGET_REST, higher=False),
    ]


def quality_row(
    name: str,
    settings: str,
    texts: Sequence[str | None],
    timing: PageTiming,
    pages: Sequence[Page],
    keep: Sequence[int],
) -> list[str]:
    scores = [prf(texts[i], pages[i].truth) for i in keep]
    precision, recall, f1 = ([s[j] for s in scores] for j in range(3))
    seconds = sum(timing.per_page[i] for i in keep)
    return [
        name,
        settings,
        str(len(keep)),
        str(sum(texts[i] is None for i in keep)),
        f"{statistics.mean(f1):.3f}",
        f"{statistics.median(f1):.3f}",
        f"{statistics.mean(precision):.3f}",
        f"{statistics.mean(recall):.3f}",
        f"{len(keep) / seconds:,.1f}",
    ]


QUALITY_HEADER = [
    "extractor",
    "settings",
    "pages",
    "no text",
    "mean F1",
    "median F1",
    "mean P",
    "mean R",
    "pages/s",
]


def describe_pages(pages: Sequence[Page], seconds: float) -> None:
    sizes = sorted(p.path.stat().st_size for p in pages)
    kinds = Counter(p.label for p in pages)
    paragraphs = [p.truth.count("\n") + 1 for p in pages]
    print(
        f"- {len(pages)} page files, all different, built in {seconds:.1f} s;"
        f" {min(paragraphs)}-{max(paragraphs)} paragraphs;"
        f" {sizes[0] / 1024:.1f}-{sizes[-1] / 1024:.1f} KB"
        f" (median {statistics.median(sizes) / 1024:.1f} KB)"
    )
    print("- " + ", ".join(f"{kind}: {count}" for kind, count in sorted(kinds.items())) + "\n")


def print_generated(
    pages: Sequence[Page], main: PageTiming, whole: PageTiming, docs: Sequence[Document | None]
) -> None:
    print(
        table(
            ["read_source", "pages", "median s", "runs s", "pages/s"], map(rate_row, (main, whole))
        )
    )
    print("\nWhere the main-text time goes (medians over the runs):\n")
    print(table(SHARE_HEADER, [share_row("generated", main)]))
    f1 = [prf(doc_text(d), p.truth)[2] for d, p in zip(docs, pages)]
    encodings = Counter(d.encoding for d in docs if d is not None)
    print(
        f"\nMain text against each page's body: token F1 mean {statistics.mean(f1):.3f},"
        f" min {min(f1):.3f}, {sum(f < LOW_F1 for f in f1)} pages below {LOW_F1};"
        f" decoded as {dict(sorted(encodings.items()))}.\n"
    )


SHARE_HEADER = [
    "pages",
    "n",
    "total s",
    "trafilatura s",
    "rest s",
    "rest / trafilatura",
    "target",
    "status",
]


def print_real(
    pages: Sequence[Page],
    russian: set[str],
    timing: PageTiming,
    docs: Sequence[Document | None],
    extractions: Sequence[Extraction],
) -> None:
    print(table(["read_source", "pages", "median s", "runs s", "pages/s"], [rate_row(timing)]))
    print("\nWhere the main-text time goes (medians over the runs):\n")
    print(table(SHARE_HEADER, [share_row("real", timing)]))
    canon_texts = tuple(doc_text(d) for d in docs)
    rows = [("canon read_source", "file → Document", canon_texts, timing)]
    rows += [(e.name, e.settings, e.texts, e.timing) for e in extractions]
    everything = list(range(len(pages)))
    print(f"\nToken F1 against the ground truth, all {len(pages)} pages:\n")
    print(table(QUALITY_HEADER, [quality_row(*r, pages, everything) for r in rows]))
    ru = [i for i, p in enumerate(pages) if p.path.stem in russian]
    if not ru:
        print("\n(no Russian pages listed in russian_subset.tsv)\n")
        return
    print(f"\nThe {len(ru)} Russian pages (russian_subset.tsv):\n")
    print(table(QUALITY_HEADER, [quality_row(*r, pages, ru) for r in rows]))
    print("\nToken F1 per Russian page:\n")
    header = ["page", "gold words", *(r[0] for r in rows)]
    per_page = [
        [
            f"{pages[i].path.stem[:8]}… {pages[i].label.split('/')[2]}",
            f"{sum(bag(pages[i].truth).values()):,}",
            *(f"{prf(r[2][i], pages[i].truth)[2]:.3f}" for r in rows),
        ]
        for i in ru
    ]
    print(table(header, per_page))
    print()


# ---------------------------------------------------------------- main


def run_generated(args: argparse.Namespace, folder: Path) -> None:
    print("## Generated pages: source → Document\n")
    elapsed = stopwatch()
    pages = generate_pages(args.pages, args.seed, folder)
    describe_pages(pages, elapsed())
    modes = [("main text", False), ("whole page", True)]
    (main, docs), (whole, _) = time_read_source(pages, modes, args.repeats)
    print_generated(pages, main, whole, docs)


def run_real(args: argparse.Namespace, folder: Path) -> None:
    data = dataset(args.data, ARTICLES)
    print(f"## Real pages: {ARTICLES}\n")
    if data is None:
        print(f"skipped: {Path(args.data) / ARTICLES} does not exist\n")
        return
    elapsed = stopwatch()
    pages, russian = read_articles(data, folder)
    [(timing, docs)] = time_read_source(pages, [("main text", False)], args.repeats)
    htmls = [decode_html(p.path.read_bytes(), p.path.name)[0] for p in pages]
    extractions = [direct(name, htmls, settings) for name, settings in variants()]
    print(f"- {len(pages)} pages with a ground truth, {len(russian)} of them Russian\n")
    print_real(pages, russian, timing, docs, extractions)
    print(f"({ARTICLES}: {elapsed():.1f} s)\n")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.extraction", __doc__)
    parser.add_argument("--pages", type=int, default=240, help="generated pages (≥ 200)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per timing (median)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the generated pages")
    parser.add_argument("--quick", action="store_true", help="60 pages, 1 run: a smoke run")
    parser.add_argument("--data", type=Path, default=SHARED_DATA, help="the evaluation data folder")
    args = parser.parse_args(argv)
    if args.quick:
        args.pages, args.repeats = 60, 1
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    elapsed = stopwatch()
    print(f"trafilatura {trafilatura.__version__}\n")
    with tempfile.TemporaryDirectory() as folder:
        run_generated(args, Path(folder))
    with tempfile.TemporaryDirectory() as folder:
        run_real(args, Path(folder))
    print(f"Total benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
