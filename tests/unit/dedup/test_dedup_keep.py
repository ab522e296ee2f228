"""canon.dedup.keep and canon.dedup.origin: the member of a cluster to keep, by its rules in
order, each decision named; what a run knows of each document's origin."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import canon
from canon.dedup import Entry, MinHashSettings, Origin, Reading, dedup, dedup_corpus
from canon.dedup.keep import RULES, keep
from canon.dedup.origin import Origins, links_of
from canon.fingerprints.measures import exact_jaccard
from canon.fingerprints.shingles import shingle_hashes
from canon.sources.documents import Document

ARTICLE = (
    "Осенью в городском парке высадили двести молодых лип и клёнов. Саженцы привезли из "
    "питомника под Тверью, где их растили четыре года. Каждое дерево получило деревянную опору "
    "и защитную сетку от зайцев. Садовники обещают поливать посадки до первых заморозков, а "
    "весной проверить, все ли деревья прижились. Жители соседних домов помогали копать ямы и "
    "носить воду, а школьники повесили на ветки таблички с названиями пород. Через несколько "
    "лет аллея станет тенистой, и летом здесь будет прохладно даже в самый жаркий полдень."
)
BOILERPLATE = " Подписывайтесь на наш канал, чтобы первыми узнавать городские новости."
EDITED = ARTICLE.replace("двести", "триста")
THRESHOLD = 0.7


def _hashes(text: str) -> np.ndarray:
    return shingle_hashes(canon.canonicalize(text, "lemma").tokens, 4)


@pytest.fixture
def copies(tmp_path: Path) -> Path:
    """One article three times in a folder: with boilerplate added (listed first, the longest),
    clean, and with one word changed."""
    folder = tmp_path / "news"
    folder.mkdir()
    (folder / "a-with-footer.txt").write_text(ARTICLE + BOILERPLATE, "utf-8")
    (folder / "b-clean.txt").write_text(ARTICLE, "utf-8")
    (folder / "c-edited.txt").write_text(EDITED, "utf-8")
    return folder


def test_the_copy_without_boilerplate_is_kept(copies: Path) -> None:
    run = dedup_corpus([str(copies)], settings=MinHashSettings(THRESHOLD))
    (cluster,) = run.result.clusters
    names = [str(copies / n) for n in ("a-with-footer.txt", "b-clean.txt", "c-edited.txt")]
    assert cluster.members == tuple(names)
    assert cluster.representative == names[1]
    assert cluster.chosen_by == "least-boilerplate"
    assert cluster.to_remove == (names[0], names[2])
    clean = _hashes(ARTICLE)
    want = [exact_jaccard(_hashes(ARTICLE + BOILERPLATE), clean), 1.0]
    want.append(exact_jaccard(_hashes(EDITED), clean))
    assert cluster.jaccard == pytest.approx(want)
    assert 0.7 < want[0] < 1 and 0.7 < want[2] < 1


def test_the_summary_counts_what_to_remove(copies: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.txt"
    other.write_text("Совсем другой текст о погоде на выходные: дожди и ветер до пятницы.", "utf-8")
    result = dedup_corpus([str(copies), str(other)], settings=MinHashSettings(THRESHOLD)).result
    assert (result.documents, len(result.clusters), result.in_clusters) == (4, 1, 3)
    assert result.to_remove == 2
    summary = result.summary()
    assert summary["documents_to_remove"] == 2 and summary["documents_in_clusters"] == 3


def _same_text_entries(*sources: str, arguments: tuple[int, ...] = ()) -> list[Entry]:
    hashes = _hashes(ARTICLE)
    arguments = arguments or (0,) * len(sources)
    return [Entry(s, hashes.copy(), 1, Origin(a)) for s, a in zip(sources, arguments)]


@pytest.mark.parametrize(
    ("sources", "arguments", "kept", "rule"),
    [
        (("news/long-name.txt", "b.txt"), (1, 2), "news/long-name.txt", "earliest-argument"),
        (("news/aa.txt", "news/b.txt"), (1, 1), "news/b.txt", "shortest-source"),
        (("news/b.txt", "news/a.txt"), (1, 1), "news/b.txt", "first-read"),
    ],
)
def test_equal_texts_fall_to_the_later_rules(
    sources: tuple[str, ...], arguments: tuple[int, ...], kept: str, rule: str
) -> None:
    (cluster,) = dedup(_same_text_entries(*sources, arguments=arguments), 0.9).clusters
    assert (cluster.representative, cluster.chosen_by) == (kept, rule)
    assert cluster.jaccard == (1.0, 1.0)


def test_the_page_the_others_name_canonical_is_kept() -> None:
    """The page named by the others' canonical links is kept, even with its boilerplate."""
    tea = "https://shop.example/tea"
    entries = [
        Entry(f"{tea}?print=1", _hashes(ARTICLE), 1, Origin(1, canonical=tea)),
        Entry(tea, _hashes(ARTICLE + BOILERPLATE), 1, Origin(2)),
        Entry("https://mirror.example/tea", _hashes(EDITED), 1, Origin(3, canonical=tea)),
    ]
    (cluster,) = dedup(entries, THRESHOLD).clusters
    assert (cluster.representative, cluster.chosen_by) == (tea, "canonical")


def test_a_page_is_named_where_its_redirects_ended() -> None:
    tea = "https://shop.example/tea"
    entries = [
        Entry("http://shop.example/old-tea", _hashes(ARTICLE), 1, Origin(1, moved_to=tea)),
        Entry("https://shop.example/tea-copy", _hashes(ARTICLE), 1, Origin(2, canonical=tea)),
    ]
    (cluster,) = dedup(entries, 0.9).clusters
    assert (cluster.representative, cluster.chosen_by) == (entries[0].source, "canonical")


def test_canonical_links_from_html_records_decide_a_run(tmp_path: Path) -> None:
    """JSON Lines records with a url and html: a relative canonical link is resolved against the
    record's url."""

    def page(text: str, canonical: str = "") -> str:
        link = f'<link rel="canonical" href="{canonical}">' if canonical else ""
        return (
            f"<html><head><title>Липы</title>{link}</head><body><article><h1>Аллея</h1>"
            f"<p>{text}</p></article></body></html>"
        )

    records = [
        {"url": "https://news.example/park?print=1", "html": page(ARTICLE, "/park")},
        {"url": "https://news.example/park", "html": page(ARTICLE + BOILERPLATE)},
        {"url": "https://news.example/other", "html": page(EDITED, "https://news.example/park")},
    ]
    corpus = tmp_path / "pages.jsonl"
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    run = dedup_corpus([str(corpus)], settings=MinHashSettings(THRESHOLD), reading=Reading())
    (cluster,) = run.result.clusters
    assert (cluster.representative, cluster.chosen_by) == ("https://news.example/park", "canonical")


def test_every_rule_is_a_decision_and_the_last_always_decides() -> None:
    sets = [np.arange(1, 40, dtype=np.uint64)] * 3
    documents = [("x", Origin()), ("y", Origin()), ("z", Origin())]
    kept = keep([0, 1, 2], documents, sets.__getitem__)
    assert (kept.index, kept.chosen_by, kept.jaccard) == (0, "first-read", (1.0, 1.0, 1.0))
    assert RULES == (
        "canonical",
        "least-boilerplate",
        "earliest-argument",
        "shortest-source",
        "first-read",
    )


def test_the_shared_content_counts_what_a_member_lacks() -> None:
    """Full text, the same with its last part cut, and with boilerplate added: the full text is
    kept (the cut copy lacks what the two others share)."""
    full = np.arange(1, 101, dtype=np.uint64)
    cut, padded = full[:90], np.arange(1, 111, dtype=np.uint64)
    documents = [("cut", Origin()), ("padded", Origin()), ("full", Origin())]
    kept = keep([0, 1, 2], documents, [cut, padded, full].__getitem__)
    assert (documents[kept.index][0], kept.chosen_by) == ("full", "least-boilerplate")


def test_origins_keep_arguments_as_runs_and_links_sparsely() -> None:
    origins = Origins()
    for argument in (0, 0, 1, 1, 1, 3):
        origins.append(argument)
    origins.append(3, Origin(9, "https://a.example/", "https://b.example/"))
    assert len(origins) == 7
    assert [origins[i].argument for i in range(7)] == [0, 0, 1, 1, 1, 3, 3]
    assert origins[6] == Origin(3, "https://a.example/", "https://b.example/")
    with pytest.raises(IndexError):
        origins[7]


def test_a_page_naming_itself_says_nothing() -> None:
    own = Document("https://Shop.example:443/tea", "текст", canonical="https://shop.example/tea")
    assert links_of(own) is None
    moved = Document(
        "http://shop.example/tea",
        "текст",
        final_url="https://shop.example/tea",
        canonical="https://shop.example/tea",
    )
    assert links_of(moved) == Origin(0, "https://shop.example/tea", None)
    other = Document("https://shop.example/tea?print=1", "т", canonical="https://shop.example/tea")
    assert links_of(other) == Origin(0, None, "https://shop.example/tea")
