"""Scoring a run with named judges: their requests, their verdicts read back, one report per judge, a table side by
side.

A judge's per-question score is the mean of its runs' scores (one run: the label itself). Where a judge runs more
than once (MemOS, EverMemOS: three), a row's ``mean`` is the mean of the per-run accuracies, as their
``compute_acc.py`` and the locomo-audit's ``score_ap.py`` compute it (``statistics.mean``; ``runs`` lists them,
``std`` is their population standard deviation); the interval is over the per-question means.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping

from himga.errors import SourceFormatError
from himga.scoring._scorers import Row, Scorer
from himga.scoring.inputs._predictions import brief, check_ids
from himga.scoring.judges import Judge, UnreadableReply
from himga.scoring.metrics._cells import summary_cell
from himga.scoring.metrics._intervals import summarize

__all__ = ["format_judged", "judge_line", "judge_requests", "judged_scope", "score_judged"]


def judged_scope(dataset: str, questions: Mapping, judge: Judge) -> dict:
    """The questions ``judge`` scores (by its model or its rule), in dataset order (every one for a judge with a
    :attr:`~himga.scoring.Judge.context`)."""
    return {
        qid: qa
        for qid, qa in questions.items()
        if judge.context is not None
        or judge.rule_score(dataset, qa, "") is not None
        or judge.prompts(dataset, qa, "") is not None
    }


def judge_requests(
    dataset: str,
    questions: Mapping,
    predictions: Mapping[str, str],
    judges: list[Judge],
    *,
    model: str | None = None,
    contexts: Mapping[str, Mapping[str, object]] | None = None,
) -> list[dict]:
    """Every request the judges ask for the predictions: one per question, judge and run.

    ``contexts`` holds, for each judge with a :attr:`~himga.scoring.Judge.context`, that context by question id.

    Returns:
        ``{"question_id", "judge", "run", ["item",] "model", **parameters, "messages"[, "walk"]}`` dicts, judge by
        judge, questions in dataset order (``item`` from 1 for an itemized judge); questions a judge scores by rule or
        leaves out have none. An item of an official walk (BEAM's event-ordering pairs) carries its ``walk``, whose
        ``id`` names the judge and run (``<question_id>#order@beam#1``).
    """
    out = []
    for judge in judges:
        for qid, qa in questions.items():
            if qid not in predictions or judge.rule_score(dataset, qa, predictions[qid]) is not None:
                continue
            context = (contexts or {}).get(judge.name, {}).get(qid)
            if (prompts := judge.prompts(dataset, qa, predictions[qid], context)) is None:
                continue
            walks = (
                [r.get("walk") for r in judge.keyed_requests(qid, qa, predictions[qid])]
                if judge.keyed_requests is not None
                else [None] * len(prompts)
            )
            for run in range(1, judge.runs + 1):
                for item, (messages, walk) in enumerate(zip(prompts, walks, strict=True), 1):
                    ids = {
                        "question_id": qid,
                        "judge": judge.name,
                        "run": run,
                        **({"item": item} if judge.itemized else {}),
                    }
                    meta = {"walk": {**walk, "id": f"{walk['id']}@{judge.name}#{run}"}} if walk else {}
                    out.append({**ids, **judge.request_body(messages, model), **meta})
    return out


def _complete(dataset: str, judge: Judge, qa, hypothesis: str, runs: Mapping[int, Mapping[int, object]]) -> bool:
    """Whether every run has a verdict on every item the official procedure asks
    (:meth:`~himga.scoring.Judge.items_reached`)."""
    return all(judge.items_reached(dataset, qa, hypothesis, runs.get(r, {}))[1] for r in range(1, judge.runs + 1))


def _with_runs(summaries: dict, per_run: list[dict]) -> dict:
    """Set each summary's ``mean`` to the mean of its per-run means (``runs``, ``std``) where there are several runs."""
    if len(per_run) < 2:
        return summaries
    for key, value in summaries.items():
        if isinstance(value, dict) and "mean" in value:
            means = [run[key]["mean"] for run in per_run]
            if value["mean"] is not None and None not in means:
                value.update(mean=statistics.mean(means), runs=means, std=statistics.pstdev(means))
    return summaries


def _run_score(dataset: str, judge: Judge, qa, hypothesis: str, values: list, file: str, where: str) -> float:
    """:meth:`Judge.score_items`; a reply its official code cannot read (:class:`UnreadableReply`) is an error naming
    ``file`` and the question and run."""
    try:
        return judge.score_items(dataset, qa, hypothesis, values)
    except UnreadableReply as e:
        raise SourceFormatError(file, where, f"judge {judge.name} cannot read a reply: {e}") from None


def score_judged(
    scorer: Scorer,
    questions: Mapping,
    predictions: Mapping[str, str],
    judge: Judge,
    verdicts: Mapping[str, Mapping[int, Mapping[int, object]]],
    *,
    partial: bool = False,
    file: str = "labels",
    partial_hint: str = "partial=True",
    model: str | None = None,
    models_answered=(),
) -> dict:
    """One judge's report on a run: per question type in the papers' order and the benchmark's totals.

    Args:
        scorer: The benchmark's :class:`~himga.scoring.Scorer` (its rows and totals).
        questions: ``{question_id: QAPair}`` scored (a subset: only those).
        predictions: ``{question_id: hypothesis}``.
        judge: The judge.
        verdicts: ``{question_id: {run: {item: value}}}`` of this judge
            (:func:`~himga.scoring.inputs._verdicts.read_verdicts`).
        partial: Score the questions with every run's verdict and list the others as missing.
        file: The verdicts file's name, for messages.
        model: The judge model the requests named (default: the judge's published model).
        models_answered: The models the verdicts file says answered (``himga judge`` records them).

    Returns:
        The report of :func:`~himga.scoring.score_questions`'s shape, plus ``not_judged`` (questions outside the
        judge's scope) and the judge's description; ``per_question`` holds the per-question means.

    Raises:
        SourceFormatError: verdicts on questions the judge does not ask about, no verdict of the judge at all (even
            with ``partial``), missing verdicts (unless ``partial``), nothing to score, replies its combining rule
            cannot read (BEAM's: a score that is no finite number).
    """
    bench, dataset = scorer, scorer.name
    scope = {qid: qa for qid, qa in judged_scope(dataset, questions, judge).items() if qid in predictions}
    asked = {qid for qid, qa in scope.items() if judge.rule_score(dataset, qa, predictions[qid]) is None}
    if extra := [brief(q) for q in verdicts if q not in asked and q in questions]:
        raise SourceFormatError(
            file,
            "$",
            f"{len(extra)} verdicts of judge {judge.name} on questions it does not ask about "
            f"(no hypothesis, scored by rule, or outside its scope): {', '.join(extra[:20])}",
        )
    if asked and not any(qid in asked for qid in verdicts):
        raise SourceFormatError(
            file,
            "$",
            f"no verdicts of judge {judge.name} in {file}"
            + (f" (on the {len(asked):,} questions it asks about)" if len(asked) < len(questions) else ""),
        )
    items = {qid: len(judge.prompts(dataset, scope[qid], predictions[qid])) if judge.itemized else 1 for qid in asked}
    complete = [qid for qid in asked if _complete(dataset, judge, scope[qid], predictions[qid], verdicts.get(qid, {}))]
    missing = check_ids(file, complete, [q for q in scope if q in asked], partial=partial, partial_hint=partial_hint)
    rows: list[Row] = []
    runs: list[list[Row]] = [[] for _ in range(judge.runs)]
    left_out = set(missing)
    also: dict[str, tuple[str, ...]] = {}  # the further rows a QA pair counts in (row_key gave several)
    for qid, qa in scope.items():
        if qid in left_out:
            continue
        key = bench.row_key(qa)
        if isinstance(key, tuple):
            key, also[qid] = key[0], key[1:]
        fixed = judge.rule_score(dataset, qa, predictions[qid])
        scores = (
            [fixed] * judge.runs
            if fixed is not None
            else [
                _run_score(
                    dataset,
                    judge,
                    qa,
                    predictions[qid],
                    [verdicts[qid][r].get(i) for i in range(1, items[qid] + 1)],  # None: an item not reached
                    file,
                    f"{brief(qid)} run {r}",
                )
                for r in range(1, judge.runs + 1)
            ]
        )
        rows.append((qid, key, statistics.fmean(scores)))
        for run, score in zip(runs, scores, strict=True):
            run.append((qid, key, float(score)))
    if not rows:
        raise SourceFormatError(file, "$", f"nothing to score: no question has every verdict of judge {judge.name}")

    def table(part: list[Row]) -> dict:
        per_type = {
            t: summarize([s for qid, k, s in part if k == t or t in also.get(qid, ())]) for t in bench.type_order
        }
        return {**{f"type:{t}": v for t, v in per_type.items()}, **bench.summaries(part)}

    summaries = _with_runs(table(rows), [table(run) for run in runs])
    per_type = [{"type": t, **summaries.pop(f"type:{t}")} for t in bench.type_order]
    return {
        "dataset": dataset,
        "metric": f"judge {judge.name}: {judge.label.description}",
        "per_type": per_type,
        **summaries,
        "scored": len(rows),
        "missing": missing,
        "not_judged": len(questions) - len(scope),
        "judge": {
            **judge.describe(),
            "model_requested": model or judge.model,
            "models_answered": sorted(models_answered),
        },
        "per_question": {qid: s for qid, _, s in rows},
    }


def _cell(summary: dict) -> str:
    return summary_cell(summary, n_width=5, compact=True)


def format_judged(reports: list[dict], *, what: str = "score", name: str | None = None) -> str:
    """The reports of judges on one run as one table, side by side (``n  mean [95% interval]`` per judge).

    Args:
        reports: :func:`score_judged` reports of the same dataset.
        what: What the mean is (``"false-accept rate"`` for a probe run).
        name: The heading (default: the dataset's name; ``himga score`` names the config: ``beam (100K)``).

    Returns:
        The table, then one line per judge: its source, template sha256, model and label rule.
    """
    first = reports[0]
    names = [r["judge"]["name"] for r in reports]
    lines = [
        f"{name or first['dataset']}: {what} by judge {', '.join(names)} (per judge: n, mean, 95% interval)",
        f"{'':<28}" + "".join(f"{n:>5}  {name:<24}" for n, name in zip(["n"] * len(names), names, strict=True)),
    ]
    for i, row in enumerate(first["per_type"]):
        lines.append(f"{row['type']:<28}" + "".join(_cell(r["per_type"][i]) for r in reports))
    for name in ("overall", "overall_without_category_5", "abstention"):
        if name in first:
            lines.append(f"{name:<28}" + "".join(_cell(r[name]) for r in reports))
    if "task_averaged" in first:
        cells = [
            f"{r['task_averaged']['tasks']:>5}  "
            + (
                f"{r['task_averaged']['mean']:<24.4f}"
                if r["task_averaged"]["mean"] is not None
                else f"{'undefined':<24}"
            )
            for r in reports
        ]
        lines.append(f"{'task_averaged':<28}" + "".join(cells))
    for r in reports:
        lines.append(
            judge_line(r["judge"])
            + f"; {r['scored']} scored, {len(r['missing'])} missing, {r['not_judged']} not judged"
        )
    return "\n".join(lines)


def judge_line(judge: dict) -> str:
    """One line naming a judge as a report describes it: source, template sha256, model asked and answered, runs."""
    answered = ", ".join(judge.get("models_answered") or []) or "not named in the verdicts"
    runs = f"; {judge['runs']} runs, mean of per-run means" if judge["runs"] > 1 else ""
    return (
        f"judge {judge['name']}: {judge['repository']}@{judge['commit'][:7]} {judge['path']}, template sha256 "
        f"{judge['template_sha256'][:16]}, model {judge['model_requested']} (answered: {answered}){runs}"
    )
