"""The ``himga_locomo_plus`` dataset: the LoCoMo-Plus builder (:mod:`.locomo_plus`), its dataset card (``README.md``)
and
its catalogue entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the builder is imported on
first use). LoCoMo's rules,
gold variants and errata pin are LoCoMo's entry's own objects."""

from pathlib import Path

from himga.entry import Benchmark
from himga.schema.relevance import LOCOMO as _RELEVANCE
from himga_locomo import ENTRY as _LOCOMO
from himga_locomo import gold_report
from himga_locomo_plus import judge, pins, validate_rules
from himga_locomo_plus.options import LocomoPlusOptions

__all__ = ["ENTRY"]


def _builder() -> type:
    """The builder class, imported on first use (it imports ``datasets``)."""
    from himga_locomo_plus.locomo_plus import LocomoPlus

    return LocomoPlus


ENTRY = Benchmark(
    name="locomo_plus",
    title="LoCoMo-Plus (HiMGA-normalized)",
    load_name="himga_locomo_plus",
    builder_module="himga_locomo_plus.locomo_plus",
    load_builder=_builder,
    row_modules=("himga_locomo_plus.locomo_plus", "himga_locomo_plus.records", *_LOCOMO.row_modules),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes=Path(__file__).with_name("card_notes.md"),
    published_rows=411,
    scorer=judge.SCORER,
    gold_variants=gold_report,
    auxiliary=_LOCOMO.auxiliary,
    options_class=LocomoPlusOptions,
)
