"""A bar chart of runs side by side (``himga compare ... --plot FILE.png``): per question type and in total, one bar
per run with its 95% interval. matplotlib (the ``plot`` extra) draws it with the Agg backend on a private canvas, as
:mod:`himga.stats.plot` does."""

from __future__ import annotations

from pathlib import Path

from himga.errors import ConfigurationError, HimgaError

__all__ = ["plot_compare"]


def plot_compare(report: dict, path: str | Path, *, title: str = "locomo", dpi: int = 110) -> Path:
    """Draw :func:`himga.run.compare_runs`'s report into a PNG file.

    Args:
        report: The comparison.
        path: The output ``.png`` file (its folder must exist).
        title: The dataset's name for the title.
        dpi: Resolution; the figure is 12 × 6 inches.

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Raises:
        MissingDependencyError: matplotlib is not installed.
        ConfigurationError: ``path`` does not end in ``.png``.
        HimgaError: the file cannot be written.
    """
    from himga.stats.plot import require_matplotlib

    path = Path(path)
    if path.suffix.lower() != ".png":
        raise ConfigurationError(f"the plot is a PNG file: expected a name ending in .png, got {str(path)!r}")
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    runs = report["runs"]
    first = runs[0]["report"]
    rows = [(i, row["type"]) for i, row in enumerate(first["per_type"])] + [(None, "overall")]
    rows = [(i, name) for i, name in rows if any(_summary(r, i, name)["n"] for r in runs)]
    fig = Figure(figsize=(12, 6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    width = 0.8 / len(runs)
    for n, r in enumerate(runs):
        cells = [_summary(r, i, name) for i, name in rows]
        xs = [x + (n - (len(runs) - 1) / 2) * width for x in range(len(rows))]
        means = [c["mean"] if c["mean"] is not None else float("nan") for c in cells]  # no bar where n is 0
        errors = [
            [m - c["ci95"][0] if c.get("ci95") else 0.0 for m, c in zip(means, cells, strict=True)],
            [c["ci95"][1] - m if c.get("ci95") else 0.0 for m, c in zip(means, cells, strict=True)],
        ]
        bars = ax.bar(xs, means, width * 0.95, yerr=errors, capsize=3, label=f"[{n + 1}] {r['name']}")
        labels = [f"{m:.2f}" if c["mean"] is not None else "" for m, c in zip(means, cells, strict=True)]
        ax.bar_label(bars, labels=labels, padding=2, fontsize=7)
    ax.set_xticks(range(len(rows)), [name for _, name in rows])
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("mean (95% interval)")
    what = "own verdicts" if report["score"] == "verdicts" else "official F1 of the responses"
    ax.set_title(f"{title}: {len(runs)} runs by their {what}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=min(len(runs), 3), fontsize=8, frameon=False)
    ax.grid(axis="y", alpha=0.3)
    try:
        fig.savefig(path, dpi=dpi, format="png")
    except OSError as e:
        raise HimgaError(f"cannot write the plot to {str(path)!r}: {e.strerror or e}") from e
    return path


def _summary(run: dict, index: int | None, name: str) -> dict:
    return run["report"]["per_type"][index] if index is not None else run["report"][name]
