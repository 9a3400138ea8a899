"""The type of a catalogue entry: one benchmark's builder, configs, pins and rules.

Each builder folder makes its entry (``himga_locomo.ENTRY``) and :mod:`himga.catalog` imports them all, so the
catalogue's reach is visible as imports; names are looked up there and in the commands, never below. An entry holds
a function of its folder that imports the builder on first use (:attr:`Benchmark.builder`): the builders import
``datasets`` (about a second), which what reads only the pins and rules (``himga sources``, ``himga --help``) does
without. An entry registers its relevance rule with :mod:`himga.schema.relevance` when it is made, so that a
``Sample`` finds its rule without asking the catalogue.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from himga.errors import ConfigurationError
from himga.options import user_options
from himga.schema.relevance import register_rule
from himga.sources import KnownFolder, register_folders

__all__ = ["Benchmark", "entry_of_builder"]

#: The module of each entry's builder → the entry, filled as entries are made (:meth:`Benchmark.__post_init__`).
_BY_BUILDER_MODULE: dict[str, Benchmark] = {}


def entry_of_builder(cls: type) -> Benchmark | None:
    """The entry whose builder ``cls`` is (or derives from), else ``None``: what a builder asks of its own entry (its
    options, its name in messages). Looked up among the entries made (a builder folder makes its entry before its
    builder module is imported); imports nothing.
    """
    return next((_BY_BUILDER_MODULE[c.__module__] for c in cls.__mro__ if c.__module__ in _BY_BUILDER_MODULE), None)


@dataclass(frozen=True, eq=False)  # one object per benchmark: compared and hashed by identity
class Benchmark:
    """One benchmark: its builder, configs and pins, and its rules.

    Attributes:
        name: The himga name (``Sample.dataset``, the CLI's argument), e.g. ``"locomo"``.
        title: The dataset card's ``pretty_name``, e.g. ``"LoCoMo (HiMGA-normalized)"``.
        load_name: The name registered with ``datasets.load_dataset``, e.g. ``"himga_locomo"``.
        builder_module: The module of the ``datasets.GeneratorBasedBuilder`` subclass (``"himga_locomo.locomo"``): the
            ``module_path`` ``datasets`` is given (:mod:`himga._registration`).
        load_builder: A function of the builder folder that imports the builder class and returns it
            (``from himga_locomo.locomo import Locomo``), called on first use of :attr:`builder`.
        row_modules: The names of the modules of the builder folder whose code shapes rows (the builder, its records
            modules, its file rule or gold variants where those are modules of their own): with every himga
            module they import, the code the cache key covers (:func:`himga.cache.row_files`).
        pinned: A function returning config name → its pinned source file (a :class:`himga.sources.RemoteFile`), in
            builder order, from a module that imports no builder (``himga_locomo.pins``): :meth:`pins`. Each builder
            config's ``remote_file()`` returns the same pin (``tests/test_catalog.py`` checks it).
        validate_rules: The module with ``KINDS`` (kind → title) and ``findings(sample)`` for ``himga validate``.
        relevance_rule: A :class:`himga.schema.relevance.RelevanceRule`.
        card_notes: The Markdown file of the card's "Data notes" (``card_notes.md`` in the builder folder).
        published_rows: Rows per config of the full release (the card's size category without an export).
        scorer: How the benchmark is scored (a :class:`himga.scoring.Scorer`: its metric, per-QA score or
            judge, table rows and totals), or ``None`` where none is wired.
        gold_variants: The module describing the gold-answer variants (the config option ``gold``), or ``None``
            for a benchmark with its published gold only. It provides ``VARIANTS`` (name → description, the
            default first; LoCoMo: ``published``, ``audited``), ``summary(samples) -> dict`` and
            ``format_summary(summary) -> str`` (what ``himga stats --gold`` prints), and
            ``errata_file(errata) -> Path`` (the errata file a build with ``errata=`` reads).
        auxiliary: The other pinned files the builder reads, as ``(folder, label, RemoteFile)``: the folder it
            is found in under ``$HIMGA_DATASETS_ROOT`` and ``$HIMGA_CACHE`` (like a benchmark's own folder),
            its label in ``himga sources``, and its pin (LoCoMo: ``("locomo-audit", "errata", ERRATA_PIN)``,
            read with ``gold="audited"``).
        options_class: The dataclass of the configs' user options (fields with a ``help``,
            :func:`himga.options.option_specs`), from a module that imports no builder (``himga_locomo.options``): the
            builder's config class derives from it; ``None`` for a benchmark without options.
        release_ids: For a benchmark whose configs hold other samples under ids of the same form (BEAM's tiers),
            a function returning ``{sample_id: config}`` of every config's full release, so that an answer to
            another config's sample is named as such (:func:`himga.scoring.match_records`); ``None`` otherwise.
        shape_note: ``(config, samples) -> note or None``: what the data read says of the config it was read as, when
            the file's shape is another config's (LongMemEval's oracle file read as ``s``); it may stop at the first
            sample that settles it. ``himga stats`` and ``himga score`` print it.
    """

    name: str
    title: str
    load_name: str
    builder_module: str
    load_builder: Callable[[], type]
    row_modules: tuple[str, ...]
    pinned: Callable[[], Mapping[str, Any]]
    validate_rules: ModuleType
    relevance_rule: Any
    card_notes: Path
    published_rows: int
    scorer: Any = None
    gold_variants: ModuleType | None = None
    auxiliary: tuple[tuple[str, str, Any], ...] = ()
    release_ids: Callable[[], Mapping[str, str]] | None = None
    options_class: type | None = None
    shape_note: Callable[[str, Any], str | None] | None = None

    def __post_init__(self) -> None:
        register_rule(self.name, self.relevance_rule)
        register_folders(
            self.name,
            tuple(
                KnownFolder(folder, pin, f"--{label} / {label}=" if label in self.options else None)
                for folder, label, pin in self.auxiliary
            ),
        )
        _BY_BUILDER_MODULE.setdefault(self.builder_module, self)

    # --- the builder ----------------------------------------------------------------------------------

    @cached_property
    def builder(self) -> type:
        """The ``datasets.GeneratorBasedBuilder`` subclass (its module holds ``_DESCRIPTION``, ``_LICENSE``,
        ``_HOMEPAGE``, ``_CITATION`` for the card), imported on first use (and with it ``datasets``)."""
        return self.load_builder()

    @property
    def module(self) -> ModuleType:
        """The builder module (and ``_DESCRIPTION``, ``_LICENSE``, ``_HOMEPAGE``, ``_CITATION`` for the card)."""
        return inspect.getmodule(self.builder)

    @property
    def configs(self) -> list[str]:
        """Config names, in builder order: the keys of :meth:`pins` (imports no builder; the builder's
        ``BUILDER_CONFIGS`` are the same, ``tests/test_catalog.py``)."""
        return list(self.pins())

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

    def note(self, config: str | None = None) -> str | None:
        """What a reader of a build of ``config`` must know (the config's ``note``, e.g. a superseded release), or
        ``None``."""
        return getattr(self.config(config), "note", None)

    def pins(self) -> dict[str, Any]:
        """Config name → its pinned source file (a :class:`himga.sources.RemoteFile`), builder order (:attr:`pinned`:
        imports no builder, and so no ``datasets``)."""
        return dict(self.pinned())

    def auxiliary_pins(self) -> list[tuple[str, str, Any]]:
        """``(folder, label, pin)`` of the other pinned files the builder reads (:attr:`auxiliary`), resolved
        (LoCoMo: ``("locomo-audit", "errata", <errors.json>)``)."""
        return list(self.auxiliary)

    def auxiliary_pin(self, label: str) -> tuple[str, Any]:
        """``(folder, pin)`` of the auxiliary file labelled ``label`` (LoCoMo ``"errata"``).

        Raises:
            ConfigurationError: the benchmark has no such file.
        """
        for folder, name, pin in self.auxiliary_pins():
            if name == label:
                return folder, pin
        raise ConfigurationError(f"{self.name}: no pinned {label} file")

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
        return self.builder.files_rule(self.config(config), data_dir)

    def config_of(self, config: str | None, data_dir: str | Path | None, data_files: Any = None) -> str:
        """The config a build of this source is: the builder's ``config_rule`` (LongMemEval's file names, BEAM's tier
        folders), else ``config`` or the default. The one rule of the builds and of export.

        Raises:
            ConfigurationError: as the builder's rule (a source whose names say several configs, or none).
        """
        return self.builder.config_for(config, data_dir, data_files)

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
        """The config options a user may pass (the fields with a ``help`` of :attr:`options_class`, which the config
        class derives from: :func:`himga.options.user_options`), e.g. ``category_order``; imports no builder."""
        return () if self.options_class is None else user_options(self.options_class)

    def check_options(
        self,
        options: Mapping[str, Any],
        keywords: tuple[str, ...] | Callable[..., Any] = (),
        *,
        accepted: set[str] | None = None,
    ) -> None:
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
                keywords and the config's options, never its internal fields.
        """
        import datasets

        base = {f.name for f in dataclasses.fields(datasets.BuilderConfig)}  # name, data_dir, ...: not options
        fields = {f.name for f in dataclasses.fields(self.builder.BUILDER_CONFIG_CLASS)} - base
        if not (unknown := sorted(set(options) - fields - (accepted or set()))):
            return
        if callable(keywords):
            parameters = inspect.signature(keywords).parameters.values()
            kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            keywords = tuple(p.name for p in parameters if p.default is not p.empty and p.kind in kinds)
        choices = ", ".join([*keywords, *self.options])
        expected = f"expected one of {choices}" if choices else "it takes none"
        raise ConfigurationError(f"{self.name}: unknown keyword {', '.join(map(repr, unknown))}; {expected}")

    # --- rules beside the builder ---------------------------------------------------------------------

    @property
    def golds(self) -> dict[str, str]:
        """The gold variants, name → description, the default first (``{}`` without any)."""
        return {} if self.gold_variants is None else dict(self.gold_variants.VARIANTS)

    @property
    def default_gold(self) -> str:
        """The gold variant of a build without ``gold=``: the first of :attr:`golds`, else ``"published"``."""
        return next(iter(self.golds), "published")

    @property
    def notes(self) -> str:
        """The card's "Data notes" (Markdown)."""
        return Path(self.card_notes).read_text(encoding="utf-8")


def _file_names(config: Any) -> list[str]:
    """The source file names of a builder config: its ``candidate_names``, else its pin's local names."""
    return list(getattr(config, "candidate_names", None) or config.remote_file().local_names)
