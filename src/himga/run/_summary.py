"""A run's accounting: latency per phase (p50, p95, p99, in ms) and tokens per question, from its records."""

from __future__ import annotations

import statistics

__all__ = ["format_summary", "summary"]


def _percentiles(values: list[float]) -> dict | None:
    if not values:
        return None
    ordered = sorted(values)

    def at(q: float) -> float:  # nearest rank
        return round(ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))], 3)

    return {
        "n": len(ordered),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "mean": round(statistics.fmean(ordered), 3),
    }


def summary(records: list[dict], samples: list[dict]) -> dict:
    """``{"latency_ms": {"ingest_per_sample", "retrieve", "answer"}, "tokens_per_question": {...}}``: each latency
    ``{"n", "p50", "p95", "p99", "mean"}`` (nearest-rank percentiles), tokens as the endpoint reported them (``None``
    where it reported none, as ``extractive``)."""
    prompt = [r["usage"]["prompt_tokens"] for r in records if (r.get("usage") or {}).get("prompt_tokens") is not None]
    completion = [
        r["usage"]["completion_tokens"] for r in records if (r.get("usage") or {}).get("completion_tokens") is not None
    ]
    return {
        "latency_ms": {
            "ingest_per_sample": _percentiles([s["ingest_ms"] for s in samples if "ingest_ms" in s]),
            "retrieve": _percentiles([r["latency_ms"]["retrieve"] for r in records if "latency_ms" in r]),
            "answer": _percentiles([r["latency_ms"]["answer"] for r in records if "latency_ms" in r]),
        },
        "tokens_per_question": {
            "prompt": round(statistics.fmean(prompt), 3) if prompt else None,
            "completion": round(statistics.fmean(completion), 3) if completion else None,
            "reported": len(prompt),
        },
    }


def format_summary(s: dict) -> str:
    """The summary as lines under the score table."""
    lines = []
    for phase, value in s["latency_ms"].items():
        if value:
            lines.append(
                f"latency {phase:<18} p50 {value['p50']:>9.1f} ms  p95 {value['p95']:>9.1f} ms  "
                f"p99 {value['p99']:>9.1f} ms  (n {value['n']:,})"
            )
    tokens = s["tokens_per_question"]
    if tokens["reported"]:
        lines.append(f"tokens per question      prompt {tokens['prompt']:,.1f}  completion {tokens['completion']:,.1f}")
    else:
        lines.append("tokens per question      not reported (no model, or the endpoint gave no usage)")
    return "\n".join(lines)
