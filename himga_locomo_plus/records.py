"""One LoCoMo-Plus cognitive item → one Sample row: its LoCoMo conversation with the cue and the trigger stitched in.

The rules of the authors' ``data/build_conv.py`` (``parse_time_gap``, ``parse_ab_dialogue``, ``map_speaker``,
``analyze_conversation``, ``compute_insertion``, ``build_context``), as ``data/unified_input.py`` uses them
(xjtuleeyf/Locomo-Plus@059f4e3d38f7f1f96765e8e2cb7de3097551bffb); the conversation of item ``i`` is LoCoMo's
``i % 10`` there (:func:`placements`). The stitched order equals ``build_context``'s ``dialogue`` for all 401 items
(``tests/fixtures/locomo_plus/official-stitched.json``, made by running it).

Row (one per item, ``sample_id`` ``cognitive-<i>``, ``i`` the item's index in ``locomo_plus.json``):

- ``sessions``: the conversation's sessions (the LoCoMo row's own, the same messages) and two inserted ones,
  ``cue`` (the cue dialogue) and ``query`` (the trigger), in time order as ``build_context`` sorts them (a stable
  sort: an inserted session follows a session of the same time); ``cue``/``query`` are dated at the official times
  in the style of the conversation's own dates (``"9:55 am on 15 October, 2023"``, :func:`locomo_session_date`: a date
  in another style would single out the gold session to any system that reads dates; the official model input has
  no dates, ``unified_input.py``'s ``_stitch_dialogue_for_plus`` writing each turn as ``Speaker said, "..."``; its
  ``"%Y-%m-%d %H:%M"`` strings stay in ``raw``); their turns are ``cue:1``, ``cue:2``, ``query:1``,
  the speaker ``A`` mapped to ``speaker_a`` and any other to ``speaker_b``, the source label kept in ``raw.speaker``
  (a dialogue without an ``A:``/``B:`` line adds no session, as it adds no turn officially);
- one QA pair: ``question`` the ``trigger_query`` as written (the official ``trigger``), ``answer`` ``""`` (there is
  no reference answer: the judge compares the response with the cue), ``question_type`` ``cognitive``, evidence the
  cue's turn ids, ``raw`` the item itself;
- ``raw``: ``locomo_sample_id``, ``placement`` (and ``seed``), ``cue_session_idx`` (the official index of the last
  session at or before the cue, ``None`` when the cue precedes them all), ``cue_time``, ``query_time`` (as
  ``build_context`` writes them, ``"2023-10-15 09:55"``),
  ``time_gap_days`` (``parse_time_gap``: 0 when the gap names no number of weeks, months or years).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Sequence
from typing import Any

from himga.errors import ConfigurationError, SourceFormatError, type_name
from himga.jsonio.rawcell import raw_text
from himga.schema.dates import FORMATS
from himga_locomo.qa_records import require

__all__ = [
    "KEYS",
    "cognitive_row",
    "compute_insertion",
    "locomo_session_date",
    "map_speaker",
    "parse_ab_dialogue",
    "parse_time_gap",
    "placements",
]

#: The keys of a cognitive item that the row reads (the others stay in the QA pair's ``raw`` only).
KEYS = ("cue_dialogue", "trigger_query", "time_gap")

_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_GAP = re.compile(
    r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an)\b\s*(week|weeks|month|months|year|years)\b"
)
_SESSION_TIME = dict(FORMATS)["locomo_session"]  # build_conv.parse_locomo_session_time's format
_OUT_TIME = "%Y-%m-%d %H:%M"  # build_context's cue_time / query_time
_QUERY_DAYS = 7  # the trigger comes a week after the last session


def parse_time_gap(time_gap: str) -> int:
    """``parse_time_gap``: the days a gap names, ``<n> week(s)|month(s)|year(s)`` with ``n`` a number, a number word up
    to
    twelve, ``a`` or ``an`` (7, 30, 365 days each); 0 when none is named (``"several months later"``)."""
    m = _GAP.search(time_gap.lower().strip())
    if not m:
        return 0
    num, unit = m.groups()
    count = int(num) if num.isdigit() else 1 if num in ("a", "an") else _NUMBER_WORDS.get(num, 0)
    return count * (7 if unit.startswith("week") else 30 if unit.startswith("month") else 365)


def parse_ab_dialogue(text: str) -> list[dict[str, str]]:
    """``parse_ab_dialogue``: each line starting ``A:`` or ``B:`` (after stripping) as ``{"speaker", "text"}``, the
    text stripped; other lines are dropped."""
    turns = []
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith(("A:", "B:")):
            turns.append({"speaker": line[0], "text": line[2:].strip()})
    return turns


def map_speaker(turns: list[dict[str, str]], speaker_a: str, speaker_b: str) -> list[dict[str, str]]:
    """``map_speaker``: ``A`` → ``speaker_a``, any other label → ``speaker_b``."""
    return [{**t, "speaker": speaker_a if t["speaker"] == "A" else speaker_b} for t in turns]


def compute_insertion(
    session_times: Sequence[dt.datetime], time_gap: str
) -> tuple[int | None, dt.datetime, dt.datetime]:
    """``compute_insertion``: ``(cue_session_idx, cue_time, query_time)``; the trigger a week after the last session,
    the cue :func:`parse_time_gap` days before it, ``cue_session_idx`` the last session (in order, up to the first
    later one) at or before the cue."""
    query_time = session_times[-1] + dt.timedelta(days=_QUERY_DAYS)
    cue_time = query_time - dt.timedelta(days=parse_time_gap(time_gap))
    cue_idx = None
    for i, t in enumerate(session_times):
        if t > cue_time:
            break
        cue_idx = i
    return cue_idx, cue_time, query_time


def placements(conversations: int, items: int, placement: str, seed: int | None) -> list[int]:
    """The conversation index of each item: ``"official"`` is ``unified_input.py``'s ``i % conversations``;
    ``"random"`` is ``build_conv.py``'s ``main`` (``random.choice`` per item) drawn from ``random.Random(seed)``,
    which gives what ``main`` gives after ``random.seed(seed)``.

    Raises:
        ConfigurationError: no conversations; an unknown placement; ``random`` without a seed.
    """
    if conversations == 0:
        raise ConfigurationError("locomo_plus: no LoCoMo conversation to place the cognitive items in")
    if placement == "official":
        return [i % conversations for i in range(items)]
    if placement != "random" or seed is None:
        raise ConfigurationError(
            f"placement: expected 'official', or 'random' with a seed, got {placement!r} (seed {seed!r})"
        )
    rng = random.Random(seed)
    indices = range(conversations)
    return [rng.choice(indices) for _ in range(items)]


def _session_times(conversation: dict, file: str, path: str) -> list[tuple[str, dt.datetime]]:
    """``analyze_conversation``: ``(session id, time)`` of ``session_1``, ``session_2``, ... up to the first missing
    one."""
    out, n = [], 1
    while f"session_{n}" in conversation:
        key = f"session_{n}_date_time"
        value = conversation.get(key)
        try:
            out.append((str(n), dt.datetime.strptime(value, _SESSION_TIME)))
        except (TypeError, ValueError):
            raise SourceFormatError(
                file, f"{path}.{key}", f"expected a session date like '1:56 pm on 8 May, 2023', got {value!r}"
            ) from None
        n += 1
    if not out:
        raise SourceFormatError(file, path, "the conversation has no session_1 to place a cognitive item after")
    return out


_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def locomo_session_date(when: dt.datetime) -> str:
    """``when`` written as LoCoMo writes a session's date: ``"9:55 am on 15 October, 2023"`` (the hour and the day
    without a leading zero, ``am``/``pm`` in lower case, English month names whatever the locale); it reads back with
    LoCoMo's own format (:data:`himga.schema.dates.FORMATS` ``locomo_session``) to ``when`` to the minute."""
    return (
        f"{when.hour % 12 or 12}:{when.minute:02d} {'am' if when.hour < 12 else 'pm'} on {when.day} "
        f"{_MONTHS[when.month - 1]}, {when.year}"
    )


def _inserted(
    session_id: str, turns: list[dict[str, str]], labels: list[dict[str, str]], when: dt.datetime
) -> dict[str, Any]:
    messages = [
        {
            "role": t["speaker"],
            "content": t["text"],
            "turn_id": f"{session_id}:{k}",
            "date_str": None,
            "raw": raw_text({"speaker": label["speaker"]}),
        }
        for k, (t, label) in enumerate(zip(turns, labels, strict=True), 1)
    ]
    return {"session_id": session_id, "messages": messages, "date_str": locomo_session_date(when), "title": None}


def cognitive_row(
    item: Any,
    index: int,
    record: dict,
    row: dict[str, Any],
    *,
    file: str,
    path: str,
    record_file: str,
    record_path: str,
    placement: str,
    seed: int | None,
    dataset: str,
) -> dict[str, Any]:
    """The row of cognitive item ``item`` (``$[index]`` at ``path`` of ``file``) stitched into a LoCoMo conversation.

    Args:
        item: The item (``cue_dialogue``, ``trigger_query``, ``time_gap``, ...).
        index: Its index among the items (its ``sample_id`` is ``cognitive-<index>``).
        record: The LoCoMo sample record the item is placed in (its ``conversation`` gives the session times).
        row: That record's row (:func:`himga_locomo.records.record_to_row`): its sessions are the stitched sessions'.
        file, path: Where the item is, for errors. record_file, record_path: Where the record is, for errors. placement,
        seed: How the conversation was chosen, recorded in ``raw``.
        dataset: The rows' ``dataset`` value.

    Raises:
        SourceFormatError: the item is no object, a key is missing or no string; the conversation has no dated
            ``session_1`` (the official code reads ``session_1``, ``session_2``, ... and their dates).
    """
    if not isinstance(item, dict):
        raise SourceFormatError(file, path, f"expected a cognitive item object, got {type_name(item)}")
    cue_text, trigger, gap = (require(item, key, str, file, path) for key in KEYS)
    conversation = record.get("conversation", record)  # the first release's flat layout holds the sessions itself
    times = _session_times(
        conversation, record_file, f"{record_path}.conversation" if "conversation" in record else record_path
    )
    cue_idx, cue_time, query_time = compute_insertion([t for _, t in times], gap)
    speakers = (row["speaker_a"], row["speaker_b"])
    cue_labels, query_labels = parse_ab_dialogue(cue_text), parse_ab_dialogue(trigger)
    cue = _inserted("cue", map_speaker(cue_labels, *speakers), cue_labels, cue_time)
    query = _inserted("query", map_speaker(query_labels, *speakers), query_labels, query_time)
    by_id = {s["session_id"]: s for s in row["sessions"]}  # a session_N without turns has no row: it adds no turn
    inserted = [(when, session) for when, session in ((cue_time, cue), (query_time, query)) if session["messages"]]
    events = [
        (t, by_id[sid]) for sid, t in times if sid in by_id
    ] + inserted  # a dialogue without A:/B: lines adds nothing
    events.sort(key=lambda event: event[0])  # stable, as build_context's events.sort
    raw = {
        "locomo_sample_id": row["sample_id"],
        "placement": placement,
        **({"seed": seed} if placement == "random" else {}),
        "cue_session_idx": cue_idx,
        "cue_time": cue_time.strftime(_OUT_TIME),
        "query_time": query_time.strftime(_OUT_TIME),
        "time_gap_days": parse_time_gap(gap),
    }
    qa = {
        "question_id": "0",
        "question": trigger,
        "answer": "",
        "question_type": "cognitive",
        "evidence": {"turn_ids": [m["turn_id"] for m in cue["messages"]], "session_ids": []},
        "raw": raw_text(item),
        "position": None,
        "options": [],
    }
    return {
        "sample_id": f"cognitive-{index}",
        "dataset": dataset,
        "sessions": [session for _, session in events],
        "qa_pairs": [qa],
        "speaker_a": speakers[0],
        "speaker_b": speakers[1],
        "raw": raw_text(raw),
    }
