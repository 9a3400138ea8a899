"""REALTALK source records → Sample rows: LoCoMo's layout with other field names, read by LoCoMo's own functions.

A REALTALK file (``data/Chat_<n>_<A>_<B>.json`` of danny911kr/REALTALK) is one conversation in the flat layout of
LoCoMo's first release (:func:`himga_locomo.records.split_flat`): ``session_N`` lists and ``session_N_date_time``,
``events_session_N`` (``raw.event_summary``, keyed by session id), ``qa``; the speakers are ``name.speaker_1`` and
``name.speaker_2`` (``speaker_a``, ``speaker_b``). Its messages are LoCoMo's turns with ``clean_text`` for ``text`` and
a date of their own, ``date_time`` (``"29.12.2023, 22:42:04"``, ``Message.date_str``); ``img_file``, ``img_url`` and
``blip_caption`` stay in ``Message.raw``, the caption inline as for LoCoMo. QA pairs are LoCoMo's
(:func:`himga_locomo.qa_records.qa_pair`: categories 1 multi_hop, 2 temporal, 3 open_domain, the category-3 gold cut
at its first ``;``), with evidence normalized by :func:`normalize_evidence` and ``evidence.session_ids`` the sessions
holding those turns (an id naming no turn names no session: the ``D`` of REALTALK's ids counts days, not sessions).

``Sample.raw`` keys: ``event_summary`` (and ``summary_extra``) as LoCoMo's; ``conversation_extra``: ``session_*`` keys
that are no session; ``record_extra``: unknown top-level keys; ``name_extra``: keys of ``name`` besides the two
speakers; ``file``: the source file's name.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from himga.errors import SourceFormatError
from himga.jsonio.rawcell import raw_text
from himga_locomo.qa_records import checked_id, expect, require
from himga_locomo.records import normalize_evidence as locomo_normalize
from himga_locomo.records import per_session_summaries, qa_pair, session_rows, split_flat, turn_message

__all__ = ["OPTIONS", "normalize_evidence", "record_to_row", "repair_evidence"]

#: LoCoMo's record options, at their defaults: the authors' categories, the scorer's category-3 cut.
OPTIONS = {"category_order": "authors", "adversarial_answer": "abstain", "category3_answer": "scorer"}

#: A REALTALK turn: LoCoMo's, with its text in ``clean_text`` and its own date in ``date_time``.
realtalk_message = functools.partial(turn_message, text_key="clean_text", date_key="date_time")

_SPACED_D = re.compile(r"\bD\s+(?=[0-9]+:[0-9])")
_TRAILING_DOT = re.compile(r"(?<=[0-9])\.(?=[\s;,]|$)")
_RANGE = re.compile(r"D([0-9]+):([0-9]+)-D\1:([0-9]+)")
_LONGEST_RANGE = 200  # turns; a longer range is left as written (and so dropped)


def _expand(m: re.Match) -> str:
    first, last = int(m[2]), int(m[3])
    if not first <= last < first + _LONGEST_RANGE:
        return m[0]
    return " ".join(f"D{m[1]}:{k}" for k in range(first, last + 1))


def repair_evidence(item: str) -> str:
    """REALTALK's repairs of one evidence string, before LoCoMo's rule: ``"D 2:18"`` → ``"D2:18"``; a period after an
    id dropped (``"D20:17."``, ``"D13:4. D14:4"``); a range of one day ``"D12:3-D12:5"`` → ``"D12:3 D12:4 D12:5"`` (up
    to
    200 turns). Anything else is left as written."""
    return _RANGE.sub(_expand, _TRAILING_DOT.sub("", _SPACED_D.sub("D", item)))


def normalize_evidence(evidence: list[str]) -> list[str]:
    """REALTALK evidence strings → turn ids: :func:`repair_evidence`, then LoCoMo's
    :func:`~himga_locomo.qa_records.normalize_evidence` (split on ``;``, ``,`` and whitespace, ``D:11:26`` → ``D11:26``,
    leading zeros dropped, tokens that are no ``D<n>:<m>`` dropped, duplicates removed in order). ``"D17;39"``,
    ``"D58"``, ``"D:56"``, ``"23:29"``, ``"D13:45:D20:19"`` and ``""`` name no id by this rule; ``himga validate``
    lists them."""
    return locomo_normalize([repair_evidence(item) for item in evidence])


def record_to_row(record: Any, *, file: str, path: str, sample_id: str) -> dict[str, Any]:
    """Turn one REALTALK conversation into a row of ``SAMPLE_FEATURES``.

    Args:
        record: The file's object.
        file: The source file's name, for errors (and ``raw.file``).
        path: The record's JSON path (``"$"``).
        sample_id: The sample's id (the file's stem, ``Chat_1_Emi_Elise``).

    Raises:
        SourceFormatError: no object, no ``name`` with ``speaker_1``/``speaker_2``, no ``qa``, a malformed session,
            turn or QA record (LoCoMo's checks, with the record path).
    """
    expect(record, dict, file, path)
    if "name" not in record and "conversation" in record:
        raise SourceFormatError(
            file, path, "missing required key 'name' (this looks like a LoCoMo file: load it as dataset 'locomo')"
        )
    name = require(record, "name", dict, file, path)
    speakers = [require(name, key, str, file, f"{path}.name") for key in ("speaker_1", "speaker_2")]
    conversation, top, aux, unknown = split_flat({k: v for k, v in record.items() if k != "name"})
    raw: dict[str, Any] = {"file": file, **per_session_summaries(aux, dict.fromkeys(aux, path), file)}
    sessions, extra = session_rows(conversation, path, file, message=realtalk_message)
    if extra:
        raw["conversation_extra"] = extra
    if unknown or "sample_id" in top:
        raw["record_extra"] = {**({"sample_id": top["sample_id"]} if "sample_id" in top else {}), **unknown}
    if name_extra := {k: v for k, v in name.items() if k not in ("speaker_1", "speaker_2")}:
        raw["name_extra"] = name_extra
    qa_list = require(top, "qa", list, file, path)
    qa_pairs = [
        qa_pair(qa, i, OPTIONS, file, f"{path}.qa[{i}]", normalize=normalize_evidence) for i, qa in enumerate(qa_list)
    ]
    holder = {m["turn_id"]: s["session_id"] for s in sessions for m in s["messages"]}
    for qa in qa_pairs:  # the sessions holding the evidence turns: REALTALK's D<day>:<n> ids name no session
        qa["evidence"]["session_ids"] = list(
            dict.fromkeys(holder[t] for t in qa["evidence"]["turn_ids"] if t in holder)
        )
    return {
        "sample_id": checked_id(sample_id, file, f"{path} (the file name)"),
        "dataset": "realtalk",
        "sessions": sessions,
        "qa_pairs": qa_pairs,
        "speaker_a": speakers[0],
        "speaker_b": speakers[1],
        "raw": raw_text(raw),
    }
