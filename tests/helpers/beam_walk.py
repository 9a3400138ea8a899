# ruff: noqa: UP006, UP035  (the official code's List and Tuple, kept verbatim)
"""The official event-ordering walk, run on canned replies, and a canned BEAM run to run it on.

``llm_equivalence`` and ``align_with_llm`` below are copied verbatim from mohammadtavakoli78/BEAM at commit
``b2a3ee8ba12d68f83143dda191097dc3e028ddd3``, ``src/evaluation/compute_metrics.py`` lines 105-162 (no licence is
stated upstream; the copy is kept to count the requests the official code makes, nothing else). Their ``llm`` is a
stub (:class:`CountingJudge`) that answers as the canned judge does and counts the calls: the official walk's count of
requests on the same replies himga's walk gets. Nothing here imports himga.
"""

from __future__ import annotations

import hashlib
import re
import types
from typing import List, Tuple  # the official code's own imports

__all__ = ["CountingJudge", "align_with_llm", "canned_predictions", "canned_reply", "llm_equivalence"]


# --- verbatim: mohammadtavakoli78/BEAM@b2a3ee8 src/evaluation/compute_metrics.py, lines 105-162 ---------------------
# fmt: off
def llm_equivalence(first_paragraph: str,
                    second_paragraph: str,
                    llm) -> bool:

    system_msg = {
        "role": "system",
        "content": """
            You are a binary classifier.
            If the TWO snippets describe the SAME event/fact, reply **YES**
            Otherwise reply **NO**. No extra words.
            DO NOT provide any exaplanation.
        """
    }
    user_msg = {
        "role": "user",
        "content": f"""First snippet: {first_paragraph} \n
                       Second snippet: {second_paragraph}
                    """
    }

    messages = [system_msg, user_msg]
    response = llm.invoke(messages).content.lower()

    if "yes" in response:
        result = True
    else:
        result = False

    return result


def align_with_llm(reference: List[str],
        system: List[str],
        llm) -> Tuple[List[str], List[str]]:

    used = set()
    system_out = []

    for s in system:
        matched_index = None
        for index, r in enumerate(reference):
            if index in used:
                continue

            if llm_equivalence(first_paragraph=r,
                               second_paragraph=s,
                               llm=llm):

                matched_index = index
                break

        if matched_index is not None:
            system_out.append(reference[matched_index])
            used.add(matched_index)
        else:
            system_out.append(s)

    return reference, system_out
# fmt: on
# --- end of the verbatim copy -----------------------------------------------------------------------------------------


_SNIPPETS = re.compile(r"First snippet: (.*) \n\n {23}Second snippet: (.*)\n {20}$", re.DOTALL)


def canned_reply(messages: list[dict]) -> str:
    """The canned judge: to an equivalence request, ``YES`` when the rubric item (the first snippet) is written in the
    response's line (the second), else ``NO``; to a rubric prompt, a score of 1.0, 0.5 or 0.0 drawn by the prompt's
    sha256."""
    if len(messages) == 2:
        first, second = _SNIPPETS.match(messages[1]["content"]).groups()
        return "YES" if first.lower() in second.lower() else "NO"
    score = ("1.0", "0.5", "0.0")[int(hashlib.sha256(messages[0]["content"].encode()).hexdigest(), 16) % 3]
    return f'{{"score": {score}, "reason": "canned"}}'


class CountingJudge:
    """The official code's ``llm``: ``invoke(messages)`` answers :func:`canned_reply` and counts the calls."""

    def __init__(self) -> None:
        self.calls = 0

    def invoke(self, messages):
        self.calls += 1
        return types.SimpleNamespace(content=canned_reply(messages))


def canned_predictions(questions: list[tuple[str, str, dict]]) -> dict[str, str]:
    """Answers as a chatty model writes them, for ``(question id, ability, raw question record)``: event ordering
    answers the items one a line, in an order rotated by the question's place, between a preamble and an epilogue with
    blank lines, restating the reference answer a clause a line (the longest answers run to a few dozen lines); the
    other abilities the reference answer itself."""
    out = {}
    for n, (qid, ability, record) in enumerate(questions):
        reference = str(record.get("answer") or record.get("ideal_response") or record.get("ideal_summary") or "")
        if ability != "event_ordering":
            out[qid] = reference
            continue
        rubric = record["rubric"]
        k = n % len(rubric)
        items = rubric[k:] + rubric[:k]
        clauses = [c.strip() for c in re.split(r"[,;:]\s+|\d\)\s*", reference) if c.strip()]
        lines = ["Here is the order in which you brought these up:", ""]
        lines += [f"{i}. {item}" for i, item in enumerate(items, 1)]
        lines += ["", "In more detail:", ""] + [f"- {c}" for c in clauses] * (1 + n % 3) + ["", "Let me know!"]
        out[qid] = "\n".join(lines)
    return out
