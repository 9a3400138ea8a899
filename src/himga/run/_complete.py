"""The end of a run: when every question asked has a record, the score (a benchmark whose score himga computes) or
the judge's requests (one scored by a judge model), the accounting, and the manifest completed."""

from __future__ import annotations

import json

from himga.errors import MissingDependencyError, counted

__all__ = ["complete"]


def complete(
    entry, folder, planned, manifest: dict, unanswered: list[str], *, judge: str | None, source: str = ""
) -> dict:
    """Write the manifest's end (``ended``, ``answered``, ``completed``; when complete ``score`` and ``summary``),
    print the table, and return the manifest. ``source``: the run's source arguments (``--config oracle --data-dir
    ...``), which the printed ``himga score`` command repeats."""
    from himga.run._folder import RECORDS, SAMPLES
    from himga.run._summary import format_summary, summary
    from himga.scoring import format_table, score_questions

    records = [r for r in folder.records() if r.get("view_question_id") in planned.selected]
    answered = {r["view_question_id"] for r in records}
    samples = (
        [json.loads(line) for line in (folder.path / SAMPLES).read_text(encoding="utf-8").splitlines() if line.strip()]
        if (folder.path / SAMPLES).is_file()
        else []
    )
    done = len(answered) == len(planned.selected)
    import datetime as _dt

    ended = _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
    manifest = {
        **manifest,
        "ended": ended,
        "answered": len(answered),
        "completed": done,
        "answered_models": sorted({r.get("model") for r in records if r.get("model")}),
    }
    if not done:
        missing = len(planned.selected) - len(answered)
        print(
            f"{entry.name}: {counted(len(answered), 'question')} answered, {missing} without an answer"
            + (f" ({len(unanswered)} refused after the client's retries: {unanswered[0]})" if unanswered else "")
            + f"; rerun the same command to ask them ({folder.path / RECORDS})"
        )
        folder.write_manifest(manifest)
        return manifest
    manifest["summary"] = summary(records, samples)
    scorer = entry.scorer
    predictions = {r["question_id"]: r.get("hypothesis", r["response"]) for r in records}  # the prompt's extract
    questions = {item: planned.questions[item] for item in planned.selected.values()}
    if scorer is not None and scorer.score is not None:
        report = score_questions(scorer, questions, predictions=predictions, file=RECORDS)
        report.pop("per_question")
        manifest["score"] = report
        print(format_table(report))
        if manifest.get("reference"):
            print(f"note: a reference run, no system's: {_gold_read(manifest)}")
    elif scorer is not None:
        manifest["score"] = _judge_requests(entry, folder, questions, predictions, None, source)
    if judge:
        manifest["judge_requests"] = _judge_requests(entry, folder, questions, predictions, judge, source)
    from himga.data.lazy import LazySamples
    from himga.scoring import format_retrieval, retrieval_report

    try:
        retrieval = retrieval_report(LazySamples(planned.dataset), {r["question_id"]: r for r in records})
    except MissingDependencyError as e:  # the records are complete; only this table is missing
        print(f"note: retrieval not scored: {e}")
        retrieval = None
    if retrieval is not None:
        manifest["retrieval"] = retrieval
        print(format_retrieval({g: t for g, t in retrieval.items() if g != "left_out"}))
    in_order = sorted(records, key=lambda r: r.get("order", 0))
    if empty := [r for r in in_order if r.get("empty_reply")]:
        manifest["empty_replies"] = len(empty)
        print(
            f"note: {counted(len(empty), 'answer')} of {len(records):,} came back without content (first: "
            f"{empty[0]['question_id']}, {empty[0]['empty_reply']}): scored as wrong answers, as the official scorers "
            "do; their records say empty_reply"
        )
    if unknown := [(r["question_id"], i) for r in in_order for i in r.get("unknown_ids", ())]:
        questions_hit = len({q for q, _ in unknown})
        print(
            f"note: {counted(len(unknown), 'retrieved item')} of {counted(questions_hit, 'question')} named no message "
            f"or session of the view (first: {unknown[0][1]!r} at {unknown[0][0]}); they count as retrieving nothing"
        )
    print(format_summary(manifest["summary"]))
    folder.write_manifest(manifest)
    print(f"wrote {folder.path / 'manifest.json'}")
    return manifest


def _gold_read(manifest: dict) -> str:
    """What of a reference run reads gold: its memory, its answer prompt (when a model was sent it), or both."""
    prompt = manifest["answer_prompt"]
    parts = ["the memory reads gold"] if manifest["memory"].get("reads_gold") else []
    if prompt.get("reads_gold") and manifest.get("answer_model") != "extractive":
        parts.append(f"the answer prompt {prompt['name']} shows gold (--answer-prompt names another)")
    return " and ".join(parts)


def _judge_requests(entry, folder, questions, predictions, names: str | None, source: str) -> dict:
    """Write the judge requests of the official judge (``names`` ``None``) or of named judges, and say what to run."""
    from himga.scoring import judge_named, judge_requests

    path = folder.path / "judge_requests.jsonl"
    if names is None:
        judge = entry.scorer.judge()
        if judge.keyed_requests is not None:
            lines = [r for qid, qa in questions.items() for r in judge.keyed_requests(qid, qa, predictions[qid])]
        elif judge.context is not None:
            return {
                "pending": "LoCoMo-Plus's judge reads each question's conversation: score the records with "
                f"himga score {entry.name} {folder.path / 'records.jsonl'} {source} --prompts REQ.jsonl"
            }
        else:
            lines = [  # as himga score --prompts writes them: rule, the judge whose label rule reads the reply
                {"question_id": qid, **judge.official_request(entry.name, qa, predictions[qid]), "rule": judge.name}
                for qid, qa in questions.items()
            ]
        labels = "--labels REPLIES.jsonl"
    else:
        judges = [judge_named(n.strip()) for n in names.split(",") if n.strip()]
        lines = judge_requests(entry.name, questions, predictions, judges)
        labels = f"--judge {names} --labels REPLIES.jsonl"
    from himga.run._outputs import write_text

    write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines))
    command = (
        f"himga judge {path} --out REPLIES.jsonl, then himga score {entry.name} "
        f"{folder.path / 'records.jsonl'} {source} {labels}"
    )
    print(f"{entry.name} is scored by a judge: wrote {counted(len(lines), 'judge request')} to {path}; {command}")
    return {"requests": len(lines), "file": path.name, "next": command}
