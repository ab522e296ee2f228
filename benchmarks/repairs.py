"""How much fake uniqueness do hyphen, transliteration and filler-word tricks still buy?

Each trick is applied to real news texts (``ru-news-same-story-pairs``, the first ``--texts``
distinct texts); the fake uniqueness of an altered copy is 1 − the containment of its 3-word
shingles in the original's (``canon.compare(copy, original).containment_first``), so an
untouched copy scores 0 %.  Every figure is the mean over the texts, under ``lemma`` as it was
before these repairs ("before": no hyphen repair, no transliteration, no ``water-ru`` list) and
as it is ("after"):

- a hyphen inside every Cyrillic word of six letters or more, at a random place
  (``начин-ается``);
- every two neighbouring Cyrillic words joined by a hyphen (``выбор-зимних``);
- half the words (chosen at random) transliterated to Latin with one of iuliia's schemas:
  Wikipedia's, GOST 7.79 system B, Telegram's;
- a filler word of ``stopwords/water-ru.txt`` (``буквально``, ``действительно``...) inserted
  every 3-5 words: ``lemma`` without ``water-ru`` in its stop lists ("before") and as it is
  ("after").

What dropping fillers costs is measured on the labelled news pairs: the mean 3-shingle
Jaccard of same-story (OK) and different-story (BAD) pairs, the largest BAD one, its ROC-AUC
(the chance that an OK pair scores above a BAD one, ties counted half), and how many BAD pairs
got closer, with and without ``water-ru``.

Run from the repository root (the data default to ``../shared/data``)::

    python -m benchmarks.repairs
    python -m benchmarks.repairs --quick     # 10 texts, a smoke run
    python -m benchmarks.repairs --texts 100 --data /path/to/data
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import mean

import iuliia

from benchmarks._common import argument_parser, table
from benchmarks.data import NEWS, SHARED_DATA, Pair, dataset, read_news
from canon import Profile, TextTooShort, compare, get_profile
from canon.text.wordlists import list_words

K = 3
SEED = 7
QUICK_TEXTS = 10
LEMMA = get_profile("lemma")
# lemma as it was before these repairs: no hyphen repair, no transliteration, no filler list.
DRY = tuple(s for s in LEMMA.stopwords if s != "water-ru")
BEFORE = LEMMA.replace(
    name="lemma-before", repair_hyphens=False, transliterate=False, stopwords=DRY
)
NO_WATER = LEMMA.replace(name="lemma-without-water-ru", stopwords=DRY)
_CYRILLIC_WORD = re.compile(r"[А-Яа-яЁё]+")
_WORD = re.compile(r"[^\W_]+")
SCHEMES = {"Wikipedia": "wikipedia", "GOST 7.79 B": "gost_779_alt", "Telegram": "telegram"}

Trick = Callable[[str, random.Random], str]


def break_words(text: str, rng: random.Random) -> str:
    """A hyphen inside every Cyrillic word of six letters or more."""

    def cut(match: re.Match[str]) -> str:
        word = match.group()
        if len(word) < 6:
            return word
        at = rng.randint(3, len(word) - 3)
        return f"{word[:at]}-{word[at:]}"

    return _CYRILLIC_WORD.sub(cut, text)


def join_pairs(text: str, rng: random.Random) -> str:
    """Every two neighbouring Cyrillic words (separated by one space) joined by a hyphen."""
    return re.sub(r"([А-Яа-яЁё]+) ([А-Яа-яЁё]+)", r"\1-\2", text)


def transliterate_half(scheme: str) -> Trick:
    schema = iuliia.schemas.get(scheme)

    def trick(text: str, rng: random.Random) -> str:
        return _CYRILLIC_WORD.sub(
            lambda m: schema.translate(m.group()) if rng.random() < 0.5 else m.group(), text
        )

    return trick


def insert_fillers(text: str, rng: random.Random) -> str:
    """A filler word after every 3-5 words."""
    fillers = [w for w in list_words("water-ru") if " " not in w]
    words, out = text.split(" "), []
    gap = rng.randint(3, 5)
    for word in words:
        out.append(word)
        gap -= 1
        if gap == 0:
            out.append(rng.choice(fillers))
            gap = rng.randint(3, 5)
    return " ".join(out)


def fake_uniqueness(original: str, copy: str, profile: Profile) -> float | None:
    try:
        return 1.0 - compare(copy, original, k=K, profile=profile).containment_first
    except TextTooShort:
        return None


def _mean(values: Sequence[float | None]) -> float:
    return mean(v for v in values if v is not None)


def trick_rows(texts: list[str]) -> list[list[str]]:
    tricks: list[tuple[str, Trick, Profile, Profile]] = [
        ("hyphen inside words", break_words, BEFORE, LEMMA),
        ("word pairs joined by hyphens", join_pairs, BEFORE, LEMMA),
    ]
    tricks += [
        (f"half the words transliterated ({name})", transliterate_half(scheme), BEFORE, LEMMA)
        for name, scheme in SCHEMES.items()
    ]
    tricks.append(("a filler word every 3-5 words", insert_fillers, NO_WATER, LEMMA))
    rows = []
    for name, trick, before, after in tricks:
        rng = random.Random(SEED)
        copies = [trick(t, rng) for t in texts]
        old = _mean([fake_uniqueness(t, c, before) for t, c in zip(texts, copies)])
        new = _mean([fake_uniqueness(t, c, after) for t, c in zip(texts, copies)])
        rows.append([name, f"{old:.0%}", f"{new:.0%}"])
    return rows


def _jaccard(pair: Pair, profile: Profile) -> float:
    try:
        return compare(pair.first, pair.second, k=K, profile=profile).jaccard
    except TextTooShort:
        return 0.0


def auc(positive: list[float], negative: list[float]) -> float:
    """The chance that a positive scores above a negative, ties counted half."""
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / (len(positive) * len(negative))


def pair_rows(pairs: list[Pair]) -> list[list[str]]:
    """Per profile: mean Jaccard of OK and BAD pairs, the largest BAD one, ROC-AUC, and how
    BAD pairs got closer than without ``water-ru`` (and the largest gain)."""
    base = {id(p): _jaccard(p, NO_WATER) for p in pairs}
    rows = []
    for profile in (NO_WATER, LEMMA):
        scores = {id(p): _jaccard(p, profile) for p in pairs}
        same = [scores[id(p)] for p in pairs if p.label == "OK"]
        other = [scores[id(p)] for p in pairs if p.label == "BAD"]
        closer = [scores[id(p)] - base[id(p)] for p in pairs if p.label == "BAD"]
        gains = [g for g in closer if g > 1e-12]
        rows.append(
            [
                profile.name,
                f"{mean(same):.4f}",
                f"{mean(other):.4f}",
                f"{max(other):.4f}",
                f"{auc(same, other):.4f}",
                f"{len(gains)} of {len(closer)} (max +{max(gains, default=0.0):.4f})",
            ]
        )
    return rows


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argument_parser("benchmarks.repairs", __doc__)
    parser.add_argument("--data", type=Path, default=SHARED_DATA, help="the shared data folder")
    parser.add_argument("--texts", type=int, default=40, help="news texts to alter")
    parser.add_argument("--quick", action="store_true", help="10 texts, a smoke run")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    folder = dataset(args.data, NEWS)
    if folder is None:
        print(f"no {NEWS} in {args.data}: nothing to measure")
        return
    pairs = read_news(folder)
    count = QUICK_TEXTS if args.quick else args.texts
    texts = list(dict.fromkeys(t for p in pairs for t in (p.first, p.second)))[:count]
    print(f"## Fake uniqueness under lemma, k={K}, mean of {len(texts)} news texts\n")
    print(table(["trick", "before", "after"], trick_rows(texts)))
    print(f"\n## Dropping fillers: 3-shingle Jaccard of {len(pairs)} labelled news pairs\n")
    header = ["profile", "OK mean", "BAD mean", "BAD max", "ROC-AUC", "BAD pairs closer"]
    print(table(header, pair_rows(pairs)))


if __name__ == "__main__":
    main()
