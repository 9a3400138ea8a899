"""The arguments several ``himga`` commands share: the benchmark, its source and its builder options."""

from __future__ import annotations

import argparse

from himga.catalog import CATALOG, NAMES, benchmark
from himga.errors import ConfigurationError

__all__ = ["DATASETS", "add_export_args", "add_source_args", "gold_choices", "options"]

DATASETS = NAMES

#: Builder config options the command line takes (each benchmark accepts those in its ``USER_OPTIONS``).
_OPTIONS = ("category_order", "adversarial_answer", "category3_answer", "gold", "errata")


def gold_choices() -> tuple[str, ...]:
    """The values ``--gold`` takes: every benchmark's gold variants (the catalogue's ``gold_variants``), the default first."""
    return tuple(dict.fromkeys(g for b in CATALOG.values() for g in b.golds))


def add_source_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", choices=DATASETS, help="which benchmark")
    parser.add_argument("--config", default=None, help="builder config (LongMemEval: s, m, oracle, s_original, ...)")
    parser.add_argument("--data-dir", default=None, help="a folder of source .json files, or one file (default: download the pinned source)")
    parser.add_argument("--cache-dir", default=None, help="the datasets cache folder (default: $HF_DATASETS_CACHE)")
    parser.add_argument("--category-order", choices=("authors", "seed"), default=None,
                        help="LoCoMo only: category → question type mapping (default: authors)")
    parser.add_argument("--adversarial-answer", choices=("abstain", "seed"), default=None,
                        help="LoCoMo only: gold answer of category-5 questions (default: abstain)")
    parser.add_argument("--category3-answer", choices=("scorer", "full"), default=None,
                        help="LoCoMo only: gold answer of category-3 questions, cut at the first ';' as the scorer does, or the full text (default: scorer)")
    parser.add_argument("--gold", choices=gold_choices(), default=None,
                        help="LoCoMo only: the published gold, or the gold corrected by an errata file (default: published; see docs/gold-and-subsets.md)")
    parser.add_argument("--errata", metavar="FILE", default=None,
                        help="LoCoMo only, with --gold audited: your own errata file (default: the pinned dial481/locomo-audit errors.json)")


def options(args: argparse.Namespace) -> dict[str, str]:
    """The builder config options given on the command line; each must be one the benchmark takes.

    Raises:
        ConfigurationError: e.g. ``longmemeval: --category-order/--adversarial-answer/--category3-answer
            apply to locomo only``.
    """
    options = {k: getattr(args, k) for k in _OPTIONS if getattr(args, k) is not None}
    if any(k not in benchmark(args.dataset).options for k in options):
        flags = "/".join(f"--{k.replace('_', '-')}" for k in _OPTIONS)
        takers = ", ".join(b.name for b in CATALOG.values() if set(options) <= set(b.options))
        raise ConfigurationError(f"{args.dataset}: {flags} apply to {takers} only")
    return options


def add_export_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", choices=DATASETS, help="which benchmark")
    parser.add_argument("--config", action="append", default=None,
                        help="a config to export (repeatable; default: all of the builder's configs, or with --data-dir "
                             "the configs whose file it holds, by file name)")
    parser.add_argument("--data-dir", default=None, help="a folder of source .json files, or one file (default: download the pinned sources)")
    parser.add_argument("--cache-dir", default=None, help="the datasets cache folder (default: $HF_DATASETS_CACHE)")
