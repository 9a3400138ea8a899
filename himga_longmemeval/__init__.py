"""The ``himga_longmemeval`` dataset: the LongMemEval builder (:mod:`.longmemeval`), its dataset card
(``README.md``) and its catalogue entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the
builder is imported on first use)."""

from pathlib import Path

from himga.entry import Benchmark
from himga.schema.relevance import LONGMEMEVAL as _RELEVANCE
from himga.scoring import LONGMEMEVAL_SCORER
from himga_longmemeval import pins, validate_rules
from himga_longmemeval.shape import shape_note

__all__ = ["ENTRY"]


def _builder() -> type:
    """The builder class, imported on first use (it imports ``datasets``)."""
    from himga_longmemeval.longmemeval import Longmemeval

    return Longmemeval


ENTRY = Benchmark(
    name="longmemeval",
    title="LongMemEval (HiMGA-normalized)",
    load_name="himga_longmemeval",
    builder_module="himga_longmemeval.longmemeval",
    load_builder=_builder,
    row_modules=("himga_longmemeval.longmemeval", "himga_longmemeval.records", "himga_longmemeval.folder"),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes=Path(__file__).with_name("card_notes.md"),
    published_rows=500,
    scorer=LONGMEMEVAL_SCORER,
    shape_note=shape_note,
)
