"""A finished site audit written straight into an audits folder, without crawling anything.

``write_audit`` makes ``<folder>/<id>/status.json`` as :mod:`canon.web.audits` writes it at
the end of an audit (state ``done``, the summary, clusters, the ``pages`` rows in the order
of ``columns``, the thin pages' URLs), for a made-up shop of any number of pages: the pages'
own grid, its paging and its filters can then be looked at with 1,000 rows in a second
rather than after a crawl of 1,000 pages.  What the shop holds, by the page's number ``i``:

- ``i`` 100–120: one near-duplicate cluster of 21 pages; 200–204: a cluster of 5 identical
  texts (201–204 exact duplicates of 200); 300–399: 50 clusters of 2 pages;
- outside 100–399, the first of these that applies: every 50th page from 7 a 404, every 97th
  from 3 a 500, every 83rd from 5 blocked by robots.txt (never fetched), every 61st from 11
  noindex, every 41st from 13 canonical to the page before it, every 37th from 17 a page of
  links without a main text;
- every 9th page from 4 short (fewer than 200 words): thin when indexable with a main text;
  the titles and URLs long, as shops' are.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from canon.audit import COLUMNS

__all__ = ["SITE", "audit_rows", "audit_status", "write_audit"]

SITE = "https://shop.example"
AUDIT_ID = "0123456789ab"
THIN = 200
GOODS = ("porcelain-teapot-with-infuser", "cast-iron-frying-pan-with-wooden-handle",
         "glass-storage-jar-with-bamboo-lid", "ceramic-mug", "stainless-steel-kettle")  # fmt: skip
NAMES = ("Фарфоровый чайник с ситечком и подогревом", "Чугунная сковорода с деревянной ручкой",
         "Стеклянная банка для круп с бамбуковой крышкой", "Кружка", "Чайник из нержавеющей "
         "стали со свистком")  # fmt: skip


def _url(i: int) -> str:
    return f"{SITE}/catalog/kitchen/{GOODS[i % len(GOODS)]}-{i}?colour=white&size=large"


def _page(i: int, rng: random.Random) -> dict[str, Any]:
    words = rng.randrange(30, THIN) if i % 9 == 4 else rng.randrange(THIN, 3000)
    return {
        "url": _url(i), "status": 200, "indexable": "true", "not_indexable_reason": "",
        "canonical": _url(i), "title": f"{NAMES[i % len(NAMES)]}, модель {i} — Магазин посуды",
        "text": "main", "words": words, "closest_url": _url((i * 7 + 1) % 1000),
        "closest_similarity": round(rng.uniform(0.05, 0.8), 6), "near_duplicates": 0,
        "exact_duplicate_of": "", "cluster": "", "containment_max": round(rng.random(), 6),
    }  # fmt: skip


def _failed(page: dict[str, Any], status: int | str, reason: str) -> None:
    page.update(status=status, indexable="false", not_indexable_reason=reason, canonical="",
                title="", text="", words=0, closest_url="", closest_similarity="",
                containment_max="")  # fmt: skip


def _special(page: dict[str, Any], i: int) -> None:
    """The page's own trouble, if any (the pages outside the clusters)."""
    if i % 50 == 7:
        _failed(page, 404, "status")
    elif i % 97 == 3:
        _failed(page, 500, "status")
    elif i % 83 == 5:
        _failed(page, "", "blocked")
    elif i % 61 == 11:
        page.update(indexable="false", not_indexable_reason="noindex")
    elif i % 41 == 13:
        page.update(indexable="false", not_indexable_reason="canonicalized", canonical=_url(i - 1))
    elif i % 37 == 17:
        page.update(text="no-text", words=0, closest_url="", closest_similarity="")


def _clusters(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups = [(range(100, 121), False), (range(200, 205), True)]
    groups += [(range(start, start + 2), False) for start in range(300, 400, 2)]
    clusters = []
    for number, (members, exact) in enumerate(groups, start=1):
        urls = [pages[i]["url"] for i in members]
        for i in members:
            pages[i].update(cluster=number, near_duplicates=len(urls) - 1, closest_url=urls[0]
                            if i != members[0] else urls[1], closest_similarity=0.93)  # fmt: skip
            if exact and i != members[0]:
                pages[i].update(exact_duplicate_of=urls[0], closest_similarity=1.0)
        clusters.append({"number": number, "representative": urls[0], "members": urls,
                         "exact": exact})  # fmt: skip
    return clusters


def audit_rows(count: int = 1000) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The shop's pages (a dict of the columns each) and its clusters."""
    rng = random.Random(7)
    pages = [_page(i, rng) for i in range(count)]
    for i, page in enumerate(pages):
        if not 100 <= i < 400:
            _special(page, i)
    return pages, _clusters(pages) if count >= 400 else []


def _summary(pages: list[dict[str, Any]], clusters: list[dict[str, Any]],
             thin: list[str]) -> dict[str, Any]:  # fmt: skip
    """The figures canon.audit's Findings.summary counts, counted on the rows."""
    compared = [p for p in pages if p["indexable"] == "true" and p["text"] == "main"]
    return {
        "pages": len(pages),
        "fetched": sum(1 for p in pages if p["status"]),
        "indexable": sum(1 for p in pages if p["indexable"] == "true"),
        "compared": len(compared),
        "exact_duplicates": sum(1 for p in pages if p["exact_duplicate_of"]),
        "near_duplicate_clusters": len(clusters),
        "pages_in_clusters": sum(len(c["members"]) for c in clusters),
        "contained": 0, "thin": len(thin), "same_titles": 0, "same_h1": 0,
        "same_descriptions": 0,
        "not_indexable": sum(1 for p in pages if p["status"] and p["indexable"] == "false"),
        "no_text": sum(1 for p in pages if p["text"] == "no-text"),
        "errors": sum(1 for p in pages if (p["status"] or 0) >= 400),
        "blocked": sum(1 for p in pages if p["not_indexable_reason"] == "blocked"),
        "threshold": 0.9,
    }  # fmt: skip


def audit_status(count: int = 1000) -> dict[str, Any]:
    """The status file of the finished audit of the shop's ``count`` pages."""
    pages, clusters = audit_rows(count)
    thin = [p["url"] for p in pages
            if p["indexable"] == "true" and p["text"] == "main" and p["words"] < THIN]  # fmt: skip
    request = {"start": SITE + "/", "max_pages": 1000, "max_depth": None, "threshold": 0.9}
    return {
        "start": SITE + "/", "started": time.time(), "request": request, "owner": None,
        "state": "done", "summary": _summary(pages, clusters, thin), "clusters": clusters,
        "columns": list(COLUMNS), "changes": None, "thin": thin,
        "pages": [[page[column] for column in COLUMNS] for page in pages],
    }  # fmt: skip


def write_audit(folder: Path, count: int = 1000, audit_id: str = AUDIT_ID) -> str:
    """Writes the finished audit of the shop's ``count`` pages into ``folder``; its id."""
    (folder / audit_id).mkdir(parents=True, exist_ok=True)
    status = audit_status(count)
    (folder / audit_id / "status.json").write_text(json.dumps(status, ensure_ascii=False), "utf-8")
    return audit_id
