"""The ``himga_beam`` dataset: the BEAM builder (:mod:`.beam`), its dataset card (``README.md``) and its catalogue
entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the builder is imported on first use)."""

from pathlib import Path

from himga.entry import Benchmark
from himga.schema.relevance import EVIDENCE_TURNS as _RELEVANCE
from himga.scoring import BEAM_SCORER
from himga_beam import pins, validate_rules

__all__ = ["ENTRY"]


def _builder() -> type:
    """The builder class, imported on first use (it imports ``datasets``)."""
    from himga_beam.beam import Beam

    return Beam


ENTRY = Benchmark(
    name="beam",
    title="BEAM (HiMGA-normalized)",
    load_name="himga_beam",
    builder_module="himga_beam.beam",
    load_builder=_builder,
    row_modules=("himga_beam.beam", "himga_beam.records", "himga_beam.layout"),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes=Path(__file__).with_name("card_notes.md"),
    published_rows=35,
    scorer=BEAM_SCORER,
    release_ids=pins.release_sample_ids,
)
