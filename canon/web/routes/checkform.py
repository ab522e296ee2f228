"""The check page's form, shared by the check against the index (:mod:`.pages`) and the web
check (:mod:`.webcheck`): its defaults, the values kept after a submit, the check's options
read from it, and the context the page draws it with.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData

from ...uniqueness.rewrites import THRESHOLD
from ...uniqueness.settings import CheckSettings
from ..service import N_, FieldError, configured_providers, index_profiles, refused_as
from ..settings import ServerSettings
from .forms import kept, number, text

__all__ = ["PASS_MARK", "check_context", "check_form", "check_options"]

PASS_MARK = 80.0  # the uniqueness (%) at and above which the headline figure is green


def _profiles_of(settings: ServerSettings) -> tuple[tuple[str, int], ...]:
    """The index's profiles and their k; none on a server without an index (web only)."""
    return index_profiles(settings.index) if settings.index is not None else ()


def check_form(settings: ServerSettings, form: FormData | None = None) -> dict[str, Any]:
    """The form's defaults, or the values of a submitted ``form`` to fill it in again."""
    defaults = {
        "profiles": [p for p, _ in _profiles_of(settings)],
        "sentence_threshold": f"{THRESHOLD:g}",
        "min_shared": "3",
        "pass_mark": f"{PASS_MARK:g}",
        "web_index": True,
    }
    if form is None:
        return defaults
    names = ("draft_text", "draft_url", "exclude", "sentence_threshold", "min_shared")
    values = kept(form, *names, "pass_mark", "web", "queries")
    values["web_index"] = bool(form.get("web_index"))
    return values if "pass_mark" in form else {**values, **defaults}


def _exclusions(form: FormData) -> list[str]:
    # One entry a line: a comma may belong to a pattern (re:a{1,3}).
    return [p.strip() for p in text(form, "exclude").splitlines() if p.strip()]


def check_options(form: FormData, settings: ServerSettings) -> CheckSettings:
    """The check's settings as the form gives them; a FieldError for a value out of bounds."""
    known = [p for p, _ in _profiles_of(settings)]
    profiles = [p for p in form.getlist("profiles") if isinstance(p, str)] if known else []
    if known and "pass_mark" in form and (not profiles or any(p not in known for p in profiles)):
        raise FieldError(
            "profiles: choose at least one of " + ", ".join(known),
            "profiles",
            key=N_("%(side)s: choose at least one"),
        )
    threshold = number(form, "sentence_threshold", THRESHOLD, 0.05, 1)
    min_shared = int(number(form, "min_shared", 3, 1, 1000))
    with refused_as("draft"):
        return CheckSettings(
            profiles=tuple(profiles) or None,
            exclude=tuple(_exclusions(form)),
            skip_quotes=bool(form.get("skip_quotes")),
            sentence_threshold=threshold,
            min_shared=min_shared,
        )


def check_context(settings: ServerSettings, form: dict[str, Any]) -> dict[str, Any]:
    """What the check page draws its form with: the values, the pass mark, the choices."""
    try:
        mark = float(str(form.get("pass_mark") or PASS_MARK).replace(",", "."))
    except ValueError:
        mark = PASS_MARK
    return {
        "form": form,
        "pass_mark": mark,
        "index_profiles": _profiles_of(settings),
        "providers": configured_providers(),
    }
