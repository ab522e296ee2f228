"""Results → what a person reads: the terminal (rich), a self-contained HTML file, a plot."""

from .terminal import (
    describe,
    marked_text,
    print_check,
    print_profiles,
    print_stats,
    print_table,
    print_tokens,
)

__all__ = [
    "describe",
    "marked_text",
    "print_check",
    "print_profiles",
    "print_stats",
    "print_table",
    "print_tokens",
]
