"""A sentence the library wrote in English → the page's language, through the catalogs.

The library and its presentation model say some things in English sentences with figures
inside (a verdict's formula, a stuffing warning, why a text has no statistics, what found a
source, why a page could not be compared, why a site audit stopped);
the command line says them through :func:`translated` too.  Each
such sentence has an English msgid here, its figures as ``%(name)s`` placeholders: a
sentence that matches one as a whole is said in the page's language with its figures in
place.  A formula, made of clauses joined by ``"; "``, is said clause by clause.  A sentence
none matches stays English, marked ``lang="en"`` on a page in another language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from gettext import NullTranslations

from markupsafe import Markup, escape

from .language import N_

__all__ = ["LIBRARY_SENTENCES", "said", "said_parts", "translated"]

# The most specific first: a placeholder matches as little as it can, and a sentence is
# said by the first msgid that matches it whole.
LIBRARY_SENTENCES = (
    # the verdict's formula (canon.uniqueness, canon.uniqueness.web), clause by clause
    N_("uniqueness = 1 − copied − rewritten, as shares of the draft's letters and digits"),
    N_(
        "copied: inside shingles matched word for word under %(profiles)s, outside rewritten "
        "sentences"
    ),
    N_("copied: inside shingles matched word for word under %(profiles)s"),
    N_(
        "rewritten: inside shingles matched only under %(profiles)s or anywhere in a sentence "
        "rewritten from a source's (IDF-weighted Dice of their content lemmas, read as synonym "
        "classes, under %(profile)s at least %(threshold)s)"
    ),
    N_("rewritten: inside shingles matched only under %(profiles)s"),
    N_("a source counts when it holds at least %(count)s of the draft's shingles or a sentence"),
    N_("a source counts when it holds at least %(count)s of the draft's shingles"),
    N_("a shingle in more than %(count)s indexed documents is a set phrase and counts for none"),
    N_(
        "the same over the pages found on the web, a character counting as copied or rewritten "
        "when either the index or the web holds it"
    ),
    N_("no page found by the queries could be compared: nothing is borrowed"),
    # stuffing warnings (canon.report.model.stats)
    N_(
        "stuffed word «%(form)s» (%(lemmas)s): %(count)s times, %(density)s of the words; real "
        "articles of this length repeat a word at most %(usual)s times"
    ),
    N_(
        "stuffed word «%(form)s»: %(count)s times, %(density)s of the words; real articles of "
        "this length repeat a word at most %(usual)s times"
    ),
    N_(
        "stuffed phrase «%(form)s» (%(lemmas)s): %(count)s times, %(density)s of the words; "
        "real articles of this length repeat a phrase at most %(usual)s times"
    ),
    N_(
        "stuffed phrase «%(form)s»: %(count)s times, %(density)s of the words; real articles "
        "of this length repeat a phrase at most %(usual)s times"
    ),
    # the Zipf figure and its usual range (canon.textstats.zipf, canon.report.model.stats)
    N_("%(slope)s, %(r2)s (outside the usual range)"),
    N_(
        "too few content lemmas to fit: %(lemmas)s distinct, %(repeated)s occurring twice or "
        "more; need at least %(least)s and %(least_repeated)s"
    ),
    N_("every content lemma occurs equally often: there is no rank-frequency curve"),
    N_("%(low)s to %(high)s"),
    # why a text has no statistics (canon.textstats)
    N_("the text has no words to count"),
    # what found a source (canon.report.model.views)
    N_("%(count)s sentences"),
    N_("1 sentence"),
    # why a page found on the web was not compared (canon.uniqueness.web)
    N_("HTTP %(status)s"),
    N_("has %(words)s canonical words under %(profile)s, fewer than k=%(k)s"),
    # ... a search result at a private address, clause by clause (canon.uniqueness.web)
    N_("the private or local address %(address)s is not fetched"),
    N_("%(host)s resolves to the private or local address %(address)s"),
    N_("%(host)s is a name of this machine"),
    N_(
        "a search result at a private or local address is fetched only when private results "
        "are allowed"
    ),
    # why a site audit stopped (canon.audit, canon.web.audits): its site at a private address
    # (canon.sources.transport), or its own failure
    N_(
        "%(url)s: the private or local address %(address)s is not fetched; fetching private "
        "addresses is turned off"
    ),
    N_(
        "%(url)s: %(host)s resolves to the private or local address %(address)s; fetching "
        "private addresses is turned off"
    ),
    N_("%(url)s: %(host)s is a name of this machine; fetching private addresses is turned off"),
    N_(
        "a process reading pages stopped abruptly (killed, or out of memory); the pages done "
        "so far are kept: run the audit again to resume"
    ),
    N_("the audit stopped on an error"),
    N_("the audit stopped"),
    N_("the audit was interrupted (its process ended, or the server stopped)"),
)


@cache
def _pattern(msgid: str) -> re.Pattern[str]:
    parts = re.split(r"%\((\w+)\)s", msgid)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(f"^{regex}$", re.S)


def _sentence(
    text: str, t: NullTranslations, sentences: Sequence[str] = LIBRARY_SENTENCES
) -> str | None:
    for msgid in sentences:
        found = _pattern(msgid).match(text)
        if found:
            return t.gettext(msgid) % found.groupdict()
    return None


def translated(
    text: str, t: NullTranslations, sentences: Sequence[str] = LIBRARY_SENTENCES
) -> str | None:
    """``text`` said by ``t`` when one of ``sentences`` (msgids) matches it whole, or each of
    its clauses (joined by ``"; "``); None when not."""
    whole = _sentence(text, t, sentences)
    if whole is None and "; " in text:
        clauses = [_sentence(clause, t, sentences) for clause in text.split("; ")]
        if all(c is not None for c in clauses):
            whole = "; ".join(c for c in clauses if c is not None)
    return whole


def said(text: str, t: NullTranslations, lang: str) -> Markup:
    """``text`` in the page's language (``t``, ``lang``) when a msgid says it, as a whole or
    clause by clause; else as it is, marked English when the page is not."""
    whole = translated(text, t)
    if whole is not None:
        return Markup(escape(whole))
    if lang == "en":
        return Markup(escape(text))
    return Markup('<span lang="en">{}</span>').format(text)


def said_parts(text: str, t: NullTranslations, separator: str = " · ") -> str:
    """``text`` made of parts joined by ``separator`` (``raw 55 · lemma 147 · 3 sentences``):
    each part a msgid says in the page's language, the others (names, figures) as they are."""
    return separator.join(_sentence(part, t) or part for part in text.split(separator))
