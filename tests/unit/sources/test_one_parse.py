"""A page parsed once reads as it did when each text had a parse (and a sanitizer) of its own.

The reference below is the reading as it was: the markup scanned tag by tag three times,
the page shown again for each text (:func:`as_seen` on the markup), trafilatura with all its
metadata, the whole-page text through lxml_html_clean's Cleaner, and the audit's facts from a
parse of their own.  Every page of the fixtures, of the test sites, of the benchmarks' page
makers, a set of awkward pages, and the real pages of the shared data (when present) must
read the same both ways: main and whole-page texts, titles, unseen words, errors, and the
audit's facts, links, canonical and robots.

One difference is meant: the text inside an ``<iframe>`` (raw text to the parser) of a page
with unseen elements.  The old reading serialized such a page and parsed it again, which
escaped that text a second time (``&amp;`` became ``&amp;amp;`` in the whole-page text);
read from one tree it is the page's own, as on a page without unseen elements.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canon.errors import CanonError, ExtractionError
from canon.sources.crawl.addresses import normalize
from canon.sources.crawl.page import (
    ContentArea,
    PageFacts,
    _canonical,
    _clean,
    _links,
    _meta,
    _narrowed,
    page_facts,
)
from canon.sources.extract import Extracted, decode_html, extract_html
from canon.sources.limits import ReadLimits
from canon.sources.markup import _scan, check_html, uncrowded
from canon.sources.shown import as_seen

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared" / "data" / "scrapinghub-article-extraction-benchmark" / "html"


# --- the reading as it was ---------------------------------------------------------------------


def _old_check(html: str, source: str, limits: ReadLimits | None = None) -> None:
    limits = limits or ReadLimits()
    if len(html) > limits.max_bytes:
        raise ExtractionError(
            f"{source}: the page has {len(html):,} characters, more than {limits.max_bytes:,}",
            source=source,
            reason="too-large",
        )
    _scan(html, source, limits)


def _old_visible(html: str) -> tuple[str, str | None]:
    import lxml.etree
    import lxml.html
    from lxml_html_clean import Cleaner

    cleaner = Cleaner(
        scripts=True,
        javascript=True,
        style=True,
        comments=True,
        page_structure=False,
        forms=False,
        kill_tags={"head", "noscript", "template"},
    )
    try:
        page = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return "", None
    title = " ".join((page.findtext(".//title") or "").split()) or None
    tree = cleaner.clean_html(page)
    return " ".join(" ".join(tree.itertext()).split()), title


def _old_extract(html: str, source: str, whole_page: bool = False) -> Extracted:
    import trafilatura

    _old_check(html, source)
    seen = as_seen(uncrowded(html))
    if whole_page:
        text, title = _old_visible(seen.html)
        extracted = Extracted(text, title, None, "whole-page", seen.unseen)
    else:
        document = trafilatura.bare_extraction(
            seen.html,
            favor_precision=True,
            include_comments=False,
            include_tables=True,
            deduplicate=False,
            with_metadata=True,
        )
        extracted = Extracted(
            getattr(document, "text", None) or "",
            getattr(document, "title", None),
            getattr(document, "language", None),
            "trafilatura",
            seen.unseen,
        )
    if not extracted.text.strip():
        reason = "no-text" if whole_page else "no-main-text"
        message = f"{source}: no main text found in this HTML page"
        raise ExtractionError(message, source=source, reason=reason)
    return extracted


def _old_facts(html: str, url: str, area: ContentArea) -> PageFacts:
    import lxml.etree
    import lxml.html

    _old_check(html, url)
    try:
        tree = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError) as exc:
        return PageFacts(None, None, None, None, "", (), "", "", f"{url}: not HTML ({exc})")
    base_element = tree.find(".//base[@href]")
    base = normalize(base_element.get("href", ""), url) if base_element is not None else None
    base = base or url
    robots = ",".join(
        p.strip() for p in (_meta(tree, "robots") or "").lower().split(",") if p.strip()
    )
    h1 = next(iter(tree.iter("h1")), None)
    title = _clean(tree.findtext(".//title"))
    heading = _clean(h1.text_content()) if h1 is not None else None
    description, canonical = _meta(tree, "description"), _canonical(tree, base)
    links = _links(tree, base, "nofollow" not in robots and "none" not in robots)
    try:
        whole = _old_extract(html, url, whole_page=True).text
    except CanonError:
        whole = ""
    source = _narrowed(tree, area) if area.narrowed else html
    try:
        main, error = _old_extract(source, url).text, None
    except CanonError as exc:
        main, error = "", str(exc)
    return PageFacts(title, heading, description, canonical, robots, links, main, whole, error)


# --- the pages ----------------------------------------------------------------------------------

HIDDEN = "<span style='display:none'>скрыто</span>"
ARTICLE = "".join(
    f"<p>Абзац номер {i}: большая собака долго лаяла на соседского кота возле забора.</p>"
    for i in range(8)
)


def _doc(body: str, head: str = "<title>Заголовок  страницы</title>", opening: str = "") -> str:
    opening = opening or "<!doctype html>"
    return f"{opening}<html lang='ru'><head>{head}</head><body>{body}</body></html>"


AWKWARD = {
    "plain": _doc(ARTICLE),
    "comments": _doc(f"<p>сло<!-- x -->во и<!--y--> дело</p>{ARTICLE}<!-- конец -->"),
    "processing": _doc(f"<p>сло<?php echo 1 ?>во</p>{ARTICLE}"),
    "script glued": _doc(f"<p>один<script>var a = 1;</script>два</p>{ARTICLE}"),
    "style glued": _doc(f"<div>один<style>p {{ color: red }}</style>два</div>{ARTICLE}"),
    "unknown tags": _doc(f"<main>раз<noindex>два</noindex>три<yatag>x</yatag></main>{ARTICLE}"),
    "embedded": _doc(
        "<object>об<param name=a>ъект<embed>в</embed>мест</object><applet>апплет</applet>"
        f"<iframe>рамка</iframe><marquee>бег</marquee><blink>миг</blink>{ARTICLE}"
    ),
    "loose param": _doc(f"<p>до<param name=x>после</p>{ARTICLE}"),
    "noscript and template": _doc(
        f"<noscript>без скриптов</noscript><template>шаблон</template>а<br>б{ARTICLE}"
    ),
    "forms": _doc(
        "<form>форма<input value=v><button>кнопка</button><select><option>один</option>"
        f"</select><textarea>поле</textarea></form>{ARTICLE}"
    ),
    "image": _doc(f"<p>слово<image src=a>слово</p><p>x<img src=b>y</p>{ARTICLE}"),
    "title in body": _doc(f"<title>второй</title><svg><title>знак</title></svg>{ARTICLE}", ""),
    "no title": _doc(ARTICLE, "<meta charset='utf-8'>"),
    "hidden": _doc(f"<p>видно {HIDDEN} видно</p><div hidden>не видно</div>{ARTICLE}"),
    "hidden by sheet": _doc(
        f"<p class=x>прочь</p><p id=y>тоже</p><p>здесь</p>{ARTICLE}",
        "<title>Т</title><style>.x { display: none } #y { font-size: 0 } p { margin: 0 }</style>",
    ),
    "white on white": _doc(f"<p>видно <b style='color:#fff'>белое</b> видно</p>{ARTICLE}"),
    "hidden inline emptied": _doc(f"<p>а <i><b hidden>б</b></i> в</p>{ARTICLE}"),
    "bidi": _doc(f"<p>слово &#x202E;акабос&#x202C; и <bdo dir=rtl>окно</bdo></p>{ARTICLE}"),
    "bidi by css": _doc(
        f"<p style='unicode-bidi: bidi-override; direction: rtl'>тсект</p>{ARTICLE}"
    ),
    "head facts": _doc(
        f"<h1> Главный   заголовок </h1>{ARTICLE}<a href='/a'>a</a><a href='b' rel=nofollow>b</a>"
        "<a href='https://other.example/x#f'>c</a><a href='/a'>again</a>",
        "<title>T</title><meta name='robots' content='NoIndex, follow'>"
        "<meta name='description' content=' Описание  страницы '>"
        "<link rel='canonical' href='/canon'><base href='https://example.ru/dir/'>",
    ),
    "nofollow page": _doc(f"{ARTICLE}<a href='/a'>a</a>", "<meta name=robots content=none>"),
    "meta title": _doc(
        ARTICLE,
        "<title>Сайт | Статья</title><meta property='og:title' content='Из OpenGraph'>",
    ),
    "json-ld title": _doc(
        ARTICLE,
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": '
        '"Из JSON-LD", "author": {"name": "Иван Петров"}}</script>',
    ),
    "broken json-ld": _doc(ARTICLE, '<script type="application/ld+json">{"a": [</script>'),
    "two h1": _doc(f"<h1>один</h1><h1>два</h1>{ARTICLE}", ""),
    "no main text": _doc("<nav><a href='/1'>1</a> <a href='/2'>2</a></nav>"),
    "empty body": _doc(""),
    "xml declaration": _doc(ARTICLE, opening='<?xml version="1.0" encoding="utf-8"?>'),
    "leading comment": "<!-- generator -->" + _doc(ARTICLE),
    "fragment": ARTICLE,
    "head only fragment": "<head><title>Только голова</title></head>" + ARTICLE,
    "crowded": _doc("<p>" + "<span>слово</span> " * 2_100 + f"</p>{ARTICLE}"),
    "entities": _doc(f"<p>a&nbsp;b &amp; c&lt;d &#1078;</p>{ARTICLE}"),
    "tables": _doc(f"<table><tr><td>ячейка</td><td>вторая</td></tr></table>{ARTICLE}"),
    "iframe": _doc(f"<p>{HIDDEN}</p><iframe>a &amp; b</iframe>x<iframe src=y></iframe>{ARTICLE}"),
    "whitespace": _doc(f"<p>\n  раз\n</p>\n\n<div> \t </div>{ARTICLE}\n"),
}


def _fixture_pages() -> dict[str, str]:
    import site_server

    pages = {}
    for template in ("blog", "news"):
        for name in ("tea", "garden"):
            pages[f"{template}-{name}"] = site_server.render(template, name)
    pages["hostile title"] = site_server.render("blog", "tea", title=site_server.HOSTILE_TITLE)
    return pages


def _audit_site_pages() -> dict[str, str]:
    import audit_site

    return {path: audit_site.html_of(page).decode() for path, page in audit_site.pages().items()}


def _benchmark_pages() -> dict[str, str]:
    from benchmarks.crawl import _page

    return {f"crawl {n}": _page(n, 50).decode() for n in range(3)}


def _shared_pages() -> dict[str, str]:
    if not SHARED.is_dir():
        return {}
    pages = {}
    for path in sorted(SHARED.glob("*.html.gz")):
        pages[path.name] = decode_html(gzip.decompress(path.read_bytes()), path.name)[0]
    return pages


def _outcome(read: Callable[[], Any]) -> Any:
    try:
        return read()
    except CanonError as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "reason", None))


_DOUBLED = re.compile(r"&amp;(amp|lt|gt|quot|#\d+);")


def _undoubled(read: Any) -> Any:
    """A reading with an escape doubled by a serialize-and-parse round trip undone (see the
    module), in its whole-page text."""
    if isinstance(read, Extracted) and read.method == "whole-page":
        return replace(read, text=_DOUBLED.sub(r"&\1;", read.text))
    if isinstance(read, PageFacts):
        return replace(read, page_text=_DOUBLED.sub(r"&\1;", read.page_text))
    return read


def _same_reading(html: str, name: str) -> None:
    url = "https://example.ru/dir/page"
    iframe = "<iframe" in html.lower()
    for whole_page in (False, True):
        new = _outcome(lambda: extract_html(html, name, whole_page=whole_page))  # noqa: B023
        old = _outcome(lambda: _old_extract(html, name, whole_page))  # noqa: B023
        assert new == old or (iframe and new == _undoubled(old)), (name, whole_page)
    for area in (ContentArea(), ContentArea(keep=("article", "p"), drop=(".x",))):
        new_facts, old_facts = page_facts(html, url, area), _old_facts(html, url, area)
        assert new_facts == old_facts or (iframe and new_facts == _undoubled(old_facts)), (
            name,
            area,
        )


# --- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(AWKWARD))
def test_awkward_pages_read_as_before(name: str) -> None:
    _same_reading(AWKWARD[name], name)


def test_fixture_and_benchmark_pages_read_as_before() -> None:
    pages = {**_fixture_pages(), **_audit_site_pages(), **_benchmark_pages()}
    assert len(pages) > 10
    for name, html in pages.items():
        _same_reading(html, name)


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared data are not here")
def test_real_pages_read_as_before() -> None:
    pages = _shared_pages()
    assert len(pages) > 100
    for name, html in pages.items():
        _same_reading(html, name)


def test_an_iframe_reads_alike_with_and_without_unseen_elements() -> None:
    iframe = "<iframe>a &amp; b &lt;c&gt;</iframe>"
    plain = extract_html(_doc(f"<p>x</p>{iframe}{ARTICLE}"), "p", whole_page=True)
    hidden = extract_html(_doc(f"<p>x{HIDDEN}</p>{iframe}{ARTICLE}"), "p", whole_page=True)
    assert plain.text == hidden.text and plain.text.startswith("x a &amp; b &lt;c&gt; Абзац")
    assert hidden.unseen == ("скрыто",)


def test_the_awkward_pages_exercise_both_readings() -> None:
    """The set holds pages read from one tree and pages read in separate passes."""
    from canon.sources.htmlpage import HtmlPage

    kinds = set()
    for html in AWKWARD.values():
        page = HtmlPage(html, "p")
        page.show()
        kinds.add(page._parsed() is not None)
    assert kinds == {True, False}


# --- the tag scan: bounds in C, the same answer --------------------------------------------------

_TAGS = st.sampled_from(["p", "div", "a", "script", "style", "b"])
_ATTRIBUTES = st.lists(
    st.sampled_from(["a=1", "b='x y'", 'c="z"', "d", "e = f", "/", "g=h/i", "k='>'"]),
    max_size=12,
)
_PIECES = st.one_of(
    st.builds(lambda t, a: f"<{t} {' '.join(a)}>", _TAGS, _ATTRIBUTES),
    st.sampled_from(["</p>", "text ", "<!-- <p a b c> -->", "<!--", " \n ", "<", ">"]),
)


def _verdict(check: Callable[[], None]) -> str | None:
    try:
        check()
    except ExtractionError as exc:
        return str(exc)
    return None


@given(
    pieces=st.lists(_PIECES, max_size=40),
    elements=st.integers(1, 30),
    attributes=st.integers(1, 60),
    per_element=st.integers(1, 10),
)
def test_the_fast_check_answers_as_the_scan(
    pieces: list[str], elements: int, attributes: int, per_element: int
) -> None:
    html = "".join(pieces)
    limits = ReadLimits(
        max_elements=elements, max_attributes=attributes, max_element_attributes=per_element
    )
    assert _verdict(lambda: check_html(html, "p", limits)) == _verdict(
        lambda: _scan(html, "p", limits)
    )


# --- the look for bidirectional markup: separate searches, the same answer ------------------------

_OLD_SUSPECT = re.compile(
    r"[\u202a-\u202e\u2066-\u2069]|&#(?:x0*(?:202[a-e]|206[6-9])|0*(?:823[4-8]|829[4-7]));|<bdo\b"
    r"|unicode-bidi",
    re.IGNORECASE,
)
_BIDI_PIECES = st.sampled_from(
    ["\u202e", "\u2067", "\u2069", "\u202f", "&#x202E;", "&#X0202a;", "&#8238;", "&#8239;",
     "&#x2065;", "<bdo dir=rtl>", "<BDO>", "<bdox>", "unicode-bidi", "UNICODE-BIDI", "-bidi",
     "unicode-bıdi", "unıcode-bidi", "text ", "<p>", "&#", "&amp;"]
)  # fmt: skip


@given(st.lists(_BIDI_PIECES, max_size=8))
def test_the_look_for_bidirectional_markup_answers_as_one_expression(pieces: list[str]) -> None:
    from canon.sources.shown import _bidi

    html = "".join(pieces)
    assert _bidi(html) == (_OLD_SUSPECT.search(html) is not None)


def test_the_audit_parses_a_page_no_more_often_than_trafilatura_alone(monkeypatch) -> None:
    """Facts, links, the page as seen, whole-page and main texts: one parse of the page, and
    whatever trafilatura's own extraction parses besides (its fallback extractors)."""
    import lxml.html
    import trafilatura

    from canon.sources.htmlpage import main_settings

    parse = lxml.html.document_fromstring
    parses = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        parses.append(1)
        return parse(*args, **kwargs)

    monkeypatch.setattr(lxml.html, "document_fromstring", counted)
    html = AWKWARD["hidden by sheet"]
    trafilatura.bare_extraction(html, **main_settings())
    alone, parses[:] = len(parses), []
    facts = page_facts(html, "https://example.ru/")
    assert facts.main_text and facts.page_text and "прочь" not in facts.page_text
    assert len(parses) == alone
