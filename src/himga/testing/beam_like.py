"""Deterministic chats in BEAM's raw layout, at any scale, written as a stream.

The 1M and 10M tiers of BEAM are not in the authors' repository and cannot be vendored, so the scale tests and
``benchmarks/`` use chats written here, in the repository's layout (``chats/<tier>/<n>/chat.json`` and
``probing_questions/probing_questions.json``) and with its quirks (measured on the 100K and 500K files):

* ``chat.json`` a list of batches ``{"batch_number", "turns", "time_anchor": null}``; with ``plans`` > 1 (the
  10M layout) a list of plans ``{"plan-N": [batches]}`` whose batch numbers restart and whose message ids run on;
* turn groups of a user question (``question_type`` ``main_question``, ``index`` ``"<batch>,<n>"``), the
  assistant's answer and, in some groups, a follow-up pair (``followup_question`` or ``answer_ai_question``);
* the batch's date as the ``time_anchor`` of its first message (``"March-15-2024"``);
* a probe marker `` ->-> <batch>,<n>`` at the end of each main question (its ``index``), of some follow-ups
  (``->-> 3,N/A``), and of a few assistant answers;
* text with characters JSON escapes, code blocks, non-ASCII in 3% of messages (as the real ones); message ids from 0
  in file order;
* ten abilities of two questions each, their reference answers under the five key names, a rubric, and
  ``source_chat_ids`` as a list, a nested list, a dict of lists, or absent (abstention).

The output depends only on the arguments (``random.Random`` with string seeds). Defaults give one chat of the 10M
scale (the real 10M chats average 20,870 messages; a 1M chat is ~3.6 MB): 10 plans of 10 batches, 7,800 turn groups,
20,296 messages, 37,631,447 bytes (sha256 f481d7cf…9253), in a few seconds; memory stays bounded by one turn group:
each is generated, written and dropped.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GeneratedChat", "main", "write_beam_like"]

_WORDS = (
    "budget",
    "tracker",
    "deadline",
    "sprint",
    "deploy",
    "cache",
    "schema",
    "mentor",
    "garden",
    "recipe",
    "training",
    "interview",
    "budgeting",
    "naive",
    "plan",
    "review",
    "meeting",
    "schedule",
    "goal",
    "progress",
)
#: Rarer: non-ASCII text (3% of the real messages: accents, CJK; one in 43,790 outside the BMP).
_RARE = ("café", "naïve", "résumé", "北京", "🙂")
_ABILITIES = (
    ("abstention", "ideal_response"),
    ("contradiction_resolution", "ideal_answer"),
    ("event_ordering", "answer"),
    ("information_extraction", "answer"),
    ("instruction_following", "expected_compliance"),
    ("knowledge_update", "answer"),
    ("multi_session_reasoning", "answer"),
    ("preference_following", "expected_compliance"),
    ("summarization", "ideal_summary"),
    ("temporal_reasoning", "answer"),
)


@dataclass(frozen=True)
class GeneratedChat:
    """What :func:`write_beam_like` wrote for one chat.

    Attributes:
        folder: The chat's folder (``<root>/chats/<tier>/<n>``).
        batches: Batches (sessions) written, over all plans.
        messages: Messages written; ``markers`` of them end in a probe marker.
        questions: Probing questions written (20).
        num_bytes: The size of its ``chat.json``.
    """

    folder: Path
    batches: int
    messages: int
    markers: int
    questions: int
    num_bytes: int


def _text(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    if rng.random() < 0.03:
        text += " " + rng.choice(_RARE)
    if rng.random() < 0.2:
        text += '\n```python\nprint("a \\\\ b", {"x": 1})\n```\n\tdone'
    return text


def _messages(
    rng: random.Random, batch: int, anchor: str, first_id: int, groups: int, words: int
) -> Iterator[list[dict]]:
    """The turn groups of one batch; ids from ``first_id``."""
    next_id = first_id
    for n in range(1, groups + 1):
        index = f"{batch},{n}"
        user = {"role": "user", "id": next_id}
        if n == 1:
            user["time_anchor"] = anchor
        user.update({"index": index, "question_type": "main_question", "content": f"{_text(rng, words)} ->-> {index}"})
        answer = _text(rng, words * 3) + (f" ->-> {batch},{n}" if rng.random() < 0.01 else "")
        group = [user, {"role": "assistant", "id": next_id + 1, "content": answer}]
        if rng.random() < 0.3:
            kind = rng.choice(("followup_question", "answer_ai_question"))
            marker = f" ->-> {batch},N/A" if rng.random() < 0.5 else ""
            group += [
                {"role": "user", "id": next_id + 2, "question_type": kind, "content": _text(rng, words) + marker},
                {"role": "assistant", "id": next_id + 3, "content": _text(rng, words * 2)},
            ]
        next_id += len(group)
        yield group


def _questions(rng: random.Random, last_id: int) -> dict:
    """Ten abilities of two questions each, citing ids up to ``last_id`` in the layouts the real files use."""
    out = {}
    for ability, reference in _ABILITIES:
        items = []
        for i in range(2):
            ids = sorted(rng.sample(range(0, last_id + 1, 2), 3))
            q = {
                "question": f"{ability} {i}: {_text(rng, 6)}?",
                reference: f"About {rng.randint(2, 12)} weeks, {_text(rng, 5)}.",
                "difficulty": rng.choice(("easy", "medium", "hard")),
                "rubric": [
                    f"LLM response should state: {rng.randint(2, 12)} weeks",
                    f"LLM response should mention: {_text(rng, 3)}",
                ],
            }
            if ability in ("contradiction_resolution", "knowledge_update", "temporal_reasoning"):
                q["source_chat_ids"] = {"first_statement": ids[:1], "second_statement": ids[1:]}
            elif ability == "event_ordering":
                q["source_chat_ids"] = [ids[0], ids[1:]]
            elif ability != "abstention":
                q["source_chat_ids"] = ids
            items.append(q)
        out[ability] = items
    return out


def _write_chat(folder: Path, rng: random.Random, plans: int, batches: int, groups: int, words: int) -> GeneratedChat:
    folder.mkdir(parents=True, exist_ok=True)
    start = dt.date(2024, 1, 5)
    next_id = written = markers = count = 0
    part = folder / "chat.json.part"
    with open(part, "w", encoding="utf-8") as f:
        f.write("[")
        for p in range(plans):
            if plans > 1:
                f.write(("," if p else "") + json.dumps(f"plan-{p + 1}").join(("{", ":[")))
            for b in range(1, batches + 1):
                anchor = (start + dt.timedelta(days=7 * (p * batches + b))).strftime("%B-%d-%Y")
                f.write(("," if b > 1 or (p and plans == 1) else "") + '{"batch_number":' + str(b) + ',"turns":[')
                for g, group in enumerate(_messages(rng, b, anchor, next_id, groups, words)):
                    f.write(("," if g else "") + json.dumps(group, ensure_ascii=False))
                    next_id += len(group)
                    written += len(group)
                    markers += sum("->->" in m["content"] for m in group)
                f.write('],"time_anchor":null}')
                count += 1
            if plans > 1:
                f.write("]}")
        f.write("]")
    part.replace(folder / "chat.json")
    (folder / "probing_questions").mkdir(exist_ok=True)
    (folder / "probing_questions" / "probing_questions.json").write_text(
        json.dumps(_questions(rng, next_id - 1), ensure_ascii=False, indent=4), encoding="utf-8"
    )
    return GeneratedChat(folder, count, written, markers, 20, (folder / "chat.json").stat().st_size)


def write_beam_like(
    root: str | Path,
    tier: str = "10M",
    *,
    chats: int = 1,
    plans: int = 10,
    batches: int = 10,
    groups: int = 78,
    words: int = 125,
    seed: int = 0,
) -> list[GeneratedChat]:
    """Write ``chats`` chats of tier ``tier`` under ``root/chats/<tier>/`` in BEAM's layout.

    Args:
        root: The copy's root (a build reads it with ``data_dir=root, config=tier``).
        tier: The tier folder's name (``"1M"``, ``"10M"``, ...).
        chats: How many chats (folders ``1``, ``2``, ...).
        plans: Plans per chat: 1 writes a list of batches (100K-1M layout), more the 10M layout of plans.
        batches: Batches per plan.
        groups: Turn groups per batch.
        words: Words of a user message (answers are about three times longer).
        seed: The random seed.

    Returns:
        One :class:`GeneratedChat` per chat, in order.
    """
    return [
        _write_chat(
            Path(root) / "chats" / tier / str(n),
            random.Random(f"beam-like:{seed}:{tier}:{n}"),
            plans,
            batches,
            groups,
            words,
        )
        for n in range(1, chats + 1)
    ]


def main(argv: list[str] | None = None) -> int:
    """``python -m himga.testing beam-like ROOT [--tier 10M] [--chats 1] [--plans 10] ...``: write BEAM-like chats."""
    ap = argparse.ArgumentParser(prog="python -m himga.testing beam-like", description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--tier", default="10M")
    for name, default in (("chats", 1), ("plans", 10), ("batches", 10), ("groups", 78), ("words", 125), ("seed", 0)):
        ap.add_argument(f"--{name}", type=int, default=default)
    args = ap.parse_args(argv)
    for chat in write_beam_like(
        args.root,
        args.tier,
        chats=args.chats,
        plans=args.plans,
        batches=args.batches,
        groups=args.groups,
        words=args.words,
        seed=args.seed,
    ):
        print(f"{chat.folder}: {chat.batches} batches, {chat.messages:,} messages, {chat.num_bytes:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
