"""The papers' tables of :mod:`himga.scoring.metrics._paper_metrics`: per category, aggregated as the chosen source
does.

**Not official** (LoCoMo's official table is :func:`himga.scoring.score_samples`'s). Options, each named in the
report block and the run record:

- ``aggregation``: ``"pooled"`` (default: every question weighs the same, as LoCoMo's official code and A-mem's
  ``aggregate_metrics`` average, with ``statistics.mean``), or ``"per_sample"`` (MAGMA's
  ``test_fixed_memory.py``: the mean of each conversation, ``sum(scores) / len(scores)``, then the mean of those
  means; a category's row averages the conversations that have it);
- ``category_5``: include the adversarial category (default) or leave it out (mem0's ``evals.py`` always does;
  MAGMA's ``--category-to-test`` defaults to ``1,2,3,4``);
- ``row_order``: ``"paper"`` (LoCoMo's QA table: single-hop, multi-hop, temporal, open-domain, adversarial) or
  ``"category"`` (category number, as A-mem, mem0 and MAGMA print them).

Which benchmark has such a table is its :class:`~himga.scoring.Scorer`'s ``paper`` rules (:class:`PaperRules`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from himga.errors import ConfigurationError
from himga.scoring.metrics._cells import mean_cell
from himga.scoring.metrics._paper_metrics import FAMILIES, METRICS, SOURCES, paper_scores

__all__ = [
    "PAPER_AGGREGATIONS",
    "PAPER_ROW_ORDERS",
    "PaperOptions",
    "PaperRules",
    "format_paper_table",
    "paper_record",
    "paper_tables",
]

Aggregation = Literal["pooled", "per_sample"]
RowOrder = Literal["paper", "category"]
#: The allowed values of :attr:`PaperOptions.aggregation` and :attr:`PaperOptions.row_order`.
PAPER_AGGREGATIONS: tuple[str, ...] = get_args(Aggregation)
PAPER_ROW_ORDERS: tuple[str, ...] = get_args(RowOrder)


@dataclass(frozen=True)
class PaperRules:
    """What a benchmark's paper tables read from a QA pair.

    Attributes:
        reference: ``(qa, family) -> reference or None``; ``None``: the family does not score this question.
        category: ``qa -> category number``.
        names: Category number → row name.
        paper_order: The categories in the papers' order.
        adversarial: The category that ``category_5=False`` leaves out.
    """

    reference: Callable
    category: Callable
    names: Mapping[int, str]
    paper_order: tuple[int, ...]
    adversarial: int


@dataclass(frozen=True)
class PaperOptions:
    """The choices of a paper table (see the module docstring); checked on creation.

    Raises:
        ConfigurationError: an unknown family, aggregation or row order.
    """

    families: tuple[str, ...] = FAMILIES
    aggregation: Aggregation = "pooled"
    category_5: bool = True
    row_order: RowOrder = "paper"

    def __post_init__(self):
        for name, value, allowed in (
            ("aggregation", self.aggregation, PAPER_AGGREGATIONS),
            ("row_order", self.row_order, PAPER_ROW_ORDERS),
        ):
            if value not in allowed:
                raise ConfigurationError(f"paper metrics: {name}: expected one of {', '.join(allowed)}, got {value!r}")
        unknown = [f for f in self.families if f not in FAMILIES]
        if unknown or not self.families:
            raise ConfigurationError(
                f"paper metrics: expected one or more of {', '.join(FAMILIES)}, got {', '.join(unknown) or 'none'}"
            )


def _mean(values: list[float], aggregation: str) -> float | None:
    if not values:
        return None
    return statistics.mean(values) if aggregation == "pooled" else sum(values) / len(values)


def _aggregate(rows: list[tuple[str, int, dict]], aggregation: str) -> dict:
    """``{"n", metric: mean}`` of ``(sample, category, scores)`` rows, pooled or per sample then averaged."""
    out: dict = {"n": len(rows)}
    for metric in METRICS:
        if any(s[metric] is None for _, _, s in rows):  # BLEU-1 without its tokenizer model: not computed
            out[metric] = None
        elif aggregation == "pooled":
            out[metric] = _mean([s[metric] for _, _, s in rows], aggregation)
        else:
            by_sample: dict[str, list[float]] = {}
            for sample, _, scores in rows:
                by_sample.setdefault(sample, []).append(scores[metric])
            out[metric] = _mean([sum(v) / len(v) for v in by_sample.values()], aggregation)
    if aggregation == "per_sample":
        out["samples"] = len({sample for sample, _, _ in rows})
    return out


def paper_tables(
    questions: Mapping,
    predictions: Mapping[str, str],
    sample_of: Mapping[str, str],
    rules: PaperRules,
    options: PaperOptions = PaperOptions(),
) -> list[dict]:
    """One table per metric family over the scored questions.

    Args:
        questions: ``{question_id: QAPair}`` of the questions scored (:func:`~himga.scoring.questions_by_id`).
        predictions: ``{question_id: hypothesis}``; questions without one are left out.
        sample_of: ``{question_id: sample_id}`` (for ``aggregation="per_sample"``).
        rules: The benchmark's :class:`PaperRules`.
        options: The choices.

    Returns:
        Per family: ``{"family", "name", "official": False, "source", "aggregation", "category_5", "row_order",
        "rows": [{"category", "type", "n", "exact_match", "f1", "bleu1"}], "overall": {...}}``; a mean is ``None``
        for a row without questions. ``category_5`` is ``"included"`` or ``"excluded"`` (the options), or, for a
        family whose code skips category 5, what its source says (mem0: ``"not scored (evaluation/evals.py skips
        it)"``).

    Without nltk's Punkt model (``punkt_tab``) exact match and F1 are computed and BLEU-1 is not (its means are
    ``None``); each table then says why under ``bleu1_missing``.
    """
    from himga.scoring.metrics._paper_metrics import bleu_missing

    missing = bleu_missing()
    order = rules.paper_order if options.row_order == "paper" else tuple(sorted(rules.names))
    order = tuple(c for c in order if options.category_5 or c != rules.adversarial)
    tables = []
    for family in options.families:
        rows = []
        skipped = scored_5 = 0  # category-5 questions the family's code skips (mem0's), and those it scores
        for qid, qa in questions.items():
            category = rules.category(qa)
            if qid not in predictions or category not in order:
                continue
            reference = rules.reference(qa, family)
            if category == rules.adversarial:
                skipped, scored_5 = skipped + (reference is None), scored_5 + (reference is not None)
            if reference is None:
                continue
            rows.append(
                (
                    sample_of[qid],
                    category,
                    paper_scores(predictions[qid], reference, family=family, category=category, bleu=missing is None),
                )
            )
        per = [
            {"category": c, "type": rules.names[c], **_aggregate([r for r in rows if r[1] == c], options.aggregation)}
            for c in order
        ]
        tables.append(
            {
                "family": family,
                "name": SOURCES[family]["name"],
                "official": False,
                "source": SOURCES[family],
                "aggregation": options.aggregation,
                "category_5": (
                    "excluded"
                    if not options.category_5
                    else SOURCES[family]["category_5"]
                    if skipped and not scored_5
                    else "included"
                ),
                "row_order": options.row_order,
                "rows": per,
                "overall": _aggregate(rows, options.aggregation),
                **({"bleu1_missing": missing} if missing else {}),
            }
        )
    return tables


def paper_record(options: PaperOptions) -> dict:
    """The run record's ``paper_metrics`` block: what the tables are and every choice made."""
    return {
        "official": False,
        "families": {f: SOURCES[f] for f in options.families},
        "aggregation": options.aggregation,
        "category_5": "included" if options.category_5 else "excluded",
        "row_order": options.row_order,
        "metrics": "exact match, set-based F1 of simple_tokenize tokens, BLEU-1 (nltk sentence_bleu, weights (1, 0, 0, "
        "0), "
        "SmoothingFunction().method1, nltk.word_tokenize)",
    }


def format_paper_table(table: dict) -> str:
    """One family's table as text, headed "not official" with its source and choices (means to 4 decimals)."""
    source = table["source"]
    head = (
        f"not official: {table['name']} metrics ({source['repository']}@{source['commit'][:7]} {source['path']}), "
        f"{table['aggregation'].replace('_', ' ')}, category 5 {table['category_5']}, rows by {table['row_order']} "
        "order"
    )
    lines = [head, f"{'':<28}{'n':>6}  {'exact':>7}  {'F1':>7}  {'BLEU-1':>7}"]
    for row in [*table["rows"], {"type": "overall", **table["overall"]}]:
        label = f"{row['type']} ({row['category']})" if "category" in row else row["type"]
        lines.append(f"{label:<28}{row['n']:>6}  " + "  ".join(mean_cell(row[m]) for m in METRICS))
    if table.get("bleu1_missing"):
        lines.append(
            f"note: BLEU-1 not computed (exact match and F1 need no tokenizer model): {table['bleu1_missing']}"
        )
    return "\n".join(lines)
