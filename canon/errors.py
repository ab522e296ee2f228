"""One family of errors: every message says what is wrong and what to do about it."""

from __future__ import annotations

__all__ = [
    "CanonError",
    "EmptyText",
    "FetchError",
    "IndexFileError",
    "InputError",
    "MissingResource",
    "ProfileError",
    "TextTooShort",
]


class CanonError(Exception):
    """Base of every error canon raises on purpose; the CLI prints its message and exits 2."""


class InputError(CanonError):
    """A source (file, stdin, page) cannot be read as text."""


class FetchError(InputError):
    """A URL cannot be fetched: DNS, connection, timeout, HTTP status, size, content type."""


class IndexFileError(InputError):
    """An index file cannot be used: not an index, a newer schema, other rules, no room."""


class ProfileError(CanonError, ValueError):
    """An unknown profile, stop list, synonym file or option value."""


class MissingResource(CanonError):
    """An optional package or data set the chosen option needs is not installed."""


class TextTooShort(CanonError, ValueError):
    """A text has fewer canonical words than the shingle size: there is nothing to compare."""

    def __init__(self, words: int, k: int, label: str = "text") -> None:
        self.words = words
        self.k = k
        self.label = label
        super().__init__(
            f"{label} has {words} canonical word{'s' if words != 1 else ''}, fewer than k={k}: "
            "use a smaller k or a longer text (two empty shingle sets are not 100% similar)"
        )


class EmptyText(TextTooShort):
    """A text without a single word: there is nothing to count."""

    def __init__(self, label: str = "text") -> None:
        super().__init__(0, 1, label)
        self.args = (
            f"{label} has no words (runs of letters or digits): give a text with at least one word",
        )
