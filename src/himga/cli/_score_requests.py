"""The judge requests ``himga score`` writes (``--prompts``) and checks replies against (``--labels``), on a benchmark's
own route: one request per question, or several read by request id (BEAM), and the next round of those a replies
file does not answer yet (``--prompts`` with ``--labels``: the requests the official procedure reaches, given the
replies so far)."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["official_requests", "unanswered"]


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
