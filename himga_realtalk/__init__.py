"""The ``himga_realtalk`` dataset: the REALTALK builder (:mod:`.realtalk`), its dataset card (``README.md``) and its
catalogue entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the builder is imported on first
use)."""

from pathlib import Path

from himga.entry import Benchmark
from himga.schema.relevance import EVIDENCE_TURNS as _RELEVANCE
from himga.scoring import REALTALK_SCORER
from himga_locomo import ENTRY as _LOCOMO
from himga_realtalk import pins, validate_rules

__all__ = ["ENTRY"]


def _builder() -> type:
    """The builder class, imported on first use (it imports ``datasets``)."""
    from himga_realtalk.realtalk import Realtalk

    return Realtalk


ENTRY = Benchmark(
    name="realtalk",
    title="REALTALK (HiMGA-normalized)",
    load_name="himga_realtalk",
    builder_module="himga_realtalk.realtalk",
    load_builder=_builder,
    row_modules=("himga_realtalk.realtalk", "himga_realtalk.records", *_LOCOMO.row_modules),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes=Path(__file__).with_name("card_notes.md"),
    published_rows=10,
    scorer=REALTALK_SCORER,
)
