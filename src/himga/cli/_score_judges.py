"""``himga score ... --judge NAME[,NAME]``: a run scored by named judges, side by side; ``--probe`` their leniency.

::

    himga score locomo PRED.jsonl --judge mem0,evermemos --prompts REQ.jsonl     # the requests (himga judge sends them)
    himga score locomo PRED.jsonl --judge mem0,evermemos --labels REPLIES.jsonl  # the replies, one column per judge
    himga score locomo --probe v2 --judge evermemos --labels REPLIES.jsonl --out probe.json  # false-accept rates
    himga score locomo PRED.jsonl --judge evermemos --labels R.jsonl --probe-report probe.json  # ... beside a run
"""

from __future__ import annotations

import argparse
import json

from himga.catalog import CATALOG
from himga.errors import ConfigurationError, counted

__all__ = ["add_judge_args", "run_judged"]

#: The probe sets of the catalogue (``probe-<set>`` auxiliary files: LoCoMo's ``v1``, ``v2``).
PROBE_SETS = sorted(
    {
        label.removeprefix("probe-")
        for e in CATALOG.values()
        for _f, label, _p in e.auxiliary
        if label.startswith("probe-")
    }
)


def add_judge_args(parser: argparse.ArgumentParser) -> None:
    """``--judge``, ``--judge-model``, ``--probe``, ``--probe-report`` on ``himga score``."""
    from himga.scoring import judges

    parser.add_argument(
        "--judge",
        metavar="NAME[,NAME]",
        default=None,
        help=f"score with named judges, side by side (one of {', '.join(judges())}); with --prompts or --labels",
    )
    parser.add_argument(
        "--judge-model",
        metavar="MODEL",
        default=None,
        help="the judge model the requests name (default: each judge's published model)",
    )
    parser.add_argument(
        "--probe",
        choices=PROBE_SETS,
        default=None,
        help="score the built-in wrong answers of the LoCoMo audit instead of predictions: the judges' "
        "false-accept rates (v1: specific but wrong, v2: vague but on topic)",
    )
    parser.add_argument(
        "--probe-report",
        metavar="REPORT.json",
        action="append",
        default=None,
        help="the --out report of a --probe run of the same judge: its false-accept rates go into this report",
    )


def _judges(args: argparse.Namespace) -> list:
    from himga.scoring import judges_named

    if not args.judge:
        raise ConfigurationError("--probe scores wrong answers with a judge: name it with --judge NAME")
    return judges_named(args.judge, args.dataset)


def _asked(verdicts, judge: str) -> str | None:
    """The model(s) ``himga judge`` asked for ``judge`` (its reply lines' ``model_requested``: ``--model`` may have
    replaced the requests' model), or ``None`` when the lines do not say."""
    models = sorted({b.model for key, b in verdicts.bound.items() if key[0] == judge and b.model})
    return ", ".join(models) or None


def run_judged(args: argparse.Namespace) -> int:
    """Run ``himga score`` with ``--judge`` (and ``--probe``); returns the exit status.

    Raises:
        ConfigurationError: no ``--prompts``/``--labels``, a judge that does not apply, predictions and ``--probe``
            together, outputs that are inputs.
        SourceFormatError: malformed predictions or verdicts, unknown or missing ids, verdicts on other hypotheses.
    """
    from himga.catalog import benchmark
    from himga.cli._args import options as builder_options
    from himga.cli._probe import attach_leniency, leniency_lines, probe_file
    from himga.cli._run_inputs import (
        load_questions,
        print_provenance,
        redo_hint,
        sample_contexts,
        score_files,
        shape_note,
        table_name,
    )
    from himga.jsonio.run_inputs import read_id_lines, read_records
    from himga.run import check_outputs, dumps_report, run_identity, run_record, write_text
    from himga.scoring import (
        check_bound,
        check_hypotheses,
        check_ids,
        format_judged,
        in_subset,
        judge_requests,
        judged_scope,
        match_records,
        read_verdicts,
        score_judged,
        unchecked_note,
        usage_line,
        usage_total,
    )

    judges = _judges(args)
    if not (args.prompts or args.labels):
        raise ConfigurationError(
            "scoring with a judge needs --prompts OUT.jsonl (the requests: send them with himga judge) "
            "or --labels REPLIES (the judge's replies)"
        )
    if args.probe and args.predictions:
        raise ConfigurationError("--probe scores the probe's own answers: give no predictions file with it")
    if not args.probe and args.predictions is None:
        raise ConfigurationError("himga score: give a predictions file (or --probe with --judge)")
    options = builder_options(args)
    outputs, inputs = score_files(args)
    for i, path in enumerate(args.probe_report or []):
        inputs[f"probe report {i + 1}"] = path
    check_outputs(outputs, inputs)
    pred_file = read_records(args.predictions, "predictions") if args.predictions else None
    ids_file = read_id_lines(args.ids) if args.ids else None
    entry = benchmark(args.dataset)
    config, files, index, questions = load_questions(entry, args, options, outputs, inputs, ids_file)
    every = index.questions
    probe = None
    if args.probe:
        path, probe = probe_file(entry, args)
        predictions, name = read_verdicts(path, {}, every).hypotheses, probe["file"]
    else:
        name = pred_file.name
        predictions, _copied = match_records(
            ((pred_file.where(n), r) for n, r in pred_file.lines),
            index,
            file=name,
            type_maps=entry.scorer.type_maps,
            category=entry.scorer.category,
        )
    check_ids(name, predictions, every, partial=True)  # unknown ids
    predictions = {q: h for q, h in predictions.items() if q in questions}
    scope = {q for j in judges for q in judged_scope(args.dataset, questions, j)}
    missing = check_ids(
        name,
        [q for q in predictions if q in scope],
        [q for q in questions if q in scope],
        partial=args.partial or args.labels is not None,
        partial_hint="--partial",
    )
    contexts = {
        j.name: sample_contexts(entry, args, options, predictions, j.context) for j in judges if j.context is not None
    }
    if args.prompts:
        requests = judge_requests(
            args.dataset, questions, predictions, judges, model=args.judge_model, contexts=contexts
        )
        write_text(args.prompts, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests))
        counts = ", ".join(f"{j.name} {sum(r['judge'] == j.name for r in requests)}" for j in judges)
        print(
            f"wrote {counted(len(requests), 'judge request')} ({counts}) to {args.prompts}"
            + (f" ({counted(len(missing), 'question')} missing)" if missing else "")
            + f"; send them with: himga judge {args.prompts} --out REPLIES.jsonl"
        )
        if not args.labels:
            return 0
    verdicts = read_verdicts(args.labels, {j.name: j for j in judges}, every)
    verdicts.scores = {
        j: in_subset(by_question, questions, every) for j, by_question in verdicts.scores.items()
    }  # --ids
    check_hypotheses(verdicts.name, verdicts.hypotheses, predictions, name)
    rendered = {  # a reply is scored only against the request it answered
        (r["judge"], r["question_id"], r["run"], r.get("item", 1)): r
        for r in judge_requests(args.dataset, questions, predictions, judges, model=args.judge_model, contexts=contexts)
    }
    bound_to_requests = {
        "checked": check_bound(
            verdicts.name,
            {key: b for key, b in verdicts.bound.items() if key[1] in questions},  # --ids: the subset's only
            rendered,
            question_of=lambda key: key[1],
            predictions_file=name,
            redo=redo_hint(args),
        ),
        "unchecked": verdicts.recorded,
    }
    reports = [
        score_judged(
            entry.scorer,
            questions,
            predictions,
            j,
            verdicts.scores.get(j.name, {}),
            partial=args.partial,
            file=verdicts.name,
            partial_hint="--partial",
            model=_asked(verdicts, j.name) or args.judge_model,
            models_answered=verdicts.models.get(j.name, ()),
        )
        for j in judges
    ]
    for report in reports:
        if used := verdicts.usage.get(report["judge"]["name"]):
            report["judge"]["usage"] = usage_total(used)
    if probe is not None:
        for report in reports:
            report["probe"] = probe
    if args.probe_report:
        attach_leniency(args.probe_report, reports)
    identity = run_identity(entry, config, data_dir=args.data_dir, ids=ids_file, **options)
    read = {"labels": args.labels, **({"predictions": pred_file} if pred_file else {"probe": path})}
    record = run_record(entry, config, files, reports[0], inputs=read, identity=identity)
    record.update(
        scorer={"metric": "judges: " + "; ".join(r["metric"] for r in reports)},
        gold_options={j.name: {"gold": j.gold, "scope": j.scope} for j in judges},
        judge=[r["judge"] for r in reports] if len(reports) > 1 else reports[0]["judge"],
    )
    record["inputs"]["labels"]["bound_to_requests"] = bound_to_requests
    print(format_judged(reports, what="false-accept rate" if probe else "score", name=table_name(entry, config)))
    for report in reports:
        if "usage" in report["judge"]:
            print(usage_line(report["judge"]["name"], report["judge"]["usage"]))
    for line in leniency_lines(reports):
        print(line)
    if verdicts.other_judges:  # a file of several judges' replies: say what was left unread
        other = ", ".join(f"{counted(n, 'line')} of judge {j}" for j, n in sorted(verdicts.other_judges.items()))
        print(f"note: {verdicts.name}: not read: {other} (not named by --judge)")
    print_provenance(entry, files, options)
    if shaped := shape_note(entry, args, options, config):
        print(f"note: {shaped}")
    if any(verdicts.recorded.values()):
        print(unchecked_note(verdicts.name, verdicts.recorded.items()))
    if probe is not None and not probe["is_pin"]:
        print(f"note: {probe['file']} differs from the pinned {probe['pin']} (sha256 {probe['sha256']})")
    if args.out:
        per_question = {r["judge"]["name"]: r.pop("per_question") for r in reports}
        if len(reports) == 1:
            out = {**reports[0], "run": record, "per_question": per_question[judges[0].name]}
        else:
            out = {"dataset": args.dataset, "reports": reports, "run": record, "per_question": per_question}
        write_text(args.out, dumps_report(out))
        print(f"wrote {args.out}")
    return 0
