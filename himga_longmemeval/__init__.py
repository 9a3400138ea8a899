"""The ``himga_longmemeval`` dataset: the LongMemEval builder (:mod:`.longmemeval`), its dataset card
(``README.md``) and its catalogue entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the
builder is imported on first use)."""

from himga.data.relevance import LONGMEMEVAL as _RELEVANCE
from himga.entry import Benchmark
from himga.scoring import LONGMEMEVAL_SCORER
from himga_longmemeval import pins, validate_rules

__all__ = ["ENTRY"]

ENTRY = Benchmark(
    name="longmemeval",
    title="LongMemEval (HiMGA-normalized)",
    load_name="himga_longmemeval",
    builder_name="himga_longmemeval.longmemeval:Longmemeval",
    row_modules=("himga_longmemeval.longmemeval", "himga_longmemeval.records", "himga_longmemeval.folder"),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes="card_notes.md",
    published_rows=500,
    scorer=LONGMEMEVAL_SCORER,
)
