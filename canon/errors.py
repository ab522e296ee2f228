"""One family of errors: every message says what is wrong and what to do, in the library's terms.

::

    CanonError                      exit 2; the base of every error canon raises on purpose
    ├── InputError                  a source (file, stdin, upload, page) cannot be read as text
    │   │                           .source, .reason
    │   ├── FetchError              a URL cannot be fetched            .url, .reason
    │   └── ExtractionError         HTML or .docx without usable text  .source, .reason
    ├── OptionError (ValueError)    a setting out of its range         .option, .value
    │   └── ProfileError            an unknown profile, word list or rule
    ├── TextTooShort (ValueError)   fewer canonical words than k       .words, .k, .side
    │   └── EmptyText               no word at all (statistics need k = 1)
    ├── IndexFileError              an index file cannot be used       .path, .reason, .remedy
    ├── SearchError                 a search provider cannot answer    .provider, .reason
    ├── OutputError                 a report or result cannot be written  .path
    ├── AccountError                a user of a server cannot be added, found or kept  .user
    └── MissingResource             a package or data set is not installed  .package
        └── MissingExtra (ImportError)  an extra of canon is not installed  .extra, .feature

Messages never name a command-line flag or a form field: they name the setting (``option``),
the side (``side``: ``first``, ``second``, ``draft``) or the reason (``reason``, a short
kebab-case code such as ``private-address``).  Nor do they name a command: what to do is said
in words, and coded in ``remedy`` where a front has a command for it.  The CLI turns those
attributes into ``--flag`` hints and its commands, and the web app into ``{"field": ...}``.
``exit_code`` is the process exit status for the error; :class:`Outcome` holds the statuses of
runs that did not fail.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "AccountError",
    "CanonError",
    "EmptyText",
    "ExtractionError",
    "FetchError",
    "IndexFileError",
    "InputError",
    "MissingExtra",
    "MissingResource",
    "OptionError",
    "Outcome",
    "OutputError",
    "ProfileError",
    "SearchError",
    "TextTooShort",
]


class Outcome(IntEnum):
    """Exit statuses: 0 fine, 1 below the user's bar, 2 bad input, 3 some sources failed."""

    OK = 0
    BELOW_BAR = 1
    BAD_INPUT = 2
    SOME_FAILED = 3


class CanonError(Exception):
    """Base of every error canon raises on purpose; the CLI prints its message and exits 2."""

    exit_code: int = Outcome.BAD_INPUT
    reason: str | None = None

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from the attributes, not from __init__'s arguments, so that every subclass
        # crosses a process boundary (worker pools, Dask) intact.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(
    cls: type[CanonError], args: tuple[object, ...], state: dict[str, object]
) -> CanonError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class InputError(CanonError):
    """A source (file, stdin, page) cannot be read as text."""

    def __init__(self, message: str, *, source: str | None = None, reason: str | None = None):
        super().__init__(message, reason=reason)
        self.source = source


class FetchError(InputError):
    """A URL cannot be fetched: DNS, connection, deadline, HTTP status, size, content type.

    ``reason`` is one of ``not-http``, ``bad-url``, ``dns``, ``private-address``, ``connect``,
    ``timeout``, ``deadline``, ``status``, ``too-large``, ``content-type``, ``redirect``,
    ``decoding``, ``http``, ``not-fetched`` (a batch stopped before this URL),
    ``host-failing`` (its host failed too often in a row to be asked again).
    """

    def __init__(self, url: str, message: str, *, reason: str) -> None:
        super().__init__(f"{url}: {message}", source=url, reason=reason)
        self.url = url


class ExtractionError(InputError):
    """A page or document canon will not or cannot use (``reason``: ``no-main-text``,
    ``no-text``, ``not-docx``, ``bad-xml``, ``bomb``, ``too-large``, ``too-complex``)."""


class OptionError(CanonError, ValueError):
    """A setting has a value outside its range; ``option`` names the setting."""

    def __init__(self, option: str, message: str, *, value: object = None) -> None:
        super().__init__(f"{option} {message}")
        self.option = option
        self.problem = message
        self.value = value


class ProfileError(OptionError):
    """An unknown profile, stop list, synonym file or profile rule."""

    def __init__(self, message: str, *, option: str = "profile", value: object = None) -> None:
        CanonError.__init__(self, message)
        self.option = option
        self.value = value


class TextTooShort(CanonError, ValueError):
    """A text has fewer canonical words than the shingle size: there is nothing to compare.

    ``side`` says which text: ``first``, ``second``, ``draft``, or a source's name.
    """

    def __init__(self, words: int, k: int, side: str = "text", message: str | None = None):
        self.words = words
        self.k = k
        self.side = side
        super().__init__(
            message
            or f"{side} has {words} canonical word{'s' if words != 1 else ''}, fewer than k={k}: "
            "use a smaller k or a longer text (two empty shingle sets are not 100% similar)"
        )

    @property
    def label(self) -> str:  # the name older callers used
        return self.side


class EmptyText(TextTooShort):
    """A text without a single word: statistics count single words, so they need k = 1."""

    def __init__(self, side: str = "text") -> None:
        super().__init__(
            0,
            1,
            side,
            f"{side} has no words (runs of letters or digits): give a text with at least one word",
        )


class IndexFileError(CanonError):
    """An index file cannot be used: not an index, a newer schema, other rules, no room.

    ``reason``: ``missing``, ``not-an-index``, ``schema``, ``rules``, ``empty``, ``read-only``,
    ``disk-full``, ``corrupt``, ``busy``, ``unreadable``, ``sqlite``.  ``remedy``, when the
    message ends with what to do, says it as a code a front can name its own way: ``create``
    (no such index yet), ``upgrade`` (an older schema, migrated in place), ``rebuild`` (too old
    to migrate: a new index from the same sources), ``verify`` (damaged: a check of the whole
    index lists every problem).
    """

    def __init__(
        self,
        message: str,
        *,
        path: object = None,
        reason: str | None = None,
        remedy: str | None = None,
    ) -> None:
        super().__init__(message, reason=reason)
        self.path = path
        self.remedy = remedy


class SearchError(CanonError):
    """A web search provider cannot be used or did not answer: not configured, unreachable,
    the key refused, the quota spent, the rate limited, an answer not in its format.

    ``provider`` names the provider (``searxng``, ``yandex``, ``google``); ``reason`` is one of
    ``not-configured``, ``unreachable``, ``bad-key``, ``quota``, ``rate-limit``, ``refused``,
    ``bad-answer``.  Messages never hold a key.
    """

    def __init__(self, provider: str, message: str, *, reason: str) -> None:
        super().__init__(f"{provider}: {message}", reason=reason)
        self.provider = provider


class OutputError(CanonError):
    """A report, plot or result file cannot be written."""

    def __init__(self, path: object, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class AccountError(CanonError):
    """A user of ``canon serve`` cannot be added, found or kept, or its file cannot be used.

    ``user`` names the user (None for the file); ``reason`` is one of ``missing`` (no such
    file), ``not-accounts``, ``unreadable``, ``exists``, ``unknown``, ``bad-name``,
    ``weak-password``, ``bad-limit``, ``quota`` (today's search queries spent).
    """

    def __init__(self, message: str, *, user: str | None = None, reason: str) -> None:
        super().__init__(message, reason=reason)
        self.user = user


class MissingResource(CanonError):
    """An optional package or data set the chosen option needs is not installed."""

    def __init__(self, message: str, *, package: str | None = None) -> None:
        super().__init__(message)
        self.package = package


class MissingExtra(MissingResource, ImportError):
    """A feature whose extra of canon is not installed: ``extra`` names it (``web``, ``audit``,
    ``plot``, ``dask``), ``feature`` says what needs it, ``package`` the first package missing."""

    def __init__(self, extra: str, feature: str, *, package: str | None = None) -> None:
        self.extra = extra
        self.feature = feature
        super().__init__(f"{feature} needs the {extra} extra: {self.install}", package=package)

    @property
    def install(self) -> str:
        """The command that installs the extra."""
        return f"pip install 'canon[{self.extra}]'"
