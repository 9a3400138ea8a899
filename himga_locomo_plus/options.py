"""LoCoMo-Plus's user options, as fields of a dataclass that imports no builder (and so no ``datasets``): LoCoMo's
(:class:`himga_locomo.options.LocomoOptions`) and the placement of the cognitive items.

The builder's config (:class:`himga_locomo_plus.locomo_plus.LocomoPlusConfig`) derives from it; the catalogue entry's
``options`` names it (see :mod:`himga_locomo.options`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from himga_locomo.options import LocomoOptions

__all__ = ["LocomoPlusOptions"]


@dataclass
class LocomoPlusOptions(LocomoOptions):
    """The options of a LoCoMo-Plus build: LoCoMo's (they shape the LoCoMo rows exactly as for ``locomo``), and where
    the cognitive items are placed.

    Attributes:
        placement: ``"official"`` (default): item ``i`` in LoCoMo conversation ``i % 10``, as ``data/unified_input.py``
            places it; ``"random"``: ``data/build_conv.py``'s ``main``, one ``random.choice`` per item, drawn from
            ``placement_seed`` (the official script draws without a seed, so its placement cannot be repeated).
        placement_seed: With ``placement="random"``: the seed (an integer).
    """

    placement: Literal["official", "random"] = field(
        default="official",
        metadata={
            "help": "where the cognitive items go: item i in conversation i mod 10 as unified_input.py places it, or "
            "build_conv.py's random.choice drawn from placement_seed (default: official)"
        },
    )
    placement_seed: int | None = field(
        default=None,
        metadata={"help": "with placement random: the seed of build_conv.py's random.choice draw", "metavar": "N"},
    )
