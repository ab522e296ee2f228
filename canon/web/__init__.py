"""canon's web UI and HTTP API: a thin FastAPI layer over the library (``create_app``)."""

from .app import create_app
from .settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
