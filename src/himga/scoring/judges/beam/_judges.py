"""BEAM's official judge: ``beam`` (the official code, its quirks included; variant ``official``) and ``beam-fixed``
(variant ``fixed``, both quirks fixed), registered like any judge, so ``himga score beam --judge beam,beam-fixed``
puts the two side by side, and held by BEAM's scorer under their variant names for its own route (``himga score
beam --prompts/--labels [--judge-variant fixed]``: requests and replies keyed by request id).

Both are :mod:`himga.scoring.judges.beam._prompts`'s judge, not a second copy of it: the items of a question are the
requests of :func:`~himga.scoring.judges.beam._prompts.judge_requests` (one per rubric item, then, for event ordering,
one per response line and rubric item, of which the official walk asks only those it reaches), and a question's score
is :func:`~himga.scoring.judges.beam._score.score_replies` of their replies, which reads them as
``compute_metrics.py`` does (mohammadtavakoli78/BEAM@b2a3ee8).
"""

from __future__ import annotations

from himga.errors import SourceFormatError
from himga.scoring.judges._judge import Judge, LabelRule, UnreadableReply
from himga.scoring.judges._registry import register
from himga.scoring.judges.beam import _prompts as beam
from himga.scoring.judges.beam import _score

__all__ = ["BEAM_JUDGES"]

_ITEM = "item"  # the request ids of one question's items, here only to pair replies with requests


def _messages(variant: str):
    def messages(qa, hypothesis: str) -> list[list[dict]]:
        return [request["messages"] for request in beam.judge_requests(_ITEM, qa, hypothesis, variant)]

    return messages


def _ids(qa, hypothesis: str, variant: str) -> list[str]:
    return [request["request_id"] for request in beam.judge_requests(_ITEM, qa, hypothesis, variant)]


def _combine(variant: str):
    def combine(dataset: str, qa, hypothesis: str, replies: list) -> float:
        ids = _ids(qa, hypothesis, variant)
        known = {rid: reply for rid, reply in zip(ids, replies, strict=True) if reply is not None}
        try:
            return _score.score_replies(_ITEM, qa, hypothesis, known, variant)["score"]
        except SourceFormatError as e:  # e.path: the request whose reply is refused, an item of the judge (from 1)
            raise UnreadableReply(f"item {ids.index(e.path) + 1} ({e.path.rpartition('#')[2]}): {e.detail}") from None

    return combine


def _read(reply: str) -> str:
    """A reply is kept as text: an item's reading depends on its kind (a rubric score or a same-event answer), which
    :func:`~himga.scoring.judges.beam._score.score_replies` knows."""
    if not isinstance(reply, str):
        raise UnreadableReply(f"expected the reply's text, got {type(reply).__name__}")
    return reply


def _reached(variant: str):
    def reached(qa, hypothesis: str, values: dict) -> tuple[list[int], bool]:
        ids = _ids(qa, hypothesis, variant)
        asked, complete = _score.reached(
            _ITEM, qa, hypothesis, {ids[k - 1]: v for k, v in values.items() if 0 < k <= len(ids)}, variant
        )
        where = {rid: k for k, rid in enumerate(ids, 1)}
        return [where[rid] for rid in asked], complete

    return reached


def _judge(name: str, variant: str) -> Judge:
    return Judge(
        name=name,
        title=f"BEAM's official judge ({variant}: {beam.VARIANTS[variant]})",
        source={
            **{k: v for k, v in beam.SOURCE.items() if v is not None},
            "symbol": "evaluate_<ability>",
            "licence": "none stated upstream",
            "confirmed": "read and run at the commit (tests/fixtures/scoring/official-beam-*.json)",
        },
        templates={
            "rubric": beam.TEMPLATE,
            "equivalence_system": beam.EQUIVALENCE_SYSTEM,
            "equivalence_user": beam.EQUIVALENCE_USER,
        },
        label=LabelRule("beam-rubric-items", beam.OFFICIAL_JUDGE["label_rule"], "graded", _read),
        model=beam.JUDGE["model"],
        parameters={k: v for k, v in beam.JUDGE.items() if k != "model"},
        benchmarks=("beam",),
        messages=_messages(variant),
        itemized=True,
        combine=_combine(variant),
        gold="the question's rubric items (the reference answer is not shown to the judge)",
        variant=variant,
        keyed_requests=lambda item_id, qa, hypothesis: [
            {**r, "rule": name} for r in beam.judge_requests(item_id, qa, hypothesis, variant)
        ],
        score_keyed=lambda item_id, qa, hypothesis, replies, file="replies": _score.score_replies(
            item_id, qa, hypothesis, replies, variant, file=file
        ),
        keyed_reached=lambda item_id, qa, hypothesis, replies: _score.reached(
            item_id, qa, hypothesis, replies, variant
        ),
        reached_items=_reached(variant),
        check_reply=lambda request, reply: _score.reply_problem(request, reply, variant),
        request_question=beam.request_question,
    )


#: ``beam`` (the default of ``himga score beam``) and ``beam-fixed``.
BEAM_JUDGES: tuple[Judge, ...] = (register(_judge("beam", "official")), register(_judge("beam-fixed", "fixed")))
