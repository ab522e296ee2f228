"""Which indexed sources a check leaves out: a source exactly, a domain, or a pattern."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from .errors import OptionError

__all__ = ["Exclusion"]


class Exclusion:
    """A source exactly, a domain (and its subdomains), or a regular expression."""

    def __init__(self, patterns: Sequence[str] = ()) -> None:
        self.patterns = list(patterns)
        self.regexes = []
        for pattern in self.patterns:
            try:
                self.regexes.append(re.compile(pattern))
            except re.error as exc:
                raise OptionError(
                    "exclude", f"{pattern!r}: not a valid regular expression ({exc})", value=pattern
                ) from None

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def __call__(self, source: str) -> bool:
        host = (urlsplit(source).hostname or "") if "://" in source else ""
        for pattern, regex in zip(self.patterns, self.regexes):
            domain = pattern.lower().removeprefix("www.")
            if source == pattern or (host and (host == domain or host.endswith("." + domain))):
                return True
            if regex.search(source):
                return True
        return False
