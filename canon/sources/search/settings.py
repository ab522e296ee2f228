"""A provider's name and its configuration → a :class:`~.hits.Provider`.

Keys and addresses come from environment variables or from a TOML config file, never from
a command line (where a shell history and ``ps`` would keep them), and no message shows a
key.  The file is ``$CANON_SEARCH_CONFIG``, or ``$XDG_CONFIG_HOME/canon/search.toml``
(``~/.config/canon/search.toml``); a variable wins over the file::

    [searxng]
    url = "http://127.0.0.1:8888"     # CANON_SEARXNG_URL

    [yandex]
    api_key = "…"                     # CANON_YANDEX_API_KEY
    folder_id = "…"                   # CANON_YANDEX_FOLDER_ID

    [google]
    api_key = "…"                     # CANON_GOOGLE_API_KEY
    cx = "…"                          # CANON_GOOGLE_CX

``endpoint`` (``CANON_YANDEX_ENDPOINT``, ``CANON_GOOGLE_ENDPOINT``) points a provider at
another address, such as a proxy.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...errors import FetchError, OptionError, SearchError
from . import google, yandex
from .google import Google
from .hits import Provider
from .searxng import SearXNG
from .secrets import shown_url
from .yandex import Yandex

__all__ = ["PROVIDERS", "config_path", "provider_of"]

PROVIDERS = ("searxng", "yandex", "google")


def config_path(env: Mapping[str, str]) -> Path:
    if env.get("CANON_SEARCH_CONFIG"):
        return Path(env["CANON_SEARCH_CONFIG"])
    base = Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "canon" / "search.toml"


def _file_section(path: Path, provider: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SearchError(
            provider,
            f"cannot read the config file {path} ({exc}); fix or remove it",
            reason="not-configured",
        ) from None
    section = data.get(provider, {})
    return section if isinstance(section, dict) else {}


class _Settings:
    """One provider's settings: each from its variable, else from the file."""

    def __init__(self, provider: str, env: Mapping[str, str]) -> None:
        self.provider = provider
        self.env = env
        self.path = config_path(env)
        self.file = _file_section(self.path, provider)

    def variable(self, key: str) -> str:
        return f"CANON_{self.provider.upper()}_{key.upper()}"

    def get(self, key: str, default: str | None = None) -> str | None:
        value = self.env.get(self.variable(key)) or self.file.get(key)
        return str(value).strip() if value else default

    def need(self, key: str, what: str) -> str:
        value = self.get(key)
        if not value:
            raise SearchError(
                self.provider,
                f"no {what}: set {self.variable(key)} or {key} in [{self.provider}] of {self.path}",
                reason="not-configured",
            )
        return value


def _http_url(value: str, setting: str) -> str:
    """``value`` when it is an http(s) URL; the refusal shows it without its credentials."""
    shown = shown_url(value)
    if not value.lower().startswith(("http://", "https://")):
        raise OptionError(setting, f"must be an http(s):// address, got {shown!r}", value=shown)
    from ..urls import parse_url

    try:
        parse_url(value)  # refuses what is no URL, in one line
    except FetchError:
        raise OptionError(setting, f"must be a usable URL, got {shown!r}", value=shown) from None
    return value


def provider_of(spec: str, env: Mapping[str, str] | None = None) -> Provider:
    """The provider ``spec`` names: ``searxng:URL`` (or ``searxng`` with the URL from the
    settings), ``yandex`` or ``google``, configured from ``env`` (default: the process's
    environment) and the config file."""
    env = os.environ if env is None else env
    name, _, rest = spec.strip().partition(":")
    name = name.lower()
    if name not in PROVIDERS or (rest and name != "searxng"):
        raise OptionError(
            "web", f"must be searxng:URL, searxng, yandex or google, got {spec!r}", value=spec
        )
    settings = _Settings(name, env)
    if name == "searxng":
        url = rest or settings.need("url", "SearXNG address")
        return SearXNG(_http_url(url, "web"))
    if name == "yandex":
        return Yandex(
            settings.need("folder_id", "Yandex Cloud folder id"),
            settings.need("api_key", "Yandex Search API key"),
            _http_url(settings.get("endpoint", yandex.ENDPOINT) or "", "endpoint"),
        )
    return Google(
        settings.need("cx", "Programmable Search Engine id (cx)"),
        settings.need("api_key", "Custom Search API key"),
        _http_url(settings.get("endpoint", google.ENDPOINT) or "", "endpoint"),
    )
