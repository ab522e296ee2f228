"""A refusal of the library (a :class:`~canon.errors.CanonError`) → the one line the command
line prints, in its language.

The library words its errors in English, its figures and names inside.  The refusals a user
meets most (a file or an index that is not there, a page that does not answer, a text too
short to compare) have an English msgid here, their names as ``%(name)s`` placeholders: a
message that one matches whole, or clause by clause, is said in the command line's language
with its names in place (as :mod:`canon.report.said` says the library's sentences on the
pages).  A text too short is said from the error's attributes, its count in its plural form.
A message none matches is printed as the library wrote it.
"""

from __future__ import annotations

from ..errors import CanonError, EmptyText, TextTooShort
from ..report.language import N_, Speech
from ..report.said import translated

__all__ = ["HINTS", "REFUSALS", "refusal", "said_text"]

# The most specific first: a message is said by the first msgid that matches it whole.
REFUSALS = (
    # reading a source (canon.sources.documents, canon.cli.options)
    N_("%(source)s: is a directory; give a file"),
    N_("%(source)s: no such file"),
    N_("for a web page give its address: %(address)s"),
    N_("%(source)s: cannot read (%(why)s)"),
    N_(
        "%(sources)s: holds no file; canon reads .txt, .md, .html, .htm and .docx files, and "
        "those packed as .gz"
    ),
    N_(
        "%(sources)s: holds only %(count)s files of other types (%(kinds)s); canon reads .txt, "
        ".md, .html, .htm and .docx files, and those packed as .gz"
    ),
    # fetching a page (canon.sources.fetch)
    N_("%(url)s: HTTP %(status)s"),
    N_("%(url)s: cannot connect (%(why)s)"),
    N_("%(url)s: connection timed out after %(seconds)s s"),
    N_("%(url)s: no answer within %(seconds)s s (read timeout)"),
    N_(
        "%(url)s: not fetched within the %(seconds)s-second deadline (connecting and reading, "
        "redirects included)"
    ),
    # an index file (canon.index)
    N_("%(path)s: no such index; create one"),
    N_("%(path)s: is a directory; give the path of an index file"),
    N_("%(path)s: is not a canon index (an empty database)"),
    N_("%(path)s: is not a canon index (another kind of SQLite file)"),
    N_(
        "%(path)s: index schema version %(version)s was made by an older canon; migrate it in place"
    ),
    N_("%(path)s: another process holds the index locked; try again when it is done"),
    # the command line's own refusals (canon.cli.audit)
    N_("is missing: give the folder to write the audit into"),
    N_("takes the audit folder alone: drop START and --out"),
)
# What to try, said after the message (canon.cli's hints and commands).
HINTS = (
    N_("pass --allow-private to fetch it"),
    N_("raise --max-bytes"),
    N_("raise --timeout"),
    N_("raise --deadline"),
    N_("try --whole-page to see all its text"),
)


def _too_short(exc: TextTooShort, speech: Speech) -> str | None:
    """A text too short, said from its attributes; None when its message is not the usual."""
    if isinstance(exc, EmptyText):
        usual = (
            f"{exc.side} has no words (runs of letters or digits): give a text with at least "
            "one word"
        )
        if exc.message != usual:
            return None
        return speech._(
            "%(side)s has no words (runs of letters or digits): give a text with at least one word",
            side=exc.side,
        )
    if exc.message != str(TextTooShort(exc.words, exc.k, exc.side)):
        return None
    return speech.ngettext(
        "%(side)s has %(num)s canonical word, fewer than k=%(k)s: use a smaller k or a longer "
        "text (two empty shingle sets are not 100%% similar)",
        "%(side)s has %(num)s canonical words, fewer than k=%(k)s: use a smaller k or a longer "
        "text (two empty shingle sets are not 100%% similar)",
        exc.words,
        side=exc.side,
        k=exc.k,
    )


def said_text(text: str, speech: Speech) -> str:
    """A message (or a part of one) in the command line's language, when a msgid says it."""
    if speech.locale == "en":
        return text
    return translated(text, speech.translations, REFUSALS + HINTS) or text


def refusal(exc: CanonError, speech: Speech) -> str:
    """The error's own message in the command line's language (as it is, when no msgid says
    it)."""
    if speech.locale != "en" and isinstance(exc, TextTooShort):
        short = _too_short(exc, speech)
        if short is not None:
            return short
    return said_text(exc.message, speech)
