"""The catalogue: one entry per benchmark, and every rule that differs between benchmarks.

Like ``datasets``' ``packaged_modules/__init__.py`` (every packaged builder imported once, every consumer
looks it up there): a benchmark is one :class:`~himga.entry.Benchmark`, built by its builder folder
(``himga_locomo.ENTRY``) and imported here, in :data:`CATALOG`. Consumers (the CLI, the facade, the
``datasets`` registration, validate, the card, export, qrels, scoring) receive the resolved entry from
:func:`benchmark` and never re-resolve a builder from a name.

Each rule that differs between benchmarks is decided by the entry, in one method every route calls:

* :meth:`~himga.entry.Benchmark.source_files`: which files a build of a config reads from a path (a file,
  a folder, or the pinned source's folder);
* :meth:`~himga.entry.Benchmark.configs_named`: which configs a file name belongs to;
* :meth:`~himga.entry.Benchmark.check_options`: which keywords a caller may pass (one wording on every route);
* its validate rules, relevance rule, card notes, scorer, gold variants and the modules that shape rows.

Importing the catalogue imports every entry's pins and rules, not its builder: an entry imports its builder (and
so ``datasets``, about a second) on first use of :attr:`~himga.entry.Benchmark.builder` or of what the builder decides
(configs, file rules, options), so that ``himga sources`` and ``himga --help`` run without it.

Adding a benchmark: ``docs/adding-a-benchmark.md``.
"""

from __future__ import annotations

import himga_beam
import himga_locomo
import himga_locomo_plus
import himga_longmemeval
import himga_personamem
import himga_realtalk
from himga.entry import Benchmark
from himga.entry import entry_of_builder as of_builder
from himga.errors import ConfigurationError as _ConfigurationError
from himga.scoring import register_scorer as _register_scorer
from himga.sources import order_folders as _order_folders

__all__ = ["AUXILIARY_FOLDERS", "CATALOG", "NAMES", "Benchmark", "benchmark", "by_load_name", "of_builder"]

#: Every benchmark, by name, in the order the command line and the docs list them.
CATALOG: dict[str, Benchmark] = {
    b.name: b
    for b in (
        himga_locomo.ENTRY,
        himga_longmemeval.ENTRY,
        himga_beam.ENTRY,
        himga_locomo_plus.ENTRY,
        himga_realtalk.ENTRY,
        himga_personamem.ENTRY,
    )
}

#: The benchmark names, in catalogue order.
NAMES: tuple[str, ...] = tuple(CATALOG)
_order_folders(NAMES)  # the source messages list the benchmarks' folders in this order
for _entry in CATALOG.values():  # scoring sits above the entry type: the catalogue registers each benchmark's scorer
    if _entry.scorer is not None:
        _register_scorer(_entry.name, _entry.scorer, release_ids=_entry.release_ids)

#: The folders of the other pinned files of every benchmark (:attr:`Benchmark.auxiliary`), found under
#: ``$HIMGA_DATASETS_ROOT`` and ``$HIMGA_CACHE`` like a benchmark's own folder: ``("locomo-audit",)``.
AUXILIARY_FOLDERS: tuple[str, ...] = tuple(
    dict.fromkeys(folder for b in CATALOG.values() for folder, _label, _pin in b.auxiliary)
)


def benchmark(entry: Benchmark | str) -> Benchmark:
    """``entry`` itself, or the entry called ``entry``: the one lookup by name, for the commands and the facade.

    Raises:
        ConfigurationError: an unknown name (a ``ValueError``): ``unknown dataset 'x'; expected one of ['beam', ...]``.
    """
    if isinstance(entry, Benchmark):
        return entry
    if (found := CATALOG.get(entry)) is None:
        raise _ConfigurationError(f"unknown dataset {entry!r}; expected one of {sorted(NAMES)}")
    return found


def by_load_name(load_name: str) -> Benchmark | None:
    """The entry registered with ``datasets.load_dataset`` as ``load_name`` (``"himga_locomo"``), else ``None``."""
    return next((b for b in CATALOG.values() if b.load_name == load_name), None)
