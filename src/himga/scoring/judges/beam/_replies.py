"""Reading BEAM judge replies as the official code reads them, and the score of one rubric item.

Source: mohammadtavakoli78/BEAM at commit ``b2a3ee8ba12d68f83143dda191097dc3e028ddd3``,
``src/evaluation/compute_metrics.py``: ``parse_json_response`` and, in every ``evaluate_<ability>``, ``response =
parse_json_response(response)`` (``json.loads(repair_json(response))`` when it raises), then ``score +=
int(response['score'])`` (``float`` in ``evaluate_event_ordering``) and ``score / len(rubric)``.

What the official code does with a score off the rubric's scale (``1.0``, ``0.5``, ``0.0``):

* a finite number outside ``[0, 1]`` (``7``, ``-1``, ``"7"``): it adds ``int(7)``/``float(7)`` and goes on; himga
  does the same and counts those replies (:func:`item_score`), so the table can say so;
* ``inf``/``nan`` (``1e400`` parses as ``inf``) or an integer beyond a double: ``int(inf)`` raises
  ``OverflowError``, ``int(nan)`` ``ValueError`` and the final division ``OverflowError`` (``float`` accepts ``inf`` in
  event ordering and the fixed variant, and the mean becomes ``inf``): a himga error, in every variant;
* JSON ``true``/``false``: ``int(True)`` is ``1`` in Python; not a score on any scale the prompt asks for, and a
  reply that says ``true`` answers another question (compliant or not) than the score asked: a himga error.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping

from himga.errors import MissingDependencyError, type_name

__all__ = ["RefusedScore", "item_score", "parse_reply"]


def _parse_json_response(response: str):
    """``parse_json_response``'s rule: a fenced block's JSON, the whole text, else the first ``{...}``/``[...]``.

    Raises:
        ValueError: none of them parses (``json.JSONDecodeError`` is one).
    """
    response = response.strip()
    if response.startswith("```") and (
        fenced := re.search(r"```(?:json)?\s*(\[.*\]|\{.*\})\s*```", response, re.DOTALL)
    ):
        response = fenced.group(1).strip()
    try:
        return json.loads(response)
    except json.JSONDecodeError:
        pass
    if first := re.search(r"(\{.*?\}|\[.*?\])", response, re.DOTALL):
        return json.loads(first.group(1))
    raise ValueError("No valid JSON found in response.")


def parse_reply(reply: str):
    """A judge reply as the official code reads it: ``parse_json_response(reply.strip())``, and when that raises,
    ``json.loads(json_repair.repair_json(reply.strip()))``.

    Raises:
        ValueError: the repaired text is no JSON either (the official code stops there too).
        MissingDependencyError: ``json_repair`` is needed (the reply is not JSON) but not installed.
    """
    response = reply.strip()
    try:
        return _parse_json_response(response)
    except Exception:
        try:
            from json_repair import repair_json
        except ImportError:
            raise MissingDependencyError(
                "reading a BEAM judge reply that is not JSON needs json_repair: pip install 'himga[scoring]'"
            ) from None
        return json.loads(repair_json(response))


class RefusedScore(ValueError):
    """A score himga refuses though the official code might add it (a boolean, ``inf`` in ``float``)."""


def item_score(value, integer: bool) -> tuple[int | float, bool]:
    """The score of one parsed reply, ``int(value["score"])`` (``integer``) else ``float(value["score"])``, and whether
    the reply's score lies outside the rubric's scale ``[0, 1]`` (the prompt asks for 1.0, 0.5 or 0.0).

    Raises:
        RefusedScore: a boolean score, or one that is not a finite number (``inf``, ``nan``, an integer beyond a
            double).
        ValueError: not an object with a ``score``; a score ``int``/``float`` refuses (``"high"``).
        TypeError: a score ``int``/``float`` cannot take (``null``, an array).
    """
    if not isinstance(value, Mapping) or "score" not in value:
        raise ValueError(f"expected a JSON object with a 'score', got {type_name(value)}")
    raw = value["score"]
    if isinstance(raw, bool):
        raise RefusedScore(
            f"the score is {str(raw).lower()}, a boolean, not a number on the rubric's scale (1.0, 0.5 or 0.0)"
        )
    if isinstance(raw, int) and raw.bit_length() > _DOUBLE_BITS:
        raise RefusedScore(f"the score is an integer of {raw.bit_length():,} bits, not a finite number in a double")
    if isinstance(raw, float) and not math.isfinite(raw):
        raise RefusedScore(
            f"the score {raw!r} is not a finite number" + (" (1e400 and larger parse as inf)" if raw > 0 else "")
        )
    score = int(raw) if integer else float(raw)  # "high": ValueError, null: TypeError, as the official code raises
    if not math.isfinite(score):  # float("1e400"), float("nan")
        raise RefusedScore(f"the score {str(raw)[:40]!r} is not a finite number")
    return score, not 0 <= (float(raw) if isinstance(raw, str) else raw) <= 1


#: A double's largest exponent: an integer of more bits is no finite double (the mean of the items overflows).
_DOUBLE_BITS = 1024
