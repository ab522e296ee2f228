"""Results → what a person reads: a pure presentation model (``model``) drawn by the terminal
(``terminal``, rich), the HTML reports (``html``, the web's Jinja templates) and a plot (``plot``).

The terminal printers are loaded on first use, so that importing the model or the HTML
renderer does not load rich.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = [
    "describe",
    "marked_text",
    "print_check",
    "print_profiles",
    "print_stats",
    "print_table",
    "print_tokens",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module(".terminal", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
