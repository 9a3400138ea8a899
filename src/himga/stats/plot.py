"""A picture of a loaded benchmark (``himga stats … --plot FILE.png``).

One figure: QA pairs by question type (bars) on top; below, the haystack size of every sample —
sessions and messages per sample, one bar per sample for small datasets (LoCoMo's 10
conversations), a histogram for large ones (LongMemEval's 500 questions).

matplotlib is the optional extra ``plot`` (``pip install 'himga[plot]'``); it is imported only
when a figure is drawn. The figure is rendered with the Agg backend on a private canvas, so the
global pyplot backend of the calling program is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from himga.errors import ConfigurationError, HimgaError, MissingDependencyError
from himga.schema.sample import Sample
from himga.stats.summary import dataset_stats

__all__ = ["MAX_BARS", "plot_stats", "require_matplotlib"]

#: Up to this many samples, haystack sizes are drawn as one bar per sample; above, as histograms.
MAX_BARS = 40


def require_matplotlib() -> None:
    """Check that matplotlib is installed.

    Raises:
        MissingDependencyError: it is not; the message says to ``pip install 'himga[plot]'``.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        raise MissingDependencyError(
            "drawing a plot needs matplotlib, which is not installed: pip install 'himga[plot]'"
        ) from e


def _sizes(ax, ids: list[str], values: list[int], what: str, color: str) -> None:
    avg = sum(values) / len(values)
    if len(values) <= MAX_BARS:
        ax.bar(range(len(values)), values, color=color)
        ax.set_xticks(range(len(values)), ids, rotation=45 if len(values) > 5 else 0, ha="right", fontsize=8)
        ax.axhline(avg, color="black", linestyle="--", linewidth=1, label=f"average {avg:,.1f}")
        ax.set_xlabel("sample")
        ax.set_ylabel(f"{what} per sample")
    else:
        lo, hi = min(values), max(values)
        # one bin per integer when the range is small (a count histogram), else 30 even bins
        bins = [v - 0.5 for v in range(lo, hi + 2)] if hi - lo < 30 else 30
        ax.hist(values, bins=bins, color=color, edgecolor="white")
        ax.axvline(avg, color="black", linestyle="--", linewidth=1, label=f"average {avg:,.1f}")
        ax.set_xlabel(f"{what} per sample")
        ax.set_ylabel("samples")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.12)  # headroom for the legend
    ax.set_title(f"{what.capitalize()} per sample (min {min(values):,}, max {max(values):,})")
    ax.legend(loc="upper right", fontsize=9)
    ax.grid(axis="y", alpha=0.3)


def plot_stats(
    samples: Sequence[Sample] | None,
    path: str | Path,
    *,
    title: str = "dataset",
    dpi: int = 110,
    stats: dict | None = None,
) -> Path:
    """Draw the question-type distribution and the per-sample haystack sizes into a PNG file.

    Args:
        samples: The loaded Samples (at least one); not read when ``stats`` is given.
        path: The output ``.png`` file (its folder must exist).
        title: The dataset's name for the figure title, e.g. ``"locomo"``.
        dpi: Resolution; the figure is 12 × 8.5 inches (1320 × 935 pixels at the default).
        stats: ``dataset_stats(samples, per_sample=True)`` when already computed (the CLI's one pass).

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Raises:
        MissingDependencyError: matplotlib is not installed.
        ConfigurationError: ``samples`` is empty, or ``path`` does not end in ``.png`` (a ``ValueError``).
        HimgaError: the file cannot be written.
    """
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise ConfigurationError(f"the plot is a PNG file: expected a name ending in .png, got {str(path)!r}")
    if stats is None:
        stats = dataset_stats(samples or [], per_sample=True)
    if not stats["samples"]:
        raise ConfigurationError("nothing to plot: no samples")
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 8.5), layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(2, 2, height_ratios=[1, 1.1])
    fig.suptitle(
        f"{title}: {stats['samples']:,} samples, {stats['sessions']:,} sessions, "
        f"{stats['messages']:,} messages, {stats['qa_pairs']:,} QA pairs",
        fontsize=14,
        fontweight="bold",
    )

    ax = fig.add_subplot(grid[0, :])
    types = list(stats["question_types"].items())[::-1]  # most common on top
    bars = ax.barh([t for t, _ in types], [c for _, c in types], color="tab:blue")
    total = stats["qa_pairs"]
    ax.bar_label(bars, labels=[f"{c:,} ({c / total:.0%})" for _, c in types], padding=3, fontsize=9)
    ax.set_xlim(0, max(c for _, c in types) * 1.15)
    ax.set_title(f"QA pairs by question type ({stats['abstentions']:,} of {total:,} are abstention questions)")
    ax.set_xlabel("QA pairs")
    ax.set_ylabel("question type")
    ax.grid(axis="x", alpha=0.3)

    per = stats["per_sample"]
    _sizes(fig.add_subplot(grid[1, 0]), per["sample_ids"], per["sessions"], "sessions", "tab:orange")
    _sizes(fig.add_subplot(grid[1, 1]), per["sample_ids"], per["messages"], "messages", "tab:green")

    try:
        fig.savefig(path, dpi=dpi, format="png")
    except OSError as e:
        raise HimgaError(f"cannot write the plot to {str(path)!r}: {e.strerror or e}") from e
    return path
