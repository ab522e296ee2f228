"""canon.extras: the table of extras is pyproject's, and a missing package is one MissingExtra."""

from __future__ import annotations

import re
import sys
import tomllib

import pytest
from repo_paths import ROOT

from canon.errors import MissingExtra
from canon.extras import EXTRAS, require

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
OPTIONAL = PROJECT["optional-dependencies"]
FEATURES = ("audit", "web", "plot", "dask")


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement (PEP 503)."""
    name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert name, requirement
    return re.sub(r"[-_.]+", "-", name[0]).lower()


def _own_extras(requirements: list[str]) -> set[str]:
    """The extras of canon a list of requirements pulls in (``canon[audit,web]``)."""
    found = set()
    for requirement in requirements:
        own = re.fullmatch(r"canon\[([\w,]+)\]", requirement)
        if own:
            found.update(own[1].split(","))
    return found


def test_the_extras_are_the_features() -> None:
    assert set(EXTRAS) == set(FEATURES)
    assert set(FEATURES) | {"all", "test"} <= set(OPTIONAL)


@pytest.mark.parametrize("extra", FEATURES)
def test_each_extra_holds_the_packages_of_the_table(extra: str) -> None:
    packages = {_name(r) for r in OPTIONAL[extra] if not r.startswith("canon[")}
    assert packages == {_name(p.distribution) for p in EXTRAS[extra]}


def test_no_package_of_an_extra_is_a_dependency_of_canon_itself() -> None:
    core = {_name(r) for r in PROJECT["dependencies"]}
    for extra in FEATURES:
        assert not core & {_name(p.distribution) for p in EXTRAS[extra]}, extra


def test_the_web_pages_hold_the_audit_and_all_holds_every_extra() -> None:
    assert _own_extras(OPTIONAL["web"]) == {"audit"}
    assert _own_extras(OPTIONAL["all"]) == set(FEATURES)
    assert "all" in _own_extras(OPTIONAL["test"])  # pip install '.[test]' runs the whole suite


@pytest.mark.parametrize("extra", FEATURES)
def test_every_extra_is_installed_here(extra: str) -> None:
    require(extra, "the tests")


@pytest.mark.parametrize(
    ("extra", "module", "distribution"),
    [(extra, p.module, p.distribution) for extra in FEATURES for p in EXTRAS[extra]],
)
def test_a_missing_package_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, extra: str, module: str, distribution: str
) -> None:
    """Simulated: the package is installed here, so ``sys.modules`` hides it (None there makes
    an import fail, as for a package that is absent)."""
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingExtra) as caught:
        require(extra, "the feature")
    error = caught.value
    assert (error.extra, error.feature, error.package) == (extra, "the feature", distribution)
    assert str(error) == f"the feature needs the {extra} extra: pip install 'canon[{extra}]'"


@pytest.mark.parametrize("module", [p.module for p in EXTRAS["audit"]])
def test_the_web_needs_the_audit_extra_too(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingExtra) as caught:
        require("web", "the web service")
    assert caught.value.extra == "audit"
    monkeypatch.setitem(sys.modules, "fastapi", None)  # both missing: the web extra holds both
    with pytest.raises(MissingExtra, match=r"canon\[web\]"):
        require("web", "the web service")
