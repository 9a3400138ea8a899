"""The ``himga_beam`` dataset: the BEAM builder (:mod:`.beam`), its dataset card (``README.md``) and its catalogue
entry, :data:`ENTRY` (the rule objects themselves, which :mod:`himga.catalog` imports)."""

from himga.data.relevance import EVIDENCE_TURNS as _RELEVANCE
from himga.entry import Benchmark
from himga.scoring import BEAM_SCORER
from himga_beam import beam, layout, records, validate_rules

__all__ = ["ENTRY"]

ENTRY = Benchmark(
    name="beam",
    title="BEAM (HiMGA-normalized)",
    load_name="himga_beam",
    builder=beam.Beam,
    row_modules=(beam, records, layout),
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes="card_notes.md",
    published_rows=35,
    scorer=BEAM_SCORER,
    release_ids=beam.release_sample_ids,
)
