"""himga: the benchmarks of long-term conversational memory (LoCoMo, LongMemEval, BEAM, LoCoMo-Plus, REALTALK),
normalized, for evaluating the memory systems of LLM agents, and their official scores.

Subpackages, bottom up: :mod:`himga.schema` (the dataclasses, features, relevance, the system view),
:mod:`himga.sources` (source files), :mod:`himga.scoring` (official scorers and judges), :mod:`himga.cache` (the
builders' base and cache), :mod:`himga.catalog` (one entry per benchmark), :mod:`himga.data` (the seed's loaders;
:mod:`himga.utils` keeps the seed's names), :mod:`himga.run` (what a run is computed on, its files),
:mod:`himga.cli` (the ``himga`` command); :mod:`himga.errors` (exceptions) under them all.

Importing ``himga`` imports no ``datasets``: once ``datasets`` is imported (now or later), the benchmarks'
names (``himga_locomo``, ...) are registered with ``datasets.load_dataset`` (:mod:`himga._registration`).
"""

import wrapt

from himga.version import __version__  # noqa: F401


@wrapt.when_imported("datasets")
def _register(_datasets) -> None:
    from himga._registration import register

    register()
