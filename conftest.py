"""The examples of README.md and docs/ are tests (see tests/doc_examples.py)."""

from __future__ import annotations

import pytest
from doc_examples import docs_sybil

pytest_collect_file = docs_sybil().pytest()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """One document's examples share a folder and a namespace: keep them on one xdist worker."""
    for item in items:
        if type(item).__module__.startswith("sybil."):
            item.add_marker(pytest.mark.xdist_group(str(item.path)))
