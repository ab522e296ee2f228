"""The app's routes, one router per audience: ``api`` (JSON) and ``pages`` (HTML)."""

from . import api, pages

__all__ = ["api", "pages"]
