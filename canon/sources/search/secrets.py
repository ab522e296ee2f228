"""A provider's secrets → ``***`` wherever canon would show them.

A provider's configuration holds credentials: Yandex's and Google's API keys, and whatever a
configured address carries (``http://user:password@host``, a ``?key=…`` or ``?token=…`` for a
proxy).  A provider, or a proxy in front of it, may say them back in an error message or a
result; every message and result canon takes from a provider goes through :func:`redacted`,
which replaces each secret (as written, and percent-encoded as a URL would carry it) with
:data:`MASK`.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit, urlunsplit

__all__ = ["MASK", "MIN_SECRET", "redacted", "shown_url", "url_secrets"]

MASK = "***"
MIN_SECRET = 4  # a shorter value is no secret worth hiding, and masking it would garble text
# Query parameters whose value is a credential.
_CREDENTIALS = frozenset(
    {"key", "api_key", "apikey", "token", "access_token", "auth", "secret", "password", "sig"}
)


def url_secrets(url: str) -> tuple[str, ...]:
    """The credentials an address carries: its password, and the values of its credential
    query parameters (``key``, ``token``, ``password``…).  A user name is no secret, but
    :func:`shown_url` leaves it out too."""
    try:
        parts = urlsplit(url)
        found = [parts.password or ""]
    except ValueError:
        return ()
    found += [v for k, v in parse_qsl(parts.query) if k.lower() in _CREDENTIALS]
    return tuple(s for s in found if s)


def shown_url(url: str) -> str:
    """``url`` without the user name and password it may carry (``***`` in their place)."""
    try:
        parts = urlsplit(url)
        if "@" not in parts.netloc:
            return redacted(url, url_secrets(url))
        host = parts.netloc.rsplit("@", 1)[1]
        plain = urlunsplit(parts._replace(netloc=f"{MASK}@{host}"))
    except ValueError:
        return MASK
    return redacted(plain, url_secrets(url))


def redacted(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (of :data:`MIN_SECRET` characters or more) as :data:`MASK`,
    the longest first, so that one secret inside another leaves nothing of it."""
    forms = {
        form
        for secret in secrets
        if len(secret) >= MIN_SECRET
        for form in (secret, quote(secret, safe=""), quote_plus(secret))
    }
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, MASK)
    return text
