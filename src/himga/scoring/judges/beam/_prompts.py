"""BEAM's official judge, as data: the template byte for byte, its source, the label rule, the model, two variants.

Source: mohammadtavakoli78/BEAM at commit ``b2a3ee8ba12d68f83143dda191097dc3e028ddd3``: ``src/prompts.py``
(``unified_llm_judge_base_prompt``), ``src/evaluation/compute_metrics.py`` (``evaluate_<ability>``,
``llm_equivalence``, ``align_with_llm``, ``event_ordering_score``, ``parse_json_response``), ``src/llm.py``
(``gpt_llm_obj``: ``gpt-4.1-mini``, temperature 0, through ``langchain_openai.ChatOpenAI``) and
``src/evaluation/report_results.py`` (the table: the mean of ``llm_judge_score`` per ability, of ``tau_norm`` for
event ordering). No licence is stated in that repository. The texts below are copied from it verbatim;
``tests/fixtures/scoring/official-beam-*.json`` hold what the official functions render and return (run with their
model call fed recorded replies), and the tests compare with them byte for byte and to the last digit.

How the official code judges one response (:func:`judge_requests` writes the requests,
:func:`~himga.scoring.judges.beam._score.score_replies` reads the replies):

* every ability: one request per rubric item, the template with ``<rubric_item>`` and ``<llm_response>`` replaced
  (in that order, by ``str.replace``); the reply is parsed as ``parse_json_response`` parses it (a fenced block,
  the whole text, then the first ``{...}`` or ``[...]``), falling back to ``json_repair``; the item scores
  ``response["score"]`` are averaged;
* event ordering also aligns the response's lines (``llm_response.split("\n")``) with the rubric items: for each
  line, the first unused item the judge calls the same event (``"yes" in reply.lower()``), then precision, recall
  and F1 of the aligned items and Kendall's tau-b (``scipy.stats.kendalltau``) of their ranks, normalised to
  ``(tau + 1) / 2``; that ``tau_norm`` is the ability's score in the official table. The official code asks the
  judge pair after pair and stops at the first match (``align_with_llm``); himga writes a request for every (line,
  item) pair, each marked with its place in that walk (``walk``), ``himga judge`` asks only the pairs the walk
  reaches (the replies of one pair decide the next, :func:`~._order.first_match_walk`), and the score replays the
  same walk over the replies, so a judge at temperature 0 gives the same alignment for the same requests. (It also
  asks the judge to break the response into facts and discards the reply: himga does not send that request.)

Two quirks of the official code are the default (``"official"``: published BEAM numbers come from it) and fixed in
the named variant ``"fixed"``: ``<question>`` is never replaced, so the judge reads the literal text
``<question>`` where the question should be; and every ability but event ordering adds ``int(response["score"])``,
so a partial 0.5 counts 0 (event ordering adds ``float``). ``"fixed"`` replaces ``<question>`` (in one pass with
the other two placeholders) and adds ``float(score)`` for every ability.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Literal, get_args

from himga.errors import ConfigurationError, type_name
from himga.scoring.judges.beam._order import MATCH, event_ordering_score
from himga.scoring.judges.beam._replies import parse_reply

__all__ = [
    "EQUIVALENCE_SYSTEM",
    "JUDGE",
    "SOURCE",
    "TEMPLATE",
    "TEMPLATE_SHA256",
    "VARIANTS",
    "JudgeVariant",
    "event_ordering_score",
    "judge_prompt",
    "judge_requests",
    "parse_reply",
    "request_question",
]

SOURCE = {
    "repository": "mohammadtavakoli78/BEAM",
    "commit": "b2a3ee8ba12d68f83143dda191097dc3e028ddd3",
    "path": "src/evaluation/compute_metrics.py",
    "prompt": "src/prompts.py: unified_llm_judge_base_prompt",
    "model": "src/llm.py: gpt_llm_obj",
    "table": "src/evaluation/report_results.py",
    "licence": None,
}

#: The request parameters of ``src/llm.py``'s judge (``ChatOpenAI(model="gpt-4.1-mini", temperature=0)``).
JUDGE = {"model": "gpt-4.1-mini", "temperature": 0}

#: ``unified_llm_judge_base_prompt`` of ``src/prompts.py``, verbatim (no licence is stated upstream).
TEMPLATE = """
You are an expert evaluator tasked with judging whether the LLM's response demonstrates compliance with the specified RUBRIC CRITERION.

## EVALUATION INPUTS
- QUESTION (what the user asked): <question>
- RUBRIC CRITERION (what to check): <rubric_item>
- RESPONSE TO EVALUATE: <llm_response>

## EVALUATION RUBRIC:
The rubric defines a specific requirement, constraint, or expected behavior that the LLM response should demonstrate. 

**IMPORTANT**: Pay careful attention to whether the rubric specifies:
- **Positive requirements** (things the response SHOULD include/do)
- **Negative constraints** (things the response SHOULD NOT include/do, often indicated by "no", "not", "avoid", "absent")

## RESPONSIVENESS REQUIREMENT (anchored to the QUESTION)
A compliant response must be **on-topic with respect to the QUESTION** and attempt to answer it.
- If the response does not address the QUESTION, score **0.0** and stop.
- For negative constraints, both must hold: (a) the response is responsive to the QUESTION, and (b) the prohibited element is absent.

## SEMANTIC TOLERANCE RULES:
Judge by meaning, not exact wording.
- Accept **paraphrases** and **synonyms** that preserve intent.
- **Case/punctuation/whitespace** differences must be ignored.
- **Numbers/currencies/dates** may appear in equivalent forms (e.g., “$68,000”, “68k”, “68,000 USD”, or “sixty-eight thousand dollars”). Treat them as equal when numerically equivalent.
- If the rubric expects a number or duration, prefer **normalized comparison** (extract and compare values) over string matching.

## STYLE NEUTRALITY (prevents style contamination):
Ignore tone, politeness, length, and flourish unless the rubric explicitly requires a format/structure (e.g., “itemized list”, “no citations”, “one sentence”).
- Do **not** penalize hedging, voice, or verbosity if content satisfies the rubric.
- Only evaluate format when the rubric **explicitly** mandates it.

## SCORING SCALE:
- **1.0 (Complete Compliance)**: Fully complies with the rubric criterion.
  - Positive: required element present, accurate, properly executed (allowing semantic equivalents).
  - Negative: prohibited element **absent** AND response is **responsive**.
  
- **0.5 (Partial Compliance)**: Partially complies.
  - Positive: element present but minor inaccuracies/incomplete execution.
  - Negative: generally responsive and mostly avoids the prohibited element but with minor/edge violations.
  
- **0.0 (No Compliance)**: Fails to comply.
  - Positive: required element missing or incorrect.
  - Negative: prohibited element present **or** response is non-responsive/evasive even if the element is absent.

## EVALUATION INSTRUCTIONS:
1. **Understand the Requirement**: Determine if the rubric is asking for something to be present (positive) or absent (negative/constraint).

2. **Parse Compound Statements**: If the rubric contains multiple elements connected by "and" or commas, evaluate whether:
   - **All elements** must be present for full compliance (1.0)
   - **Some elements** present indicates partial compliance (0.5)
   - **No elements** present indicates no compliance (0.0)
   
3. **Check Compliance**: 
   - For positive requirements: Look for the presence and quality of the required element
   - For negative constraints: Look for the absence of the prohibited element

4. **Assign Score**: Based on compliance with the specific rubric criterion according to the scoring scale above.

5. **Provide Reasoning**: Explain whether the rubric criterion was satisfied and justify the score.

## OUTPUT FORMAT:
Return your evaluation in JSON format with two fields:

{
   "score": [your score: 1.0, 0.5, or 0.0],
   "reason": "[detailed explanation of whether the rubric criterion was satisfied and why this justified the assigned score]"
}

NOTE: ONLY output the json object, without any explanation before or after that
"""

#: The system message of ``llm_equivalence`` (event ordering's alignment), verbatim.
EQUIVALENCE_SYSTEM = """
            You are a binary classifier.
            If the TWO snippets describe the SAME event/fact, reply **YES**
            Otherwise reply **NO**. No extra words.
            DO NOT provide any exaplanation.
        """
#: Its user message (``first``: a rubric item, ``second``: a line of the response), verbatim.
EQUIVALENCE_USER = "First snippet: {first} \n\n                       Second snippet: {second}\n                    "

TEMPLATE_SHA256 = hashlib.sha256(TEMPLATE.encode()).hexdigest()

#: A variant of the judge: the official code as it is, or with its two quirks fixed.
JudgeVariant = Literal["official", "fixed"]
VARIANTS: dict[str, str] = {
    "official": "the official code: <question> left unreplaced in the prompt; int(score) for every ability but event "
    "ordering",
    "fixed": "<question> replaced by the question; float(score) for every ability (a partial 0.5 counts 0.5)",
}
assert tuple(VARIANTS) == get_args(JudgeVariant)

#: The judge as data, for a registry of judges: what produced a BEAM score.
OFFICIAL_JUDGE = {
    "name": "beam",
    **SOURCE,
    "template": TEMPLATE,
    "template_sha256": TEMPLATE_SHA256,
    "model": JUDGE["model"],
    "parameters": {k: v for k, v in JUDGE.items() if k != "model"},
    "label_rule": "one request per rubric item; the reply parsed as JSON (a fenced block, the whole text, the first "
    "{...} "
    "or [...], else json_repair); the question's score is the mean of the items' score, each int(score) "
    "('official') or float(score) ('fixed'), float for event ordering; event ordering's table score is "
    "tau_norm of the judge's alignment of response lines to rubric items ('yes' in the reply)",
    "variants": VARIANTS,
}

_PLACEHOLDERS = re.compile("<question>|<rubric_item>|<llm_response>")


def check_variant(variant: str) -> str:
    """``variant`` if it is one of :data:`VARIANTS`.

    Raises:
        ConfigurationError: any other value.
    """
    if variant not in VARIANTS:
        raise ConfigurationError(f"judge variant: expected one of {', '.join(VARIANTS)}, got {variant!r}")
    return variant


def judge_prompt(question: str, rubric_item: str, response: str, *, variant: JudgeVariant = "official") -> str:
    """The judge prompt of one rubric item: byte-identical to ``evaluate_<ability>``'s with ``"official"``.

    ``"official"``: ``TEMPLATE.replace("<rubric_item>", item).replace("<llm_response>", response)`` (``question``
    is not used: the prompt keeps the literal ``<question>``); ``"fixed"``: the three placeholders replaced in one pass.

    Raises:
        ConfigurationError: an unknown variant.
    """
    if check_variant(variant) == "official":
        return TEMPLATE.replace("<rubric_item>", rubric_item).replace("<llm_response>", response)
    fields = {"<question>": question, "<rubric_item>": rubric_item, "<llm_response>": response}
    return _PLACEHOLDERS.sub(lambda m: fields[m.group()], TEMPLATE)


def _fields(qa) -> tuple[str, str, list[str]]:
    """``(ability, question, rubric)`` of a BEAM QAPair (its ``raw`` question record).

    Raises:
        ConfigurationError: not a BEAM QA pair (no ``question`` and ``rubric`` list in ``raw``).
    """
    record = getattr(qa, "raw", None)
    if (
        not isinstance(record, Mapping)
        or not isinstance(record.get("question"), str)
        or not isinstance(record.get("rubric"), list)
    ):
        raise ConfigurationError(f"BEAM judge: expected a BEAM QAPair (raw question and rubric), got {type_name(qa)}")
    return str(qa.question_type), record["question"], record["rubric"]


def _rubric_id(item_id: str, k: int, variant: str) -> str:
    """The id of rubric item ``k``'s request: ``<item_id>#rubric-<k>``, ``<item_id>#fixed-rubric-<k>`` for the fixed
    variant (its prompt differs, so a reply to the official prompt is never read as its reply)."""
    return f"{item_id}#{'' if check_variant(variant) == 'official' else f'{variant}-'}rubric-{k}"


def request_question(request_id: str) -> str:
    """The item id a request id of :func:`judge_requests` is for (``1:temporal_reasoning:0#rubric-0`` → its text
    before the last ``#``)."""
    return request_id.rpartition("#")[0]


def _request(item_id: str, request_id: str, messages: list[dict], **meta) -> dict:
    return {"question_id": item_id, "request_id": request_id, **JUDGE, "messages": messages, **meta}


def _pair_id(item_id: str, i: int, j: int) -> str:
    return f"{item_id}#same-{i}-{j}"


def judge_requests(item_id: str, qa, hypothesis: str, variant: JudgeVariant = "official") -> list[dict]:
    """The judge requests for one response: one per rubric item (``<item_id>#rubric-<k>``; the fixed variant's
    ``<item_id>#fixed-rubric-<k>``) and, for event ordering, one per (response line ``i``, rubric item ``j``)
    (``<item_id>#same-<i>-<j>``, the same in both variants).

    Each is ``{"question_id", "request_id", "model", "temperature", "messages"}``, the shape batch APIs take; a pair
    also has ``walk``: ``{"id": "<item_id>#order", "line": i, "item": j, "match": "yes"}``, its place in the official
    walk (``himga judge`` asks only the pairs the walk reaches; a reply containing ``match``, lowercased, is a match).

    Raises:
        ConfigurationError: not a BEAM QA pair, ``hypothesis`` not a string, an unknown variant.
    """
    ability, question, rubric = _fields(qa)
    if not isinstance(hypothesis, str):
        raise ConfigurationError(f"{item_id}: hypothesis: expected a string, got {type_name(hypothesis)}")
    out = [
        _request(
            item_id,
            _rubric_id(item_id, k, variant),
            [{"role": "user", "content": judge_prompt(question, item, hypothesis, variant=variant)}],
        )
        for k, item in enumerate(rubric)
    ]
    if ability == "event_ordering":
        for i, line in enumerate(hypothesis.split("\n")):
            for j, item in enumerate(rubric):
                out.append(
                    _request(
                        item_id,
                        _pair_id(item_id, i, j),
                        [
                            {"role": "system", "content": EQUIVALENCE_SYSTEM},
                            {"role": "user", "content": EQUIVALENCE_USER.format(first=item, second=line)},
                        ],
                        walk={"id": f"{item_id}#order", "line": i, "item": j, "match": MATCH},
                    )
                )
    return out
