"""``himga score DATASET RUN.jsonl --verdicts``: a published run's headline reproduced from its own verdicts, and what
himga adds from the same file.

::

    himga score locomo zep.jsonl --verdicts                       # the file's verdicts, aggregated as the project did
    himga score locomo fc.jsonl --verdicts --probe v2             # ... and its judge's false-accept rate on the probe
    himga score locomo fc.jsonl --verdicts --gold audited         # ... and the score with the audit's corrections aside

The records are ``himga import``'s (``docs/published-runs.md``): each holds ``verdicts`` (one per judge run) and
``run`` (the file, its judge and models). The score is the mean of the per-run means over the questions the file
holds (its denominator, said), a majority vote beside it; the official F1 of the responses, the intervals, the
judge's leniency and the audited gold's effect are added.
"""

from __future__ import annotations

import argparse

from himga.errors import ConfigurationError, SourceFormatError, counted, type_name

__all__ = ["run_verdicts"]


def _values(pred_file, qids: list[str]) -> tuple[dict[str, list], dict]:
    """``({question id: verdicts}, run)`` of imported records: verdicts checked, one run named by all."""
    values, runs, first = {}, {}, None
    for (number, record), qid in zip(pred_file.lines, qids, strict=True):
        where = pred_file.where(number)
        verdicts = record.get("verdicts")
        if verdicts is None:
            raise SourceFormatError(
                pred_file.name, where, "no 'verdicts': --verdicts scores the file's own verdicts (himga import)"
            )
        if not isinstance(verdicts, list) or not verdicts:
            got = "an empty array" if verdicts == [] else type_name(verdicts)
            raise SourceFormatError(pred_file.name, f"{where}.verdicts", f"expected a list of verdicts, got {got}")
        for n, v in enumerate(verdicts):
            if not (isinstance(v, bool) or (isinstance(v, (int, float)) and 0 <= v <= 1)):
                got = type_name(v) if not isinstance(v, (int, float)) else repr(v)
                raise SourceFormatError(
                    pred_file.name,
                    f"{where}.verdicts[{n}]",
                    f"expected a verdict (a boolean, or a number in [0, 1]), got {got}",
                )
        values[qid] = verdicts
        runs.setdefault(len(verdicts), where)
        run = record.get("run") if isinstance(record.get("run"), dict) else {}
        key = (run.get("name"), run.get("sha256"))
        if first is None:
            first = (key, run)
        elif key != first[0]:
            raise SourceFormatError(
                pred_file.name,
                where,
                f"a record of run {key[0]!r}, after records of run {first[0][0]!r}: one run a file",
            )
    if len(runs) > 1:
        listed = ", ".join(f"{k} (first {w})" for k, w in sorted(runs.items()))
        raise SourceFormatError(pred_file.name, "$", f"records hold different numbers of verdicts: {listed}")
    return values, first[1] if first else {}


def _cell(summary: dict) -> str:
    from himga.scoring import summary_cell

    return summary_cell(summary, n_width=5, compact=True)


def _table(report: dict, f1: dict | None, label: str, gold: str) -> list[str]:
    against = "" if gold == "published" else f" ({gold} gold)"
    head = f"{'':<28}{'n':>5}  {label:<24}" + (f"{'n':>5}  official F1 of the responses{against}" if f1 else "")
    lines = [head]
    rows = [(row["type"], row, f1["per_type"][i] if f1 else None) for i, row in enumerate(report["per_type"])]
    rows += [(name, report[name], f1[name] if f1 else None) for name in ("overall", "overall_without_category_5")]
    for name, row, other in rows:
        if row["n"]:
            lines.append(f"{name:<28}{_cell(row)}" + (_cell(other) if other else ""))
    return lines


def _scope(questions, qids, category) -> str:
    samples = list(dict.fromkeys(q.rpartition(":")[0] for q in questions))
    held = list(dict.fromkeys(q.rpartition(":")[0] for q in qids))
    cats = sorted({category(questions[q]) for q in qids})
    where = f"{len(held)} of the {len(samples)} conversations" if len(held) > 1 else f"conversation {held[0]} only"
    if len(held) == len(samples):
        where = f"all {len(samples)} conversations"
    return f"the file's {counted(len(qids), 'question')}: {where}, categories {', '.join(map(str, cats))}"


def _headline(overall: dict, runs: int, binary: bool, kind: str) -> str:
    pct = f"{overall['mean'] * 100:.2f}%"
    n = overall["n"]
    if kind == "recall":
        return f"headline: {pct}, the mean of the file's recall values"
    if runs == 1:
        return f"headline: {pct} ({overall['counts'][0]:,}/{n:,})" if binary else f"headline: {pct}, the mean verdict"
    counts = overall.get("counts")
    if not binary:
        return f"headline: {pct}, the mean of {runs} judge runs"
    majority = f"; majority of {runs}: {overall['majority'] * 100:.2f}% ({round(overall['majority'] * n):,}/{n:,})"
    return (
        f"headline: {pct} = the mean of {runs} judge runs ({', '.join(f'{c:,}' for c in counts)} of {n:,}: "
        f"{sum(counts):,}/{n * runs:,}){majority}"
    )


def run_verdicts(args: argparse.Namespace) -> int:
    """Run ``himga score ... --verdicts``; returns the exit status.

    Raises:
        ConfigurationError: ``--verdicts`` with ``--judge``, ``--labels`` or ``--prompts``; no records file.
        SourceFormatError: records without verdicts, verdicts that are no booleans or numbers in [0, 1], records of
            several runs or with different numbers of verdicts, and what matching the records raises.
    """
    from himga.catalog import benchmark
    from himga.cli._args import options as builder_options
    from himga.cli._run_inputs import load_questions, print_provenance, print_retrieval, retrieval_of
    from himga.cli._verdicts_notes import audited_lines, leniency, published_lines
    from himga.jsonio.run_inputs import read_id_lines, read_records
    from himga.run import check_outputs, dumps_report, run_identity, run_record, write_text
    from himga.scoring import match_records, score_runs

    if args.judge or args.labels or args.prompts:
        raise ConfigurationError(
            "--verdicts scores the file's own verdicts; re-judging its responses is --judge NAME --prompts/--labels "
            "without --verdicts"
        )
    if args.predictions is None:
        raise ConfigurationError("--verdicts: give the records himga import wrote")
    options = builder_options(args)
    inputs = {"predictions": args.predictions, "ids": args.ids, "errata": args.errata, "source": args.data_dir}
    for i, path in enumerate(args.probe_report or []):
        inputs[f"probe report {i + 1}"] = path
    check_outputs({"--out": args.out}, inputs)
    pred_file = read_records(args.predictions, "predictions")
    ids_file = read_id_lines(args.ids) if args.ids else None
    entry = benchmark(args.dataset)
    bench = entry.scorer
    config, files, index, questions = load_questions(entry, args, options, {"--out": args.out}, inputs, ids_file)
    hypotheses, _ = match_records(
        ((pred_file.where(n), r) for n, r in pred_file.lines),
        index,
        file=pred_file.name,
        type_maps=bench.type_maps,
        category=bench.category,
        need_hypothesis=False,
    )
    values, run = _values(pred_file, list(hypotheses))
    values = {q: v for q, v in values.items() if q in questions}
    if not values:
        raise SourceFormatError(pred_file.name, "$", "no record of the questions scored (--ids)")
    report = score_runs(bench, questions, values)
    responses = {q: h for q, h in hypotheses.items() if q in values and h is not None}
    f1 = None
    if bench.score is not None and len(responses) == len(values):
        f1 = score_runs(bench, questions, {q: [bench.score(questions[q], h)] for q, h in responses.items()})
    kind, judge = run.get("verdict_kind") or "judge", run.get("judge")
    label = "recall" if kind == "recall" else f"verdicts: judge {judge or 'unregistered'}"
    runs_n = report["runs"]
    print(f"{args.dataset}: the file's own verdicts ({pred_file.name}, run {run.get('name')!r}), {runs_n} per question")
    for line in _table(
        report, f1, label if runs_n == 1 else f"{label}, {runs_n} runs", options.get("gold", "published")
    ):
        print(line)
    print(_headline(report["overall"], runs_n, report["binary"], kind))
    print(f"denominator: {_scope(index.questions, list(values), bench.category)}")
    extra = {"published": None, "leniency": None, "audited": None}
    extra["retrieval"] = retrieval_of(entry, args, options, pred_file, index, questions)
    print_retrieval(extra["retrieval"])  # what it retrieved, against himga's relevance labels
    for line in published_lines(run, report["overall"]):
        print(line)
    extra["published"] = run.get("sha256")
    if run.get("judge_model") or run.get("answer_model"):
        print(
            f"models: judge {run.get('judge_model') or 'not stated'}, answer {run.get('answer_model') or 'not stated'}"
        )
    extra["leniency"], lines = leniency(args, entry, run, index.questions)
    for line in lines:
        print(line)
    if options.get("gold") == "audited":
        extra["audited"], lines = audited_lines(bench, questions, values, report, pred_file.name, kind)
        for line in lines:
            print(line)
    print_provenance(entry, files, options)
    if args.out:
        identity = run_identity(entry, config, data_dir=args.data_dir, ids=ids_file, **options)
        body = {"dataset": args.dataset, "metric": f"the file's own verdicts ({label})", **report, "missing": []}
        per_question = body.pop("per_question")
        record = run_record(entry, config, files, body, inputs={"predictions": pred_file}, identity=identity)
        out = {**body, "official_f1": f1 and {k: v for k, v in f1.items() if k != "per_question"}, **extra}
        write_text(args.out, dumps_report({**out, "imported_run": run, "run": record, "per_question": per_question}))
        print(f"wrote {args.out}")
    return 0
