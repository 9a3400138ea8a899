"""Every flag of the ``himga`` command, declared once: the benchmark, its config, its source, the cache, and the
builder options (derived from the config classes' option fields, :func:`himga.options.option_specs`)."""

from __future__ import annotations

import argparse

from himga.catalog import CATALOG, NAMES, benchmark
from himga.errors import ConfigurationError
from himga.options import Option, option_specs

__all__ = [
    "DATASETS",
    "add_cache_dir",
    "add_config",
    "add_data_dir",
    "add_dataset",
    "add_export_args",
    "add_options",
    "add_source_args",
    "options",
]

DATASETS = NAMES


def _specs() -> dict[str, tuple[Option, list[str]]]:
    """Every builder option of the catalogue: name → (its spec, the benchmarks taking it), in catalogue order."""
    out: dict[str, tuple[Option, list[str]]] = {}
    for entry in CATALOG.values():
        for spec in option_specs(entry.options_class) if entry.options_class is not None else ():  # no builder imported
            out.setdefault(spec.name, (spec, []))[1].append(entry.name)
    return out


def add_dataset(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    if optional:
        parser.add_argument(
            "dataset", nargs="?", choices=DATASETS, default=None, help="one benchmark (default: every one)"
        )
    else:
        parser.add_argument("dataset", choices=DATASETS, help="which benchmark")


def add_config(parser: argparse.ArgumentParser, *, repeat: bool = False) -> None:
    configs = "; ".join(f"{e.name}: {', '.join(e.configs)}" for e in CATALOG.values() if len(e.configs) > 1)
    if repeat:
        parser.add_argument(
            "--config",
            action="append",
            default=None,
            help=f"a config to export (repeatable; {configs}; default: all of the builder's configs, or with "
            "--data-dir the configs whose file it holds, by file name)",
        )
    else:
        parser.add_argument(
            "--config", default=None, help=f"builder config ({configs}; default: the builder's default)"
        )


def add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", default=None, help="a folder of source .json files, or one file (default: the pinned source)"
    )


def add_cache_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-dir", default=None, help="the datasets cache folder (default: $HF_DATASETS_CACHE)")


def add_options(parser: argparse.ArgumentParser, names: tuple[str, ...] | None = None) -> None:
    """The builder options as flags (``category_order`` → ``--category-order``), choices and help from their fields."""
    for name, (spec, takers) in _specs().items():
        if names is not None and name not in names:
            continue
        only = f"{', '.join(takers)} only: " if len(takers) < len(CATALOG) else ""
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            choices=spec.choices,
            metavar=spec.metavar,
            default=None,
            help=only + spec.help,
        )


def add_source_args(parser: argparse.ArgumentParser) -> None:
    """The benchmark, config, source, cache and every builder option (``build``, ``stats``, ``qrels``, ``subset``,
    ``score``)."""
    add_dataset(parser)
    add_config(parser)
    add_data_dir(parser)
    add_cache_dir(parser)
    add_options(parser)


def add_export_args(parser: argparse.ArgumentParser) -> None:
    """The benchmark, configs (repeatable), source and cache (``export``, ``push``)."""
    add_dataset(parser)
    add_config(parser, repeat=True)
    add_data_dir(parser)
    add_cache_dir(parser)


def options(args: argparse.Namespace) -> dict[str, str]:
    """The builder config options given on the command line; each must be one the benchmark takes.

    Raises:
        ConfigurationError: e.g. ``longmemeval: --category-order applies to locomo only``.
    """
    specs = _specs()
    given = {k: getattr(args, k) for k in specs if getattr(args, k, None) is not None}
    if any(k not in benchmark(args.dataset).options for k in given):
        flags = "/".join(f"--{k.replace('_', '-')}" for k in given)
        takers = ", ".join(b.name for b in CATALOG.values() if set(given) <= set(b.options))
        raise ConfigurationError(
            f"{args.dataset}: {flags} {'applies' if len(given) == 1 else 'apply'} to {takers} only"
        )
    return given


def add_endpoint_args(parser: argparse.ArgumentParser, *, concurrency: str) -> None:
    """The flags of a command that calls a model (``himga judge``, ``himga run``): the endpoint, the ``openai``
    client's settings, the key's variable, and the progress bar."""
    parser.add_argument(
        "--base-url", default=None, help="an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL, else OpenAI)"
    )
    parser.add_argument("--concurrency", type=int, default=8, help=f"{concurrency} in flight at once (default: 8)")
    parser.add_argument(
        "--max-retries", type=int, default=5, help="the openai client's retries per request (default: 5)"
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per attempt (default: 120)")
    parser.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        help="the environment variable holding the key (default: OPENAI_API_KEY)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
