"""``himga compare``: runs side by side, imported or run by himga alike.

::

    himga compare fc-4.1-cot.jsonl fc-4o-cot.jsonl fc-4.1-memos.jsonl --plot fc.png   # by their own verdicts
    himga compare zep.jsonl runs/mine --score f1                                      # the official F1 of each run

A run is ``himga import``'s records, a published file (read with ``--layout auto``) or a ``himga run`` folder.
"""

from __future__ import annotations

import argparse

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``himga compare`` on its subparser ``p``."""
    from himga.cli._args import add_cache_dir, add_data_dir, add_options
    from himga.run import COMPARE_SCORES

    p.add_argument("runs", nargs="+", metavar="RUN", help="himga import's records, a published file, or a run folder")
    p.add_argument(
        "--score",
        choices=COMPARE_SCORES,
        default="verdicts",
        help="each run's own verdicts (default), or the official score of its responses (f1: one rule for every run)",
    )
    p.add_argument("--plot", metavar="FILE.png", default=None, help="also draw the runs as bars with their intervals")
    p.add_argument("--out", metavar="REPORT.json", default=None, help="write the comparison as JSON")
    add_data_dir(p)
    add_cache_dir(p)
    add_options(p, ("gold", "errata"))
    p.set_defaults(func=run, dataset="locomo")


def run(args: argparse.Namespace) -> int:
    """Run ``himga compare``; returns the exit status.

    Raises:
        ConfigurationError: an output that is an input, a run without verdicts under ``--score verdicts``.
        SourceFormatError: what reading a run raises (:func:`himga.run.import_run`).
    """
    from himga.catalog import benchmark
    from himga.cli._args import options
    from himga.data.lazy import qa_samples
    from himga.data.loaders import build_dataset
    from himga.run import (
        check_outputs,
        compare_runs,
        dumps_report,
        format_compare,
        import_run,
        plot_compare,
        write_text,
    )
    from himga.scoring import questions_by_id

    inputs = {f"run {n}": path for n, path in enumerate(args.runs, 1)}
    check_outputs({"--plot": args.plot, "--out": args.out}, {**inputs, "errata": args.errata, "source": args.data_dir})
    if args.plot:
        from himga.stats.plot import require_matplotlib

        require_matplotlib()  # fail before the runs are read, not after the table
    given = options(args)
    samples = list(qa_samples(build_dataset("locomo", path=args.data_dir, cache_dir=args.cache_dir, **given)))
    runs = [import_run(path, samples=samples) for path in args.runs]
    entry = benchmark("locomo")
    report = compare_runs(runs, entry.scorer, questions_by_id(samples), score=args.score)
    print(format_compare(report))
    if args.plot:
        plot_compare(report, args.plot)
        print(f"wrote {args.plot}")
    if args.out:
        write_text(args.out, dumps_report(report))
        print(f"wrote {args.out}")
    return 0
