"""One rule for a table cell: a mean to 4 decimals (as the papers print them), with its n and 95% interval."""

from __future__ import annotations

__all__ = ["mean_cell", "summary_cell"]

_DASH = "—"


def mean_cell(value: float | None, width: int = 7) -> str:
    """``value`` to 4 decimals, right-aligned in ``width`` characters; a dash for ``None`` (nothing to average)."""
    return f"{value:>{width}.4f}" if value is not None else f"{_DASH:>{width}}"


def summary_cell(summary: dict, *, n_width: int = 6, compact: bool = False) -> str:
    """A summary (:func:`himga.scoring.summarize`) as a table cell: ``n``, the mean and the 95% interval.

    Args:
        summary: ``{"n", "mean", "ci95", "ci_method"}``; a ``mean`` of ``None`` gives a dash.
        n_width: The width of the ``n`` column.
        compact: The cell of a side-by-side table (one column per judge): the interval without its method, the
            cell padded to a fixed width; else the official table's (``[lo, hi] method``).
    """
    n = f"{summary.get('n', 0):>{n_width}}"
    if summary.get("mean") is None:
        return f"{n}  {_DASH:<24}" if compact else f"{n}  {mean_cell(None)}"
    ci = summary.get("ci95")
    if compact:
        interval = f"[{ci[0]:.4f}, {ci[1]:.4f}]" if ci else _DASH
        return f"{n}  {summary['mean']:.4f} {interval:<17}"
    interval = f"[{ci[0]:.4f}, {ci[1]:.4f}] {summary['ci_method']}" if ci else _DASH
    return f"{n}  {mean_cell(summary['mean'])}  {interval}"
