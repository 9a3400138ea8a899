"""The end-of-run line of the suite's skips (tests/conftest.py): their reasons, counted, so that ``-rs`` is not needed
to see why a test did not run."""

from __future__ import annotations

from collections import Counter

__all__ = ["skip_reason", "skip_summary"]


def skip_reason(report) -> str:
    """Why a test skipped, as ``pytest -rs`` shows it (without its ``Skipped: `` prefix)."""
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return reason.removeprefix("Skipped: ")


def skip_summary(reports, *, besides: str) -> str | None:
    """One line for the tests that skipped for another reason than one containing ``besides`` (the real data's
    absence, said by a line of its own), their reasons counted, most frequent first: ``3 other tests skipped: 2
    mounting a tmpfs needs root (running as uid 1000); 1 could not import 'duckdb': No module named 'duckdb'``;
    ``None`` when there is none."""
    reasons = Counter(skip_reason(r) for r in reports if besides not in str(r.longrepr))
    if not reasons:
        return None
    listed = "; ".join(f"{n} {reason}" for reason, n in reasons.most_common())
    return f"{sum(reasons.values())} other tests skipped: {listed}"
