"""BEAM's judge replies read as the official code reads them: one response's score
(:func:`score_replies`), the requests the official procedure asks given the replies so far (:func:`reached`, its
event-ordering walk), and why a reply cannot be read (:func:`reply_problem`).

Source: mohammadtavakoli78/BEAM at commit ``b2a3ee8ba12d68f83143dda191097dc3e028ddd3``,
``src/evaluation/compute_metrics.py`` (``evaluate_<ability>``, ``align_with_llm``, ``event_ordering_score``); the
requests are :mod:`._prompts`'.
"""

from __future__ import annotations

from collections.abc import Mapping

from himga.errors import ConfigurationError, SourceFormatError, type_name
from himga.scoring.judges.beam._order import event_ordering_score, same_event, walk
from himga.scoring.judges.beam._prompts import JudgeVariant, _fields, _pair_id, _rubric_id, check_variant
from himga.scoring.judges.beam._replies import RefusedScore, item_score, parse_reply

__all__ = ["reached", "reply_problem", "score_replies"]


def reached(
    item_id: str, qa, hypothesis: str, replies: Mapping[str, str], variant: JudgeVariant = "official"
) -> tuple[list[str], bool]:
    """The requests the official code asks for one response, given the replies so far: every rubric item's and, for
    event ordering, the pairs its walk reaches (up to the first pair without a reply).

    Returns:
        ``(request ids, complete)``: ``complete`` when every one has a reply (the question can be scored).

    Raises:
        ConfigurationError: as :func:`judge_requests`.
    """
    ability, _question, rubric = _fields(qa)
    ids = [_rubric_id(item_id, k, variant) for k in range(len(rubric))]
    complete = all(rid in replies for rid in ids)
    if ability == "event_ordering":
        if not isinstance(hypothesis, str):
            raise ConfigurationError(f"{item_id}: hypothesis: expected a string, got {type_name(hypothesis)}")

        def same(i: int, j: int) -> bool | None:
            text = replies.get(_pair_id(item_id, i, j))
            return None if text is None else same_event(text)

        pairs, match = walk(len(hypothesis.split("\n")), len(rubric), same)
        ids += [_pair_id(item_id, i, j) for i, j in pairs]
        complete = complete and match is not None
    return ids, complete


def reply_problem(request: Mapping, reply: str, variant: JudgeVariant = "official") -> str | None:
    """Why the official code cannot read ``reply`` to ``request`` (one of :func:`judge_requests`), or ``None``: a
    pair's reply is any text (``"yes" in reply.lower()``); a rubric item's is read as :func:`score_replies` reads it.
    """
    if "walk" in request:
        return None
    ability = str(request.get("question_id", "")).split(":")[1:2]  # <tier>-<chat>:<ability>:<index>
    try:
        item_score(parse_reply(reply), check_variant(variant) == "official" and ability != ["event_ordering"])
    except RefusedScore as e:
        return str(e)
    except (ValueError, TypeError) as e:
        return f"the official scorer cannot read this reply ({type(e).__name__}: {e})"
    return None


def score_replies(
    item_id: str,
    qa,
    hypothesis: str,
    replies: Mapping[str, str],
    variant: JudgeVariant = "official",
    *,
    file: str = "replies",
) -> dict:
    """The official scores of one response from the judge's replies to :func:`judge_requests`.

    Returns:
        ``{"score", "llm_judge_score", "item_scores", "outside_scale"}`` (``outside_scale``: the replies whose score
        lies outside the rubric's scale [0, 1], added as the official code adds them) and, for event ordering,
        ``precision``, ``recall``, ``f1``,
        ``tau_norm`` and ``final_score`` (:func:`event_ordering_score`); ``score`` is what the official table
        averages: ``tau_norm`` for event ordering, else ``llm_judge_score``.

    Raises:
        SourceFormatError: a reply missing, one the official code cannot read (not JSON, no ``score``, a score
            ``int``/``float`` refuses), or a score that is a boolean or not a finite number (:mod:`._beam_replies`),
            naming ``file`` and the request id.
        ConfigurationError: an empty rubric (the official code divides by zero), an unknown variant.
    """
    ability, _question, rubric = _fields(qa)
    if not rubric:
        raise ConfigurationError(f"{item_id}: the rubric is empty (the official scorer divides by its length)")
    integer = check_variant(variant) == "official" and ability != "event_ordering"

    def reply(request_id: str) -> str:
        if request_id not in replies:
            raise SourceFormatError(file, request_id, "no reply to this judge request")
        return replies[request_id]

    scores, outside = [], 0
    for k in range(len(rubric)):
        request_id = _rubric_id(item_id, k, variant)
        text = reply(request_id)
        try:
            score, off = item_score(parse_reply(text), integer)
        except RefusedScore as e:
            raise SourceFormatError(file, request_id, f"{e}") from None
        except (ValueError, TypeError) as e:
            raise SourceFormatError(
                file, request_id, f"the official scorer cannot read this reply ({type(e).__name__}: {e})"
            ) from None
        scores.append(score)
        outside += off
    out = {"llm_judge_score": sum(scores) / len(rubric), "item_scores": scores, "outside_scale": outside}
    if ability != "event_ordering":
        return {"score": out["llm_judge_score"], **out}
    lines = hypothesis.split("\n")
    order = event_ordering_score(rubric, lines, lambda i, j: same_event(reply(_pair_id(item_id, i, j))))
    return {"score": order["tau_norm"], **out, **order}
