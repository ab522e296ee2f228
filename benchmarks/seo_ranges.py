"""What water, classic and academic nausea do real Russian articles have, and how often does
canon's stuffing warning fire on them and on stuffed copies of them?

The articles (read in place from the data folder, default ``../shared/data``):

- ``ru-news-same-story-pairs``: the distinct texts of both sides of every pair;
- ``scrapinghub-article-extraction-benchmark``: the ground-truth texts of the Russian pages
  (``russian_subset.tsv``);
- ``trafilatura-eval-subset``: the main text (``canon.read_source``) of every page whose
  letters are mostly Cyrillic.

Texts under ``NORM_MIN_WORDS`` lemma words are left out.  Each text goes through
``canon.textstats.text_stats``; its phrases through ``canon.textstats.phrases``.

What is printed:

1. the 5th, 50th and 95th percentiles of water, classic nausea and academic nausea by length
   band (lemma words), then over all;
2. the fitted usual ranges: for each measure, a least-squares line through (ln words, ln
   value); its slope is the exponent, and exp(intercept + the 5th / 95th percentile of the
   residuals) the coefficients of the low / high curve ``coefficient × words ** exponent``;
   the same with the 99th percentile for the count of the most frequent topical lemma and
   of the most frequent phrase (the stuffing bounds).  They are printed as the constants of
   ``canon/textstats/norms.py`` and ``stuffing.py``, with the constants canon holds beside
   them, and as a table of the ranges at a few lengths;
3. how often canon's verdicts and stuffing warning fire on the articles, in-sample and out of
   sample (the same rule fitted on the even-numbered articles and counted on the odd ones,
   and the other way round), and which articles it fires on;
4. how often the warning fires on two stuffed copies of every article: ``купить`` put before
   every occurrence of its top keyword (the ``чай`` → ``купить чай`` stuffing), and the top
   keyword put at the head of every sentence; by how many times the keyword occurs.

Run from the repository root::

    python -m benchmarks.seo_ranges
    python -m benchmarks.seo_ranges --quick     # every 4th news text, a smoke run
    python -m benchmarks.seo_ranges --data /path/to/data
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import canon
from benchmarks._common import argument_parser, quantile, stopwatch, table
from benchmarks.data import (
    ARTICLES,
    EVAL_PAGES,
    NEWS,
    SHARED_DATA,
    dataset,
    read_eval_pages,
    read_news_texts,
    read_russian_articles,
)
from canon.textstats import norms, stuffing, text_stats
from canon.textstats.norms import NORM_MIN_WORDS, PowerBound
from canon.textstats.phrases import PHRASE_SIZES, phrase_starts
from canon.textstats.words import lemma_words

BANDS = ((50, 99), (100, 199), (200, 399), (400, 999), (1000, None))
LENGTHS = (100, 300, 1000, 3000)
STUFFING_QUANTILE = 0.99
NORM_QUANTILES = (0.05, 0.95)
STUFFED_BANDS = ((2, 4), (5, 7), (8, 11), (12, None))
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_LETTER = re.compile(r"[^\W\d_]")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


@dataclass(frozen=True)
class Article:
    """A real text, the data set it comes from, and its first words (to name it)."""

    source: str
    text: str

    @property
    def opening(self) -> str:
        return " ".join(self.text.split()[:6])


@dataclass(frozen=True)
class Measured:
    """The figures of one text the ranges are fitted on."""

    words: int
    water: float
    classic: float
    academic: float
    top_lemma: int
    top_phrase: int
    verdicts: tuple[str | None, str | None, str | None]
    warning: str  # canon's first stuffing warning, "" for none

    @property
    def warned(self) -> bool:
        return bool(self.warning)


# ---------------------------------------------------------------- the articles


def _mostly_cyrillic(text: str) -> bool:
    letters = len(_LETTER.findall(text))
    return letters > 0 and len(_CYRILLIC.findall(text)) >= letters / 2


def _eval_texts(folder: Path) -> list[str]:
    texts = []
    for _, path in read_eval_pages(folder):
        try:
            text = canon.read_source(str(path)).text
        except canon.CanonError:
            continue
        if _mostly_cyrillic(text):
            texts.append(text)
    return texts


def read_corpus(data: Path, quick: bool) -> list[Article]:
    """The articles of every data set present (``quick``: every 4th news text only)."""
    readers: list[tuple[str, Callable[[Path], list[str]]]] = [
        (NEWS, read_news_texts),
        (ARTICLES, read_russian_articles),
        (EVAL_PAGES, _eval_texts),
    ]
    articles = []
    for name, reader in readers:
        folder = dataset(data, name)
        if folder is None:
            print(f"skipped: {data / name} does not exist")
            continue
        texts = reader(folder)
        if quick and name == NEWS:
            texts = texts[::4]
        print(f"{name}: {len(texts)} texts")
        articles += [Article(name, text) for text in texts]
    return articles


# ---------------------------------------------------------------- measures


def top_counts(text: str) -> tuple[int, int]:
    """How many times the most frequent topical lemma and the most frequent phrase of
    ``text`` occur, as the stuffing rule counts them (0 when there is none)."""
    words = lemma_words(text)
    every = {k: v for size in PHRASE_SIZES for k, v in phrase_starts(words, size).items()}
    lemmas, phrases = stuffing.counted(words, every)
    return max(lemmas.values(), default=0), max(map(len, phrases.values()), default=0)


def measure(text: str) -> Measured | None:
    """The figures of ``text``, or None under ``NORM_MIN_WORDS`` lemma words."""
    stats = text_stats(text, top=1)
    if stats.lemma_words < NORM_MIN_WORDS or not stats.keywords or stats.verdicts is None:
        return None
    v = stats.verdicts
    first = stats.stuffing[0] if stats.stuffing else None
    lemma_count, phrase_count = top_counts(text)
    warning = "" if first is None else f"{first.kind} «{first.form}» {first.count} times"
    return Measured(
        stats.lemma_words,
        stats.water_percent,
        stats.classic_nausea,
        stats.academic_nausea,
        lemma_count,
        phrase_count,
        (v.water.verdict, v.classic_nausea.verdict, v.academic_nausea.verdict),
        warning,
    )


def top_keyword(text: str) -> tuple[str, int]:
    """The most frequent topical lemma of ``text`` and its count."""
    keyword = text_stats(text, top=1).keywords[0]
    return keyword.lemma, keyword.count


def stuff_phrase(text: str, lemma: str) -> str:
    """``text`` with ``купить`` put before every word whose lemma is ``lemma``."""
    words = lemma_words(text)
    pieces, last = [], 0
    for word, (start, _) in zip(words.lemmas, words.spans):
        if word == lemma:
            pieces += [text[last:start], "купить "]
            last = start
    return "".join(pieces) + text[last:]


def stuff_sentences(text: str, lemma: str) -> str:
    """``text`` with ``lemma`` put at the head of every sentence."""
    head = lemma[:1].upper() + lemma[1:]
    return " ".join(f"{head}: {s}" for s in _SENTENCE_END.split(text.strip()) if s)


# ---------------------------------------------------------------- fits


@dataclass(frozen=True)
class Fit:
    """ln value ≈ intercept + exponent × ln words, with the residuals of the articles."""

    intercept: float
    exponent: float
    residuals: np.ndarray

    def bound(self, q: float, like: PowerBound) -> PowerBound:
        """The curve at quantile ``q`` of the residuals, past ``like.longest`` as ``like``."""
        coefficient = float(np.exp(self.intercept + quantile(self.residuals, q)))
        return dataclasses.replace(like, coefficient=coefficient, exponent=self.exponent)


def fit(words: Sequence[int], values: Sequence[float]) -> Fit:
    """The least-squares line through (ln words, ln value) of the positive values."""
    pairs = [(w, v) for w, v in zip(words, values) if v > 0]
    x = np.log([w for w, _ in pairs])
    y = np.log([v for _, v in pairs])
    exponent, intercept = np.polyfit(x, y, 1)
    residuals = y - (intercept + exponent * x)
    return Fit(float(intercept), float(exponent), residuals)


def _column(measured: Sequence[Measured], name: str) -> list[float]:
    return [float(getattr(m, name)) for m in measured]


def _words(measured: Sequence[Measured]) -> list[int]:
    return [m.words for m in measured]


def bound_code(bound: PowerBound) -> str:
    figures = f"coefficient={bound.coefficient:.4g}, exponent={bound.exponent:.4g}"
    return f"PowerBound({figures}, longest={bound.longest}, tail={bound.tail:g})"


# ---------------------------------------------------------------- reports


def _band_name(low: int, high: int | None) -> str:
    return f"{low:,}+" if high is None else f"{low:,}–{high:,}"


def _in_band(words: int, low: int, high: int | None) -> bool:
    return words >= low and (high is None or words <= high)


def _percentiles(values: Sequence[float], digits: int) -> str:
    return " / ".join(f"{quantile(values, q):.{digits}f}" for q in (0.05, 0.5, 0.95))


def print_bands(measured: Sequence[Measured]) -> None:
    print("\n## Percentiles 5 / 50 / 95 by length (lemma words)\n")
    rows = []
    bands = [(_band_name(lo, hi), [m for m in measured if _in_band(m.words, lo, hi)])
             for lo, hi in BANDS]  # fmt: skip
    for name, group in [*bands, ("all", list(measured))]:
        if not group:
            continue
        rows.append([
            name,
            f"{len(group):,}",
            _percentiles(_column(group, "water"), 1),
            _percentiles(_column(group, "classic"), 2),
            _percentiles(_column(group, "academic"), 1),
            _percentiles(_column(group, "top_phrase"), 0),
        ])  # fmt: skip
    header = ["words", "articles", "water %", "classic nausea", "academic nausea %", "top phrase"]
    print(table(header, rows))


FITTED = (
    ("WATER_NORM", "water", NORM_QUANTILES, norms.WATER_NORM),
    ("CLASSIC_NAUSEA_NORM", "classic", (None, 0.95), norms.CLASSIC_NAUSEA_NORM),
    ("ACADEMIC_NAUSEA_NORM", "academic", (None, 0.95), norms.ACADEMIC_NAUSEA_NORM),
)
STUFFING_FITS = (
    ("LEMMA_STUFFING", "top_lemma", stuffing.LEMMA_STUFFING),
    ("PHRASE_STUFFING", "top_phrase", stuffing.PHRASE_STUFFING),
)


def print_fits(measured: Sequence[Measured]) -> None:
    words = _words(measured)
    print("\n## Fitted curves (paste into canon/textstats/norms.py and stuffing.py)\n")
    print("```python")
    for name, column, (low_q, high_q), held in FITTED:
        fitted = fit(words, _column(measured, column))
        low = (
            "None"
            if low_q is None or held.low is None
            else bound_code(fitted.bound(low_q, held.low))
        )
        print(f"{name}: high={bound_code(fitted.bound(high_q, held.high))}, low={low}")
        held_low = "None" if held.low is None else bound_code(held.low)
        print(f"#   canon holds: high={bound_code(held.high)}, low={held_low}")
    for name, column, held_bound in STUFFING_FITS:
        fitted = fit(words, _column(measured, column))
        print(f"{name} = {bound_code(fitted.bound(STUFFING_QUANTILE, held_bound))}")
        print(f"#   canon holds: {bound_code(held_bound)}")
    print("```")


def print_ranges() -> None:
    print("\n## The usual ranges canon applies, by length (lemma words)\n")
    rows = []
    for words in LENGTHS:
        water = norms.WATER_NORM
        assert water.low is not None
        rows.append([
            f"{words:,}",
            f"{water.low.at(words):.1f}–{water.high.at(words):.1f}",
            f"≤ {norms.CLASSIC_NAUSEA_NORM.high.at(words):.2f}",
            f"≤ {norms.ACADEMIC_NAUSEA_NORM.high.at(words):.1f}",
            f"> {stuffing.LEMMA_STUFFING.at(words):.1f}",
            f"> {stuffing.PHRASE_STUFFING.at(words):.1f}",
        ])  # fmt: skip
    header = ["words", "water %", "classic nausea", "academic nausea %",
              "stuffed lemma (times)", "stuffed phrase (times)"]  # fmt: skip
    print(table(header, rows))


def _share(count: int, total: int) -> str:
    return f"{count:,}/{total:,} ({count / total:.1%})" if total else "0/0"


def held_out_alarms(measured: Sequence[Measured]) -> int:
    """Articles warned about by the stuffing rule fitted on the other half of the articles."""
    alarms = 0
    for part in (0, 1):
        train = [m for i, m in enumerate(measured) if i % 2 != part]
        test = [m for i, m in enumerate(measured) if i % 2 == part]
        bounds = [
            fit(_words(train), _column(train, column)).bound(STUFFING_QUANTILE, held)
            for _, column, held in STUFFING_FITS
        ]
        for m in test:
            counts = (m.top_lemma, m.top_phrase)
            over = [
                c >= stuffing.STUFFING_MIN_COUNT and c > b.at(m.words)
                for c, b in zip(counts, bounds)
            ]
            alarms += any(over)
    return alarms


def held_out_high(measured: Sequence[Measured], column: str, norm: norms.Norm) -> int:
    """Articles above the 95th-percentile curve fitted on the other half."""
    high = 0
    for part in (0, 1):
        train = [m for i, m in enumerate(measured) if i % 2 != part]
        test = [m for i, m in enumerate(measured) if i % 2 == part]
        bound = fit(_words(train), _column(train, column)).bound(0.95, norm.high)
        high += sum(getattr(m, column) > bound.at(m.words) for m in test)
    return high


def print_rates(articles: Sequence[Article], measured: Sequence[Measured]) -> None:
    total = len(measured)
    print("\n## How often canon's verdicts and warning fire on the articles\n")
    rows = []
    labels = ("water", "classic nausea", "academic nausea")
    for index, (label, (_, column, _, norm)) in enumerate(zip(labels, FITTED)):
        verdicts = [m.verdicts[index] for m in measured]
        rows.append([
            label,
            _share(verdicts.count("low"), total),
            _share(verdicts.count("high"), total),
            _share(held_out_high(measured, column, norm), total),
        ])  # fmt: skip
    warned = sum(m.warned for m in measured)
    rows.append(["stuffing warning", "", _share(warned, total),
                 _share(held_out_alarms(measured), total)])  # fmt: skip
    print(table(["measure", "low", "high / warned", "high / warned, held out"], rows))
    flagged = [(a, m) for a, m in zip(articles, measured) if m.warned]
    if flagged:
        print("\nArticles warned about:\n")
        for article, m in flagged:
            print(f"- {m.words:,} words, «{article.opening}…»: {m.warning}")


def print_stuffed(articles: Sequence[Article]) -> None:
    print("\n## The warning on stuffed copies of the articles\n")
    found: dict[str, list[tuple[int, bool]]] = {"phrase": [], "sentence": []}
    for article in articles:
        lemma, count = top_keyword(article.text)
        for kind, stuff in (("phrase", stuff_phrase), ("sentence", stuff_sentences)):
            stuffed = text_stats(stuff(article.text, lemma), top=1)
            found[kind].append((count, bool(stuffed.stuffing)))
    rows = []
    for low, high in STUFFED_BANDS:
        row = [_band_name(low, high)]
        for kind in ("phrase", "sentence"):
            group = [warned for count, warned in found[kind] if _in_band(count, low, high)]
            row.append(_share(sum(group), len(group)))
        rows.append(row)
    header = ["top keyword occurs", "купить + keyword: warned", "keyword per sentence: warned"]
    print(table(header, rows))


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.seo_ranges", __doc__)
    parser.add_argument(
        "--data", type=Path, default=SHARED_DATA, help="the data folder (default: %(default)s)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="every 4th news text only, a smoke run"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    elapsed = stopwatch()
    print("# Water, nausea and stuffing on real Russian articles\n")
    pairs = [(a, measure(a.text)) for a in read_corpus(args.data, args.quick)]
    kept = [(a, m) for a, m in pairs if m is not None]
    if len(kept) < 10:
        print(f"\nonly {len(kept)} articles of {NORM_MIN_WORDS}+ lemma words: nothing to fit")
        return
    articles, measured = [a for a, _ in kept], [m for _, m in kept]
    words = _words(measured)
    print(
        f"\n{len(measured):,} articles of {NORM_MIN_WORDS}+ lemma words "
        f"({len(pairs) - len(kept):,} shorter left out): {min(words):,} to {max(words):,} "
        f"words, median {quantile(words, 0.5):,.0f}"
    )
    for name in dict.fromkeys(a.source for a in articles):
        print(f"  {name}: {sum(a.source == name for a in articles):,}")
    print_bands(measured)
    print_fits(measured)
    print_ranges()
    print_rates(articles, measured)
    print_stuffed(articles)
    print(f"\nTotal benchmark time: {elapsed():.1f} s")


if __name__ == "__main__":
    main()
