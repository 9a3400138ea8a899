"""The papers' tables: one report shape for both benchmarks, from Samples and a run's predictions or verdicts.

A report (a JSON-ready dict)::

    {"dataset", "metric", "per_type": [{"type", "n", "mean", "ci95", "ci_method"}, ...],   # the papers' order
     "overall": {...}, <benchmark totals>, "scored", "missing", "per_question": {question_id: score}}

LoCoMo adds ``overall_without_category_5``; LongMemEval ``task_averaged`` and ``abstention``
(:mod:`himga.scoring.rules.scorer`). Intervals: :mod:`himga.scoring.metrics._intervals`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from himga.errors import ConfigurationError, SourceFormatError, counted, type_name
from himga.schema.ids import item_id
from himga.scoring._scorers import Row, Scorer
from himga.scoring._scorers import scorer as _scorer
from himga.scoring.inputs._predictions import _listing, brief, check_ids
from himga.scoring.inputs._run_records import match_records, record_index, records_of, unmatched_hint
from himga.scoring.metrics._cells import summary_cell
from himga.scoring.metrics._intervals import summarize

__all__ = ["format_table", "questions_by_id", "score_questions", "score_records", "score_samples"]


def _same_dataset(scorer: Scorer, index, file: str) -> None:
    """Refuse Samples of another benchmark than the scorer's (REALTALK's scored by LoCoMo's rules would be scored
    without a word).

    Raises:
        ConfigurationError: ``locomo's scorer was given samples of realtalk``.
    """
    if other := sorted(d for d in index.datasets if d != scorer.name):
        raise ConfigurationError(
            f"{file}: {scorer.name}'s scorer was given samples of {', '.join(other)}: score them with "
            "their own benchmark's scorer"
        )


def questions_by_id(samples: Iterable) -> dict:
    """``{query id: QAPair}`` in dataset order (ids as in the qrels: ``conv-26:0``, LongMemEval's own).

    Keeps the QA pairs only, so that one pass over :class:`~himga.data.LazySamples` of LongMemEval-M holds
    no haystack.
    """
    return {item_id(sample, qa): qa for sample in samples for qa in sample.qa_pairs}


def score_samples(
    scorer: Scorer | str,
    samples: Iterable,
    *,
    predictions: Mapping[str, str] | None = None,
    labels: Mapping[str, bool] | None = None,
    partial: bool = False,
    file: str = "predictions",
) -> dict:
    """Score a run: per question, per question type in the papers' order, and the benchmark's totals.

    Args:
        scorer: The benchmark's :class:`~himga.scoring.Scorer` (``himga.scoring.LOCOMO_SCORER``), or its name
            (``"locomo"``: :func:`himga.scoring.scorer`).
        samples: The benchmark's Samples (a list or :class:`~himga.data.LazySamples`).
        predictions: ``{question_id: hypothesis}`` (LoCoMo: scored with the official F1); a key is an item id
            (:func:`himga.data.item_id`) or the system view's question id (:func:`himga.data.view_ids`).
        labels: ``{question_id: judge label}`` (the judge's verdicts): LongMemEval ``True``/``False`` or the
            integers ``1``/``0``; LoCoMo-Plus ``1``, ``0.5`` or ``0`` (the scorer's ``label_values``).
        partial: Score the given ids and report the missing ones instead of raising.
        file: The name of the file the ids came from, for messages.

    Returns:
        The report (see the module docstring); ``missing`` lists the ids not scored.

    Raises:
        ConfigurationError: an unknown dataset; Samples of another benchmark; predictions given for a judged
            benchmark (or labels for a computed one); a question type outside the official table.
        SourceFormatError: ids the dataset does not have (keys that are ids within a sample, LoCoMo's ``"0"``, say
            that their dict has lost answers), missing ids (unless ``partial``), nothing to score (no id of the
            dataset given), a non-string hypothesis, a label that is not a boolean (or 0/1).

    A list of the loop's records as ``predictions`` is scored by :func:`~himga.scoring.score_records`.
    """
    scorer = _scorer(scorer)
    if predictions is not None and not isinstance(predictions, Mapping):
        return score_records(scorer, samples, predictions, partial=partial, file=file)
    index = record_index(samples)
    _same_dataset(scorer, index, file)
    predictions, labels = _by_item_id(predictions, index, file), _by_item_id(labels, index, file)
    given = predictions if predictions is not None else labels or {}
    unknown = [k for k in given if k not in index.questions]
    if hint := unmatched_hint(unknown, index):
        raise SourceFormatError(file, "$", hint)
    if unknown:
        raise SourceFormatError(
            file,
            "$",
            f"{counted(len(unknown), 'question id')} not in the dataset: "
            f"{_listing([brief(k) for k in unknown])}; {index.example()}",
        )
    return score_questions(scorer, index.questions, predictions=predictions, labels=labels, partial=partial, file=file)


def _by_item_id(given: Mapping | None, index, file: str) -> Mapping | None:
    """``given`` keyed by item ids: a key that is the system view's question id becomes its item id.

    Raises:
        SourceFormatError: two keys name one question (its item id and its view id).
    """
    if not isinstance(given, Mapping):
        return given
    out: dict = {}
    named: dict = {}  # item id -> the key that named it
    for key, value in given.items():
        qid = key if key in index.questions else index.views.get(key, key)
        if qid in named:
            raise SourceFormatError(
                file, "$", f"question {brief(qid)} is given twice: as {brief(named[qid])} and as {brief(key)}"
            )
        named[qid], out[qid] = key, value
    return out


def score_records(
    scorer: Scorer | str,
    samples: Iterable,
    records,
    *,
    partial: bool = False,
    file: str = "records",
    check_copied: bool = True,
) -> dict:
    """Score the evaluation loop's records as it wrote them (its list, or the file read back;
    :mod:`himga.scoring.inputs._run_records`).

    Args:
        scorer: The benchmark's :class:`~himga.scoring.Scorer` (``himga.scoring.LOCOMO_SCORER``), or its name; a
            benchmark scored by a judge takes no records (see ``himga score``).
        samples: The Samples answered (a list or :class:`~himga.data.LazySamples`).
        records: A list of objects, each with ``hypothesis`` or ``response`` and its question named as the module
            docstring says (``{"sample_id": "conv-26", "question_id": "0", "response": "..."}``).
        partial: Score the records given and report the questions missing instead of raising.
        file: The records' name, for messages.
        check_copied: Compare the ``question``, ``answer`` and ``question_type`` a record copies with the gold.

    Returns:
        The report of :func:`himga.scoring.score_samples`.

    Raises:
        SourceFormatError: as :func:`match_records`, and missing questions (unless ``partial``).
        ConfigurationError: an unknown dataset, or one scored by a judge; Samples of another benchmark; a path
            instead of the records.

    Example:
        >>> results = [{"sample_id": "conv-26", "question_id": "0", "response": "7 May 2023"}, ...]  # doctest: +SKIP
        >>> report = score_records("locomo", samples, results)  # doctest: +SKIP
    """
    scorer = _scorer(scorer)
    if isinstance(records, Mapping):
        raise SourceFormatError(
            file,
            "$",
            "expected the loop's list of records, got a mapping: pass "
            "{question_id: hypothesis} to score_samples(predictions=...)",
        )
    if isinstance(records, (str, os.PathLike)):
        raise ConfigurationError(
            f"{file}: expected the records themselves (a list of objects), got the path {brief(str(records))!r}: "
            "read the file first (json.load, or a JSON Lines file line by line), or score it "
            "with `himga score`"
        )
    index = record_index(samples)
    _same_dataset(scorer, index, file)
    predictions, _checked = match_records(
        records_of(records),
        index,
        file=file,
        check_copied=check_copied,
        type_maps=scorer.type_maps,
        category=scorer.category,
    )
    return score_questions(scorer, index.questions, predictions=predictions, partial=partial, file=file)


def score_questions(
    scorer: Scorer,
    questions: Mapping,
    *,
    predictions: Mapping[str, str] | None = None,
    labels: Mapping[str, bool] | None = None,
    partial: bool = False,
    file: str = "predictions",
    partial_hint: str = "partial=True",
    replies: Mapping[str, str] | None = None,
    variant: str | None = None,
) -> dict:
    """:func:`score_samples` on ``{question_id: QAPair}`` (:func:`questions_by_id`); same arguments and errors.

    ``partial_hint`` is how the caller says ``partial`` in messages (``himga score``: ``"--partial"``). A benchmark
    whose judge is asked several requests per question (BEAM) takes ``predictions`` and ``replies``
    (``{request_id: reply}``, :func:`~himga.scoring.replies_of`) instead of ``labels``, and the judge ``variant``
    (default: its first, the official behaviour); the report then names the variant, counts the replies whose score
    lies outside the rubric's scale (``replies_outside_scale``) and holds each question's details under
    ``judge_details``.
    """
    bench = _scorer(scorer)
    dataset = bench.name
    judge = bench.judge(variant)
    if judge is not None and judge.keyed_requests is not None:
        return _score_replies(
            bench, judge, questions, predictions, replies, partial=partial, file=file, partial_hint=partial_hint
        )
    given = predictions if bench.score is not None else labels
    if given is None:
        what = "predictions" if bench.score is not None else "judge labels (labels=)"
        raise ConfigurationError(f"{dataset}: scoring needs {what}")
    missing = check_ids(file, given, questions, partial=partial, partial_hint=partial_hint)
    if len(missing) == len(questions):
        raise SourceFormatError(
            file,
            "$",
            f"nothing to score: none of the {counted(len(questions), 'question')} has "
            f"{'a hypothesis' if bench.score is not None else 'a label'}",
        )
    rows: list[Row] = []
    also: dict[str, tuple[str, ...]] = {}  # the further rows a QA pair counts in (row_key gave several)
    for qid, qa in questions.items():
        if qid not in given:
            continue
        key = bench.row_key(qa)
        if isinstance(key, tuple):
            key, also[qid] = key[0], key[1:]
        if key not in bench.type_order:
            raise ConfigurationError(
                f"{dataset}: {qid}: question type {key!r} is not one of {', '.join(bench.type_order)}"
            )
        if bench.score is None:
            label = given[qid]
            if not (isinstance(label, bool) or (type(label) in (int, float) and label in judge.label.values)):
                raise SourceFormatError(
                    file, brief(qid), f"expected a judge label {_labels(judge)}, got {brief(repr(label))}"
                )
            score = float(label)
        else:
            if not isinstance(given[qid], str):
                raise SourceFormatError(file, brief(qid), f"hypothesis: expected a string, got {type_name(given[qid])}")
            score = bench.score(qa, given[qid])
        rows.append((qid, key, float(score)))
    per_type = [
        {"type": t, **summarize([s for qid, key, s in rows if key == t or t in also.get(qid, ())])}
        for t in bench.type_order
    ]
    return {
        "dataset": dataset,
        "metric": bench.metric,
        "per_type": per_type,
        **bench.summaries(rows),
        "scored": len(rows),
        "missing": missing,
        "per_question": {qid: s for qid, _, s in rows},
    }


def _labels(judge) -> str:
    """The label values a labels file may hold, for messages: ``True/False (or 1/0)``, ``1, 0.5 or 0``."""
    if tuple(judge.label.values) == (0.0, 1.0):
        return "True/False (or 1/0)"
    values = [f"{v:g}" for v in sorted(judge.label.values, reverse=True)]
    return f"{', '.join(values[:-1])} or {values[-1]}"


def format_table(report: dict, *, name: str | None = None) -> str:
    """The report as a text table: one line per type, then the totals (means to 4 decimals, as the papers).

    ``name`` heads it (default: the dataset's name; ``himga score`` names the config as ``himga stats`` does:
    ``longmemeval (oracle)``)."""
    width = max([28, *(len(row["type"]) + 2 for row in report["per_type"])])  # PersonaMem's types run to 45
    lines = [
        f"{name or report['dataset']}: {counted(report['scored'], 'question')} scored"
        + (f", {len(report['missing'])} missing" if report["missing"] else "")
        + (f" (judge variant {report['judge_variant']})" if "judge_variant" in report else ""),
        f"{'':<{width}}{'n':>6}  {'mean':>7}  95% interval",
    ]
    lines += [f"{row['type']:<{width}}{summary_cell(row)}" for row in report["per_type"]]
    for name in ("overall", "overall_without_category_5", "abstention"):
        if name in report:
            lines.append(f"{name:<{width}}{summary_cell(report[name])}")
    if "task_averaged" in report:
        task = report["task_averaged"]
        value = f"{task['mean']:.4f}" if task["mean"] is not None else f"undefined: {task['undefined']}"
        lines.append(f"{'task_averaged':<{width}}{task['tasks']:>6}  {value}")
    if report.get("replies_outside_scale"):
        n = report["replies_outside_scale"]
        lines.append(
            f"note: {n} judge {'reply' if n == 1 else 'replies'} gave a score outside the rubric's scale "
            "(0 to 1), counted as given, as the official code counts them"
        )
    return "\n".join(lines)


def _score_replies(
    bench: Scorer,
    judge,
    questions: Mapping,
    predictions: Mapping[str, str] | None,
    replies: Mapping[str, str] | None,
    *,
    partial: bool,
    file: str,
    partial_hint: str,
) -> dict:
    """:func:`score_questions` for a judge of several requests per question: a question is scored when every request
    the official procedure asks for it (:attr:`~himga.scoring.Judge.keyed_reached`: of BEAM's event-ordering pairs,
    those its walk reaches) has a reply."""
    if predictions is None or replies is None:
        raise ConfigurationError(f"{bench.name}: scoring needs the predictions and the judge's replies (replies=)")
    variant = judge.variant
    check_ids(file, predictions, questions, partial=True)  # unknown ids
    needed = {
        qid: [r["request_id"] for r in judge.keyed_requests(qid, qa, predictions[qid])]
        for qid, qa in questions.items()
        if qid in predictions
    }
    asked = {rid for ids in needed.values() for rid in ids}
    if unasked := [rid for rid in replies if rid not in asked]:
        raise SourceFormatError(
            file,
            "$",
            f"{len(unasked)} replies to requests these predictions do not make "
            f"(another variant or other hypotheses?): {', '.join(map(brief, unasked[:20]))}",
        )
    if judge.keyed_reached is not None:  # the requests the official procedure reaches (BEAM's event-ordering walk)
        complete = {qid for qid in needed if judge.keyed_reached(qid, questions[qid], predictions[qid], replies)[1]}
    else:
        complete = {qid for qid, ids in needed.items() if all(rid in replies for rid in ids)}
    missing = check_ids(file, complete, questions, partial=partial, partial_hint=partial_hint)
    if len(missing) == len(questions):
        raise SourceFormatError(
            file, "$", f"nothing to score: none of the {counted(len(questions), 'question')} has every reply"
        )
    rows: list[Row] = []
    details = {}
    for qid, qa in questions.items():
        if qid in complete:
            details[qid] = judge.score_keyed(qid, qa, predictions[qid], replies, file=file)
            rows.append((qid, bench.row_key(qa), float(details[qid]["score"])))
    per_type = [{"type": t, **summarize([s for _, key, s in rows if key == t])} for t in bench.type_order]
    return {
        "dataset": bench.name,
        "metric": bench.metric,
        "judge_variant": variant,
        "per_type": per_type,
        **bench.summaries(rows),
        "scored": len(rows),
        "missing": missing,
        "replies_outside_scale": sum(d.get("outside_scale", 0) for d in details.values()),
        "per_question": {qid: s for qid, _, s in rows},
        "judge_details": details,
    }
