"""The ``himga_locomo`` dataset: the LoCoMo builder (:mod:`.locomo`), its dataset card (``README.md``) and its
catalogue entry, :data:`ENTRY` (its rules and pins, which :mod:`himga.catalog` imports; the builder is imported on first
use)."""

from pathlib import Path

from himga.entry import Benchmark
from himga.schema.relevance import LOCOMO as _RELEVANCE
from himga.scoring import LOCOMO_SCORER
from himga_locomo import gold, gold_report, pins, probe, validate_rules
from himga_locomo.options import LocomoOptions

__all__ = ["ENTRY"]


def _builder() -> type:
    """The builder class, imported on first use (it imports ``datasets``)."""
    from himga_locomo.locomo import Locomo

    return Locomo


ENTRY = Benchmark(
    name="locomo",
    title="LoCoMo (HiMGA-normalized)",
    load_name="himga_locomo",
    builder_module="himga_locomo.locomo",
    load_builder=_builder,
    row_modules=("himga_locomo.locomo", "himga_locomo.records", "himga_locomo.qa_records", "himga_locomo.gold"),
    pinned=pins.pins,
    validate_rules=validate_rules,
    relevance_rule=_RELEVANCE,
    card_notes=Path(__file__).with_name("card_notes.md"),
    published_rows=10,
    scorer=LOCOMO_SCORER,
    gold_variants=gold_report,
    auxiliary=(
        (gold.ERRATA_FOLDER, "errata", gold.ERRATA_PIN),
        *((probe.PROBE_FOLDER, f"probe-{v}", pin) for v, pin in probe.PROBE_PINS.items()),
    ),
    options_class=LocomoOptions,
)
