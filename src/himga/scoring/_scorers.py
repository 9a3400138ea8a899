"""How each benchmark is scored: one :class:`Scorer` each, held by its catalogue entry (``entry.scorer``).

Everything else in :mod:`himga.scoring` (reports, run records, the ``himga score`` command) reads these objects and
never tests a dataset name. A scorer computes a per-question score itself (LoCoMo's F1) or holds its benchmark's
official judge under each variant name (:attr:`Scorer.judges`, the official behaviour first): the judge is one
:class:`~himga.scoring.Judge`, the same object ``--judge NAME`` finds in the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from himga.registry import Registry
from himga.scoring.judges import _longmemeval as longmemeval
from himga.scoring.judges._judge import Judge
from himga.scoring.judges.beam import _prompts as beam
from himga.scoring.judges.beam._judges import BEAM_JUDGES
from himga.scoring.metrics._intervals import summarize
from himga.scoring.metrics._paper_tables import PaperRules
from himga.scoring.rules import _locomo as locomo
from himga.scoring.rules import _personamem as personamem

__all__ = [
    "BEAM_SCORER",
    "LOCOMO_PAPER_RULES",
    "LOCOMO_SCORER",
    "LONGMEMEVAL_SCORER",
    "PERSONAMEM_SCORER",
    "REALTALK_SCORER",
    "SCORERS",
    "Row",
    "Scorer",
    "register_scorer",
    "release_ids",
    "scorer",
]

#: One scored question: ``(question_id, table row key, score)``.
Row = tuple[str, str, float]


@dataclass(frozen=True)
class Scorer:
    """How one benchmark is scored.

    Attributes:
        name: The dataset name (``"locomo"``).
        metric: What a per-question score is.
        source: Where the scoring rules were read (repository, path, commit, functions).
        type_order: The table's rows, in the papers' order.
        row_key: ``qa -> type_order key`` of a QA pair, or a tuple of keys: the first is the QA pair's type, the
            others further rows it also counts in (LoCoMo-Plus: ``("Cognitive", "Cognitive: causal")``).
        score: ``(qa, hypothesis) -> score`` when himga computes the score; ``None`` when a judge model gives
            it (:attr:`judges`; the verdicts are read back with ``--labels``).
        summaries: ``rows -> {name: summary}``: the totals beside the per-type rows (overall, ...).
        gold_options: ``() -> dict``: the gold rules, for the run record.
        paper: The rules of the papers' not-official metrics tables (:class:`~himga.scoring.PaperRules`), or ``None``
            where the papers print none.
        judges: ``{variant: Judge}``: the benchmark's official judge, the official behaviour first (BEAM:
            ``official``, ``fixed``); empty when himga computes the score (:attr:`score`).
        type_maps: The label sets a run's records may copy ``question_type`` in (name → category → label; LoCoMo:
            the authors', the seed's, MemPalace's, Zep's README), read with :attr:`category`.
        category: ``qa -> category`` of a QA pair, the key of :attr:`type_maps`.
        question_ids: ``(regex, example)``: the shape of the benchmark's question ids (LongMemEval's
            ``(?:gpt4_)?[0-9a-f]{8}(?:_abs)?``), so that records of it scored against another benchmark say whose they
            look like; ``None`` where they have no shape of their own.
    """

    name: str
    metric: str
    source: dict
    type_order: tuple[str, ...]
    row_key: Callable
    score: Callable | None
    summaries: Callable[[Sequence[Row]], dict]
    gold_options: Callable[[], dict]
    paper: PaperRules | None = None
    judges: Mapping[str, Judge] = field(default_factory=dict)
    type_maps: Mapping[str, Mapping] = field(default_factory=dict)
    category: Callable | None = None
    question_ids: tuple[str, str] | None = None

    @property
    def judge_variants(self) -> tuple[str, ...]:
        """The variant names of :attr:`judges`, the default (the official behaviour) first."""
        return tuple(self.judges)

    def judge(self, variant: str | None = None) -> Judge | None:
        """The official judge of ``variant`` (default: the first), or ``None`` for a scorer without a judge.

        Raises:
            ConfigurationError: an unknown variant.
        """
        if not self.judges:
            return None
        if variant is None:
            return next(iter(self.judges.values()))
        if variant not in self.judges:
            from himga.errors import ConfigurationError

            raise ConfigurationError(
                f"{self.name}: judge variant: expected one of {', '.join(self.judges)}, got {variant!r}"
            )
        return self.judges[variant]


#: dataset name → its scorer, registered by the catalogue for each entry (:func:`register_scorer`).
SCORERS: Registry[Scorer] = Registry("dataset", sort=False, hint=" (the catalogue registers each benchmark's scorer)")
#: dataset name → ``() -> {sample_id: config}`` of every config's full release, for benchmarks whose configs hold other
#: samples under ids of the same form (BEAM's tiers), so that an answer to another config's sample is named as such.
_RELEASES: dict[str, Callable[[], Mapping[str, str]]] = {}


def register_scorer(
    dataset: str, scorer_: Scorer, *, release_ids: Callable[[], Mapping[str, str]] | None = None
) -> None:
    """Make ``scorer_`` the scorer of ``dataset`` (the catalogue registers each entry's), and ``release_ids`` its
    configs' sample ids (:attr:`himga.entry.Benchmark.release_ids`).

    Raises:
        ConfigurationError: ``dataset`` has another scorer already.
    """
    SCORERS.register(dataset, scorer_)
    if release_ids is not None:
        _RELEASES[dataset] = release_ids


def release_ids(dataset: str) -> Mapping[str, str] | None:
    """``{sample_id: config}`` of every config of ``dataset`` registered with :func:`register_scorer`, else ``None``."""
    found = _RELEASES.get(dataset)
    return None if found is None else found()


def scorer(dataset: str | Scorer) -> Scorer:
    """``dataset`` itself if it is a :class:`Scorer`, else the scorer its catalogue entry registered: the one place a
    Python caller's dataset name becomes a scorer (the commands hand the entry's down).

    Raises:
        ConfigurationError: a name no entry registered a scorer for (``unknown dataset 'x': expected one of locomo,
            longmemeval, beam, locomo_plus, realtalk``), or something else than a name or a Scorer.
    """
    from himga.errors import ConfigurationError, type_name

    if isinstance(dataset, Scorer):
        return dataset
    if not isinstance(dataset, str):
        raise ConfigurationError(f"expected a dataset name or a Scorer, got {type_name(dataset)}")
    return SCORERS.named(dataset)


def _locomo_key(qa) -> str:
    return locomo.CATEGORY_NAMES[locomo.qa_record(qa)["category"]]


def _locomo_summaries(rows: Sequence[Row]) -> dict:
    return {
        "overall": summarize([s for _, _, s in rows]),
        "overall_without_category_5": summarize([s for _, key, s in rows if key != locomo.CATEGORY_NAMES[5]]),
    }


def _locomo_reference(qa, family: str):
    """A-mem's and MAGMA's ``QA.final_answer`` (category 5: ``adversarial_answer``); mem0's ``str(answer)`` without
    category 5. Under ``gold="audited"`` the errata's answer replaces a corrected one (categories 1–4)."""
    record = locomo.qa_record(qa)
    if record["category"] == 5:
        return None if family == "mem0" else record.get("adversarial_answer")
    audit = record.get("gold_audit")
    answer = audit["answer"] if isinstance(audit, Mapping) and "answer" in audit else record.get("answer")
    return str(answer) if family == "mem0" else answer


#: The paper tables of LoCoMo (and of the runs of its family that print them).
LOCOMO_PAPER_RULES = PaperRules(
    reference=_locomo_reference,
    category=lambda qa: locomo.qa_record(qa)["category"],
    names=locomo.CATEGORY_NAMES,
    paper_order=locomo.CATEGORY_ORDER,
    adversarial=5,
)

_F1_METRIC = (
    "official answer score: token F1 of Porter-stemmed normalized tokens (category 1: multi-answer F1; "
    "category 5: abstention phrase 0/1)"
)

LOCOMO_SCORER = Scorer(
    name="locomo",
    question_ids=(r"conv-\d+:\d+", "conv-26:0"),
    metric=_F1_METRIC,
    source=locomo.SOURCE,
    type_order=tuple(locomo.CATEGORY_NAMES[c] for c in locomo.CATEGORY_ORDER),
    row_key=_locomo_key,
    score=locomo.locomo_score,
    summaries=_locomo_summaries,
    gold_options=locomo.gold_options,
    paper=LOCOMO_PAPER_RULES,
    type_maps=locomo.TYPE_LABELS,
    category=lambda qa: locomo.qa_record(qa)["category"],
)

#: REALTALK's categories: LoCoMo's 1-3 (``evaluate_memory.py`` skips "categories 4 and 5 (which are only in LoCoMo
#: data.)"), in the authors' numbering order.
_REALTALK_TYPES = tuple(locomo.CATEGORY_NAMES[c] for c in (1, 2, 3))

#: REALTALK's memory-probing F1: LoCoMo's rule, function for function (``QATool.compute_lexical_score`` is
#: ``eval_question_answering``'s score; checked against the authors' code on 2,184 predictions).
REALTALK_SOURCE = {
    "repository": "danny911kr/REALTALK",
    "path": "eval_memory/qa_tool.py",
    "commit": "b903e06a9770bf4e5fe9018c3e132889666d3b4a",
    "functions": [
        "QATool.compute_lexical_score",
        "QATool.f1",
        "QATool.f1_score",
        "QATool.normalize_answer",
        "evaluate_memory.run_evaluate",
    ],
}


def _overall(rows: Sequence[Row]) -> dict:
    return {"overall": summarize([s for _, _, s in rows])}


REALTALK_SCORER = Scorer(
    name="realtalk",
    metric=_F1_METRIC.replace("category 5: abstention phrase 0/1", "REALTALK has categories 1-3"),
    source=REALTALK_SOURCE,
    type_order=_REALTALK_TYPES,
    row_key=_locomo_key,
    score=locomo.locomo_score,
    summaries=_overall,
    gold_options=lambda: {
        **{k: v for k, v in locomo.gold_options().items() if k not in ("category_order", "category_5")},
        "category_order": {str(c): locomo.CATEGORY_NAMES[c] for c in (1, 2, 3)},
        "gold": "answer of the source QA record (evaluate_memory.py: qa.get('answer', ''))",
    },
    type_maps=locomo.TYPE_LABELS,
    category=lambda qa: locomo.qa_record(qa)["category"],
)

#: print_qa_metrics.py's task order.
_LME_TYPES = (
    "single-session-user",
    "single-session-preference",
    "single-session-assistant",
    "multi-session",
    "temporal-reasoning",
    "knowledge-update",
)


def _lme_key(qa) -> str:
    return longmemeval.question_fields(qa)[1]


def _lme_summaries(rows: Sequence[Row]) -> dict:
    """Overall, task-averaged and abstention accuracy as ``src/evaluation/print_qa_metrics.py`` computes them."""
    import numpy as np

    by_type = {t: [s for _, key, s in rows if key == t] for t in _LME_TYPES}
    empty = [t for t, v in by_type.items() if not v]
    task = {"mean": None if empty else float(np.mean([np.mean(v) for v in by_type.values()])), "tasks": len(_LME_TYPES)}
    if empty:
        task["undefined"] = f"no questions of {', '.join(empty)} (print_qa_metrics.py prints nan)"
    all_scores = [s for v in by_type.values() for s in v]  # print_qa_metrics.py's all_acc: grouped by task
    return {
        "overall": summarize(all_scores),
        "task_averaged": task,
        "abstention": summarize([s for qid, _, s in rows if "_abs" in qid]),
    }


def _lme_gold_options() -> dict:
    return {
        "type_order": list(_LME_TYPES),
        "answer": "raw answer of the source question, formatted by str.format (an integer as str(int))",
        "abstention": "'_abs' in question_id: the abstention template; its own question_type row too",
        "label": "'yes' in reply.strip().lower()",
    }


LONGMEMEVAL_SCORER = Scorer(
    name="longmemeval",
    question_ids=(r"(?:gpt4_)?[0-9a-f]{8}(?:_abs)?", "gpt4_2655b836, 09ba9854_abs"),
    metric="judge label (1 = the judge answered yes), read from the judge's replies",
    source={**longmemeval.SOURCE, "metrics": "src/evaluation/print_qa_metrics.py"},
    type_order=_LME_TYPES,
    row_key=_lme_key,
    score=None,
    summaries=_lme_summaries,
    gold_options=_lme_gold_options,
    judges={"official": longmemeval.LONGMEMEVAL_JUDGE},
)

#: report_results.py's column order.
_BEAM_TYPES = (
    "abstention",
    "contradiction_resolution",
    "event_ordering",
    "information_extraction",
    "instruction_following",
    "knowledge_update",
    "multi_session_reasoning",
    "preference_following",
    "summarization",
    "temporal_reasoning",
)


def _beam_summaries(rows: Sequence[Row]) -> dict:
    """Overall (every question) and the mean of the ability means (equal when every ability has as many questions,
    as in each tier: 2 per chat)."""
    import math

    by_type = {t: [s for _, key, s in rows if key == t] for t in _BEAM_TYPES}
    means = [sum(v) / len(v) for v in by_type.values() if v]
    averaged = {"mean": sum(means) / len(means) if means else None, "tasks": len(means)}
    if any(math.isnan(m) for m in means):
        averaged["undefined"] = "an event-ordering tau is nan (a constant rank list), as the official code gives it"
    return {"overall": summarize([s for _, _, s in rows]), "task_averaged": averaged}


def _beam_gold_options() -> dict:
    return {
        "type_order": list(_BEAM_TYPES),
        "answer": "the ability's reference (answer, ideal_response, ideal_answer, "
        "ideal_summary, expected_compliance); the judge reads the rubric, not the answer",
        "score": "mean of the rubric items' judge scores per question; event ordering: tau_norm (report_results.py)",
    }


BEAM_SCORER = Scorer(
    name="beam",
    question_ids=(r"\d+[KM]-\d+:[a-z_]+:\d+", "100K-1:temporal_reasoning:0"),
    metric="official judge score: the mean of the rubric items' scores (0, 0.5, 1) per question; event ordering: "
    "Kendall tau-b of the judge-aligned order, normalised to 0-1",
    source=beam.SOURCE,
    type_order=_BEAM_TYPES,
    row_key=lambda qa: str(qa.question_type),
    score=None,
    summaries=_beam_summaries,
    gold_options=_beam_gold_options,
    judges={judge.variant: judge for judge in BEAM_JUDGES},
)

#: PersonaMem: the official letter rule (:mod:`himga.scoring.rules._personamem`), computed, no judge; accuracy per
#: question type in the order the types first appear in ``questions_32k.csv``, and overall.
PERSONAMEM_SCORER = Scorer(
    name="personamem",
    metric="official accuracy: 1 when the reply picks exactly the gold option (the letters (a)-(d) after the last "
    "<final_answer>, else in the whole reply), else 0",
    source=personamem.SOURCE,
    type_order=personamem.QUESTION_TYPES,
    row_key=lambda qa: str(qa.question_type),
    score=personamem.personamem_score,
    summaries=_overall,
    gold_options=personamem.gold_options,
)
