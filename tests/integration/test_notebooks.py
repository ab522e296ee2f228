"""The notebooks in notebooks/ run top to bottom without errors and are stored without outputs.

Each notebook is executed by a fresh ipykernel. The kernel spec is installed into a temporary
directory for this interpreter (``sys.executable``), so the kernel runs in the same environment
as the tests whatever kernels the machine has registered globally.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.notebooks

REASON = "running the notebooks needs nbclient, nbformat and ipykernel: pip install '.[test]'"
nbformat = pytest.importorskip("nbformat", reason=REASON)
nbclient = pytest.importorskip("nbclient", reason=REASON)
kernelspec = pytest.importorskip("ipykernel.kernelspec", reason=REASON)
jupyter_manager = pytest.importorskip("jupyter_client.manager", reason=REASON)
jupyter_kernelspec = pytest.importorskip("jupyter_client.kernelspec", reason=REASON)
traitlets = pytest.importorskip("traitlets", reason=REASON)

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
KERNEL = "python3"

# Appended to the executed copy only: which interpreter and environment the kernel runs in.
PROBE = "import json, sys\nprint(json.dumps({'executable': sys.executable, 'prefix': sys.prefix}))"


@pytest.fixture(scope="session")
def kernel_manager_class(tmp_path_factory: pytest.TempPathFactory) -> type:
    """A kernel manager that finds only a "python3" kernel spec for ``sys.executable``."""
    prefix = tmp_path_factory.mktemp("jupyter")
    spec_dir = Path(kernelspec.install(kernel_name=KERNEL, prefix=str(prefix)))
    argv = json.loads((spec_dir / "kernel.json").read_text(encoding="utf-8"))["argv"]
    assert argv[0] == sys.executable, argv
    kernel_dirs = [str(spec_dir.parent)]

    class ThisInterpreterKernelManager(jupyter_manager.AsyncKernelManager):
        @traitlets.default("kernel_spec_manager")
        def _kernel_spec_manager_default(self) -> object:
            return jupyter_kernelspec.KernelSpecManager(kernel_dirs=kernel_dirs)

    return ThisInterpreterKernelManager


def test_notebooks_exist() -> None:
    assert PATHS, f"no notebooks in {NOTEBOOKS}"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == KERNEL
    for number, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {number} of {path.name} has stored outputs"
            assert cell.execution_count is None, f"cell {number} of {path.name} has a count"


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_runs_without_errors(path: Path, kernel_manager_class: type) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        kernel_name=KERNEL,
        kernel_manager_class=kernel_manager_class,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, when a cell fails

    for number, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            errors = [o for o in cell.outputs if o.output_type == "error"]
            assert not errors, f"cell {number} of {path.name}: {errors[0].ename}"

    probe = json.loads(nb.cells[-1].outputs[0]["text"])
    assert probe["prefix"] == sys.prefix, probe
    assert Path(probe["executable"]).resolve() == Path(sys.executable).resolve(), probe
