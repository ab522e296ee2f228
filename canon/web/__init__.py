"""canon's web UI and HTTP API: a thin FastAPI layer over the library (``create_app``).

It needs the ``web`` extra; without it, importing this package raises
:class:`~canon.errors.MissingExtra` naming the extra."""

from ..extras import require

require("web", "the web service")

from .app import create_app  # noqa: E402
from .settings import ServerSettings  # noqa: E402

__all__ = ["ServerSettings", "create_app"]
