"""Results → HTML: the web's Jinja templates, rendered standalone into one self-contained file.

The templates in ``canon/web/templates`` draw the views of :mod:`canon.report.model` for the
web pages and for the reports alike; a report is the same page in standalone mode: the CSS of
``canon/web/static/canon.css`` inlined, the plot as a data URI, no forms, no scripts, nothing
loaded from anywhere.  Every piece of user text (texts, titles, sources) goes through Jinja's
autoescape.  Shared fragments are ``<mark class="exact">`` (shared word for word) and ``<mark
class="rewrite">`` (shared only after normalization, such as lemmas or stems).
"""

from __future__ import annotations

import base64
import gettext
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from .._version import __version__
from ..comparison import Table
from ..errors import OutputError
from ..sources.documents import Document
from ..uniqueness.against_index import CheckResult
from .language import catalog, decimal, percent
from .model import METRICS, Groups, check_view, compare_view, runs_of
from .model.figures import shown
from .said import said, said_parts

__all__ = [
    "CSS",
    "TEMPLATES",
    "check_html",
    "compare_html",
    "environment",
    "highlighted",
    "language",
    "render",
    "write_html",
]

_WEB = Path(__file__).resolve().parent.parent / "web"
TEMPLATES = _WEB / "templates"
CSS = _WEB / "static" / "canon.css"


def _filled(context: jinja2.runtime.Context, said: str, values: dict[str, Any]) -> str:
    """``said`` with its ``%(name)s`` placeholders filled, figures in the page's locale;
    escaped as Jinja's own new-style gettext escapes them."""
    if context.eval_ctx.autoescape:
        said = Markup(said)
    return said % {name: shown(value, context["lang"]) for name, value in values.items()}


@jinja2.pass_context
def _gettext(context: jinja2.runtime.Context, message: str, /, **values: Any) -> str:
    return _filled(context, context["translations"].gettext(message), values)


@jinja2.pass_context
def _ngettext(
    context: jinja2.runtime.Context, singular: str, plural: str, n: int, /, **values: Any
) -> str:
    said = context["translations"].ngettext(singular, plural, n)
    lang = context["lang"]
    return _filled(context, said, {"num": n if lang == "en" else decimal(n, lang), **values})


@jinja2.pass_context
def _said(context: jinja2.runtime.Context, text: str) -> Markup:
    lang = context["lang"]
    return said(str(shown(text, lang)), context["translations"], lang)


@jinja2.pass_context
def _said_parts(context: jinja2.runtime.Context, text: str) -> str:
    return said_parts(str(shown(text, context["lang"])), context["translations"])


@jinja2.pass_context
def _finalize(context: jinja2.runtime.Context, value: Any) -> Any:
    """Every ``{{ … }}`` of a template: the view's figures in the page's locale."""
    return shown(value, context["lang"])


@jinja2.pass_context
def _grouped(context: jinja2.runtime.Context, value: float, digits: int = 0) -> str:
    """A figure in the page's language, as the command line groups it (``2 320``)."""
    return decimal(value, context["lang"], digits)


@jinja2.pass_context
def _percent(context: jinja2.runtime.Context, value: float, digits: int = 1) -> str:
    """A share (0–1) in the page's language: ``8.1%``, ``8,1 %``."""
    return percent(value, context["lang"], digits)


def environment() -> jinja2.Environment:
    """A new Jinja environment over the templates: autoescape on, undefined names an error.

    The templates speak through Jinja's i18n extension (``{{ _("…") }}``, English msgids);
    the ``translations`` of a render's context say them, English unless a page or a report
    passes its catalog (a report speaks the command line's language).  The view's figures
    (:class:`~canon.report.model.figures.Figures`) are shown in the ``lang`` of the context,
    whether printed or placed in a message (``2 320``, ``8,1 %`` in Russian); the filters
    ``grouped`` and ``percent`` write plain numbers the same way.  Pages and reports each take
    their own environment (the web adds its ``url_for`` to its globals)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
        finalize=_finalize,
    )
    # added to the environment by the i18n extension at run time, unknown to the stubs
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    # the placeholders filled here, figures in the page's locale, not by Jinja's own wrappers
    env.globals.update(gettext=_gettext, ngettext=_ngettext)
    env.filters.update(grouped=_grouped, percent=_percent)
    env.globals.update(
        version=__version__,
        metrics=METRICS,
        standalone=False,
        plot=None,
        translations=gettext.NullTranslations(),
        lang="en",
        said=_said,
        said_parts=_said_parts,
    )
    return env


@cache
def _standalone() -> jinja2.Environment:
    env = environment()
    env.globals.update(standalone=True, css=Markup(CSS.read_text("utf-8")))
    return env


def render(name: str, **context: Any) -> str:
    """The template ``name`` rendered standalone: CSS inlined, nothing loaded from anywhere."""
    return _standalone().get_template(name).render(**context)


def highlighted(text: str, groups: Groups) -> str:
    """``text`` escaped, its fragments in ``<mark>``, as the pages and reports draw them."""
    # a template module's attributes are its macros, known only at run time
    marked = _standalone().get_template("_result.html").module.marked  # type: ignore[attr-defined]
    return str(marked(runs_of(text, groups)))


def language(locale: str) -> dict[str, Any]:
    """What a report's templates need to speak ``locale`` (``en``: as they are written)."""
    translations = gettext.NullTranslations() if locale == "en" else catalog(locale)
    return {"translations": translations, "lang": locale}


def compare_html(
    table: Table, docs: Sequence[Document], plot: bytes | None = None, locale: str = "en"
) -> str:
    """A report of a comparison: table, plot, both texts highlighted, statistics, rules; in
    ``locale``'s language."""
    image = base64.b64encode(plot).decode("ascii") if plot else None
    view = compare_view(table, docs)
    return render("compare.html", result=view, plot=image, **language(locale))


def check_html(
    result: CheckResult, doc: Document, pass_mark: float | None = None, locale: str = "en"
) -> str:
    """A report of a uniqueness check: uniqueness, sources, the draft highlighted, statistics;
    with ``pass_mark`` (a percentage), the figure judged against it, as the web page does; in
    ``locale``'s language."""
    view = check_view(result, doc)
    return render("check.html", result=view, pass_mark=pass_mark, **language(locale))


def write_html(path: Path, page: str) -> None:
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise OutputError(path, f"cannot write the report ({exc.strerror or exc})") from exc
