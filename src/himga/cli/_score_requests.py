"""The judge requests ``himga score`` writes (``--prompts``) and checks replies against (``--labels``), on a benchmark's
own route: one request per question, or several read by request id (BEAM), and the next round of those a replies
file does not answer yet (``--prompts`` with ``--labels``: the requests the official procedure reaches, given the
replies so far)."""

from __future__ import annotations

from collections.abc import Mapping

from himga.errors import SourceFormatError

__all__ = ["bound_replies", "official_requests", "unanswered"]


def official_requests(bench, judge, questions: Mapping, predictions: Mapping, contexts: Mapping, wanted) -> dict:
    """The requests the predictions render for the questions in ``wanted``, by the key a reply line carries: the
    request id for a judge of several requests per question, else the question id.

    Each is a request line as ``--prompts`` writes it: ids, body, and ``rule`` (the registered judge whose label rule
    reads the reply; ``himga judge`` keeps a reply it cannot read out of the answers).
    """
    if judge.keyed_requests is not None:
        return {
            r["request_id"]: r
            for qid in questions
            if qid in predictions and qid in wanted
            for r in judge.keyed_requests(qid, questions[qid], predictions[qid])
        }
    return {
        qid: {
            "question_id": qid,
            **judge.official_request(bench.name, questions[qid], predictions[qid], contexts.get(qid)),
            "rule": judge.name,
        }
        for qid in questions
        if qid in predictions and qid in wanted
    }


def unanswered(judge, questions: Mapping, predictions: Mapping, every: Mapping, answered: Mapping) -> list[dict]:
    """The next round: of the requests ``every`` (:func:`official_requests`), those the official procedure asks given
    the replies ``answered`` (by the same keys) and that have none yet (BEAM: the rubric items without a reply and,
    of each event-ordering walk, the next pair it reaches)."""
    if judge.keyed_reached is None:
        return [r for key, r in every.items() if key not in answered]
    reached = {
        rid
        for qid in questions
        if qid in predictions
        for rid in judge.keyed_reached(qid, questions[qid], predictions[qid], answered)[0]
    }
    return [r for key, r in every.items() if key in reached and key not in answered]


def bound_replies(args, judge, labels_file, given: Mapping, rendered, predictions_file: str) -> dict:
    """Check that each reply of ``labels_file`` read on the benchmark's own route answered the request the predictions
    render now (:func:`~himga.scoring.check_bound`); returns ``{"checked", "unchecked"}`` for the run record.

    Args:
        args: The command's arguments (for the message saying what to do).
        judge: The benchmark's official judge of the variant scored.
        labels_file: The replies file as read.
        given: The replies or labels kept (``--ids``: the subset's), by request or question id.
        rendered: ``wanted -> {key: request line}`` (:func:`official_requests` of the questions ``wanted``).
        predictions_file: The predictions' name, for messages.

    Raises:
        SourceFormatError: a reply of another judge's route (``--judge NAME``), a reply line without a request hash,
            replies to other requests than the predictions render.
    """
    from himga.cli._run_inputs import redo_hint
    from himga.scoring import bindings_of, check_bound

    several = judge.keyed_requests is not None
    if not several and (
        other := next(((n, v["judge"]) for n, v in labels_file.lines if v.get("judge", judge.name) != judge.name), None)
    ):
        raise SourceFormatError(
            labels_file.name,
            f"line {other[0]}",
            f"a reply of judge {other[1]!r} (himga score --judge {other[1]}), not of {args.dataset}'s own judge "
            f"{judge.name!r}: score these with --judge {other[1]}, or ask again from --prompts",
        )
    from himga.scoring.inputs._bound import RECORDED_LAYOUTS

    for number, value in labels_file.lines:  # verdicts recorded elsewhere: only in a layout the judge's route reads
        if key := next((k for k in RECORDED_LAYOUTS if k in value and k not in judge.recorded), None):
            raise SourceFormatError(
                labels_file.name,
                f"line {number}.{key}",
                f"a verdict recorded elsewhere ({RECORDED_LAYOUTS[key]}, no request hash), which {args.dataset}'s "
                "route does not read: give the replies himga judge wrote, each bound to its request",
            )
    bound, recorded = bindings_of(labels_file, "request_id" if several else "question_id")
    bound = {key: b for key, b in bound.items() if key in given}  # --ids: the subset's only
    checked = check_bound(
        labels_file.name,
        bound,
        rendered({judge.request_question(k) if several else k for k in bound}),
        question_of=judge.request_question if several else str,
        predictions_file=predictions_file,
        redo=redo_hint(args),
    )
    return {"checked": checked, "unchecked": recorded}
