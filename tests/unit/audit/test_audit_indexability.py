"""Whether a page is indexable says only what search engines are told; what text it has is
said apart (a home page of links is indexable, without a main text)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from canon.audit.indexability import REASONS, TEXTS, indexability, noindex
from canon.audit.records import judged
from canon.audit.state import PageRow

URL = "https://example.ru/page"

PAGE = PageRow(
    url=URL, status=200, final_url=URL, redirects="[]", content_type="text/html",
    canonical=None, meta_robots="", x_robots="", title="Страница", h1="Страница",
    description=None, main_words=250, page_words=300, indexable=True, reason="",
    canonical_hash="ab" * 16, tries=1, error=None, depth=0,
)  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "indexable", "reason", "text"),
    [
        ({}, True, "", "main"),
        ({"main_words": 0, "reason": "no-text", "canonical_hash": None}, True, "", "no-text"),
        ({"status": 0, "reason": "blocked"}, False, "blocked", ""),
        ({"status": 0, "reason": "error", "error": "timeout"}, False, "error", ""),
        ({"status": 301, "reason": "redirect"}, False, "redirect", ""),
        ({"status": 404, "reason": "status"}, False, "status", ""),
        ({"status": 410, "reason": "status"}, False, "status", ""),
        ({"meta_robots": "noindex, follow", "reason": "noindex"}, False, "noindex", "main"),
        ({"x_robots": "googlebot: none"}, False, "noindex", "main"),
        ({"canonical": URL + "-other", "reason": "canonicalized"}, False, "canonicalized", "main"),
        ({"canonical": URL}, True, "", "main"),  # a canonical link to itself
        ({"content_type": "application/pdf", "reason": "not-html", "main_words": 0}, True, "",
         "not-html"),
        ({"content_type": "application/pdf", "reason": "not-html", "x_robots": "noindex"}, False,
         "noindex", "not-html"),
        ({"reason": "error", "main_words": 0, "error": "reading failed"}, True, "", "unreadable"),
        ({"main_words": 0, "meta_robots": "noindex", "reason": "noindex"}, False, "noindex",
         "no-text"),
    ],
)  # fmt: skip
def test_what_search_engines_are_told_and_what_text_there_is(
    changes: dict[str, object], indexable: bool, reason: str, text: str
) -> None:
    judgement = indexability(replace(PAGE, **changes))  # type: ignore[arg-type]
    assert (judgement.indexable, judgement.reason, judgement.text) == (indexable, reason, text)
    assert judgement.reason in ("", *REASONS) and judgement.text in ("", *TEXTS)


def test_a_row_stored_before_the_two_were_told_apart_is_read_the_new_way() -> None:
    stored = replace(PAGE, main_words=0, canonical_hash=None, indexable=False, reason="no-text")
    assert indexability(stored).indexable
    assert judged(stored).indexable  # and a row made now is stored so


@pytest.mark.parametrize(
    ("value", "kept_out"),
    [("noindex", True), ("NoIndex, nofollow", True), ("none", True), ("yandex: noindex", True),
     ("index, follow", False), ("", False), ("nofollow", False)],
)  # fmt: skip
def test_noindex_directives(value: str, kept_out: bool) -> None:
    assert noindex(value) is kept_out
