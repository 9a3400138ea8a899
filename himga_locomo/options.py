"""LoCoMo's user options, as fields of a dataclass that imports no builder (and so no ``datasets``).

The builder's config (:class:`himga_locomo.locomo.LocomoConfig`) derives from it; the catalogue entry's ``options``
names it, so that the command line lists the flags, choices and help (:func:`himga.options.option_specs`) without
importing the builder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from himga_locomo.gold import GoldVariant

__all__ = ["LocomoOptions"]


@dataclass
class LocomoOptions:
    """The options of a LoCoMo build (``load_locomo(..., category_order="seed")``, ``--category-order seed``).

    Attributes:
        category_order: ``"authors"`` (default): 1 multi_hop, 2 temporal, 3 open_domain, 4 single_hop,
            5 adversarial, as in the authors' evaluation code; ``"seed"``: 1 single_hop, 2 temporal,
            3 multi_hop, 4 open_domain, 5 adversarial, as written in the HiMGA seed docs.
        adversarial_answer: Gold answer of category-5 questions. ``"abstain"`` (default):
            ``"Not mentioned in the conversation"``; ``"seed"``: ``adversarial_answer``, else
            ``answer``, else ``""`` (the seed's rule; ``adversarial_answer`` is the trap answer).
        category3_answer: Gold answer of category-3 questions. ``"scorer"`` (default): the text before
            the first ``;``, stripped, as LoCoMo's scorer (``task_eval/evaluation.py``) cuts it
            (``"Yes; it's classical music"`` → ``"Yes"``); ``"full"``: the whole source string, rationale
            included. Either way ``raw["answer"]`` keeps the source value.
        gold: ``"published"`` (default): the source's answers and evidence; ``"audited"``: those an errata
            file corrects replaced (:mod:`himga_locomo.gold`, :data:`~himga_locomo.gold.GOLD_VARIANTS`).
        errata: With ``gold="audited"``: a user's errata file (default: the pinned dial481/locomo-audit
            ``errors.json``, under ``$HIMGA_DATASETS_ROOT/locomo-audit/`` or downloaded once).
    """

    category_order: Literal["authors", "seed"] = field(
        default="authors",
        metadata={
            "help": "category → question type mapping: the authors' evaluation code, or the seed docs (default: "
            "authors)"
        },
    )
    adversarial_answer: Literal["abstain", "seed"] = field(
        default="abstain",
        metadata={
            "help": "gold answer of category-5 questions: an abstention, or the seed's trap answer (default: abstain)"
        },
    )
    category3_answer: Literal["scorer", "full"] = field(
        default="scorer",
        metadata={
            "help": "gold answer of category-3 questions, cut at the first ';' as the scorer does, or the full text "
            "(default: scorer)"
        },
    )
    gold: GoldVariant = field(
        default="published",
        metadata={
            "help": "the published gold, or the gold corrected by an errata file (default: published; see "
            "docs/gold-and-subsets.md)"
        },
    )
    errata: str | None = field(
        default=None,
        metadata={
            "help": "with gold audited: your own errata file (default: the pinned dial481/locomo-audit errors.json)",
            "metavar": "FILE",
        },
    )
