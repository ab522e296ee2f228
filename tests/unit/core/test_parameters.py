"""No public function or method takes more than ``MAX_PARAMETERS`` parameters: a longer list
belongs in a settings object (``CheckSettings``, ``IndexRules``, ``AddSettings``...).

Every public module (no ``_private`` part in its name) is walked: the functions its
``__all__`` names, the public methods (and an ``__init__`` written by hand) of the classes it
names, and the callbacks of the commands it names.  Parameters are counted as the signature
lists them: ``self`` counts, and so do ``*args`` and ``**kwargs`` (one each).  An
``__init__`` that ``dataclasses`` writes is not counted: a record's fields are the settings
object the rule asks for, not a list of loose parameters.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
import pkgutil
from collections.abc import Callable, Iterator

import click

import canon

MAX_PARAMETERS = 8

# Over the limit on purpose, each with its reason.
EXCEPTIONS: dict[str, str] = {
    "canon.cli.check.check_command": "a click command takes one parameter per flag",
    "canon.cli.compare.compare": "a click command takes one parameter per flag",
    "canon.cli.dedup.dedup_command": "a click command takes one parameter per flag",
}


def _public_modules() -> Iterator[str]:
    yield "canon"
    for info in pkgutil.walk_packages(canon.__path__, "canon."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            yield info.name


def _written_by_dataclasses(cls: type, function: Callable[..., object]) -> bool:
    return dataclasses.is_dataclass(cls) and function.__code__.co_filename == "<string>"


def _callables(name: str, obj: object) -> Iterator[tuple[str, Callable[..., object]]]:
    if isinstance(obj, click.Command) and obj.callback is not None:
        yield name, obj.callback
    elif inspect.isfunction(obj):
        yield name, obj
    elif inspect.isclass(obj) and obj.__module__.startswith("canon"):
        for attr, value in vars(obj).items():
            if attr.startswith("_") and attr != "__init__":
                continue
            function = value.__func__ if isinstance(value, staticmethod | classmethod) else value
            if inspect.isfunction(function) and not _written_by_dataclasses(obj, function):
                yield f"{name}.{attr}", function


def _counts() -> dict[str, int]:
    """Parameters of every public function and method, by qualified name."""
    counts: dict[str, int] = {}
    for module_name in _public_modules():
        if module_name == "canon.dedup.dask" and importlib.util.find_spec("distributed") is None:
            continue  # the Dask engine needs the dask extra
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            named = obj.callback if isinstance(obj, click.Command) else obj
            home = getattr(named, "__module__", module_name)
            qualified = f"{home}.{getattr(named, '__qualname__', name)}"
            for where, function in _callables(qualified, obj):
                counts[where] = len(inspect.signature(function).parameters)
    return counts


def test_no_public_function_takes_more_than_eight_parameters() -> None:
    counts = _counts()
    assert len(counts) > 300  # the walk reached the package
    assert {"canon.uniqueness.against_index.check", "canon.index.ingest.add_sources"} <= set(counts)
    over = {name: count for name, count in counts.items() if count > MAX_PARAMETERS}
    assert sorted(set(over) - set(EXCEPTIONS)) == [], over


def test_every_exception_is_still_needed() -> None:
    counts = _counts()
    for name, reason in EXCEPTIONS.items():
        assert reason
        assert counts.get(name, 0) > MAX_PARAMETERS, f"{name} is no longer over: drop it"
