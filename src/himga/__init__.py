"""himga: LoCoMo and LongMemEval, normalized, for evaluating long-term memory systems of LLM agents.

Subpackages: :mod:`himga.data` (dataclasses and loaders), :mod:`himga.utils` (source files),
:mod:`himga.errors` (exceptions), :mod:`himga.cli` (the ``himga`` command).
"""

__version__ = "0.1.0"
