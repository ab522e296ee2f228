"""A phrase → the web pages a search provider finds for it: SearXNG, Yandex Search API v2,
Google Programmable Search.

Each provider speaks its documented HTTP API (:mod:`.searxng`, :mod:`.yandex`,
:mod:`.google`); :mod:`.settings` reads their keys from the environment or a config file
(never from arguments that end up in a shell history, never into a message), and
:mod:`.cache` keeps their answers on disk with their dates.
"""

from .cache import QueryCache
from .hits import Hit, Provider
from .settings import PROVIDERS, provider_of

__all__ = ["PROVIDERS", "Hit", "Provider", "QueryCache", "provider_of"]
