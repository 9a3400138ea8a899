"""Runs side by side: per question type and in total, each run's n, mean and 95% interval, its judge and models, and
what makes two runs not comparable named (denominators, judges, gold).

A run is what :func:`himga.run.import_run` gives, from a published file, ``himga import``'s records or a ``himga
run`` folder alike. Each is scored by its own verdicts (the mean of the per-run means, as ``himga score
--verdicts``) or by the official score of its responses (``score="f1"``: LoCoMo's F1, the same rule for every run).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, get_args

from himga.errors import ConfigurationError, counted

__all__ = ["SCORES", "compare_runs", "format_compare"]

#: What a comparison scores: each run's own verdicts, or the official score of its responses.
Score = Literal["verdicts", "f1"]
SCORES: tuple[str, ...] = get_args(Score)


def _values(imported, scorer, questions: Mapping, score: str) -> dict[str, list]:
    name = imported.run.get("name")
    if score == "verdicts":
        values = {r["question_id"]: r["verdicts"] for r in imported.records if "verdicts" in r}
        if not values:
            raise ConfigurationError(
                f"run {name!r} holds no verdicts (a himga run, or a file without them): compare with --score f1"
            )
        return values
    if scorer.score is None:
        raise ConfigurationError(f"{scorer.name} is scored by a judge model: compare by the runs' own verdicts")
    values = {r["question_id"]: r["response"] for r in imported.records if isinstance(r.get("response"), str)}
    if not values:
        raise ConfigurationError(f"run {name!r} holds no responses (a retrieval run): compare by its verdicts")
    return {q: [scorer.score(questions[q], h)] for q, h in values.items()}


def _judge(run: dict) -> str:
    if run.get("verdict_kind") == "recall":
        return "recall values (no judge)"
    judge = run.get("judge") or f"{run.get('name')}'s own (unregistered)"
    return f"judge {judge} ({run.get('judge_model') or 'model not stated'})"


def _groups(keys: Sequence) -> list[tuple[object, list[int]]]:
    out: dict = {}
    for n, key in enumerate(keys, 1):
        out.setdefault(key, []).append(n)
    return list(out.items())


def compare_runs(runs: Sequence, scorer, questions: Mapping, *, score: Score = "verdicts") -> dict:
    """Score imported runs side by side.

    Args:
        runs: :class:`himga.run.ImportedRun` s.
        scorer: The benchmark's :class:`~himga.scoring.Scorer`.
        questions: ``{question_id: QAPair}`` of the benchmark, in dataset order.
        score: ``"verdicts"`` (each run's own) or ``"f1"`` (the official score of the responses).

    Returns:
        ``{"score", "runs": [{"name", "run", "report"}], "differ": {"denominator" | "judge" | "gold": [(what,
        [run numbers from 1])]}}``: a factor is listed only when the runs differ in it.

    Raises:
        ConfigurationError: an unknown ``score``; no run; a run without verdicts (or responses) to score.
    """
    from himga.scoring import score_runs

    if score not in SCORES:
        raise ConfigurationError(f"compare: score: expected one of {', '.join(SCORES)}, got {score!r}")
    if not runs:
        raise ConfigurationError("compare: no run to compare")
    out, sets = [], []
    for imported in runs:
        values = _values(imported, scorer, questions, score)
        report = score_runs(scorer, questions, values)
        report.pop("per_question")
        out.append({"name": imported.run.get("name"), "run": imported.run, "report": report})
        sets.append(frozenset(values))
    factors = {"denominator": [counted(len(s), "question") + (f" ({_few(s)})" if len(s) < 200 else "") for s in sets]}
    if score == "verdicts":
        factors["judge"] = [_judge(r["run"]) for r in out]
        factors["gold"] = [str(r["run"].get("gold")) for r in out]
    differ = {}
    for factor, keys in factors.items():
        if factor == "denominator":
            keys = [(k, s) for k, s in zip(keys, sets, strict=True)]
        groups = _groups(keys)
        if len(groups) > 1:
            differ[factor] = [(k[0] if factor == "denominator" else k, ns) for k, ns in groups]
    return {"score": score, "runs": out, "differ": differ}


def _few(ids) -> str:
    samples = sorted({q.rpartition(":")[0] for q in ids})
    return ", ".join(samples[:3]) + (f" and {len(samples) - 3} more" if len(samples) > 3 else "")


def _cell(summary: dict) -> str:
    from himga.scoring import summary_cell

    return summary_cell(summary, n_width=5, compact=True)


def format_compare(report: dict, dataset: str = "locomo") -> str:
    """The comparison as one table (a column per run: n, mean, 95% interval), the runs below it, then what makes
    them not comparable (or that they are)."""
    runs = report["runs"]
    what = "their own verdicts" if report["score"] == "verdicts" else "the official score of their responses"
    lines = [
        f"{dataset}: {counted(len(runs), 'run')} side by side, by {what} (per run: n, mean, 95% interval)",
        f"{'':<28}" + "".join(f"{'n':>5}  {f'[{n}]':<24}" for n in range(1, len(runs) + 1)),
    ]
    first = runs[0]["report"]
    names = [row["type"] for row in first["per_type"]] + ["overall", "overall_without_category_5"]
    for i, name in enumerate(names):
        cells = [r["report"]["per_type"][i] if i < len(first["per_type"]) else r["report"][name] for r in runs]
        if not any(c["n"] for c in cells):
            continue
        mark = "  n differs" if len({c["n"] for c in cells}) > 1 else ""
        lines.append(f"{name:<28}" + "".join(_cell(c) for c in cells) + mark)
    for n, r in enumerate(runs, 1):
        run = r["run"]
        runs_n = r["report"]["runs"]
        judged = f"{_judge(run)}, {counted(runs_n, 'run')}" if report["score"] == "verdicts" else "official F1"
        read = (
            f"{run['records_file']} (sha256 {run['records_sha256'][:12]}), imported from "
            if "records_file" in run
            else ""
        )
        lines.append(
            f"[{n}] {r['name']}: {read}{run.get('file')} (layout {run.get('layout')}, sha256 "
            f"{str(run.get('sha256'))[:12]}), {judged}, answer model {run.get('answer_model') or 'not stated'}, "
            f"gold {run.get('gold')}"
        )
    if not report["differ"]:
        lines.append("comparable: the same questions" + (", judge and gold" if report["score"] == "verdicts" else ""))
    for factor, groups in report["differ"].items():
        listed = "; ".join(f"{key} {' '.join(f'[{n}]' for n in ns)}" for key, ns in groups)
        lines.append(f"not comparable: {factor}s differ: {listed}")
    return "\n".join(lines)
