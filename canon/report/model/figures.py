"""Figures formatted once, shown in any locale: a cell of the view that keeps its numbers.

A :class:`Figures` is the text of a cell as English writes it (``2,320``, ``8.1%``,
``395/428``), so the terminal and every ``str`` use of the view read it unchanged; it also
keeps the numbers it was made of and the pattern around them, so a page or a report shows it
in its own locale at render time (:meth:`Figures.said`: ``2 320``, ``8,1 %``, ``395/428``)
without parsing the text back.  A view is worked out once (the web computes it in a job) and
shown in whichever language a reader asks for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..language import decimal

__all__ = ["Figures", "Number", "count", "figures", "number", "percentage", "share", "shown"]

_NARROW = "\u00a0"  # a no-break space, between a Russian figure and its percent sign


@dataclass(frozen=True)
class Number:
    """A number as shown: ``value`` with ``digits`` decimals, thousands grouped; a percent
    when ``percent`` (``value`` is then already times 100)."""

    value: float
    digits: int = 0
    percent: bool = False

    def said(self, locale: str) -> str:
        """``2,320`` / ``8.1%`` in English, ``2 320`` / ``8,1 %`` otherwise (Babel's rules)."""
        if locale == "en":
            if self.percent:  # as Python's ``{:.1%}`` writes it: no grouping
                return f"{self.value:.{self.digits}f}%"
            return f"{self.value:,.{self.digits}f}"
        text = decimal(self.value, locale, self.digits)
        return text + _NARROW + "%" if self.percent else text


class Figures(str):
    """English text with numbers in it, able to say itself in another locale.

    ``pattern`` is the text with a ``{}`` where each of ``numbers`` goes (literal braces
    doubled, as :meth:`str.format` reads them)."""

    pattern: str
    numbers: tuple[Number, ...]

    def __new__(cls, pattern: str, *numbers: Number) -> Figures:
        made = super().__new__(cls, pattern.format(*(n.said("en") for n in numbers)))
        made.pattern = pattern
        made.numbers = numbers
        return made

    def said(self, locale: str) -> str:
        """The text with its numbers as ``locale`` writes them."""
        if locale == "en":
            return str(self)
        return self.pattern.format(*(n.said(locale) for n in self.numbers))

    def __reduce__(self) -> tuple[Any, ...]:  # pickled whole, for the web's worker processes
        return (Figures, (self.pattern, *self.numbers))


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def figures(*parts: str | Number) -> Figures:
    """Text and numbers in a row: ``figures(count(395), "/", count(428))``."""
    pattern = "".join("{}" if isinstance(p, Number) else _literal(p) for p in parts)
    return Figures(pattern, *(p for p in parts if isinstance(p, Number)))


def count(value: int) -> Number:
    """A count, thousands grouped: ``2,320``."""
    return Number(value)


def number(value: float, digits: int) -> Number:
    """A number with ``digits`` decimals: ``0.85``."""
    return Number(value, digits)


def share(value: float, digits: int = 1) -> Number:
    """A share (0–1) as a percent: ``8.1%``."""
    return Number(value * 100, digits, percent=True)


def percentage(value: float, digits: int = 1) -> Number:
    """A figure already in percent (0–100): ``28.7%``."""
    return Number(value, digits, percent=True)


def shown(value: object, locale: str) -> object:
    """``value`` as ``locale`` writes it when it is :class:`Figures`, else as it is."""
    return value.said(locale) if isinstance(value, Figures) else value
