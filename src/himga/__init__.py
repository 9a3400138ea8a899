"""himga: LoCoMo and LongMemEval, normalized, for evaluating long-term memory systems of LLM agents.

Subpackages: :mod:`himga.data` (dataclasses and loaders), :mod:`himga.sources` (source files; :mod:`himga.utils` keeps the seed's names),
:mod:`himga.errors` (exceptions), :mod:`himga.cli` (the ``himga`` command).

Importing ``himga`` imports no ``datasets``: once ``datasets`` is imported (now or later), the benchmarks'
names (``himga_locomo``, ...) are registered with ``datasets.load_dataset`` (:mod:`himga._registration`).
"""

import wrapt

from himga.version import __version__  # noqa: F401


@wrapt.when_imported("datasets")
def _register(_datasets) -> None:
    from himga._registration import register

    register()
