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

import dataclasses
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib.resources import files as _package_files
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError

__all__ = ["CATALOG", "NAMES", "Benchmark", "benchmark", "by_load_name", "of_builder"]


@dataclass(frozen=True, eq=False)  # one object per benchmark: compared and hashed by identity
class Benchmark:
    """One benchmark: its builder, configs and pins, and its rules.

    Attributes:
        name: The himga name (``Sample.dataset``, the CLI's argument), e.g. ``"locomo"``.
        title: The dataset card's ``pretty_name``, e.g. ``"LoCoMo (HiMGA-normalized)"``.
        load_name: The name registered with ``datasets.load_dataset``, e.g. ``"himga_locomo"``.
        builder_module: The module holding the ``GeneratorBasedBuilder`` (and ``_DESCRIPTION``,
            ``_LICENSE``, ``_HOMEPAGE``, ``_CITATION`` for the card).
        row_modules: The modules of the builder folder whose code shapes rows (the builder, its records
            module, its file rule or gold variants where those are modules of their own): with the shared schema modules,
            the cache key (:mod:`himga.build.cache_key`) covers these and nothing else.
        files_rule: ``"module:function"`` deciding which files a build reads:
            ``function(config, data_dir) -> list[Path]`` (see :meth:`source_files`).
        validate_rules: The module with ``KINDS`` (kind → title) and ``findings(sample)`` for ``himga validate``.
        relevance_rule: ``"module:attribute"``, a :class:`himga.data.relevance.RelevanceRule`.
        card_notes: The Markdown file (in the builder's package) of the card's "Data notes".
        published_rows: Rows per config of the full release (the card's size category without an export).
        scorer: ``"module:attribute"``, how the benchmark is scored (a :class:`himga.scoring.Benchmark`:
            its metric, per-QA score or judge, table rows and totals), or ``None`` where none is wired.
        gold_variants: ``"module:attribute"``, the gold-answer variants by name (the config option ``gold``;
            LoCoMo: ``published``, ``audited``), or ``None`` for a benchmark with its published gold only.
    """

    name: str
    title: str
    load_name: str
    builder_module: str
    row_modules: tuple[str, ...]
    files_rule: str
    validate_rules: str
    relevance_rule: str
    card_notes: str
    published_rows: int
    scorer: str | None = None
    gold_variants: str | None = None

    # --- the builder ----------------------------------------------------------------------------------

    @property
    def module(self) -> Any:
        """The builder module (imported on first use)."""
        return importlib.import_module(self.builder_module)

    @cached_property
    def builder(self) -> type:
        """The ``datasets.GeneratorBasedBuilder`` subclass defined in :attr:`builder_module`."""
        import datasets

        module = self.module
        return next(
            obj
            for obj in vars(module).values()
            if inspect.isclass(obj) and issubclass(obj, datasets.GeneratorBasedBuilder) and obj.__module__ == module.__name__
        )

    @property
    def configs(self) -> list[str]:
        """Config names, in builder order."""
        return [c.name for c in self.builder.BUILDER_CONFIGS]

    @property
    def default_config(self) -> str:
        """The builder's default config name."""
        return self.builder.DEFAULT_CONFIG_NAME

    def config(self, name: str | None = None) -> Any:
        """The builder config ``name`` (default: the default config).

        Raises:
            ConfigurationError: unknown config, e.g. ``longmemeval: unknown config 'x'; expected one of [...]``.
        """
        name = self.default_config if name is None else name
        if name not in self.builder.builder_configs:
            raise ConfigurationError(f"{self.name}: unknown config {name!r}; expected one of {self.configs}")
        return self.builder.builder_configs[name]

    def pins(self) -> dict[str, Any]:
        """Config name → its pinned source file (a :class:`himga.sources.RemoteFile`), builder order."""
        return {c.name: c.remote_file() for c in self.builder.BUILDER_CONFIGS}

    def auxiliary_pins(self) -> list[tuple[str, str, Any]]:
        """``(folder, label, pin)`` of the other pinned files the builder reads, from its config class's
        ``auxiliary_pins()`` (LoCoMo: ``("locomo-audit", "errata", <errors.json>)``, read with ``gold="audited"``);
        ``folder`` is where the file is found under ``$HIMGA_DATASETS_ROOT`` and ``$HIMGA_CACHE``."""
        config_class = self.builder.BUILDER_CONFIG_CLASS
        return list(config_class.auxiliary_pins()) if hasattr(config_class, "auxiliary_pins") else []

    def pin(self, config: str | None = None) -> Any:
        """The pinned source file of ``config`` (default: the default config)."""
        return self.config(config).remote_file()

    # --- the file rules -------------------------------------------------------------------------------

    def source_files(self, config: str | None, data_dir: str | Path | None) -> list[Path]:
        """The files a build of ``config`` reads from ``data_dir``, in reading order.

        The one rule every route uses (the builder's ``_split_generators``, export, validate, stats).

        Args:
            config: A config name (``None``: the default).
            data_dir: One file (read as it is), a folder, or ``None`` for the pinned source's folder
                (found or downloaded by :func:`himga.sources.get_dataset`).

        Returns:
            The files; ``[]`` for a folder without the config's file (the builder then raises).

        Raises:
            ConfigurationError: ``data_dir`` does not exist.
            DownloadError, ChecksumError: the pinned source could not be fetched or verified.
        """
        module, _, function = self.files_rule.partition(":")
        return getattr(importlib.import_module(module), function)(self.config(config), data_dir)

    def configs_named(self, filename: str) -> list[str]:
        """The configs whose source file may be called ``filename``, in builder order (``[]``: none).

        A config's file may be called by the config's ``candidate_names`` (LongMemEval: the pinned name with or
        without ``.json``, or as ``.jsonl``), else by its pin's name (:attr:`himga.sources.RemoteFile.local_names`).
        """
        return [c.name for c in self.builder.BUILDER_CONFIGS if filename in _file_names(c)]

    def file_names(self) -> str:
        """The file names of every config, for messages: ``"s: longmemeval_s_cleaned.json or ...; m: ..."``."""
        return "; ".join(f"{c.name}: {' or '.join(_file_names(c))}" for c in self.builder.BUILDER_CONFIGS)

    # --- options --------------------------------------------------------------------------------------

    @property
    def options(self) -> tuple[str, ...]:
        """The config options a user may pass (``USER_OPTIONS`` of the config class), e.g. ``category_order``."""
        return tuple(getattr(self.builder.BUILDER_CONFIG_CLASS, "USER_OPTIONS", ()))

    def check_options(self, options: Mapping[str, Any], keywords: tuple[str, ...] | Callable[..., Any] = (),
                      *, accepted: set[str] | None = None) -> None:
        """Refuse a keyword that neither the caller nor the config takes (a misspelling, usually).

        The one check of every route (the facade, ``make_builder``, ``datasets.load_dataset``).

        Args:
            options: The extra keywords received.
            keywords: The caller's own keywords (listed as choices), or the caller itself (its
                keywords with defaults are listed).
            accepted: Keywords accepted besides the config's fields (default: none).

        Raises:
            ConfigurationError: ``locomo: unknown keyword 'confg'; expected one of config, data_dir,
                cache_dir, lazy, category_order, adversarial_answer, category3_answer``: the caller's
                keywords and the config's ``USER_OPTIONS``, never its internal fields.
        """
        import datasets

        base = {f.name for f in dataclasses.fields(datasets.BuilderConfig)}  # name, data_dir, ...: not options
        fields = {f.name for f in dataclasses.fields(self.builder.BUILDER_CONFIG_CLASS)} - base
        if not (unknown := sorted(set(options) - fields - (accepted or set()))):
            return
        if callable(keywords):
            keywords = tuple(p.name for p in inspect.signature(keywords).parameters.values()
                             if p.default is not p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))  # fmt: skip
        choices = ", ".join([*keywords, *self.options])
        expected = f"expected one of {choices}" if choices else "it takes none"
        raise ConfigurationError(f"{self.name}: unknown keyword {', '.join(map(repr, unknown))}; {expected}")

    # --- rules beside the builder ---------------------------------------------------------------------

    @property
    def rules(self) -> Any:
        """The validate rules module (``KINDS``, ``findings(sample)``)."""
        return importlib.import_module(self.validate_rules)

    @property
    def relevance(self) -> Any:
        """The :class:`~himga.data.relevance.RelevanceRule` of this benchmark."""
        module, _, attribute = self.relevance_rule.partition(":")
        return getattr(importlib.import_module(module), attribute)

    @property
    def golds(self) -> dict[str, Any]:
        """The gold variants named by :attr:`gold_variants` (``{}`` without any)."""
        if self.gold_variants is None:
            return {}
        module, _, attribute = self.gold_variants.partition(":")
        return dict(getattr(importlib.import_module(module), attribute))

    @property
    def scoring(self) -> Any:
        """The :class:`himga.scoring.Benchmark` named by :attr:`scorer` (``None`` without one)."""
        if self.scorer is None:
            return None
        module, _, attribute = self.scorer.partition(":")
        return getattr(importlib.import_module(module), attribute)

    @property
    def notes(self) -> str:
        """The card's "Data notes" (Markdown)."""
        package = self.builder_module.partition(".")[0]
        return (_package_files(package) / self.card_notes).read_text(encoding="utf-8")


def _file_names(config: Any) -> list[str]:
    """The source file names of a builder config: its ``candidate_names``, else its pin's local names."""
    return list(getattr(config, "candidate_names", None) or config.remote_file().local_names)


#: Every benchmark, by name.
CATALOG: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark(
            name="locomo",
            title="LoCoMo (HiMGA-normalized)",
            load_name="himga_locomo",
            builder_module="himga_locomo.locomo",
            row_modules=("himga_locomo.locomo", "himga_locomo.records", "himga_locomo.gold"),
            files_rule="himga_locomo.locomo:source_files",
            validate_rules="himga_locomo.validate_rules",
            relevance_rule="himga.data.relevance:LOCOMO",
            card_notes="card_notes.md",
            published_rows=10,
            scorer="himga.scoring.benchmarks:LOCOMO",
            gold_variants="himga_locomo.gold:GOLD_VARIANTS",
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
