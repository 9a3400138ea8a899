"""LoCoMo-Plus's judge, as data: the official judge prompts, the request the official code sends, and its label rule.

The judge registry's unit (template text, source, label rule, model, parameters, sha256), like
:mod:`himga.scoring.judges._longmemeval`. himga calls no model: :func:`judge_prompt` fills a template as
``get_judge_prompt`` does, :func:`judge_request` is the request ``call_llm`` sends (one user message:
:data:`REQUEST_PREFIX` + the prompt, stripped), :func:`parse_reply` and :func:`label_score` read the reply as
``_parse_judge_response`` and ``label_to_score`` do.

Source: xjtuleeyf/Locomo-Plus, commit ``059f4e3d38f7f1f96765e8e2cb7de3097551bffb``:
``evaluation_framework/task_eval/prompt.py`` (``PROMPT_TEMPLATES``), ``llm_as_judge.py`` (``get_judge_prompt``,
``_parse_judge_response``, ``label_to_score``, ``_judge_one_record``, the ``--model``/``--temperature``/``--max-tokens``
defaults that ``scripts/judge.sh`` keeps) and ``utils.py`` (``call_model`` → ``call_llm`` → ``_prepend_conv_prefix``).
No licence is stated in that repository. The template texts (:mod:`himga.scoring.judges._locomo_plus_templates`) are
copied from it verbatim; ``tests/fixtures/locomo_plus/official-judge.json`` holds the official code's requests (its
client replaced) for all 2,387 items, and the tests compare them byte for byte.

The official quirks, kept: the judge request starts with the answering model's conversation preamble naming the
speakers ``A`` and ``B`` (``call_llm`` is called without a category, so ``_prepend_conv_prefix`` adds it); a reply
whose JSON has ``"reason"`` before ``"label"`` is read by ``json.loads``; a reply that is no JSON gets the first of
``correct``, ``wrong``, ``partial`` it contains (``"Partially correct"`` is ``correct``); an unknown label scores 0.
"""

from __future__ import annotations

import json
import re

from himga.errors import ConfigurationError, type_name
from himga.scoring.judges._judge import template_sha256
from himga.scoring.judges._locomo_plus_templates import REQUEST_PREFIX, TEMPLATES

__all__ = [
    "CATEGORY_NAMES",
    "COGNITIVE",
    "JUDGE",
    "JUDGE_RECORD",
    "JUDGE_TEMPLATES",
    "LABEL_SCORES",
    "REQUEST_PREFIX",
    "SOURCE",
    "TEMPLATES",
    "cue_text",
    "evidence_text",
    "judge_prompt",
    "judge_request",
    "label_score",
    "parse_reply",
    "read_label",
    "templates_sha256",
]

SOURCE = {
    "repository": "xjtuleeyf/Locomo-Plus",
    "commit": "059f4e3d38f7f1f96765e8e2cb7de3097551bffb",
    "path": "evaluation_framework/task_eval/prompt.py",
    "functions": [
        "llm_as_judge.get_judge_prompt",
        "llm_as_judge._parse_judge_response",
        "llm_as_judge.label_to_score",
        "utils.call_llm",
    ],
    "licence": "none stated upstream",
}

#: The request parameters of ``llm_as_judge.py`` as ``scripts/judge.sh`` runs it (``--model`` default ``gpt-4o-mini``,
#: ``--temperature`` 0.0, ``--max-tokens`` 512; ``call_llm`` passes ``float``/``int`` of them).
JUDGE = {"model": "gpt-4o-mini", "temperature": 0.0, "max_tokens": 512}

#: LoCoMo's category numbers → the judge's category names (``unified_input.py``'s ``LOCOMO_CATEGORY_NAMES``).
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "common-sense", 4: "single-hop", 5: "adversarial"}
#: The sixth category, the cognitive items (``unified_input.py``'s ``CATEGORY_SIXTH``).
COGNITIVE = "Cognitive"

#: ``llm_as_judge.LABEL_TO_SCORE``: correct 1, partial 0.5, wrong 0 (any other label, or none, 0).
LABEL_SCORES = {"correct": 1.0, "partial": 0.5, "wrong": 0.0}

_LABEL_AND_REASON = re.compile(
    r'\{[^{}]*"label"\s*:\s*["\']([^"\']+)["\'][^{}]*"reason"\s*:\s*["\']([^"\']*)["\']', re.DOTALL
)


#: Every text of the judge: the request prefix and the per-category templates (the registry's ``templates``).
JUDGE_TEMPLATES = {"request_prefix": REQUEST_PREFIX, **TEMPLATES}


def templates_sha256() -> str:
    """The sha256 of :data:`JUDGE_TEMPLATES` as the registry of judges hashes templates
    (:func:`himga.scoring.judges.template_sha256`: ``json.dumps`` with sorted keys, UTF-8), for the run record."""
    return template_sha256(JUDGE_TEMPLATES)


def judge_prompt(category: str, evidence: str, prediction: str, gold: object = "") -> str:
    """The judge prompt, as ``get_judge_prompt`` builds it.

    Args:
        category: ``multi-hop``, ``temporal``, ``common-sense``, ``single-hop``, ``adversarial`` or ``Cognitive``
            (another name gets the ``default`` template, as officially).
        evidence: The evidence text (LoCoMo questions: ``"Speaker：text"`` lines of the cited turns; cognitive items:
            the cue turns).
        prediction: The system's answer.
        gold: The reference answer (cognitive items have none); an empty or zero value is ``""``, as officially.

    Returns:
        ``template.format(gold=gold or "", pred=prediction or "", evidence=evidence or "")``.
    """
    template = TEMPLATES.get(category) or TEMPLATES["default"]
    return template.format(gold=gold or "", pred=prediction or "", evidence=evidence or "")


def judge_request(category: str, evidence: str, prediction: str, gold: object = "") -> dict:
    """The request ``call_llm`` sends for one judgement: ``{"model", "messages", "temperature", "max_tokens"}``, one
    user message holding :data:`REQUEST_PREFIX` and the stripped :func:`judge_prompt` (arguments as there).

    Raises:
        ConfigurationError: ``prediction`` is not a string.
    """
    if not isinstance(prediction, str):
        raise ConfigurationError(f"locomo_plus judge: prediction: expected a string, got {type_name(prediction)}")
    prompt = judge_prompt(category, evidence, prediction, gold).strip()
    content = REQUEST_PREFIX + prompt if prompt else REQUEST_PREFIX.strip()
    return {
        "model": JUDGE["model"],
        "messages": [{"role": "user", "content": content}],
        "temperature": JUDGE["temperature"],
        "max_tokens": JUDGE["max_tokens"],
    }


def parse_reply(reply: str) -> tuple[str, str]:
    """``(label, reason)`` of a judge reply, as ``_parse_judge_response`` reads it: a JSON-like object with ``"label"``
    before ``"reason"`` (by a regular expression), else the reply as JSON, else the first of ``correct``, ``wrong``,
    ``partial`` in the lower-cased reply (reason: its first 200 characters)."""
    label, reason = "", ""
    raw = (reply or "").strip()
    try:
        if m := _LABEL_AND_REASON.search(raw):
            label, reason = m.group(1).strip(), (m.group(2) or "").strip()
        else:
            obj = json.loads(raw)
            label = (obj.get("label") or "").strip()
            reason = (obj.get("reason") or "").strip()
    except Exception:  # the official rule: any failure above (not JSON, not an object, a non-string label) falls back
        lowered = raw.lower()
        label = next((word for word in ("correct", "wrong", "partial") if word in lowered), "")
        reason = raw[:200] if raw else ""
    return label, reason


def label_score(label: str) -> float:
    """``label_to_score``: :data:`LABEL_SCORES` of the stripped, lower-cased label; 0 for any other."""
    return LABEL_SCORES.get((label or "").strip().lower(), 0.0)


def evidence_text(conversation: dict, evidence: object) -> str:
    """The evidence of a LoCoMo question as the judge reads it: ``unified_input.py``'s ``_parse_evidence_list`` (each
    entry split on ``;``, parts stripped) and ``_evidence_to_text`` (``D<s>:<t>`` → the ``t``-th turn of
    ``session_<s>``, by position, as ``"<speaker>：<text>"`` with a full-width colon; ``"[<id>] [Missing turn]"`` past
    the session's end; ``"[<id>] [Parse error]"`` for a part that is no ``D<s>:<t>``, such as ``D:11:26``), one per
    line.

    Args:
        conversation: The source conversation (``session_N`` lists of ``{"speaker", "text", ...}`` turns).
        evidence: The source evidence (a list of strings, or one string).
    """
    items = [evidence] if isinstance(evidence, str) else list(evidence)
    parts = [part.strip() for item in items for part in str(item).split(";") if part.strip()]
    lines = []
    for part in parts:
        try:
            session, turn = part.split(":")
            turns = conversation.get(f"session_{int(session.replace('D', ''))}", [])
            index = int(turn) - 1
            if 0 <= index < len(turns):
                lines.append(f"{turns[index].get('speaker', 'Unknown')}：{turns[index].get('text', '')}")
            else:
                lines.append(f"[{part}] [Missing turn]")
        except Exception:  # the official rule: whatever fails to parse or look up
            lines.append(f"[{part}] [Parse error]")
    return "\n".join(lines)


def cue_text(turns: list[tuple[str, str]]) -> str:
    """The evidence of a cognitive item as the judge reads it (``unified_input.py``'s ``_cue_dialogue_to_evidence``):
    its cue turns ``(speaker, text)``, speakers mapped, as ``"<speaker>：<text>"`` lines, empty texts left out."""
    return "\n".join(f"{speaker}：{text.strip()}" for speaker, text in turns if text)


def read_label(reply: str) -> float:
    """The score of a judge reply: :func:`label_score` of :func:`parse_reply`'s label (1, 0.5 or 0).

    Raises:
        ConfigurationError: ``reply`` is not a string.
    """
    if not isinstance(reply, str):
        raise ConfigurationError(f"judge reply: expected a string, got {type_name(reply)}")
    return label_score(parse_reply(reply)[0])


#: The judge as a record (what a run record and a judge registry carry): its source, label rule, model and
#: parameters, and the sha256 of its templates.
JUDGE_RECORD = {
    **JUDGE,
    "name": "locomo_plus",
    "source": SOURCE,
    "label_rule": "correct 1, partial 0.5, wrong 0 (else 0)",
    "template_sha256": templates_sha256(),
}
