"""The language a person reads → its message catalog, the locale of the command line, and
numbers and percents as that locale writes them.

The catalogs are the web pages' own gettext ``.po`` files (``canon/web/locale/<lang>/
LC_MESSAGES/``, English msgids), read and compiled in memory by Babel once a process, so a
fresh clone needs no build step; the pages, the HTML reports and the command line say the same
things the same way.  The command line speaks the language of ``--lang``, else of the
environment as gettext reads it (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``): Russian for
a Russian locale (``ru_RU.UTF-8``), English otherwise (``C``, ``POSIX``, unset), so that
scripts reading the output under ``LANG=C`` see it unchanged.  JSON never changes language.

:class:`Speech` is what the terminal says things with: a message of the catalogs with its
figures in place, a count with its plural form (``ngettext``: 1 страница, 2 страницы,
5 страниц), and numbers in the locale's typography (``2 320``, ``8,1 %``); in English it says
them exactly as the command line always has.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path

__all__ = [
    "LOCALES",
    "LOCALE_DIR",
    "N_",
    "Speech",
    "catalog",
    "command_line_locale",
    "decimal",
    "percent",
    "retypeset",
    "speech",
]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "web" / "locale"
LOCALES = ("ru", "en")
_ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")


def N_(message: str) -> str:  # gettext's name: "extract now, translate when shown"
    return message


@cache
def catalog(locale: str) -> gettext.NullTranslations:
    """The catalog of ``locale`` (one of :data:`LOCALES`), compiled in memory once."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    po = LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as source:
        read = read_po(source, locale=locale)
    compiled = BytesIO()
    write_mo(compiled, read)
    compiled.seek(0)
    return Translations(compiled)


def command_line_locale(asked: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """``asked`` (``--lang``) when given, else the environment's language: ``ru`` or ``en``."""
    if asked:
        return asked
    for name in _ENVIRONMENT:
        value = environ.get(name, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


def percent(share: float, locale: str, digits: int = 1) -> str:
    """A share (0–1) as a percent: ``8.1%`` in English, ``8,1 %`` in Russian (Babel's rules,
    a no-break space before the sign)."""
    if locale == "en":
        return f"{share * 100:.{digits}f}%"
    from babel.numbers import format_percent

    pattern = "#,##0" + ("." + "0" * digits if digits else "") + "\u00a0%"
    return str(format_percent(share, format=pattern, locale=locale))


def decimal(value: float, locale: str, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals and thousands grouped: ``2,320.5`` in English,
    ``2 320,5`` in Russian (Babel's rules, a no-break space between the groups)."""
    english = f"{value:,.{digits}f}"
    if locale == "en":
        return english
    from babel.numbers import format_decimal

    rounded = float(english.replace(",", ""))  # rounded as in English, whatever the locale
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return str(format_decimal(rounded, format=pattern, locale=locale))


# A figure as English writes it: grouped by commas, a decimal point, maybe a percent sign; not
# inside a word, a version or a path (no letter, dot or digit right before or after it).
_FIGURE = re.compile(r"(?<![\w.,/])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(%)?(?![\w.]\w|,\d)")


def retypeset(text: str, locale: str) -> str:
    """The figures of ``text`` (``2,320``, ``8.1%``, ``395/428``) written as ``locale``
    writes them; the rest of ``text`` as it is.  For cells and lines whose figures a
    presentation model formatted in English."""
    if locale == "en":
        return text

    def figure(found: re.Match[str]) -> str:
        whole, decimals, sign = found.groups()
        digits = len(decimals or "")
        value = float(whole.replace(",", "") + ("." + decimals if decimals else ""))
        if sign:
            return percent(value / 100, locale, digits)
        return decimal(value, locale, digits)

    return _FIGURE.sub(figure, text)


@dataclass(frozen=True)
class Speech:
    """How the terminal says things in ``locale`` (``ru`` or ``en``): messages of the
    catalogs with their figures in place, counts in their plural form, numbers and percents
    in the locale's typography."""

    locale: str

    @property
    def translations(self) -> gettext.NullTranslations:
        return gettext.NullTranslations() if self.locale == "en" else catalog(self.locale)

    def _(self, message: str, /, **values: object) -> str:
        """``message`` in this language, its ``%(name)s`` placeholders filled by ``values``."""
        said = self.translations.gettext(message)
        return said % values if values else said

    def ngettext(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """The form of ``singular``/``plural`` that ``count`` takes, ``%(num)s`` the count."""
        said = self.translations.ngettext(singular, plural, count)
        return said % {"num": self.count(count), **values}

    def count(self, value: int) -> str:
        """A count: ``2320`` in English (as the command line always wrote counts in its
        sentences), ``2 320`` in Russian."""
        return str(value) if self.locale == "en" else decimal(value, self.locale)

    def number(self, value: float, digits: int = 0) -> str:
        """A number grouped in thousands: ``2,320`` in English, ``2 320`` in Russian."""
        return decimal(value, self.locale, digits)

    def percent(self, share: float, digits: int = 1) -> str:
        """A share (0–1) as a percent: ``8.1%``, ``8,1 %``."""
        return percent(share, self.locale, digits)

    def figures(self, text: str) -> str:
        """``text``'s English figures in this language's typography (:func:`retypeset`)."""
        return retypeset(text, self.locale)


@cache
def speech(locale: str) -> Speech:
    """The :class:`Speech` of ``locale``."""
    return Speech(locale)
