"""How LoCoMo-Plus is scored: its official judge (:mod:`himga.scoring`'s ``locomo_plus_*``: the templates, the request,
the label rule) on the inputs ``unified_input.py`` gives it, read from the Samples, and the table of six categories and
the cognitive items' relation types.

The judge's inputs per question: its category name (LoCoMo's category number → ``multi-hop``, ..., ``adversarial``;
``Cognitive``), the reference answer (a LoCoMo question's source ``answer``, uncut; under ``gold="audited"`` the
errata's; none for a cognitive item), and the evidence text (a LoCoMo question's cited turns, read from its source
conversation as :func:`himga_locomo.source_record.sample_to_record` rebuilds it; a cognitive item's cue turns).
Not part of the cache key: it shapes no row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from himga.schema.sample import QuestionType
from himga.scoring import (
    LOCOMO_PLUS_CATEGORIES,
    LOCOMO_PLUS_COGNITIVE,
    LOCOMO_PLUS_JUDGE,
    LOCOMO_PLUS_TEMPLATES,
    Judge,
    LabelRule,
    Row,
    Scorer,
    locomo_plus_cue_text,
    locomo_plus_evidence_text,
    locomo_plus_judge_request,
    locomo_plus_label,
    summarize,
)
from himga.scoring.judges import register
from himga_locomo.records import AUDIT_KEY
from himga_locomo.source_record import sample_to_record

__all__ = ["JUDGE", "RELATION_TYPES", "SCORER", "TYPE_ORDER", "judge_context", "judge_request", "row_key"]

#: The cognitive items' relation types, in the authors' order (``locomo_plus.json``: 101, 100, 100, 100).
RELATION_TYPES = ("causal", "state", "goal", "value")

#: The table's rows: the six categories in ``unified_input.py``'s order, then the cognitive items by relation type.
TYPE_ORDER = (
    *LOCOMO_PLUS_CATEGORIES.values(),
    LOCOMO_PLUS_COGNITIVE,
    *(f"{LOCOMO_PLUS_COGNITIVE}: {r}" for r in RELATION_TYPES),
)


def _cognitive(qa) -> bool:
    return qa.question_type == QuestionType.COGNITIVE


def row_key(qa) -> str | tuple[str, str]:
    """The table rows of a QA pair: its category, and for a cognitive item ``"Cognitive: <relation_type>"`` too."""
    if _cognitive(qa):
        return LOCOMO_PLUS_COGNITIVE, f"{LOCOMO_PLUS_COGNITIVE}: {qa.raw.get('relation_type')}"
    return LOCOMO_PLUS_CATEGORIES[qa.raw["category"]]


def judge_context(sample) -> dict[str, Any]:
    """What the judge reads from a Sample: the source conversation of a LoCoMo sample (``conversation``), the cue text
    of each cognitive QA pair (``cue``, by question id)."""
    if any(_cognitive(qa) for qa in sample.qa_pairs):
        return {
            "cue": {
                qa.question_id: locomo_plus_cue_text([(m.role, m.content) for m in sample.evidence_messages(qa)])
                for qa in sample.qa_pairs
            }
        }
    record = sample_to_record(sample)
    return {"conversation": record.get("conversation", record)}


def judge_request(qa, hypothesis: str, context: Mapping[str, Any]) -> dict:
    """The official judge request for one hypothesis (:func:`himga.scoring.locomo_plus_judge_request`).

    Raises:
        ConfigurationError: ``hypothesis`` is not a string.
    """
    if _cognitive(qa):
        return locomo_plus_judge_request(LOCOMO_PLUS_COGNITIVE, context["cue"][qa.question_id], hypothesis)
    audit = qa.raw.get(AUDIT_KEY)  # gold="audited": the errata's answer and evidence, as LoCoMo's scorer reads them
    gold = audit["answer"] if audit else qa.raw.get("answer")
    evidence = audit["evidence"] if audit else qa.raw.get("evidence") or []
    category = LOCOMO_PLUS_CATEGORIES[qa.raw["category"]]
    return locomo_plus_judge_request(
        category, locomo_plus_evidence_text(context["conversation"], evidence), hypothesis, gold
    )


def _summaries(rows: Sequence[Row]) -> dict:
    """``overall``: the mean over every question, ``llm_as_judge.py``'s ``overall_avg``."""
    return {"overall": summarize([s for _, _, s in rows])}


def _gold_options() -> dict:
    return {
        "category_order": dict(zip(TYPE_ORDER, TYPE_ORDER)),
        "gold": "answer of the source QA record, uncut (unified_input.py); under gold='audited' the errata's "
        "correct_answer; "
        "cognitive items: none",
        "evidence": "LoCoMo: the cited turns as 'speaker：text' (unified_input.py _evidence_to_text); cognitive: the "
        "cue turns",
        "label": "correct 1, partial 0.5, wrong 0 (llm_as_judge.py _parse_judge_response, label_to_score)",
    }


def _messages(qa, hypothesis: str, context: Mapping[str, Any]) -> list[dict]:
    return judge_request(qa, hypothesis, context)["messages"]


#: The official judge, registered (``himga score locomo_plus --judge locomo_plus``) and held by :data:`SCORER` (its own
#: route, ``himga score locomo_plus --prompts/--labels``): one object, the same requests and labels on both.
JUDGE = register(
    Judge(
        name="locomo_plus",
        title="LoCoMo-Plus's official judge (per-category prompts; correct / partial / wrong)",
        source={
            "repository": LOCOMO_PLUS_JUDGE["source"]["repository"],
            "path": LOCOMO_PLUS_JUDGE["source"]["path"],
            "commit": LOCOMO_PLUS_JUDGE["source"]["commit"],
            "symbol": "llm_as_judge.get_judge_prompt",
            "licence": LOCOMO_PLUS_JUDGE["source"]["licence"],
            "confirmed": "read and run at the commit (tests/fixtures/locomo_plus/)",
        },
        templates=LOCOMO_PLUS_TEMPLATES,
        label=LabelRule(
            "locomo-plus-label",
            LOCOMO_PLUS_JUDGE["label_rule"] + " (llm_as_judge._parse_judge_response, label_to_score)",
            "graded",
            locomo_plus_label,
        ),
        model=LOCOMO_PLUS_JUDGE["model"],
        parameters={"temperature": LOCOMO_PLUS_JUDGE["temperature"], "max_tokens": LOCOMO_PLUS_JUDGE["max_tokens"]},
        benchmarks=("locomo_plus",),
        messages=_messages,
        context=judge_context,
        gold="a LoCoMo question's source answer (uncut; the errata's under gold='audited') and its cited turns; a "
        "cognitive "
        "item's cue turns",
        variant="official",
        request=judge_request,
    )
)


SCORER = Scorer(
    name="locomo_plus",
    metric="judge label of LoCoMo-Plus's official judge: correct 1, partial 0.5, wrong 0",
    source={
        **LOCOMO_PLUS_JUDGE["source"],
        "metrics": "evaluation_framework/task_eval/llm_as_judge.py _compute_summary",
    },
    type_order=TYPE_ORDER,
    row_key=row_key,
    score=None,
    summaries=_summaries,
    gold_options=_gold_options,
    judges={"official": JUDGE},
)
