"""The catalogue: one entry per benchmark, and every rule that differs between benchmarks.

Like ``datasets``' ``packaged_modules/__init__.py`` (every packaged builder named once, every consumer
looks it up there): a benchmark is one :class:`Benchmark` in :data:`CATALOG`. Consumers (the CLI, the
facade, the ``datasets`` registration, validate, the card, export, qrels, relevance) receive the
resolved entry from :func:`benchmark` and never re-resolve a builder from a name.

Each rule that differs between benchmarks is decided here, in one method every route calls:

* :meth:`Benchmark.source_files`: which files a build of a config reads from a path (a file, a folder,
  or the pinned source's folder);
* :meth:`Benchmark.configs_named`: which configs a file name belongs to;
* :meth:`Benchmark.check_options`: which keywords a caller may pass (one wording on every route);
* validate rules (:attr:`Benchmark.validate_rules`), the relevance rule (:attr:`Benchmark.relevance_rule`),
  the card text (:attr:`Benchmark.card_notes`), the cache key's modules (:attr:`Benchmark.row_modules`).

Modules are named as strings and imported on first use, so importing the catalogue imports no builder
(``himga.sources`` and ``himga.data.relevance`` use it without importing ``datasets``).

Adding a benchmark: ``docs/adding-a-benchmark.md``.
"""

from __future__ import annotations

from himga.catalog._benchmark import Benchmark
from himga.errors import ConfigurationError

__all__ = ["AUXILIARY_FOLDERS", "CATALOG", "NAMES", "Benchmark", "benchmark", "by_load_name", "of_builder"]

#: Every benchmark, by name.
CATALOG: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark(
            name="locomo",
            title="LoCoMo (HiMGA-normalized)",
            load_name="himga_locomo",
            builder_module="himga_locomo.locomo",
            row_modules=("himga_locomo.locomo", "himga_locomo.records", "himga_locomo.qa_records", "himga_locomo.gold"),
            files_rule="himga_locomo.locomo:source_files",
            validate_rules="himga_locomo.validate_rules",
            relevance_rule="himga.data.relevance:LOCOMO",
            card_notes="card_notes.md",
            published_rows=10,
            scorer="himga.scoring.benchmarks:LOCOMO",
            gold_variants="himga_locomo.gold_report",
            auxiliary=(("locomo-audit", "errata", "himga_locomo.gold:ERRATA_PIN"),),
        ),
        Benchmark(
            name="longmemeval",
            title="LongMemEval (HiMGA-normalized)",
            load_name="himga_longmemeval",
            builder_module="himga_longmemeval.longmemeval",
            row_modules=("himga_longmemeval.longmemeval", "himga_longmemeval.records", "himga_longmemeval.folder"),
            files_rule="himga_longmemeval.folder:source_files",
            validate_rules="himga_longmemeval.validate_rules",
            relevance_rule="himga.data.relevance:LONGMEMEVAL",
            card_notes="card_notes.md",
            published_rows=500,
            scorer="himga.scoring.benchmarks:LONGMEMEVAL",
        ),
    )
}

#: The benchmark names, in catalogue order.
NAMES: tuple[str, ...] = tuple(CATALOG)

#: The folders of the other pinned files of every benchmark (:attr:`Benchmark.auxiliary`), found under
#: ``$HIMGA_DATASETS_ROOT`` and ``$HIMGA_CACHE`` like a benchmark's own folder: ``("locomo-audit",)``.
AUXILIARY_FOLDERS: tuple[str, ...] = tuple(folder for b in CATALOG.values() for folder, _label, _pin in b.auxiliary)


def benchmark(name: str) -> Benchmark:
    """The catalogue entry of benchmark ``name``.

    Raises:
        ConfigurationError: unknown name (a ``ValueError``): ``unknown dataset 'x'; expected one of ['locomo', 'longmemeval']``.
    """
    if isinstance(name, Benchmark):
        return name
    if name not in CATALOG:
        raise ConfigurationError(f"unknown dataset {name!r}; expected one of {sorted(CATALOG)}")
    return CATALOG[name]


def by_load_name(load_name: str) -> Benchmark | None:
    """The entry registered with ``datasets.load_dataset`` as ``load_name`` (``"himga_locomo"``), else ``None``."""
    return next((b for b in CATALOG.values() if b.load_name == load_name), None)


def of_builder(cls: type) -> Benchmark | None:
    """The entry whose builder ``cls`` is (or derives from), matched by module name; else ``None``."""
    modules = {klass.__module__ for klass in cls.__mro__}
    return next((b for b in CATALOG.values() if b.builder_module in modules), None)
