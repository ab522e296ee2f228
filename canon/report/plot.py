"""Similarity against k, raw vs lemmatized: one PNG a person reads at a glance (matplotlib, Agg)."""

from __future__ import annotations

import io
from pathlib import Path

from ..comparison import Comparison, Table, compare_table
from ..errors import OutputError
from ..extras import require

__all__ = ["PLOT_SIZE", "plot_png", "similarity_curves"]

PLOT_SIZE = (800, 500)  # pixels
_KS = tuple(range(1, 11))


def similarity_curves(table: Table) -> Table:
    """The comparison table for k = 1 to 10 under ``table``'s profiles: the data behind the
    plot, measured on the canonical forms ``table`` kept (nothing is canonicalized again)."""
    parts = [compare_table(*table.canonicals[p.name], ks=_KS, profiles=[p]) for p in table.profiles]
    return Table(
        _KS,
        table.profiles,
        {key: cell for part in parts for key, cell in part.cells.items()},
        dict(table.words),
        dict(table.folds),
        dict(table.canonicals),
    )


def plot_png(table: Table, path: Path | None = None) -> bytes:
    """Jaccard (solid) and containment of A in B (dashed) against k for each profile.

    It needs the ``plot`` extra (matplotlib): :class:`~canon.errors.MissingExtra` without it."""
    require("plot", "the similarity plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dpi = 100
    figure, axes = plt.subplots(figsize=(PLOT_SIZE[0] / dpi, PLOT_SIZE[1] / dpi), dpi=dpi)
    for profile in table.profiles:
        cells = [(k, table.cell(profile.name, k)) for k in table.ks]
        points = [(k, c) for k, c in cells if isinstance(c, Comparison)]
        if not points:
            continue
        ks = [k for k, _ in points]
        (line,) = axes.plot(ks, [c.jaccard * 100 for _, c in points], marker="o",
                            label=f"{profile.name}: Jaccard")  # fmt: skip
        axes.plot(ks, [c.containment_first * 100 for _, c in points], linestyle="--",
                  color=line.get_color(), label=f"{profile.name}: A in B")  # fmt: skip
    axes.set_xlabel("shingle size k, words")
    axes.set_ylabel("similarity, %")
    axes.set_xticks(list(table.ks))
    axes.set_ylim(-4, 104)  # a line at 0% or 100% stays clear of the frame
    axes.set_yticks(range(0, 101, 20))
    axes.grid(alpha=0.3)
    axes.legend()
    axes.set_title("How similarity falls with k, raw vs lemmatized")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    plt.close(figure)
    data = buffer.getvalue()
    if path is not None:
        try:
            Path(path).write_bytes(data)
        except OSError as exc:
            raise OutputError(path, f"cannot write the plot ({exc.strerror or exc})") from exc
    return data
