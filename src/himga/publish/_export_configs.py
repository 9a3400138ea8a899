"""The configs of an export: each builder config with the default gold, and each with another gold variant.

A Hub user picks rows by config name, ``datasets.load_dataset(repo, "audited")``, so published and audited
rows of one benchmark live side by side in one export folder as two configs, never mixed in one:

=================  ==========================  ==========================================
export config      rows                        folder
=================  ==========================  ==========================================
``default``        LoCoMo, ``gold="published"``  ``data/default/``
``audited``        LoCoMo, ``gold="audited"``    ``data/audited/``
``system``         LoCoMo's system view          ``data/system/`` (no gold: :func:`himga.data.system_view`)
=================  ==========================  ==========================================

The system view of a builder config ``c`` is the export config ``system`` (the default config) or ``c_system``;
its rows have :data:`~himga.schema.view.SYSTEM_FEATURES`, the others :data:`~himga.schema.features.SAMPLE_FEATURES`.

:func:`export_name` is the one naming rule: a builder config keeps its name with the default gold; with
another variant the export config is named after the variant (the builder's default config, LoCoMo's only
one) or ``<config>_<variant>``. The gold record (:func:`gold_record`) names the variant and the errata
file's name and sha256; it goes into the shards' himga metadata and onto the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from himga.catalog import Benchmark, benchmark
from himga.errors import ConfigurationError

__all__ = [
    "VIEWS",
    "ExportConfig",
    "export_config",
    "export_configs",
    "export_name",
    "gold_options",
    "gold_record",
    "view_name",
]


@dataclass(frozen=True)
class ExportConfig:
    """One config of an export.

    Attributes:
        name: Its name in the export: ``data/<name>/``, the card's ``config_name``, ``load_dataset(repo, name)``.
        config: The builder config its rows are built with.
        gold: The gold variant of its rows (the benchmark's default, ``"published"``, or e.g. ``"audited"``).
        view: ``"system"`` for the system view of the config's rows (no gold), else ``None``.
    """

    name: str
    config: str
    gold: str
    view: str | None = None


def export_name(entry: Benchmark, config: str, gold: str | None = None) -> str:
    """The export config name of builder config ``config`` with gold variant ``gold`` (default: the entry's).

    ``("default", "published")`` → ``"default"``; ``("default", "audited")`` → ``"audited"`` (the default
    config); another config ``c`` → ``"c_audited"``.
    """
    entry = benchmark(entry)
    gold = entry.default_gold if gold is None else gold
    if gold == entry.default_gold:
        return config
    return gold if config == entry.default_config else f"{config}_{gold}"


#: The views an export may hold beside the Samples (``himga export --view system``).
VIEWS = ("system",)


def view_name(entry: Benchmark, config: str, view: str = "system") -> str:
    """The export config name of ``view`` of builder config ``config``: ``"system"`` (the default config) or
    ``"c_system"``."""
    return view if config == benchmark(entry).default_config else f"{config}_{view}"


def export_configs(entry: Benchmark) -> list[ExportConfig]:
    """Every config an export of ``entry`` may hold, in card order: the builder's configs with the default
    gold, then, per other gold variant, the builder's configs with it, then the system view of each."""
    entry = benchmark(entry)
    golds = list(entry.golds) or [entry.default_gold]
    samples = [ExportConfig(export_name(entry, c, g), c, g) for g in golds for c in entry.configs]
    return samples + [
        ExportConfig(view_name(entry, c, v), c, entry.default_gold, v) for v in VIEWS for c in entry.configs
    ]


def export_config(entry: Benchmark, name: str) -> ExportConfig:
    """The :class:`ExportConfig` called ``name``.

    Raises:
        ConfigurationError: no export config of ``entry`` has that name.
    """
    configs = export_configs(entry)
    for c in configs:
        if c.name == name:
            return c
    raise ConfigurationError(
        f"{benchmark(entry).name}: unknown config {name!r}; expected one of {[c.name for c in configs]}"
    )


def gold_options(entry: Benchmark, gold: str | None, errata: str | Path | None) -> dict[str, Any]:
    """The builder options of gold variant ``gold`` (``{}`` for the default gold), checked.

    Raises:
        ConfigurationError: ``entry`` has no gold variants but ``gold``/``errata`` are given; an unknown
            variant; ``errata`` with the default gold.
    """
    entry = benchmark(entry)
    if gold is None and errata is None:
        return {}
    if not entry.golds:
        raise ConfigurationError(
            f"{entry.name}: has no gold variants (gold=, errata= apply to benchmarks that have them)"
        )
    gold = entry.default_gold if gold is None else gold
    if gold not in entry.golds:
        raise ConfigurationError(f"{entry.name}: gold: expected one of {list(entry.golds)}, got {gold!r}")
    if gold == entry.default_gold:
        if errata is not None:
            raise ConfigurationError(f"{entry.name}: errata: an errata file applies to another gold than {gold!r}")
        return {}
    return {"gold": gold, **({"errata": str(errata)} if errata is not None else {})}


def gold_record(entry: Benchmark, options: dict[str, Any]) -> dict[str, Any]:
    """What produced the gold of rows built with ``options`` (:func:`gold_options`'s), as export metadata and
    the card record it: :func:`himga.run.gold_identity` as a dict.

    Raises:
        ConfigurationError, DownloadError, ChecksumError: the errata file is missing or cannot be fetched.
    """
    from himga.run import gold_identity

    return gold_identity(entry, options).as_dict()
