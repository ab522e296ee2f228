"""A ``_private`` name of canon is used only in the module that defines it.

The rules, read from the source (no import runs):

- A name is private when it starts with one underscore (``_render``, ``_UnionFind``); dunders
  (``__version__``) are not.
- ``from M import _x`` and ``M._x`` (``M`` bound by an import to a module of canon) are refused
  in every module but ``M`` itself.  A package's ``__init__`` is a module like any other: it
  re-exports public names only, so it may not take a private one from its own submodules.
- A private *module* (``canon/_version.py``) may be imported by anything inside its parent
  package, as import-linter's ``private_modules`` contracts have it: ``from canon import
  _version`` and ``from canon._version import __version__`` are fine anywhere in canon.
- Names of other projects (``os._exit``) are theirs to document, and attributes of objects
  (``self._db``) are not followed: without types, an attribute's owner is not known.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import canon

PACKAGE = Path(canon.__file__).parent


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package of canon (it may not be imported yet)."""
    if dotted != "canon" and not dotted.startswith("canon."):
        return False
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as its names, or None when it is not a chain of names."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else [*head, node.attr]
    return None


def private_uses(
    source: str,
    module: str,
    is_package: bool = False,
    is_module: Callable[[str], bool] = _is_module,
) -> Iterator[str]:
    """Each use in ``source`` (the module ``module``) of another canon module's private name;
    ``is_module`` tells the modules of canon."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # a local name → the canon module an import bound it to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    root = alias.name.split(".")[0]
                    bound[root] = root
        elif isinstance(node, ast.ImportFrom):
            source_module = _absolute(node, module, is_package)
            for alias in node.names:
                inner = f"{source_module}.{alias.name}"
                if is_module(inner):
                    bound[alias.asname or alias.name] = inner
                    continue  # a submodule: a private one is governed by its package
                if _is_private(alias.name) and is_module(source_module) and source_module != module:
                    yield f"line {node.lineno}: from {source_module} import {alias.name}"
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _is_private(node.attr)):
            continue
        chain = _dotted(node.value)
        if not chain or chain[0] not in bound:
            continue
        owner = ".".join([bound[chain[0]], *chain[1:]])
        if is_module(owner) and owner != module:
            yield f"line {node.lineno}: {owner}.{node.attr}"


@pytest.mark.parametrize(
    ("source", "module", "is_package", "found"),
    [
        ("from .fetch import _short", "canon.sources.client", False, 1),
        ("from canon.sources.fetch import _short as short", "canon.sources.client", False, 1),
        ("from .stages import _UnionFind", "canon.dedup", True, 1),  # an __init__ takes none
        ("from .. import jobs\njobs._start()", "canon.web.routes.pages", False, 1),
        ("import canon.report.html\ncanon.report.html._standalone()", "canon.cli", False, 1),
        ("import canon.report.html as h\nh._standalone()", "canon.cli", False, 1),
        ("from .fetch import shown, TEXT_TYPES", "canon.sources.client", False, 0),
        ("from . import __version__", "canon.report.html", False, 0),  # a dunder
        ("from .. import _version", "canon.web.app", False, 0),  # a private module of canon
        ("from canon import _version as v\nv._x()", "canon.web.app", False, 1),
        ("import os\nos._exit(1)", "canon.workers", False, 0),  # another project's name
        ("self._db.execute('x')", "canon.index.store", False, 0),  # an object's attribute
        ("def _f(): pass\n_f()", "canon.sources.fetch", False, 0),  # its own name
    ],
)
def test_the_rules(source: str, module: str, is_package: bool, found: int) -> None:
    def is_module(dotted: str) -> bool:  # as if canon/_version.py were there
        return dotted == "canon._version" or _is_module(dotted)

    assert len(list(private_uses(source, module, is_package, is_module))) == found


def test_no_module_of_canon_uses_another_ones_private_name() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)} {use}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for use in private_uses(
            path.read_text("utf-8"), _module_of(path), is_package=path.name == "__init__.py"
        )
    ]
    assert found == []
