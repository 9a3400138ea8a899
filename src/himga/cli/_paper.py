"""``himga score``'s flags for the metrics papers print beside the official score (not official): the families, how
they are aggregated, category 5, the row order (:mod:`himga.scoring.metrics._paper_tables`)."""

from __future__ import annotations

import argparse

from himga.errors import ConfigurationError

__all__ = ["add_paper_args", "paper_options"]


def add_paper_args(parser: argparse.ArgumentParser) -> None:
    """``--paper-metrics``, ``--paper-aggregation``, ``--paper-without-category-5``, ``--paper-rows``."""
    from himga.scoring import PAPER_AGGREGATIONS, PAPER_FAMILIES, PAPER_ROW_ORDERS

    parser.add_argument(
        "--paper-metrics",
        metavar="NAMES",
        nargs="+",
        action="extend",
        default=None,
        help=f"also print the NOT official tables papers print (exact match, set F1, BLEU-1), one or more of "
        f"{', '.join(PAPER_FAMILIES)} (spaces or commas between them; the flag may be repeated), or all (BLEU-1 "
        "needs nltk's punkt_tab data; without it exact match and F1 are printed and BLEU-1 is not)",
    )
    parser.add_argument(
        "--paper-aggregation",
        choices=PAPER_AGGREGATIONS,
        default="pooled",
        help="pooled: every question weighs the same (default, as the official code); per_sample: each "
        "conversation's mean, then their mean (MAGMA)",
    )
    parser.add_argument(
        "--paper-without-category-5", action="store_true", help="leave category 5 out of the paper tables"
    )
    parser.add_argument(
        "--paper-rows",
        choices=PAPER_ROW_ORDERS,
        default="paper",
        help="rows in the papers' order (default) or by category number",
    )


def paper_options(args: argparse.Namespace, bench):
    """The :class:`~himga.scoring.metrics._paper_tables.PaperOptions` asked for, or ``None`` without
    ``--paper-metrics``.

    Raises:
        ConfigurationError: the benchmark has no paper tables, or an unknown family.
    """
    from himga.scoring import PAPER_FAMILIES, PaperOptions

    if args.paper_metrics is None:
        return None
    if bench.paper is None:
        from himga.catalog import CATALOG

        takers = [e.name for e in CATALOG.values() if e.scorer is not None and e.scorer.paper is not None]
        raise ConfigurationError(f"{bench.name}: --paper-metrics applies to {', '.join(takers)} only")
    given = [n.strip() for value in args.paper_metrics for n in value.split(",") if n.strip()]
    names = PAPER_FAMILIES if "all" in given else tuple(dict.fromkeys(given))
    return PaperOptions(names, args.paper_aggregation, not args.paper_without_category_5, args.paper_rows)
