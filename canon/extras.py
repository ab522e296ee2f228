"""The optional extras: which packages each holds, and the check a feature makes before it starts.

Comparing and checking texts need only canon's own dependencies; the site audit, the web
service, plots and the Dask engine each need an extra (``pip install 'canon[audit]'``).  A
feature calls :func:`require` first, so a missing package is one :class:`MissingExtra` naming
the extra, before any work is done, not an ``ImportError`` from deep inside.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from .errors import MissingExtra

__all__ = ["EXTRAS", "Package", "require"]


@dataclass(frozen=True)
class Package:
    """One package of an extra: the name pip installs and the top-level module it provides."""

    distribution: str
    module: str


# The same packages as ``[project.optional-dependencies]`` in pyproject.toml.
EXTRAS: dict[str, tuple[Package, ...]] = {
    "audit": (
        Package("protego", "protego"),
        Package("ultimate-sitemap-parser", "usp"),
        Package("cssselect", "cssselect"),
        Package("XlsxWriter", "xlsxwriter"),
    ),
    "web": (
        Package("fastapi", "fastapi"),
        Package("uvicorn", "uvicorn"),
        Package("python-multipart", "python_multipart"),
        Package("swagger-ui-bundle", "swagger_ui_bundle"),
        Package("pebble", "pebble"),
        Package("itsdangerous", "itsdangerous"),
        Package("argon2-cffi", "argon2"),
    ),
    "plot": (Package("matplotlib", "matplotlib"),),
    "dask": (Package("dask", "dask"), Package("distributed", "distributed")),
}
# Extras that need another extra's packages too (the web pages hold the site audit).
_NEEDS: dict[str, tuple[str, ...]] = {"web": ("audit",)}


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtra` unless every package of ``extra``, then of the extras it
    needs, can be imported; ``feature`` says what needs it.  Nothing is imported here."""
    for package in EXTRAS[extra]:
        if not _importable(package.module):
            raise MissingExtra(extra, feature, package=package.distribution)
    for needed in _NEEDS.get(extra, ()):  # installed with the extra, so named after it
        require(needed, feature)


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses it; a module set to None
        return False
