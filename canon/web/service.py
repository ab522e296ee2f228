"""Sources in, library results out: what the API and the pages share.  No logic of its own."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..comparison import Table, compare_table
from ..errors import (
    CanonError,
    IndexFileError,
    OptionError,
    ProfileError,
    SearchError,
    TextTooShort,
)
from ..index.store import Index, IndexStats
from ..report.language import N_
from ..sources.documents import Document, page_document, read_source
from ..sources.fetch import FetchOptions, Page, fetch, is_url
from ..textstats import TextStats, text_stats
from ..uniqueness.against_index import CheckResult, check
from ..uniqueness.settings import CheckSettings
from ..uniqueness.web import PROVIDERS, WebCheck, provider_of, web_check
from ..uniqueness.web.run import WebProgress

__all__ = [
    "N_",
    "UPLOAD_SUFFIXES",
    "FieldError",
    "WebCheckRequest",
    "check_draft",
    "compare_docs",
    "configured_providers",
    "fetch_page",
    "field_error",
    "index_profiles",
    "index_stats",
    "need_index",
    "page_text",
    "read_text",
    "read_upload",
    "refused_as",
    "text_statistics",
    "url_of",
    "web_check_draft",
]

UPLOAD_SUFFIXES = (".txt", ".html", ".htm", ".docx")


class FieldError(Exception):
    """A request the library refused, with the field it came from and an HTTP status.

    ``message`` is the English sentence of the JSON API; ``key`` (an English msgid with
    ``%(name)s`` placeholders filled from ``params``, and ``%(side)s`` from the field) or
    ``reason`` (the library's) let a page say it in its own language
    (:func:`canon.web.i18n.error_text`)."""

    def __init__(
        self,
        message: str,
        field: str | None,
        status: int = 400,
        headers: dict[str, str] | None = None,
        *,
        key: str | None = None,
        params: dict[str, object] | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status
        self.headers = headers or {}
        self.key = key
        self.params = params or {}
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:  # crosses from worker processes intact
        return (_field_error, (self.message, self.field, self.status, self.headers, self.key,
                               self.params, self.reason))  # fmt: skip


def _field_error(
    message: str,
    field: str | None,
    status: int,
    headers: dict[str, str],
    key: str | None,
    params: dict[str, object],
    reason: str | None,
) -> FieldError:
    return FieldError(message, field, status, headers, key=key, params=params, reason=reason)


def need_index(settings: Any) -> Path:
    """The server's index (``settings.index``), or a 404 saying it has none."""
    if settings.index is None:
        message = "this server has no index: start it with an index file"
        raise FieldError(message, None, 404, key=N_("This server has no index"))
    return Path(settings.index)


def field_error(exc: CanonError, field: str | None) -> FieldError:
    """A library error as a request error: the field its attributes name, else ``field``."""
    status, key = 400, None
    params: dict[str, object] = {}
    if isinstance(exc, ProfileError):
        field = "profiles" if exc.option == "profile" else exc.option
    elif isinstance(exc, OptionError):
        field = exc.option
    elif isinstance(exc, TextTooShort):
        field = exc.side if exc.side in ("first", "second", "draft") else field
        key, params = _short_key(exc)
    elif isinstance(exc, IndexFileError):
        field, status = None, 503  # the server's own index: nothing the request can change
    elif isinstance(exc, SearchError):  # the provider: its configuration here, or its answer
        field, status = "web", 400 if exc.reason == "not-configured" else 502
        params = {"provider": exc.provider}
    message = exc.message
    source = getattr(exc, "source", None)
    if source and field and message.startswith(f"{source}:"):
        message = f"{field}:{message[len(source) + 1 :]}"  # named by its field, not echoed
    reason = getattr(exc, "reason", None)
    return FieldError(message, field, status, key=key, params=params, reason=reason)


def _short_key(exc: TextTooShort) -> tuple[str, dict[str, object]]:
    if exc.words == 0:
        return N_("%(side)s is empty: paste a text, give a URL or upload a file"), {}
    key = N_(
        "%(side)s has %(words)s words, fewer than k = %(k)s: choose a smaller k or a longer text"
    )
    return key, {"words": exc.words, "k": exc.k}


def url_of(value: str) -> str | None:
    """``value`` as a URL when it is one as a whole (a text that merely starts with one is
    a text)."""
    candidate = value.strip()
    if is_url(candidate) and not any(ch.isspace() for ch in candidate):
        return candidate
    return None


def _capped(doc: Document, field: str, max_text: int) -> Document:
    if doc.chars > max_text:
        raise FieldError(
            f"{field}: the text has {doc.chars:,} characters, more than the limit {max_text:,}",
            field,
            413,
            key=N_("%(side)s has %(chars)s characters, more than the limit of %(limit)s"),
            params={"chars": f"{doc.chars:,}", "limit": f"{max_text:,}"},
        )
    return doc


def read_text(value: str, field: str, *, max_text: int) -> Document:
    """A pasted text as a Document (a URL is fetched apart: :func:`fetch_page`)."""
    return _capped(Document(field, value), field, max_text)


def fetch_page(
    url: str, field: str, *, allow_private: bool, max_bytes: int, deadline: float
) -> Page:
    """The page at ``url``, under the server's caps: ``max_bytes`` (its request-body limit)
    and ``deadline`` for the whole fetch."""
    options = FetchOptions(allow_private=allow_private, max_bytes=max_bytes, deadline=deadline)
    try:
        return fetch(url, options)
    except CanonError as exc:
        raise field_error(exc, field) from exc


def page_text(page: Page, field: str, *, max_text: int) -> Document:
    """A fetched page's main text as a Document."""
    try:
        doc = page_document(page)
    except CanonError as exc:
        raise field_error(exc, field) from exc
    return _capped(doc, field, max_text)


def read_upload(name: str, data: bytes, field: str, *, max_text: int) -> Document:
    """An uploaded .txt/.html/.docx file, read by ``read_source`` from a temporary file."""
    suffix = Path(name).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise FieldError(
            f"{field}: upload a {', '.join(UPLOAD_SUFFIXES)} file, not {name}",
            field,
            key=N_("%(side)s: upload a %(suffixes)s file, not %(name)s"),
            params={"suffixes": ", ".join(UPLOAD_SUFFIXES), "name": name},
        )
    with tempfile.TemporaryDirectory(prefix="canon-web-") as folder:
        path = Path(folder) / f"upload{suffix}"
        path.write_bytes(data)
        try:
            doc = read_source(str(path))
        except CanonError as exc:
            error = field_error(exc, field)
            error.message = error.message.replace(str(path), name)
            raise error from exc
    return _capped(dataclasses.replace(doc, source=name), field, max_text)


def compare_docs(
    first: Document, second: Document, ks: Sequence[int], profiles: Sequence[str]
) -> Table:
    """``compare_table`` of two documents; an error names the field it belongs to."""
    try:
        table = compare_table(first.text, second.text, ks, profiles, labels=("first", "second"))
        return table.require_measurable()
    except CanonError as exc:
        raise field_error(exc, None) from exc


@contextmanager
def refused_as(field: str | None) -> Iterator[None]:
    """Library errors raised inside, as request errors (:func:`field_error` with ``field``):
    around building a request's :class:`CheckSettings`, say."""
    try:
        yield
    except CanonError as exc:
        raise field_error(exc, field) from exc


def check_draft(
    index: Path, draft: Document, settings: CheckSettings, *, writable: bool = False
) -> CheckResult:
    """``check`` of a draft against the index, opened read-only unless ``writable``."""
    try:
        with Index(index, readonly=not writable) as opened:
            return check(draft.text, opened, settings).with_unseen(draft.unseen)
    except CanonError as exc:
        raise field_error(exc, "draft") from exc


def text_statistics(document: Document, keywords: Sequence[str], top: int) -> TextStats:
    """``text_stats`` of a document's text; an error names its field (``text``, ``keywords``)."""
    try:
        return text_stats(document.text, top=top, keywords=keywords)
    except CanonError as exc:
        raise field_error(exc, "text") from exc


def index_stats(index: Path) -> IndexStats:
    """The index's statistics (opened read-only)."""
    try:
        with Index(index, readonly=True) as opened:
            return opened.stats()
    except CanonError as exc:
        error = field_error(exc, None)
        raise FieldError(error.message, None, 500) from exc


@dataclass(frozen=True)
class WebCheckRequest:
    """A check against the web as a request asks for it: its ``settings``, the ``provider``
    (a name of the server's configuration) and whether the server's index counts too
    (``with_index``, when the server has one)."""

    settings: CheckSettings
    provider: str
    with_index: bool = True


def web_check_draft(
    settings: Any,
    draft: Document,
    request: WebCheckRequest,
    on_progress: Callable[[WebProgress], None] | None = None,
) -> WebCheck:
    """``web_check`` of a draft through a provider of the server's own configuration (a name
    only: an address given in a request is refused), against the server's index too when it
    has one (and ``request.with_index``); pages are fetched under the server's rules (private
    addresses, private search results, size, time).  ``on_progress`` hears of each stage
    (:class:`WebProgress`)."""
    if ":" in request.provider:
        raise FieldError(
            "web: give searxng, yandex or google; this server's configuration holds their "
            "addresses and keys",
            "web",
            400,
        )
    fetching = FetchOptions(
        allow_private=settings.allow_private,
        max_bytes=settings.max_body,
        deadline=settings.fetch_deadline,
    )
    options = request.settings
    search = dataclasses.replace(
        options.search, fetch=fetching, allow_private_results=settings.allow_private_results
    )
    options = dataclasses.replace(options, search=search)
    try:
        provider = provider_of(request.provider)
        if settings.index is None or not request.with_index:
            found = web_check(draft.text, provider, options, on_progress=on_progress)
        else:
            writable = settings.allow_index_writes
            with Index(Path(settings.index), readonly=not writable) as opened:
                found = web_check(
                    draft.text, provider, options, index=opened, on_progress=on_progress
                )
        return found.with_unseen(draft.unseen)
    except CanonError as exc:
        raise field_error(exc, "draft") from exc


def configured_providers() -> tuple[str, ...]:
    """The search providers this server's configuration (its environment and config file)
    sets up, in :data:`PROVIDERS` order."""
    named = []
    for name in PROVIDERS:
        try:
            provider_of(name)
        except CanonError:
            continue
        named.append(name)
    return tuple(named)


def index_profiles(index: Path) -> tuple[tuple[str, int], ...]:
    """The profiles of the index and their k, in its order."""
    return tuple((p.name, p.k) for p, _ in index_stats(index).profiles)
