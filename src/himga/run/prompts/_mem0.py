"""``mem0``: the answer prompt of mem0's LoCoMo evaluation, byte for byte.

Source: mem0ai/mem0 at ``393a4fd5a6cfeb754857a2229726f567a9fadf36`` (the first commit with the ``evaluation/`` code,
the week of the Mem0 paper, arXiv 2504.19413; ``ANSWER_PROMPT`` is byte-identical in every later commit up to the
folder's removal in 9315e303): ``evaluation/prompts.py`` ``ANSWER_PROMPT`` and ``evaluation/src/memzero/search.py``
``MemorySearch.answer_question`` (l.70-100). Licence Apache 2.0. ``tests/fixtures/run/mem0-answer-prompt.json`` holds
the official function's request for one question (made by running it with the memory search stubbed:
``tests/fixtures/run/README.md``); the tests compare it byte for byte.

The request, as ``answer_question`` builds it: ``jinja2.Template(ANSWER_PROMPT).render(...)`` (the template uses no
Jinja statement, so each ``{{name}}`` is replaced once, here by a regular expression), with each speaker's name (the
user id's part before ``_``) and memories, ``json.dumps([f"{timestamp}: {memory}", ...], indent=4)`` (non-ASCII
escaped), and the question verbatim; one ``system`` message; ``temperature=0.0``, nothing else.

Mem0 searches each speaker's memories apart (top 30 each). Here the retrieved items are split by speaker: an item
whose role is the conversation's second speaker goes to the second list, every other item to the first, in retrieval
order; the timestamp is the item's date (LoCoMo's session date, what mem0's ``add.py`` stored). Without speakers
(LongMemEval) the two are the first two roles among the items.
"""

from __future__ import annotations

import json
import re

from himga.run.prompts._prompt import AnswerInput, AnswerPrompt, register_answer_prompt

__all__ = ["ANSWER_PROMPT", "MEM0", "SOURCE"]

SOURCE = {
    "repository": "mem0ai/mem0",
    "path": "evaluation/prompts.py",
    "commit": "393a4fd5a6cfeb754857a2229726f567a9fadf36",
    "symbol": "ANSWER_PROMPT; evaluation/src/memzero/search.py MemorySearch.answer_question",
    "licence": "Apache-2.0",
}

#: ``evaluation/prompts.py`` ``ANSWER_PROMPT``, verbatim (a Jinja template).
ANSWER_PROMPT = """
    You are an intelligent memory assistant tasked with retrieving accurate information from conversation memories.

    # CONTEXT:
    You have access to memories from two speakers in a conversation. These memories contain 
    timestamped information that may be relevant to answering the question.

    # INSTRUCTIONS:
    1. Carefully analyze all provided memories from both speakers
    2. Pay special attention to the timestamps to determine the answer
    3. If the question asks about a specific event or fact, look for direct evidence in the memories
    4. If the memories contain contradictory information, prioritize the most recent memory
    5. If there is a question about time references (like "last year", "two months ago", etc.), 
       calculate the actual date based on the memory timestamp. For example, if a memory from 
       4 May 2022 mentions "went to India last year," then the trip occurred in 2021.
    6. Always convert relative time references to specific dates, months, or years. For example, 
       convert "last year" to "2022" or "two months ago" to "March 2023" based on the memory 
       timestamp. Ignore the reference while answering the question.
    7. Focus only on the content of the memories from both speakers. Do not confuse character 
       names mentioned in memories with the actual users who created those memories.
    8. The answer should be less than 5-6 words.

    # APPROACH (Think step by step):
    1. First, examine all memories that contain information related to the question
    2. Examine the timestamps and content of these memories carefully
    3. Look for explicit mentions of dates, times, locations, or events that answer the question
    4. If the answer requires calculation (e.g., converting relative time references), show your work
    5. Formulate a precise, concise answer based solely on the evidence in the memories
    6. Double-check that your answer directly addresses the question asked
    7. Ensure your final answer is specific and avoids vague time references

    Memories for user {{speaker_1_user_id}}:

    {{speaker_1_memories}}

    Memories for user {{speaker_2_user_id}}:

    {{speaker_2_memories}}

    Question: {{question}}

    Answer:
    """
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def _render(inp: AnswerInput) -> list[dict]:
    names = list(inp.speakers) or list(dict.fromkeys(i.role for i in inp.items if i.role))
    first, second = (names + ["", ""])[:2]
    memories: tuple[list[str], list[str]] = ([], [])
    for item in inp.items:
        memories[1 if second and item.role == second else 0].append(f"{item.date_str}: {item.text}")
    values = {
        "speaker_1_user_id": first.split("_")[0],
        "speaker_2_user_id": second.split("_")[0],
        "speaker_1_memories": json.dumps(memories[0], indent=4),
        "speaker_2_memories": json.dumps(memories[1], indent=4),
        "question": inp.question,
    }
    return [{"role": "system", "content": _PLACEHOLDER.sub(lambda m: values[m[1]], ANSWER_PROMPT)}]


MEM0 = register_answer_prompt(AnswerPrompt(
    name="mem0",
    title="mem0's answer prompt of its LoCoMo evaluation (memories per speaker, timestamped)",
    source=SOURCE,
    templates={"system": ANSWER_PROMPT},
    render=_render,
    parameters={"temperature": 0.0},
    notes=("mem0 searches each speaker's memories apart; here the retrieved items are split by their speaker",),
))  # fmt: skip
