"""Which indexed sources a check leaves out: exact sources, domains, and ``re:`` patterns.

Each entry is one of:

* ``re:PATTERN`` — an RE2 regular expression searched in the source's name.  RE2 runs in
  time linear in the name, so no pattern can stall a check; a pattern that is invalid, empty,
  too large for RE2's memory budget, or that matches every probe name (``.``, ``x*``, ``|``)
  is refused.
* a domain of two labels or more, such as ``client.ru`` — every source URL whose host is
  that domain or one of its subdomains (``www.`` ignored on both sides, case-insensitive,
  internationalized names in either spelling).  A domain never matches by substring:
  ``client.ru`` leaves ``https://my-client.ru/`` and ``https://evil.com/client.ru`` in.
* anything else — one source exactly as the index names it (a URL, a path, an id).

At most :data:`MAX_ENTRIES` entries of at most :data:`MAX_ENTRY_LENGTH` characters each.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any
from urllib.parse import urlsplit

import re2

from ..errors import OptionError

__all__ = ["MAX_ENTRIES", "MAX_ENTRY_LENGTH", "PATTERN_PREFIX", "Exclusion"]

MAX_ENTRIES = 1_000
MAX_ENTRY_LENGTH = 2_000
PATTERN_PREFIX = "re:"

# A pattern that matches all of these would leave out every source: source names are never
# empty, and these cover letters of both alphabets, digits, punctuation, a URL and a long name.
_PROBES = (
    "a", "Z", "я", "0", "_", "-", "/", ".", " ", "https://example.invalid/",
    "q7-Жx/" + "kR2_vL9.mT4~pZ8:wQ1=sN6!" * 20,
)  # fmt: skip
_ONE_PATTERN_MEMORY = 1 << 20  # RE2's budget for a pattern checked on its own
_GROUP_MEMORY = 4 << 20  # and for a group of patterns searched as one alternation
_GROUP_CHARS = 32_768  # pattern text per group

Regex = Any  # a compiled RE2 pattern (re2 keeps its class private)


def _options(max_mem: int) -> re2.Options:
    options = re2.Options()
    options.max_mem = max_mem
    options.log_errors = False
    options.never_capture = True
    return options


def _preview(entry: str) -> str:
    return repr(entry if len(entry) <= 40 else entry[:37] + "...")


def _refuse(number: int, entry: str, problem: str) -> OptionError:
    return OptionError("exclude", f"entry {number} {_preview(entry)}: {problem}", value=entry)


def _host_key(host: str) -> str:
    """A host as compared: lower case, no trailing dot, no ``www.``, ASCII (punycode)."""
    host = host.lower().rstrip(".").removeprefix("www.")
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def _domain_of(entry: str) -> str | None:
    """The host key of an entry that is a domain name (``client.ru``), else None."""
    labels = entry.rstrip(".").split(".")
    if len(labels) < 2 or len(entry) > 253:
        return None
    for label in labels:
        if not label or not all(c.isalnum() or c in "-_" for c in label):
            return None
    key = _host_key(entry)
    return key if "." in key else None


def _reason(exc: re2.error) -> str:  # pyright: ignore[reportInvalidTypeForm]  # an untyped alias
    """RE2's reason without the (possibly long) fragment it quotes."""
    reason = exc.args[0] if exc.args else "invalid"
    if isinstance(reason, bytes):
        reason = reason.decode("utf-8", "replace")
    return str(reason).split(":", 1)[0]


def _compile(number: int, entry: str) -> Regex:
    """One ``re:`` entry compiled, or the reason it is refused."""
    pattern = entry[len(PATTERN_PREFIX) :]
    if not pattern:
        raise _refuse(number, entry, "the pattern is empty; write one after re:")
    try:
        regex = re2.compile(pattern, _options(_ONE_PATTERN_MEMORY))
    except re2.error as exc:
        problem = f"not a valid regular expression ({_reason(exc)}); write it in RE2 syntax"
        raise _refuse(number, entry, problem) from None
    if "\\Q" in pattern:  # an open \Q would swallow the rest of the group it is put in
        try:
            re2.compile(f"(?:{pattern})", _options(_ONE_PATTERN_MEMORY))
        except re2.error:
            problem = "ends inside \\Q...: close the quotation with \\E"
            raise _refuse(number, entry, problem) from None
    if all(regex.search(probe) for probe in _PROBES):
        raise _refuse(
            number,
            entry,
            "the pattern matches every source (it matched all probe names such as 'a', "
            "'/' and a long random name): make it specific",
        )
    return regex


def _groups(patterns: Sequence[str], singles: Sequence[Regex]) -> list[Regex]:
    """The patterns as few alternations as RE2's budget allows (one search per group, not
    per pattern); a group RE2 cannot compile falls back to its patterns one by one."""
    bounds, size = [0], 0
    for number, pattern in enumerate(patterns):
        if size and size + len(pattern) > _GROUP_CHARS:
            bounds.append(number)
            size = 0
        size += len(pattern)
    bounds.append(len(patterns))
    groups: list[Regex] = []
    for start, stop in pairwise(bounds):
        joined = "|".join(f"(?:{p})" for p in patterns[start:stop])
        try:
            groups.append(re2.compile(joined, _options(_GROUP_MEMORY)))
        except re2.error:
            groups.extend(singles[start:stop])
    re2.purge()  # the module's cache would keep every compiled pattern alive
    return groups


class Exclusion:
    """A predicate over source names, built from the entries described in the module."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self.entries = tuple(entries)
        if len(self.entries) > MAX_ENTRIES:
            raise OptionError(
                "exclude",
                f"has {len(self.entries):,} entries, more than {MAX_ENTRIES:,}: "
                "leave out whole domains or join patterns into one re: entry",
                value=len(self.entries),
            )
        sources: set[str] = set()
        domains: set[str] = set()
        patterns: list[str] = []
        singles: list[Regex] = []
        for number, raw in enumerate(self.entries, 1):
            entry = raw.strip() if isinstance(raw, str) else ""
            if not entry:
                raise _refuse(number, str(raw), "is empty; give a source, a domain or re:PATTERN")
            if len(entry) > MAX_ENTRY_LENGTH:
                raise _refuse(
                    number, entry, f"has {len(entry):,} characters, more than {MAX_ENTRY_LENGTH:,}"
                )
            if entry.startswith(PATTERN_PREFIX):
                singles.append(_compile(number, entry))
                patterns.append(entry[len(PATTERN_PREFIX) :])
                continue
            sources.add(entry)
            domain = _domain_of(entry)
            if domain:
                domains.add(domain)
        self.sources = frozenset(sources)
        self.domains = frozenset(domains)
        self.patterns = tuple(patterns)
        self._regexes = _groups(patterns, singles) if patterns else []
        self._seen: dict[str, bool] = {}

    def __bool__(self) -> bool:
        return bool(self.entries)

    def _in_domains(self, source: str) -> bool:
        if not self.domains or "://" not in source:
            return False
        try:
            host = urlsplit(source).hostname
        except ValueError:
            return False
        if not host:
            return False
        labels = _host_key(host).split(".")
        return any(".".join(labels[i:]) in self.domains for i in range(len(labels)))

    def _in_patterns(self, source: str) -> bool:
        name = source.encode("utf-8", "surrogatepass")
        return any(regex.search(name) is not None for regex in self._regexes)

    def __call__(self, source: str) -> bool:
        """Whether ``source`` is left out."""
        known = self._seen.get(source)
        if known is None:
            known = source in self.sources or self._in_domains(source) or self._in_patterns(source)
            self._seen[source] = known
        return known
