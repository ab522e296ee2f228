"""The language a person reads → its message catalog, the locale of the command line, and
percents as that locale writes them.

The catalogs are the web pages' own gettext ``.po`` files (``canon/web/locale/<lang>/
LC_MESSAGES/``, English msgids), read and compiled in memory by Babel once a process, so a
fresh clone needs no build step; the pages, the HTML reports and the command line say the same
things the same way.  The command line speaks the language of ``--lang``, else of the
environment as gettext reads it (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``): Russian for
a Russian locale (``ru_RU.UTF-8``), English otherwise (``C``, ``POSIX``, unset), so that
scripts reading the output under ``LANG=C`` see it unchanged.  JSON never changes language.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from io import BytesIO
from pathlib import Path

__all__ = ["LOCALES", "LOCALE_DIR", "N_", "catalog", "command_line_locale", "percent"]

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
