"""A redirect → the next hop to fetch, checked: a Location given, a URL canon may fetch, no loop.

Both fetchers follow redirects one hop at a time through :func:`next_hop`.
"""

from __future__ import annotations

from typing import Any

from ..errors import FetchError

__all__ = ["REDIRECTS", "next_hop"]

REDIRECTS = frozenset({301, 302, 303, 307, 308})


def next_hop(url: str, current: Any, headers: Any, visited: list[str]) -> Any:
    """Where the redirect of ``current`` (a hop of the fetch of ``url``) points; FetchError
    (``redirect``) without a Location or back to a URL in ``visited``."""
    from .urls import follow

    location = headers.get("location")
    if not location:
        raise FetchError(url, "redirect without a Location header", reason="redirect")
    target = follow(url, current, location)
    if str(target) in visited:
        raise FetchError(url, f"redirect loop ({current} → {target})", reason="redirect")
    return target
