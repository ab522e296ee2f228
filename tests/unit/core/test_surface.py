"""The public surface: ``canon.__all__`` is exactly what ``canon/__init__.py`` defines (at its
top level or in its table of names imported on first use), no public name hides a submodule,
and every public submodule imports as itself with an explicit ``__all__``."""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import pkgutil
import re
import types
from pathlib import Path

import pytest

import canon

_PUBLIC_DUNDERS = {"__version__"}


def _public_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(canon.__path__, "canon."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue  # canon.__main__ and private modules
        names.append(info.name)
    return sorted(names)


def _packages() -> list[str]:
    return ["canon", *(m for m in _public_modules() if hasattr(_import(m), "__path__"))]


def _import(name: str) -> types.ModuleType | None:
    """The module, or ``None`` for the Dask engine when the dask extra is not installed."""
    if name == "canon.dedup.dask" and importlib.util.find_spec("distributed") is None:
        return None
    return importlib.import_module(name)


def _isort_key(name: str) -> tuple[int, list[object]]:
    """The order ruff's RUF022 keeps: CONSTANTS, then Classes, then the rest, each in natural
    order (digits compared as numbers)."""
    if name.isupper() and len(name) > 1:
        kind = 0
    elif name[:1].isupper():
        kind = 1
    else:
        kind = 2
    parts: list[object] = [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name) if p]
    return kind, parts


def _init_tree() -> ast.Module:
    return ast.parse(Path(canon.__file__).read_text("utf-8"))


def _lazy_table() -> dict[str, str]:
    """The ``_LAZY`` table of ``canon/__init__.py`` (name → "module" or "module:attribute"),
    read from its source."""
    for node in _init_tree().body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "_LAZY":
            table = ast.literal_eval(node.value)  # type: ignore[arg-type]
            assert isinstance(table, dict)
            return table
    raise AssertionError("canon/__init__.py has no _LAZY table")


def _type_checking_imports() -> dict[str, str]:
    """What the ``if TYPE_CHECKING:`` block of ``canon/__init__.py`` imports: name → module."""
    names: dict[str, str] = {}
    for node in _init_tree().body:
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.level == 1
                for alias in statement.names:
                    attribute = "" if alias.asname is None else f":{alias.name}"
                    names[alias.asname or alias.name] = f"canon.{statement.module}{attribute}"
    return names


def _defined_in_init() -> set[str]:
    """Names ``canon/__init__.py`` binds at its top level or lists in its ``_LAZY`` table, by
    reading its source."""
    names: set[str] = set(_lazy_table())
    for node in _init_tree().body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    names.discard("annotations")  # from __future__
    return {n for n in names if not n.startswith("_") or n in _PUBLIC_DUNDERS}


def test_all_is_sorted_and_has_no_repeats() -> None:
    assert list(canon.__all__) == sorted(canon.__all__, key=_isort_key)
    assert len(set(canon.__all__)) == len(canon.__all__)


def test_all_is_exactly_what_the_package_defines() -> None:
    assert set(canon.__all__) == _defined_in_init()


def test_the_lazy_table_is_what_type_checkers_see() -> None:
    table = _lazy_table()
    assert table == _type_checking_imports()
    assert list(table) == sorted(table, key=_isort_key)


@pytest.mark.parametrize(("name", "where"), sorted(_lazy_table().items()))
def test_each_lazy_name_is_the_object_its_module_defines(name: str, where: str) -> None:
    module, _, attribute = where.partition(":")
    assert getattr(canon, name) is getattr(importlib.import_module(module), attribute or name)


def test_every_public_attribute_is_exported() -> None:
    """What ``canon`` holds besides its submodules, once every name has been reached (the lazy
    ones are bound on first use)."""
    for name in canon.__all__:
        assert getattr(canon, name) is not None
    assert set(canon.__all__) <= set(dir(canon))
    public = {
        name
        for name, value in vars(canon).items()
        if (not name.startswith("_") or name in _PUBLIC_DUNDERS)
        and not isinstance(value, types.ModuleType)
    }
    assert public == set(canon.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        canon.no_such_name  # noqa: B018
    assert not hasattr(canon, "_private")


def test_no_public_name_is_also_a_submodule() -> None:
    failures = []
    for package in _packages():
        module = _import(package)
        if module is None:
            continue
        submodules = {info.name for info in pkgutil.iter_modules(module.__path__)}
        shadowing = sorted(
            name
            for name in getattr(module, "__all__", ())
            if name in submodules and not isinstance(getattr(module, name), types.ModuleType)
        )
        if shadowing:
            failures.append(f"{package} exports names that hide its submodules: {shadowing}")
    assert failures == [], "\n".join(failures)


def test_the_known_shadowing_cases_stay_fixed() -> None:
    import canon.textstats as textstats
    import canon.uniqueness.against_index as uniqueness

    assert isinstance(textstats, types.ModuleType) and hasattr(textstats, "text_stats")
    assert isinstance(uniqueness, types.ModuleType) and hasattr(uniqueness, "check")
    assert callable(canon.check) and callable(canon.compare) and callable(canon.stats)


def test_each_public_submodule_imports_as_a_module() -> None:
    failures = []
    for name in _public_modules():
        module = _import(name)
        if module is None:
            continue
        if not (isinstance(module, types.ModuleType) and module.__name__ == name):
            failures.append(f"{name} imports as {module!r}")
        # reached by attributes from canon, it is the module itself, not a name that hides it
        reached = functools.reduce(getattr, name.split(".")[1:], canon)
        if reached is not module:
            failures.append(f"canon.{'.'.join(name.split('.')[1:])} is {reached!r}")
    assert failures == [], "\n".join(failures)


def test_each_public_module_has_an_explicit_all_of_existing_names() -> None:
    failures = []
    for name in ["canon", *_public_modules()]:
        module = _import(name)
        if module is None:
            continue
        if "__all__" not in vars(module):
            failures.append(f"{name} has no __all__")
            continue
        exported = module.__all__
        if not (isinstance(exported, (list, tuple)) and all(isinstance(n, str) for n in exported)):
            failures.append(f"{name}.__all__ is not a list or tuple of strings: {exported!r}")
            continue
        if len(set(exported)) != len(exported):
            failures.append(f"{name}.__all__ repeats a name")
        missing = [n for n in exported if not hasattr(module, n)]
        if missing:
            failures.append(f"{name}.__all__ names what it does not define: {missing}")
    assert failures == [], "\n".join(failures)
