"""The lines ``himga score ... --verdicts`` prints beside the reproduced headline: the published number, the judge's
leniency on the audit's probe, the audited gold's effect."""

from __future__ import annotations

import argparse

from himga.errors import counted

__all__ = ["audited_lines", "leniency", "published_lines"]


def published_lines(run: dict, overall: dict) -> list[str]:
    """The published headline of the file (known by its sha256) and whether the verdicts reproduce it."""
    from himga.run import published_run, reproduction

    known = published_run(run.get("sha256") or "")
    if known is None:
        return [f"published: no published headline known for this file (sha256 {run.get('sha256')})"]
    percent = overall["mean"] * 100
    spread = f" ± {known.spread:g}" if known.spread is not None else ""
    lines = [
        f"published: {known.headline:.{known.decimals}f}%{spread} ({known.published_in}): "
        f"{reproduction(known.as_dict(), percent)} ({percent:.2f}%)",
        f"judge: {known.judge_found}",
    ]
    return lines + ([f"note: {known.note}"] if known.note else [])


def _measured(entry, args, judge_name: str, every) -> tuple[dict, list[str]]:
    """The false-accept rate of ``judge_name`` from the probe's recorded verdicts, when they are that judge's."""
    from himga.cli._probe import probe_file
    from himga.run import published_run
    from himga.scoring import judge_named, read_verdicts, score_judged

    path, probe = probe_file(entry, args)
    recorded = published_run(probe["sha256"])
    if recorded is None or recorded.judge != judge_name:
        by = f"judge {recorded.judge}'s" if recorded is not None and recorded.judge else "of no judge himga knows"
        return {"probe": probe["set"], "measured": False}, [
            f"leniency: the probe's recorded verdicts ({probe['file']}) are {by}, not judge {judge_name}'s: write the "
            f"requests with himga score {args.dataset} --probe {probe['set']} --judge {judge_name} "
            "--prompts REQ.jsonl, send them with himga judge, score them with --labels --out PROBE.json, then pass "
            "--probe-report PROBE.json"
        ]
    judge = judge_named(judge_name)
    verdicts = read_verdicts(path, {judge.name: judge}, every)
    report = score_judged(
        entry.scorer, every, verdicts.hypotheses, judge, verdicts.scores.get(judge.name, {}), file=probe["file"]
    )
    rate = report["overall_without_category_5"]
    low, high = rate["ci95"]
    return {"probe": probe["set"], "measured": True, "file": probe["file"], "sha256": probe["sha256"], **rate}, [
        f"leniency: judge {judge_name} ({recorded.judge_model}) accepts {rate['mean'] * 100:.2f}% [{low * 100:.2f}, "
        f"{high * 100:.2f}] of the probe {probe['set']} wrong answers (the audit's recorded verdicts, {probe['file']})"
    ]


def leniency(args: argparse.Namespace, entry, run: dict, every) -> tuple[dict | None, list[str]]:
    """How lenient the file's judge is: measured from the probe's recorded verdicts (``--probe``), or from probe
    reports (``--probe-report``); else what would measure it."""
    from himga.cli._probe import attach_leniency, leniency_lines

    judge = run.get("judge")
    if run.get("verdict_kind") == "recall":
        return None, []
    if judge is None:
        return None, ["leniency: the file's judge is no registered judge: not measured (docs/published-runs.md)"]
    out, lines = None, []
    if args.probe:
        out, lines = _measured(entry, args, judge, every)
    if args.probe_report:
        from himga.scoring import judge_named

        reports = [{"judge": judge_named(judge).describe()}]
        attach_leniency(args.probe_report, reports)
        out = {**(out or {}), "reports": reports[0].get("false_accept", [])}
        lines += leniency_lines(reports)
    if not args.probe and not args.probe_report:
        lines.append(_hint(entry, judge, args.dataset))
    return out, lines


def _hint(entry, judge: str, dataset: str) -> str:
    """What measures ``judge``'s leniency: ``--probe`` where the probe's pinned files hold its recorded verdicts, else
    the probe's requests sent to the judge."""
    from himga.cli._score_judges import PROBE_SETS
    from himga.run import published_run

    recorded = {s: published_run(entry.auxiliary_pin(f"probe-{s}")[1].sha256) for s in PROBE_SETS}
    sets = [s for s, known in recorded.items() if known is not None and known.judge == judge]
    if sets:
        listed = "|".join(sets)
        return f"leniency: --probe {listed} measures judge {judge}'s false-accept rate (the audit's recorded verdicts)"
    return (
        f"leniency: not measured: the audit's probe holds no verdicts of judge {judge}; measure it with himga score "
        f"{dataset} --probe v2 --judge {judge} --prompts REQ.jsonl, himga judge, then --probe-report"
    )


def audited_lines(bench, questions, values: dict, report: dict, file: str, kind: str) -> tuple[dict, list[str]]:
    """The questions whose gold the audit corrects (their answer; for a retrieval run, their evidence): the file's
    verdicts on them, and the score with them set aside (``gold="audited"``)."""
    from himga.scoring import score_runs

    part = "evidence" if kind == "recall" else "answer"
    corrected = [q for q in values if part in ((questions[q].raw.get("gold_audit") or {}).get("changed") or ())]
    if not corrected:
        return {"corrected": {}}, [f"audited gold: the audit corrects no {part} among the file's questions"]
    on = score_runs(bench, {q: questions[q] for q in corrected}, {q: values[q] for q in corrected})
    rest = {q: v for q, v in values.items() if q not in set(corrected)}
    aside = score_runs(bench, {q: qa for q, qa in questions.items() if q in rest}, rest)["overall"]
    was = report["overall"]["mean"] * 100
    share = f"{on['overall']['mean'] * 100:.2f}%"
    given = f"recall averages {share} on them" if kind == "recall" else f"verdicts accept {share} of them"
    lines = [
        f"audited gold: the audit corrects the {part} of {counted(len(corrected), 'question')} of the file's "
        f"{len(values):,}; the file's {given}",
        f"audited gold: set aside, the headline is {aside['mean'] * 100:.2f}% over {aside['n']:,} questions (with "
        f"them {was:.2f}%)"
        + (
            ""
            if kind == "recall"
            else f"; re-judge against the corrected answers: himga score {bench.name} {file} --gold audited --judge "
            "NAME --prompts REQ.jsonl"
        ),
    ]
    return {"corrected": on["per_question"], "accepted": on["overall"], "set_aside": aside}, lines
