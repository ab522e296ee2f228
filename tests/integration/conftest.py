"""Fixtures the integration tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from search_server import StandIn, serve


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[StandIn, StandIn]]:
    """Two stand-ins of tests/search_server.py on 127.0.0.1, a test module's own: a watched
    site (its pages served, never searched), and the web with its search engine."""
    with serve() as site, serve() as web:
        yield site, web
