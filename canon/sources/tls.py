"""The TLS settings every fetch connects with: certifi's roots, or SSL_CERT_FILE / SSL_CERT_DIR."""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # ssl itself is loaded with httpx, by the first fetch
    import ssl

__all__ = ["tls_context"]


def tls_context() -> ssl.SSLContext:
    """The context for the certificate file and folder the environment names now."""
    return _context(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@functools.lru_cache(maxsize=4)
def _context(cafile: str | None, capath: str | None) -> ssl.SSLContext:
    import httpx

    return httpx.create_ssl_context()
