"""A draft and a search provider → a :class:`~.result.WebCheck`: queries, pages, one verdict.

The draft's phrases (:mod:`.queries`) are searched, the pages found fetched and extracted
(:mod:`.candidates`), and put into a temporary index under the same rules (the given index's
own profiles, k and step, or ``raw`` and ``lemma`` with k=4); the draft is then checked
against it with :func:`canon.uniqueness.check`, so the verdict, sources and fragments are
those of an index check, each source being a page's URL with the query that found it.

With an ``index`` as well, the draft is checked against each, and the verdict is taken over
both: a character is copied when either set of sources holds it word for word, rewritten
when either holds it only after canonicalization (or in a rewritten sentence) and it is not
copied.  The per-profile shingle figures stay those of each set (the web's profiles are
named ``PROFILE (web)``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ...index.prepare import prepare_all
from ...index.rules import profile_of
from ...index.settings import AddSettings, IndexRules
from ...index.store import Index
from ...index.writes import Prepared
from ...profile import get_profile
from ...sources.documents import Document
from ...sources.search.cache import QueryCache
from ...sources.search.hits import Provider
from ...text.quotes import quoted_ranges
from ..against_index import CheckResult, ProfileCheck, check, verdict_over
from ..exclusion import Exclusion
from ..settings import MAX_PAGES, RESULTS_PER_QUERY, CheckSettings
from ..verdict import verdict_of
from .candidates import Found, PageRecord, ask_all, candidates, fetch_pages, items_of
from .queries import pick_queries
from .result import WebCheck, WebSource

__all__ = ["MAX_PAGES", "RESULTS_PER_QUERY", "STAGES", "WebProgress", "web_check"]

STAGES = ("queries", "searching", "fetching", "checking")
"""A web check's stages, in order: queries built, queries searched, pages fetched, the draft
checked against them."""


@dataclass(frozen=True)
class WebProgress:
    """How far a web check is: its ``stage`` (one of :data:`STAGES`) and, within it, ``done``
    of ``total`` (queries searched, pages fetched; 0 of 0 for the other stages' start)."""

    stage: str
    done: int = 0
    total: int = 0


Progress = Callable[[WebProgress], None]


def _rules_of(index: Index | None, names: Sequence[str] | None) -> IndexRules:
    """The rules of the pages' index: the given index's (its profiles of ``names``), or
    ``names`` (default: raw and lemma) with k=4."""
    if index is None:
        return IndexRules(tuple(get_profile(n) for n in names) if names else None)
    built = [p for p in index.profiles() if not names or p.name in names]
    if not built:  # an empty index, or no profile of that name: the index check says so
        return IndexRules()
    return IndexRules(tuple(profile_of(p) for p in built), built[0].k, built[0].step)


Pages = Sequence[tuple[Found, Document]]


def _web_index(
    folder: Path, rules: IndexRules, documents: Pages, on_fail: Callable[[str, str], None]
) -> Index:
    """A new index in ``folder`` holding the pages' documents, under ``rules``."""
    index = Index(folder / "web.canon", create=True)
    indexed = index.use_profiles(*rules.values())
    titles = {doc.source: doc.title for _, doc in documents}
    prepared: list[Prepared] = []
    # strict: a page too short to compare is a failure with its sentence, listed as failed
    for done in prepare_all(items_of(documents), rules, AddSettings(strict=True)):
        if isinstance(done, Prepared):
            prepared.append(replace(done, title=titles.get(done.source)))
        else:
            on_fail(done.source, getattr(done, "reason", "unchanged"))  # too short, say
    if prepared:
        index.write_batch(prepared, indexed)
    return index


def _with_queries(result: CheckResult, found: dict[str, str], web_names: bool) -> CheckResult:
    profiles = tuple(
        replace(
            p,
            profile=f"{p.profile} (web)" if web_names else p.profile,
            sources=tuple(WebSource.of(m, found.get(m.source)) for m in p.sources),
        )
        for p in result.profiles
    )
    return replace(result, profiles=profiles)


def _nothing_found(text: str, name: str, skip_quotes: bool) -> CheckResult:
    verdict = verdict_of(
        text,
        copied=(),
        rewritten=(),
        name=name,
        left_out=quoted_ranges(text) if skip_quotes else (),
        formula="no page found by the queries could be compared: nothing is borrowed",
    )
    return CheckResult(text, (), verdict)


def _merged(
    text: str, ours: CheckResult, theirs: CheckResult, skip_quotes: bool, name: str
) -> CheckResult:
    """One verdict over the index's and the web's matches."""
    checks: tuple[ProfileCheck, ...] = ours.profiles + theirs.profiles
    rewrites = ours.rewrites + theirs.rewrites
    assert ours.verdict is not None
    formula = (
        f"{ours.verdict.formula}; the same over the pages found on the web, a character "
        "counting as copied or rewritten when either the index or the web holds it"
    )
    verdict = verdict_over(
        text, checks, rewrites, skip_quotes=skip_quotes, name=name, formula=formula
    )
    tricks = tuple(dict.fromkeys(ours.tricks + theirs.tricks))
    return CheckResult(text, checks, verdict, tricks, rewrites, ours.texts | theirs.texts)


def web_check(
    text: str,
    provider: Provider,
    settings: CheckSettings = CheckSettings(),
    *,
    index: Index | None = None,
    name: str = "draft",
    on_progress: Progress | None = None,
) -> WebCheck:
    """Check ``text`` against the web through ``provider``, searched as ``settings.search``
    says (:class:`~canon.uniqueness.settings.SearchSettings`: the queries, the results of
    each, the pages compared, how they are fetched and cached).  With ``index``, the draft is
    checked against it too, and the verdict covers both (see the module's note).  The other
    settings are those of :func:`canon.uniqueness.check`; ``common`` and ``similar`` count
    only in the index.  ``name`` is how messages name the draft.  ``on_progress``, when
    given, is called with a :class:`WebProgress` as each stage starts and as each query is
    answered and each page fetched.
    """
    search = settings.search
    options = search.fetch
    chosen = pick_queries(text, search.queries)
    cache = QueryCache(options.cache_dir) if options.cache_dir else None
    say = on_progress or (lambda progress: None)
    say(WebProgress("queries", len(chosen), len(chosen)))
    say(WebProgress("searching", 0, len(chosen)))
    answered = _counter("searching", len(chosen), say)
    asked, answers = ask_all(provider, chosen, search.results, options, cache, on_answer=answered)
    found, excluded = candidates(answers, Exclusion(settings.exclude), search.max_pages)
    say(WebProgress("fetching", 0, len(found)))
    fetching = _counter("fetching", len(found), say)
    documents, failed = fetch_pages(found, search.result_fetch, on_page=fetching)
    say(WebProgress("checking"))
    ours = check(text, index, settings, name=name) if index is not None else None
    pages = replace(settings, profiles=None, common=None, similar=None)
    rules = _rules_of(index, settings.profiles)
    theirs, compared = _against_pages(text, rules, documents, failed, pages, name)
    by_url = {f.url: f.query for f in found}
    theirs = _with_queries(theirs, by_url, web_names=ours is not None)
    result = theirs if ours is None else _merged(text, ours, theirs, settings.skip_quotes, name)
    records = tuple(_ordered(found, compared, failed, excluded))
    index_name = str(index.path) if index is not None else None
    return WebCheck(result, provider.name, tuple(asked), records, index_name)


def _counter(stage: str, total: int, on_progress: Progress) -> Callable[[], None]:
    """A callback that counts its calls and reports each as one more of ``total`` done."""
    done = [0]

    def one_more() -> None:
        done[0] += 1
        on_progress(WebProgress(stage, done[0], total))

    return one_more


def _against_pages(
    text: str,
    rules: IndexRules,
    documents: Pages,
    failed: list[PageRecord],
    settings: CheckSettings,
    name: str,
) -> tuple[CheckResult, dict[str, PageRecord]]:
    """The draft checked against the pages' documents in a temporary index."""
    compared: dict[str, PageRecord] = {}
    queries = {found.url: found for found, _ in documents}
    with tempfile.TemporaryDirectory(prefix="canon-web-") as folder:

        def refuse(url: str, reason: str) -> None:
            reason = reason.removeprefix(f"{url}: ")
            failed.append(PageRecord(url, queries[url].query, "failed", reason))

        with _web_index(Path(folder), rules, documents, refuse) as index:
            left = {r.url for r in failed}
            for found, doc in documents:
                if found.url not in left:
                    compared[found.url] = PageRecord(
                        found.url, found.query, "compared", None, doc.fetched, doc.cached
                    )
            if not compared:
                return _nothing_found(text, name, settings.skip_quotes), compared
            return check(text, index, settings, name=name), compared


def _ordered(
    found: Sequence[Found],
    compared: dict[str, PageRecord],
    failed: Sequence[PageRecord],
    excluded: Sequence[PageRecord],
) -> list[PageRecord]:
    by_url = {r.url: r for r in failed} | compared
    return [by_url[f.url] for f in found if f.url in by_url] + list(excluded)
