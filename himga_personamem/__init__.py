"""The ``himga_personamem`` dataset: the PersonaMem builder (:mod:`.personamem`), its dataset card (``README.md``) and
its catalogue entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the builder is imported on
first use)."""

from pathlib import Path

from himga.entry import Benchmark
from himga.scoring import PERSONAMEM_SCORER
from himga_personamem import pins, validate_rules
from himga_personamem.relevance import RULE

__all__ = ["ENTRY"]


def _builder() -> type:
    """The builder class, imported on first use (it imports ``datasets``)."""
    from himga_personamem.personamem import Personamem

    return Personamem


ENTRY = Benchmark(
    name="personamem",
    title="PersonaMem (HiMGA-normalized)",
    load_name="himga_personamem",
    builder_module="himga_personamem.personamem",
    load_builder=_builder,
    row_modules=("himga_personamem.personamem", "himga_personamem.records", "himga_personamem.layout"),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=RULE,
    card_notes=Path(__file__).with_name("card_notes.md"),
    published_rows=37,
    scorer=PERSONAMEM_SCORER,
)
