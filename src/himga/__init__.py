"""himga: LoCoMo and LongMemEval, normalized, for evaluating long-term memory systems of LLM agents.

Subpackages: :mod:`himga.data` (dataclasses and loaders), :mod:`himga.utils` (source files),
:mod:`himga.errors` (exceptions), :mod:`himga.cli` (the ``himga`` command).
"""

__version__ = "0.1.0"

# Registers "himga_locomo" and "himga_longmemeval" with datasets.load_dataset (see himga.registry).
from himga import registry as _registry  # noqa: E402,F401
