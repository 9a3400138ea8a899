"""himga: LoCoMo and LongMemEval, normalized, for evaluating long-term memory systems of LLM agents.

Subpackages: :mod:`himga.data` (dataclasses and loaders), :mod:`himga.sources` (source files; :mod:`himga.utils` keeps the seed's names),
:mod:`himga.errors` (exceptions), :mod:`himga.cli` (the ``himga`` command).
"""

from himga.version import __version__  # noqa: E402,F401

# Registers "himga_locomo" and "himga_longmemeval" with datasets.load_dataset (see himga.cache._registration).
from himga.cache import _registration  # noqa: E402,F401
