"""The ``himga_beam`` dataset: the BEAM builder (:mod:`.beam`), its dataset card (``README.md``) and its catalogue
entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the builder is imported on first use)."""

from himga.data.relevance import EVIDENCE_TURNS as _RELEVANCE
from himga.entry import Benchmark
from himga.scoring import BEAM_SCORER
from himga_beam import pins, validate_rules

__all__ = ["ENTRY"]

ENTRY = Benchmark(
    name="beam",
    title="BEAM (HiMGA-normalized)",
    load_name="himga_beam",
    builder_name="himga_beam.beam:Beam",
    row_modules=("himga_beam.beam", "himga_beam.records", "himga_beam.layout"),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes="card_notes.md",
    published_rows=35,
    scorer=BEAM_SCORER,
    release_ids=pins.release_sample_ids,
)
