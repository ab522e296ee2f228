"""The Layout page (docs/layout.md) and the import-linter contracts (pyproject.toml) say the same.

From the page: each room's modules, the rooms it may import (and, through them, whatever those
may import; the foundation is open to every room) and the packages only it imports.  From the
contracts: every import between two rooms that some contract refuses, and who alone may import
each protected package.  The two must agree pair for pair, both ways: a refusal the page does
not show, or a permission it shows that a contract refuses, fails here.  ``lint-imports``
checks the code against the contracts; this checks the contracts against the page.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, product
from pathlib import Path
from typing import Any

import pytest
from repo_paths import ROOT

import canon

PAGE = ROOT / "docs" / "layout.md"
PACKAGE = Path(canon.__file__).parent
_CODE = re.compile(r"`([^`]+)`")
FOUNDATION = "nothing above it"  # the "may import" cell of the foundation's row


@dataclass(frozen=True)
class Room:
    modules: frozenset[str]  # canon.text, canon.errors…
    imports: frozenset[str]  # the modules named in "may import" (one of each room named)
    owns: frozenset[str]  # the packages only this room imports
    foundation: bool


def _module(cell_name: str) -> str:
    """``text/`` or ``errors.py`` or ``canonical`` → ``canon.text``, ``canon.errors``…"""
    return "canon." + cell_name.removesuffix("/").removesuffix(".py")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def page_rooms(text: str) -> list[Room]:
    """The rows of the page's table of rooms, in order."""
    lines = iter(text.splitlines())
    for line in lines:
        if _cells(line)[:3] == ["room", "holds", "may import"]:
            break
    else:
        raise AssertionError("no table of rooms (room | holds | may import | …)")
    next(lines)  # |---|---|
    rooms = []
    for line in lines:
        if not line.startswith("|"):
            break
        room, _, may, owns = _cells(line)
        rooms.append(
            Room(
                frozenset(_module(name) for name in _CODE.findall(room)),
                frozenset(_module(name) for name in _CODE.findall(may)),
                frozenset(_CODE.findall(owns)),
                may == FOUNDATION,
            )
        )
    return rooms


def allowed(rooms: list[Room]) -> dict[str, set[str]]:
    """Each room's modules → the modules of canon it may import, by the page."""
    room_of = {m: room for room in rooms for m in room.modules}
    foundation = {m for room in rooms if room.foundation for m in room.modules}

    def reach(room: Room, seen: frozenset[Room]) -> set[str]:
        out = set(foundation)
        for name in room.imports:
            other = room_of[name]
            if other not in seen:
                out |= other.modules | reach(other, seen | {other})
        return out

    return {
        m: reach(room, frozenset({room})) | room.modules for room in rooms for m in room.modules
    }


def _strip(name: str) -> str:
    return name.strip().strip("()")


def _layers(contract: dict[str, Any], optional: bool = False) -> list[tuple[list[str], bool]]:
    """A layers contract's layers, top first: (modules, independent); with ``optional``, only
    the modules it names in parentheses (those need not exist)."""
    containers = contract.get("containers") or [""]
    assert len(containers) == 1, "one container (or none) is read here"
    prefix = f"{containers[0]}." if containers[0] else ""
    out = []
    for layer in contract["layers"]:
        separator = ":" if ":" in layer else "|"
        names = [n.strip() for n in layer.split(separator)]
        if optional:
            names = [n for n in names if n.startswith("(")]
        out.append(([prefix + _strip(n) for n in names], separator == "|"))
    return out


def refused(
    contracts: list[dict[str, Any]], modules: Iterable[str]
) -> Iterator[tuple[str, str, str]]:
    """Each (importer, imported, contract) of the rooms' ``modules`` that a contract refuses."""
    modules = set(modules)
    for contract in contracts:
        kind, name = contract["type"], contract["name"]
        if kind == "layers":
            layers = _layers(contract)
            for high, (upper, _) in enumerate(layers):
                for lower, _ in layers[high + 1 :]:
                    yield from ((low, up, name) for low, up in product(lower, upper))
            for members, independent in layers:
                if independent:
                    for a, b in combinations(members, 2):
                        yield from ((a, b, name), (b, a, name))
        elif kind == "forbidden":
            for source, target in product(
                contract["source_modules"], contract["forbidden_modules"]
            ):
                assert target.startswith("canon."), f"{name}: a package is protected, not forbidden"
                yield source, target, name
        elif kind == "independence":
            for a, b in combinations(contract["modules"], 2):
                yield from ((a, b, name), (b, a, name))
        elif kind == "protected":
            for target in contract["protected_modules"]:
                if target.startswith("canon."):
                    permitted = set(contract["allowed_importers"]) | {target}
                    yield from ((m, target, name) for m in modules - permitted)
        else:
            raise AssertionError(f"{name}: no reading of {kind} contracts here")


def _contracts() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    return config, config["contracts"]


CONFIG, CONTRACTS = _contracts()
ROOMS = page_rooms(PAGE.read_text("utf-8"))


def test_the_contracts_read_the_whole_package() -> None:
    assert CONFIG["root_package"] == "canon"
    assert CONFIG["include_external_packages"] is True  # the protected packages are seen
    assert not any(c.get("ignore_imports") for c in CONTRACTS), "fix the import, or say why here"


def test_the_page_has_one_foundation_and_every_room_once() -> None:
    assert sum(room.foundation for room in ROOMS) == 1
    modules = [m for room in ROOMS for m in room.modules]
    assert len(modules) == len(set(modules))
    named = {m for room in ROOMS for m in room.imports}
    assert named <= set(modules), f"rooms named but not in the table: {named - set(modules)}"


def test_every_module_of_the_package_has_a_room() -> None:
    found = {
        f"canon.{path.stem if path.is_file() else path.name}"
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" and path.stem not in ("__init__", "__main__"))
        or (path / "__init__.py").is_file()
    }
    listed = {m for room in ROOMS for m in room.modules}
    assert found - listed == set(), "a module or folder of canon without a row on the page"
    (layers,) = [c for c in CONTRACTS if c["type"] == "layers"]
    optional = {m for members, _ in _layers(layers, optional=True) for m in members}
    assert listed - found <= optional, "a row for a module that is not there (nor optional)"


def test_the_layers_contract_holds_the_rooms_of_the_page() -> None:
    (layers,) = [c for c in CONTRACTS if c["type"] == "layers"]
    assert layers["exhaustive"] is True  # a new room fails lint-imports until it is placed
    in_contract = {m for members, _ in _layers(layers) for m in members}
    assert in_contract == {m for room in ROOMS for m in room.modules}


def test_the_contracts_refuse_exactly_what_the_page_does_not_allow() -> None:
    permitted = allowed(ROOMS)
    refusals: dict[tuple[str, str], list[str]] = {}
    for importer, imported, name in refused(CONTRACTS, permitted):
        refusals.setdefault((importer, imported), []).append(name)
    room_of = {m: room for room in ROOMS for m in room.modules}
    disagreements = []
    for importer, imported in product(permitted, permitted):
        if room_of[importer] is room_of[imported]:
            continue  # inside one room anything goes
        by_page = imported in permitted[importer]
        by_contracts = (importer, imported) not in refusals
        if by_page != by_contracts:
            why = refusals.get((importer, imported), ["no contract refuses it"])
            said = "allows" if by_page else "refuses"
            disagreements.append(f"{importer} → {imported}: the page {said} it; {why}")
    assert disagreements == []


def test_each_package_of_the_last_column_is_protected_for_its_rooms() -> None:
    by_page: dict[str, set[str]] = {}
    for room in ROOMS:
        for package in room.owns:
            by_page.setdefault(package, set()).update(room.modules)
    by_contracts: dict[str, set[str]] = {}
    for contract in CONTRACTS:
        if contract["type"] != "protected":
            continue
        for package in contract["protected_modules"]:
            if not package.startswith("canon."):
                assert package not in by_contracts, f"{package} protected twice"
                by_contracts[package] = set(contract["allowed_importers"])
    assert by_page == by_contracts


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ("| `a/` | x | `b` | |\n| `b.py` | x | nothing above it | |", None),
        ("| `a/` | x | `c` | |\n| `b.py` | x | nothing above it | |", "c"),
    ],
)
def test_the_page_is_read_as_written(table: str, problem: str | None) -> None:
    rooms = page_rooms(
        f"| room | holds | may import | only importer of |\n|---|---|---|---|\n{table}\n"
    )
    if problem is None:
        assert allowed(rooms) == {"canon.a": {"canon.a", "canon.b"}, "canon.b": {"canon.b"}}
    else:
        with pytest.raises(KeyError):
            allowed(rooms)


def test_a_contract_the_page_disagrees_with_is_found() -> None:
    rooms = page_rooms(
        "| room | holds | may import | only importer of |\n|---|---|---|---|\n"
        "| `cli/` | x | `text` | |\n| `text/` | x | only the foundation | |\n"
        "| `errors.py` | x | nothing above it | |\n"
    )
    permitted = allowed(rooms)
    upside_down = [
        {"type": "layers", "name": "l", "layers": ["canon.text", "canon.cli", "canon.errors"]}
    ]
    refusals = {(a, b) for a, b, _ in refused(upside_down, permitted)}
    assert ("canon.cli", "canon.text") in refusals and "canon.text" in permitted["canon.cli"]
