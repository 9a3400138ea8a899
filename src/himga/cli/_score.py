"""``himga score``: score a run's predictions with the official rules, print the table, write the report.

::

    himga score locomo RESULTS.json [--config C] [--data-dir D] [--out REPORT.json] [--partial] [--ids IDS] [--gold audited]
    himga score locomo RESULTS.json --paper-metrics all [--paper-aggregation per_sample] [--paper-without-category-5]
    himga score longmemeval HYP.jsonl --prompts OUT.jsonl      # the judge requests, one per line
    himga score longmemeval HYP.jsonl --labels VERDICTS.jsonl  # the judge's replies, scored
    himga score beam HYP.jsonl --config 100K --prompts REQ.jsonl [--judge-variant fixed]  # several requests a question
    himga score beam HYP.jsonl --config 100K --labels REPLIES.jsonl                      # {"request_id", "reply"} lines

The predictions are the evaluation loop's records, a JSON array or JSON Lines (:mod:`himga.scoring._records`).
A benchmark scored by a judge model (LongMemEval, BEAM) needs ``--prompts`` or ``--labels``; himga calls no model.
"""

from __future__ import annotations

import argparse
import json

from himga.errors import ConfigurationError, counted

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``himga score`` on its subparser ``p``."""
    from himga.catalog import CATALOG
    from himga.cli._args import add_cache_dir, add_config, add_data_dir, add_dataset, add_options

    add_dataset(p)
    p.add_argument("predictions", nargs="?", default=None,
                   help='the loop\'s records, a JSON array or JSON Lines: {"sample_id": "conv-26", "question_id": "0", '
                        '"response": ...}, or {"question_id": "conv-26:0", "hypothesis": ...}; not with --probe')
    add_config(p)
    add_data_dir(p)
    add_cache_dir(p)
    p.add_argument("--out", metavar="REPORT.json", default=None, help="write the report (table, per-question scores, run record)")
    p.add_argument("--partial", action="store_true", help="score the given ids and say how many are missing")
    p.add_argument("--ids", metavar="FILE", default=None, help="score only the QA pairs of this ids file (himga subset); other predictions and verdicts are ignored")
    add_options(p, ("gold", "errata"))
    p.add_argument("--prompts", metavar="OUT.jsonl", default=None, help="judged benchmarks: write one judge request per line")
    p.add_argument("--labels", metavar="FILE", default=None,
                   help='judged benchmarks: the judge\'s verdicts ({"question_id", "reply"} lines, or the official *.eval-results-* file; '
                        'a judge of several requests per question: {"request_id", "reply"} lines)')
    variants = {v: e.name for e in CATALOG.values() if e.scoring is not None for v in e.scoring.judge_variants}
    p.add_argument("--judge-variant", choices=list(variants), default=None,
                   help=f"{', '.join(sorted(set(variants.values())))} only: the judge's official behaviour, quirks included "
                        "(official, the default), or with them fixed (fixed); the report names the variant")
    from himga.cli._paper import add_paper_args
    from himga.cli._judged import add_judge_args

    add_paper_args(p)
    add_judge_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``himga score``; returns the exit status.

    Every output is checked against every input (:func:`~himga.runs._outputs.check_outputs`) before a file
    is read; every input is read once (:mod:`himga.jsonio.run_inputs`), and the run record holds the sha256 of
    the bytes read (a pipe works: ``-`` reads the predictions from standard input).

    Raises:
        ConfigurationError: conflicting options, a judged benchmark without ``--prompts``/``--labels``, an
            output that is an input or cannot be written.
        SourceFormatError: a malformed predictions, labels or ids file; missing, unknown or duplicate ids;
            verdicts on other hypotheses than the predictions'.
    """
    from himga.jsonio.run_inputs import read_id_lines, read_json_lines, read_records
    from himga.runs import check_outputs, write_text
    from himga.scoring import brief, check_hypotheses, check_ids, in_subset, labels_of, replies_of
    from himga.scoring import match_records
    from himga.cli._paper import paper_options
    from himga.runs import dumps_report, run_record
    from himga.scoring import scorer, format_table, score_questions
    from himga.cli._run_inputs import load_questions, print_provenance, sample_contexts
    from himga.cli._args import options as builder_options
    from himga.runs import run_identity

    if args.judge or args.probe:  # named judges (and the leniency probe): himga.cli._judged
        from himga.cli._judged import run_judged

        return run_judged(args)
    if args.predictions is None:
        raise ConfigurationError("himga score: give a predictions file (or --probe with --judge)")
    bench = scorer(args.dataset)
    judged = bench.score is None
    several = bench.score_replies is not None  # a judge of several requests per question, each reply read by request id
    if args.judge_variant is not None and args.judge_variant not in bench.judge_variants:
        raise ConfigurationError(f"{args.dataset}: --judge-variant applies to a judge with variants "
                                 f"({', '.join(bench.judge_variants) or 'this one has none'})")
    variant = args.judge_variant or (bench.judge_variants[0] if bench.judge_variants else None)
    if not judged and (args.prompts or args.labels):
        raise ConfigurationError(f"{args.dataset}: --prompts and --labels apply to benchmarks scored by a judge model")
    if judged and not (args.prompts or args.labels):
        raise ConfigurationError(f"{args.dataset} is scored by a judge model, which himga does not call: write the judge "
                                 "requests with --prompts OUT.jsonl, run them, then score the replies with --labels FILE")
    options = builder_options(args)
    paper = paper_options(args, bench)
    if [args.predictions, args.labels, args.ids].count("-") > 1:
        raise ConfigurationError("only one input can be '-' (standard input)")
    outputs = {"--out": args.out, "--prompts": args.prompts}
    inputs = {"predictions": args.predictions, "labels": args.labels, "ids": args.ids, "errata": args.errata,
              "source": args.data_dir}
    check_outputs(outputs, inputs)  # before anything is read or built
    pred_file = read_records(args.predictions, "predictions")
    labels_file = read_json_lines(args.labels, "labels") if args.labels else None  # both files checked before the build
    replies = None
    if labels_file is not None and several:
        (replies, models), labels, judged_hypotheses = replies_of(labels_file), None, {}
    else:
        labels, models, judged_hypotheses = labels_of(labels_file, bench.read_label) if labels_file else (None, [], {})
    ids_file = read_id_lines(args.ids) if args.ids else None
    config, entry, files, index, questions = load_questions(args, options, outputs, inputs, ids_file)
    name = pred_file.name
    predictions, checked = match_records(((pred_file.where(n), r) for n, r in pred_file.lines), index, file=name)
    if ids_file is not None:  # the subset's only: other predictions and verdicts are ignored
        predictions = {qid: hypothesis for qid, hypothesis in predictions.items() if qid in questions}
        labels = in_subset(labels, questions, index.questions) if labels is not None else None
        replies = in_subset(replies, questions, index.questions, bench.request_question) if replies is not None else None
    missing = check_ids(name, predictions, questions, partial=args.partial or args.labels is not None, partial_hint="--partial")
    if labels_file is not None:
        check_hypotheses(labels_file.name, judged_hypotheses, predictions, name)
    if args.prompts:
        if several:
            lines = [json.dumps(request, ensure_ascii=False) for qid in questions if qid in predictions
                     for request in bench.judge_requests(qid, questions[qid], predictions[qid], variant)]
        else:
            contexts = sample_contexts(args, options, predictions, bench.judge_context) if bench.judge_context else {}
            lines = [json.dumps({"question_id": qid, **bench.judge_request(questions[qid], predictions[qid],
                                                                            *((contexts[qid],) if qid in contexts else ()))},
                                ensure_ascii=False)
                     for qid in questions if qid in predictions]
        write_text(args.prompts, "".join(line + "\n" for line in lines))
        print(f"wrote {counted(len(lines), 'judge request')} to {args.prompts}" + (f" ({counted(len(missing), 'question')} missing)" if missing else "")
              + (f" (judge variant {variant})" if several else ""))
        if (note := entry.note(config)) and not args.labels:
            print(f"note: {note}")
        if not args.labels:
            return 0
    if labels is not None:
        unasked = sorted(set(labels) - set(predictions))
        if unasked:
            raise ConfigurationError(f"{labels_file.name}: {len(unasked)} verdicts for questions without a hypothesis "
                                     f"in {name}: {', '.join(map(brief, unasked[:20]))}")
    report = score_questions(args.dataset, questions, predictions=predictions, labels=labels, partial=args.partial,
                             file=labels_file.name if labels_file is not None else name, partial_hint="--partial",
                             replies=replies, variant=variant if several else None)
    read = {"predictions": pred_file, **({"labels": labels_file} if labels_file else {})}
    identity = run_identity(args.dataset, config, data_dir=args.data_dir, ids=ids_file, **options)
    record = run_record(args.dataset, config, files, report, inputs=read, label_models=models, identity=identity)
    record["inputs"]["predictions"].update(layout=pred_file.layout, copied_fields_checked=checked)
    if paper is not None:
        from himga.scoring import paper_record, paper_tables

        report["paper_metrics"] = paper_tables(questions, predictions, index.sample_of, bench.paper, paper)
        record["paper_metrics"] = paper_record(paper)
    per_question = report.pop("per_question")
    report.update(run=record, per_question=per_question)  # the record before the long per-question map
    print(format_table(report))
    for table in report.get("paper_metrics", ()):
        from himga.scoring import format_paper_table

        print(format_paper_table(table))
    if bench.judge is not None:  # which judge, model and templates scored it
        from himga.scoring import judge_line, judges

        named = bench.judge["name"] if variant in (None, *bench.judge_variants[:1]) else f"{bench.judge['name']}-{variant}"  # beam-fixed
        registered = judges().get(named)  # every judge of a default route is registered; the fallback describes one that is not
        described = registered.describe() if registered is not None else {
            "name": named, **bench.source, "template_sha256": bench.judge["templates_sha256"], "runs": 1}
        print(judge_line({**described, "model_requested": bench.judge["model"], "models_answered": models}))
    print_provenance(entry, files, options)
    if note := entry.note(config):
        print(f"note: {note}")
    if bench.judge is not None and any(m != bench.judge["model"] for m in models):
        official = ("the official judge is" if several else "the official print_qa_metrics.py accepts only")
        print(f"note: {labels_file.name} names judge model {', '.join(models)}; {official} {bench.judge['model']}")
    if args.out:
        write_text(args.out, dumps_report(report))
        print(f"wrote {args.out}")
    return 0

