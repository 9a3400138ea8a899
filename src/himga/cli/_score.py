"""``himga score``: score a run's predictions with the official rules, print the table, write the report.

::

    himga score locomo RESULTS.json [--config C] [--data-dir D] [--out REPORT.json] [--partial] [--ids IDS] [--gold
    audited] himga score locomo RESULTS.json --paper-metrics all [--paper-aggregation per_sample]
    [--paper-without-category-5] himga score longmemeval HYP.jsonl --prompts OUT.jsonl      # the judge requests, one
    per line himga score longmemeval HYP.jsonl --labels VERDICTS.jsonl  # the judge's replies, scored himga score beam
    HYP.jsonl --config 100K --prompts REQ.jsonl [--judge-variant fixed]  # several requests a question himga score beam
    HYP.jsonl --config 100K --labels REPLIES.jsonl                      # {"request_id", "reply"} lines

The predictions are the evaluation loop's records, a JSON array or JSON Lines
(:mod:`himga.scoring.inputs._run_records`).
A benchmark scored by a judge model (LongMemEval, BEAM) needs ``--prompts`` or ``--labels``; himga calls no model.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from himga.errors import ConfigurationError, counted

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``himga score`` on its subparser ``p``."""
    from himga.catalog import CATALOG
    from himga.cli._args import add_cache_dir, add_config, add_data_dir, add_dataset, add_options

    add_dataset(p)
    p.add_argument(
        "predictions",
        nargs="?",
        default=None,
        help='the loop\'s records, a JSON array or JSON Lines: {"sample_id": "conv-26", "question_id": "0", '
        '"response": ...}, or {"question_id": "conv-26:0", "hypothesis": ...}, or a himga run folder (its '
        "records.jsonl); not with --probe",
    )
    add_config(p)
    add_data_dir(p)
    add_cache_dir(p)
    p.add_argument(
        "--out", metavar="REPORT.json", default=None, help="write the report (table, per-question scores, run record)"
    )
    p.add_argument("--partial", action="store_true", help="score the given ids and say how many are missing")
    p.add_argument(
        "--ids",
        metavar="FILE",
        default=None,
        help="score only the QA pairs of this ids file (himga subset); other predictions and verdicts are ignored",
    )
    add_options(p, ("gold", "errata"))
    p.add_argument(
        "--prompts", metavar="OUT.jsonl", default=None, help="judged benchmarks: write one judge request per line"
    )
    p.add_argument(
        "--labels",
        metavar="FILE",
        default=None,
        help="judged benchmarks: the judge's replies as himga judge writes them (each bound to the request it "
        'answered by its request_sha256: {"question_id", "reply", "request_sha256"} lines; a judge of several '
        'requests per question: {"request_id", ...}), or the official *.eval-results-* file',
    )
    variants = {
        v: e.name
        for e in CATALOG.values()
        if e.scorer is not None and len(e.scorer.judges) > 1
        for v in e.scorer.judges
    }
    p.add_argument(
        "--judge-variant",
        choices=list(variants),
        default=None,
        help=f"{', '.join(sorted(set(variants.values())))} only: the judge's official behaviour, quirks included "
        "(official, the default), or with them fixed (fixed); the report names the variant",
    )
    p.add_argument(
        "--verdicts",
        action="store_true",
        help="score the records' own verdicts (himga import): the published headline reproduced, the official F1, "
        "the judge's leniency (--probe), the audited gold's effect (--gold audited)",
    )
    from himga.cli._paper import add_paper_args
    from himga.cli._score_judges import add_judge_args

    add_paper_args(p)
    add_judge_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``himga score``; returns the exit status.

    Every output is checked against every input (:func:`~himga.run._outputs.check_outputs`) before a file
    is read; every input is read once (:mod:`himga.jsonio.run_inputs`), and the run record holds the sha256 of
    the bytes read (a pipe works: ``-`` reads the predictions from standard input).

    Raises:
        ConfigurationError: conflicting options, a judged benchmark without ``--prompts``/``--labels``, an
            output that is an input or cannot be written.
        SourceFormatError: a malformed predictions, labels or ids file; missing, unknown or duplicate ids;
            verdicts on other hypotheses than the predictions'.
    """
    from himga.catalog import benchmark
    from himga.cli._args import options as builder_options
    from himga.cli._paper import paper_options
    from himga.cli._run_inputs import (
        load_questions,
        print_provenance,
        print_retrieval,
        retrieval_of,
        sample_contexts,
        score_files,
        shape_note,
        table_name,
    )
    from himga.cli._score_requests import bound_replies, official_requests, unanswered
    from himga.jsonio.run_inputs import read_id_lines, read_json_lines, read_records
    from himga.run import check_outputs, dumps_report, run_identity, run_record, write_text
    from himga.scoring import (
        brief,
        check_hypotheses,
        check_ids,
        format_table,
        in_subset,
        labels_of,
        match_records,
        replies_of,
        score_questions,
        unchecked_note,
        usage_line,
        usage_of,
        usage_total,
    )

    if args.predictions is not None and (Path(args.predictions) / "records.jsonl").is_file():
        args.predictions = str(Path(args.predictions) / "records.jsonl")  # a run folder: the records it holds
    if args.verdicts:  # a published run's own verdicts: himga.cli._score_verdicts
        from himga.cli._score_verdicts import run_verdicts

        return run_verdicts(args)
    if args.judge or args.probe:  # named judges (and the leniency probe): himga.cli._score_judges
        from himga.cli._score_judges import run_judged

        return run_judged(args)
    if args.predictions is None:
        raise ConfigurationError("himga score: give a predictions file (or --probe with --judge)")
    entry = benchmark(args.dataset)
    bench = entry.scorer
    judged = bench.score is None
    if args.judge_variant is not None and (args.judge_variant not in bench.judge_variants or len(bench.judges) < 2):
        raise ConfigurationError(
            f"{args.dataset}: --judge-variant applies to a judge with variants "
            f"({', '.join(bench.judge_variants) if len(bench.judges) > 1 else 'this one has none'})"
        )
    judge = bench.judge(args.judge_variant)  # the official judge of the variant asked (None: himga computes the score)
    variant = judge.variant if judge is not None else None
    several = (
        judge is not None and judge.keyed_requests is not None
    )  # several requests per question, read by request id
    if not judged and (args.prompts or args.labels):
        raise ConfigurationError(f"{args.dataset}: --prompts and --labels apply to benchmarks scored by a judge model")
    if judged and not (args.prompts or args.labels):
        raise ConfigurationError(
            f"{args.dataset} is scored by a judge model, which himga does not call: write the judge "
            "requests with --prompts OUT.jsonl, run them, then score the replies with --labels FILE"
        )
    options = builder_options(args)
    paper = paper_options(args, bench)
    if [args.predictions, args.labels, args.ids].count("-") > 1:
        raise ConfigurationError("only one input can be '-' (standard input)")
    outputs, inputs = score_files(args)
    check_outputs(outputs, inputs)  # before anything is read or built
    pred_file = read_records(args.predictions, "predictions")
    # both files checked before the build; --prompts NEXT with --labels: an empty replies file is the first round
    labels_file = read_json_lines(args.labels, "labels", empty=bool(args.prompts)) if args.labels else None
    replies = None
    if labels_file is not None and several:
        (replies, models), labels, judged_hypotheses = replies_of(labels_file), None, {}
    else:
        labels, models, judged_hypotheses = labels_of(labels_file, judge.label.read) if labels_file else (None, [], {})
    ids_file = read_id_lines(args.ids) if args.ids else None
    config, files, index, questions = load_questions(entry, args, options, outputs, inputs, ids_file)
    name = pred_file.name
    predictions, checked = match_records(
        ((pred_file.where(n), r) for n, r in pred_file.lines),
        index,
        file=name,
        type_maps=bench.type_maps,
        category=bench.category,
    )
    if ids_file is not None:  # the subset's only: other predictions and verdicts are ignored
        predictions = {qid: hypothesis for qid, hypothesis in predictions.items() if qid in questions}
        labels = in_subset(labels, questions, index.questions) if labels is not None else None
        replies = (
            in_subset(replies, questions, index.questions, judge.request_question) if replies is not None else None
        )
    missing = check_ids(
        name, predictions, questions, partial=args.partial or args.labels is not None, partial_hint="--partial"
    )
    if labels_file is not None:
        check_hypotheses(labels_file.name, judged_hypotheses, predictions, name)
    contexts = (
        sample_contexts(entry, args, options, predictions, judge.context)
        if judged and judge.context is not None
        else {}
    )

    def rendered(wanted) -> dict:
        return official_requests(bench, judge, questions, predictions, contexts, wanted)

    verdicts = None
    if labels_file is not None:  # a reply is scored only against the request it answered
        verdicts = bound_replies(args, judge, labels_file, replies if several else labels, rendered, name)
    if args.prompts:
        every = rendered(predictions)
        if labels_file is not None:  # the next round: what the replies so far leave unanswered
            todo = unanswered(judge, questions, predictions, every, replies if several else labels)
            write_text(args.prompts, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in todo))
            print(
                f"wrote {counted(len(todo), 'judge request')} that {labels_file.name} does not answer to {args.prompts}"
                + (
                    "; send them, add their replies to the replies file, and run this again until none is written"
                    if todo
                    else "; every request has its reply"
                )
            )
            if todo:
                return 0
        else:
            write_text(args.prompts, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in every.values()))
            walked = sum("walk" in r for r in every.values())
            print(
                f"wrote {counted(len(every), 'judge request')} to {args.prompts}"
                + (f" ({counted(len(missing), 'question')} missing)" if missing else "")
                + (f" (judge variant {variant})" if several else "")
                + (
                    f"; of its {walked:,} event-ordering pairs, himga judge asks those the official walk reaches"
                    if walked
                    else ""
                )
            )
            if note := entry.note(config):
                print(f"note: {note}")
            return 0
    if labels is not None:
        unasked = sorted(set(labels) - set(predictions))
        if unasked:
            raise ConfigurationError(
                f"{labels_file.name}: {len(unasked)} verdicts for questions without a hypothesis "
                f"in {name}: {', '.join(map(brief, unasked[:20]))}"
            )
    report = score_questions(
        bench,
        questions,
        predictions=predictions,
        labels=labels,
        partial=args.partial,
        file=labels_file.name if labels_file is not None else name,
        partial_hint="--partial",
        replies=replies,
        variant=variant if several else None,
    )
    read = {"predictions": pred_file, **({"labels": labels_file} if labels_file else {})}
    identity = run_identity(entry, config, data_dir=args.data_dir, ids=ids_file, **options)
    record = run_record(entry, config, files, report, inputs=read, label_models=models, identity=identity, judge=judge)
    record["inputs"]["predictions"].update(layout=pred_file.layout, copied_fields_checked=checked)
    if verdicts is not None:
        record["inputs"]["labels"]["bound_to_requests"] = verdicts
        given = replies if several else labels
        used = usage_of(v for _n, v in labels_file.lines if v.get("request_id" if several else "question_id") in given)
        if used:
            record["judge"]["usage"] = usage_total(used)
    if paper is not None:
        from himga.scoring import paper_record, paper_tables

        report["paper_metrics"] = paper_tables(questions, predictions, index.sample_of, bench.paper, paper)
        record["paper_metrics"] = paper_record(paper)
    if retrieval := retrieval_of(entry, args, options, pred_file, index, questions):
        report["retrieval"] = retrieval
    per_question = report.pop("per_question")
    report.update(run=record, per_question=per_question)  # the record before the long per-question map
    print(format_table(report, name=table_name(entry, config)))
    print_retrieval(retrieval)
    for table in report.get("paper_metrics", ()):
        from himga.scoring import format_paper_table

        print(format_paper_table(table))
    if judge is not None:  # which judge, model and templates scored it
        from himga.scoring import judge_line

        print(judge_line({**judge.describe(), "model_requested": judge.model, "models_answered": models}))
        if "usage" in record["judge"]:
            print(usage_line(judge.name, record["judge"]["usage"]))
    print_provenance(entry, files, options)
    if shaped := shape_note(entry, args, options, config):
        print(f"note: {shaped}")
    if verdicts is not None and any(verdicts["unchecked"].values()):
        print(unchecked_note(labels_file.name, verdicts["unchecked"].items()))
    if note := entry.note(config):
        print(f"note: {note}")
    if judge is not None and any(m != judge.model for m in models):
        official = "the official judge is" if several else "the official print_qa_metrics.py accepts only"
        print(f"note: {labels_file.name} names judge model {', '.join(models)}; {official} {judge.model}")
    if args.out:
        write_text(args.out, dumps_report(report))
        print(f"wrote {args.out}")
    return 0
