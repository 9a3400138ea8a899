"""The ``himga_longmemeval`` dataset: the LongMemEval builder (:mod:`.longmemeval`), its dataset card
(``README.md``) and its catalogue entry, :data:`ENTRY` (the rule objects themselves, which :mod:`himga.catalog`
imports)."""

from himga.data.relevance import LONGMEMEVAL as _RELEVANCE
from himga.entry import Benchmark
from himga.scoring import LONGMEMEVAL_SCORER
from himga_longmemeval import folder, longmemeval, records, validate_rules

__all__ = ["ENTRY"]

ENTRY = Benchmark(
    name="longmemeval",
    title="LongMemEval (HiMGA-normalized)",
    load_name="himga_longmemeval",
    builder=longmemeval.Longmemeval,
    row_modules=(longmemeval, records, folder),
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes="card_notes.md",
    published_rows=500,
    scorer=LONGMEMEVAL_SCORER,
)
