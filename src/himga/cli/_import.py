"""``himga import``: a published run's file turned into the records ``himga score`` and ``himga compare`` read.

::

    himga import zep_locomo_grades.json --layout zep --out zep.jsonl
    himga import eval_results.json --out fc.jsonl                       # --layout auto: recognised by its shape
    himga import their_run.json --field-map MAP.json --out theirs.jsonl  # a layout himga does not know

Every record is joined to its LoCoMo question by conversation and question text; the command fails on a record that
joins none (unless ``--allow-unmatched``, which says how many it left out) and on two records for one question.
"""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``himga import`` on its subparser ``p``."""
    from himga.cli._args import add_cache_dir, add_data_dir, add_options
    from himga.run import layouts

    p.add_argument("file", help="the published run: a JSON (or .json.gz) file, JSON Lines, or a himga run folder")
    p.add_argument(
        "--layout",
        choices=["auto", *layouts()],
        default="auto",
        help="the file's layout (default auto: recognised by its shape, or the layouts are listed)",
    )
    p.add_argument(
        "--field-map",
        metavar="MAP.json",
        default=None,
        help="read a file of another layout by this field map (docs/published-runs.md): where the records are and "
        "which field is the question, the response, the verdicts, the category, the conversation",
    )
    p.add_argument("--out", metavar="RUN.jsonl", required=True, help="the records to write (JSON Lines)")
    p.add_argument("--name", default=None, help="the run's name in tables (default: the known run's, or the file's)")
    p.add_argument(
        "--allow-unmatched",
        action="store_true",
        help="leave out the records that join no LoCoMo question (and say how many) instead of failing",
    )
    add_data_dir(p)
    add_cache_dir(p)
    add_options(p, ("gold", "errata"))
    p.set_defaults(func=run, dataset="locomo")


def run(args: argparse.Namespace) -> int:
    """Run ``himga import``; returns the exit status.

    Raises:
        ConfigurationError: an output that is an input, a field map that is not one, ``--layout`` with
            ``--field-map``.
        SourceFormatError: what :func:`himga.run.import_run` raises (a layout that does not match, unmatched or
            duplicate records, verdicts that are no booleans or numbers, a cut gzip, another benchmark's file).
    """
    from himga.cli._args import options
    from himga.errors import ConfigurationError, counted
    from himga.jsonio.reader import load_json
    from himga.run import FieldMap, check_outputs, import_run, write_text

    if args.field_map and args.layout != "auto":
        raise ConfigurationError("--layout and --field-map: give one (a field map is a layout of its own)")
    check_outputs(
        {"--out": args.out},
        {"published run": args.file, "field map": args.field_map, "errata": args.errata, "source": args.data_dir},
    )
    field_map = FieldMap.from_dict(load_json(args.field_map), Path(args.field_map).name) if args.field_map else None
    imported = import_run(
        args.file,
        args.layout,
        field_map=field_map,
        data_dir=args.data_dir,
        cache_dir=args.cache_dir,
        allow_unmatched=args.allow_unmatched,
        name=args.name,
        **options(args),
    )
    for line in imported.lines:
        print(line)
    write_text(args.out, imported.jsonl())
    print(f"wrote {counted(len(imported.records), 'record')} to {args.out}")
    return 0
