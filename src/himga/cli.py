"""The himga command line: build, inspect, validate and publish the normalized benchmarks.

Each command is one function ``_cmd_<name>(args) -> int``, registered in :func:`build_parser`.
Errors from himga (bad input, offline, ...) print one line to stderr and exit with status 2; Ctrl-C
prints one line and exits with 130.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from himga.catalog import CATALOG, NAMES, benchmark
from himga.errors import ConfigurationError, HimgaError, redacted

DATASETS = NAMES

#: Builder config options the command line takes (each benchmark accepts those in its ``USER_OPTIONS``).
_OPTIONS = ("category_order", "adversarial_answer", "category3_answer", "gold", "errata")


def _add_source_args(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument("--gold", choices=("published", "audited"), default=None,
                        help="LoCoMo only: the published gold, or the gold corrected by an errata file (default: published; see docs/gold-and-subsets.md)")
    parser.add_argument("--errata", metavar="FILE", default=None,
                        help="LoCoMo only, with --gold audited: your own errata file (default: the pinned dial481/locomo-audit errors.json)")


def _options(args: argparse.Namespace) -> dict[str, str]:
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


def _cmd_build(args: argparse.Namespace) -> int:
    from himga.data.loaders import build_dataset

    ds = build_dataset(args.dataset, args.config, path=args.data_dir, cache_dir=args.cache_dir, **_options(args))
    files = sorted({f["filename"] for f in ds.cache_files})
    print(f"{args.dataset}: {ds.num_rows} rows in split 'test'; cache: {', '.join(files)}")
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    from himga.data.lazy import LazySamples
    from himga.data.loaders import build_dataset
    from himga.report.stats import dataset_stats, format_stats

    if args.plot:
        from himga.report.plot import require_matplotlib

        require_matplotlib()  # fail before the build, not after
    ds = build_dataset(args.dataset, args.config, path=args.data_dir, cache_dir=args.cache_dir, **_options(args))
    samples = LazySamples(ds)  # one Sample at a time: LongMemEval-M does not fit in memory as objects
    stats = dataset_stats(samples, per_sample=bool(args.plot))  # one pass, also for the plot
    per_sample = stats.pop("per_sample", None)
    title = f"{args.dataset}{f' ({args.config})' if args.config else ''}"
    audit = None
    entry = benchmark(args.dataset)
    if args.gold is not None and args.gold != entry.default_gold:  # only a benchmark with gold variants takes --gold (_options)
        audit = entry.gold_report.summary(samples)
        stats["gold"] = audit
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        print(format_stats(title, stats))
        if audit is not None:
            print(entry.gold_report.format_summary(audit))
        from himga.sources.pin_status import provenance_lines
        from himga.validate import source_files

        for line in provenance_lines(entry, source_files(entry, args.config, data_dir=args.data_dir)):
            print(f"source: {line}")
        if audit is not None:
            from himga.sources.provenance import provenance

            _folder, pin = entry.auxiliary_pin("errata")
            print(f"errata: {provenance(entry.gold_report.errata_file(args.errata), [pin])}")
    if args.plot:
        from himga.report.plot import plot_stats

        path = plot_stats(None, args.plot, title=title, stats={**stats, "per_sample": per_sample})
        print(f"wrote {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from himga.publish.export import export

    sizes = export(args.dataset, args.out_dir, args.config, data_dir=args.data_dir, cache_dir=args.cache_dir, card_only=args.card_only,
                   num_shards=args.num_shards, gold=args.gold, errata=args.errata)
    for config, size in sizes.items():
        where = (f"{size.num_examples} rows {'on the card' if args.card_only else f'in {args.out_dir}/data/{config}/'}"
                 if size is not None else "on the card (no split size known)")
        print(f"{args.dataset}/{config}: {where}")
    print(f"card: {args.out_dir}/README.md")
    return 0


def _cmd_push(args: argparse.Namespace) -> int:
    from himga.publish.push import push

    url = push(
        args.dataset,
        args.repo_id,
        export_dir=args.export_dir,
        configs=args.config,
        private=args.private,
        revision=args.revision,
        data_dir=args.data_dir,
        cache_dir=args.cache_dir,
    )
    print(f"pushed {args.dataset} to {args.repo_id}: {url}")
    return 0


def _add_export_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", choices=DATASETS, help="which benchmark")
    parser.add_argument("--config", action="append", default=None,
                        help="a config to export (repeatable; default: all of the builder's configs, or with --data-dir "
                             "the configs whose file it holds, by file name)")
    parser.add_argument("--data-dir", default=None, help="a folder of source .json files, or one file (default: download the pinned sources)")
    parser.add_argument("--cache-dir", default=None, help="the datasets cache folder (default: $HF_DATASETS_CACHE)")


def _cmd_validate(args: argparse.Namespace) -> int:
    from himga.validate import format_report, validate, write_json

    report = validate(args.dataset, args.config, data_dir=args.data_dir)
    if args.json != "-":
        print(format_report(report))
    if args.json is not None:
        write_json(report, args.json)
    return 0


def _cmd_qrels(args: argparse.Namespace) -> int:
    from himga.qrels import export_qrels

    summary = export_qrels(args.dataset, args.out_dir, args.config, data_dir=args.data_dir, cache_dir=args.cache_dir, **_options(args))
    print(f"{args.dataset}: {summary.queries} queries, {summary.evaluable} evaluable, {len(summary.excluded)} excluded (excluded.tsv)")
    for name, lines in summary.lines.items():
        print(f"  {args.out_dir}/{name}: {lines} lines")
    identity = json.loads((Path(args.out_dir) / "identity.json").read_text(encoding="utf-8"))
    errata = f" ({identity['errata']}, sha256 {identity['errata_sha256']})" if identity["errata"] else ""
    print(f"  {args.out_dir}/identity.json: gold {identity['gold']}{errata}")
    for qid, doc in summary.dangling:
        print(f"dangling: query {qid} cites {doc}, which is no turn of the conversation (kept as relevant)")
    return 0


def _cmd_subset(args: argparse.Namespace) -> int:
    from himga.scoring.outputs import check_outputs
    from himga.subset import subset, write_ids
    from himga.validate import source_files

    inputs = {"errata": getattr(args, "errata", None),
              "source": args.data_dir if args.data_dir and not Path(args.data_dir).is_dir() else None}
    check_outputs({"out": args.out}, inputs)  # before the draw
    drawn = subset(args.dataset, args.n, args.seed, config=args.config, data_dir=args.data_dir, cache_dir=args.cache_dir,
                   stratify=args.stratify, keep_abstention=args.keep_abstention, **_options(args))
    files = source_files(benchmark(args.dataset), args.config, data_dir=args.data_dir)
    check_outputs({"out": args.out}, {**inputs, **{f"source {Path(f).name}": f for f in files}})
    write_ids(drawn.ids, args.out)
    how = []
    if args.stratify:
        how.append(f"stratified by {args.stratify}")
    if args.keep_abstention:
        how.append("abstention share kept")
    rule = f" ({', '.join(how)}; largest remainder)" if how else ""
    print(f"{args.dataset}{f' ({args.config})' if args.config else ''}: {len(drawn.ids):,} of {drawn.total:,} QA pairs, seed {args.seed}{rule}")
    if how:
        for stratum, (chosen, of) in drawn.strata.items():
            print(f"  {stratum:<40} {chosen:>6,} of {of:,}")
    for file, sha in drawn.sources:
        print(f"source: {file} sha256 {sha}")
    print(f"wrote {args.out}")
    print(f"fingerprint: {drawn.fingerprint}")
    return 0


def _cmd_sources(args: argparse.Namespace) -> int:
    from himga.sources.pin_status import check_pins, describe_pins

    names = [args.dataset] if args.dataset else None
    if not args.check:
        print(describe_pins(names))
        return 0
    lines, ok = check_pins(names)
    print("\n".join(lines))
    return 0 if ok else 1


def _version() -> str:
    """``himga 0.1.0 (datasets 5.2.0)``: the versions a bug report needs."""
    from importlib.metadata import version

    from himga import __version__

    return f"himga {__version__} (datasets {version('datasets')})"


def _cmd_verify(args: argparse.Namespace) -> int:
    import shlex

    from datasets import config

    from himga.build.manifest import find_caches, verify
    from himga.errors import CacheError

    if unknown := sorted(set(args.dataset) - set(DATASETS)):  # not argparse choices: nargs="*" rejects none given
        raise ConfigurationError(f"unknown dataset {', '.join(map(repr, unknown))}; expected one of {list(DATASETS)}")
    root = args.cache_dir or config.HF_DATASETS_CACHE
    if args.cache_dir is not None and not Path(root).is_dir():  # a mistyped folder must not read as "nothing wrong"
        raise ConfigurationError(f"--cache-dir {str(root)!r}: no such folder")
    if Path(root).exists() and not Path(root).is_dir():  # HF_DATASETS_CACHE set to a file
        from himga.sources.identity import path_kind

        raise ConfigurationError(f"the datasets cache folder {str(root)!r} (HF_DATASETS_CACHE) is {path_kind(root)}, not a folder")
    folders = find_caches(root, args.dataset or DATASETS)
    bad = []
    for folder in folders:
        problems = verify(folder)
        size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        print(f"{'DAMAGED' if problems else 'ok':8} {folder} ({size / 1e6:,.1f} MB){': ' if problems else ''}{'; '.join(problems)}")
        bad += [folder] if problems else []
    if not folders:
        print(f"no himga caches under {root}")
    if bad:
        remove = " ".join(shlex.quote(str(f)) for f in bad)
        raise CacheError(root, f"{len(bad)} of {len(folders)} caches under {root} are damaged; remove them to rebuild on the next load: rm -rf {remove}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``himga`` command, one subcommand per command."""
    parser = argparse.ArgumentParser(prog="himga", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("build", help="parse the source files into the Arrow cache")
    _add_source_args(p)
    p.set_defaults(func=_cmd_build)

    p = sub.add_parser("stats", help="print samples, sessions, turns and QA pairs by question type")
    _add_source_args(p)
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="also draw question types and per-sample sessions/messages into a PNG (needs himga[plot])")
    p.set_defaults(func=_cmd_stats)

    p = sub.add_parser("export", help="write a Hub-ready folder: data/<config>/test-*.parquet and the dataset card README.md")
    _add_export_args(p)
    p.add_argument("out_dir", help="the export folder")
    p.add_argument("--card-only", action="store_true", help="write only README.md: with --data-dir the card an export of those files has, "
                        "else the card of the configs already exported")
    p.add_argument("--num-shards", type=int, default=None,
                   help="Parquet files per config (default: a multiple of 16, so 2, 4, 8 or 16 ranks each read whole files)")
    p.add_argument("--gold", choices=("published", "audited"), default=None,
                   help="LoCoMo only: export the audited gold as config 'audited' beside 'default' (default: published; see docs/gold-and-subsets.md)")
    p.add_argument("--errata", metavar="FILE", default=None,
                   help="LoCoMo only, with --gold audited: your own errata file (default: the pinned dial481/locomo-audit errors.json)")
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser("push", help="upload an export (card and Parquet, never .py) to a Hub dataset repository")
    _add_export_args(p)
    p.add_argument("--repo-id", required=True, help="ORG/NAME of the Hub dataset repository (created if missing)")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    p.add_argument("--revision", default=None, help="branch to push to (default: main)")
    p.add_argument("--export-dir", default=None, help="upload this existing export folder instead of exporting first")
    p.set_defaults(func=_cmd_push)

    p = sub.add_parser("qrels", help="write TREC qrels (session and turn), queries and candidates for IR tools")
    _add_source_args(p)
    p.add_argument("out_dir", help="the output folder (see himga.qrels for its files)")
    p.set_defaults(func=_cmd_qrels)

    p = sub.add_parser("subset", help="draw a subset of the QA pairs anyone can re-draw; write its ids, print its fingerprint")
    _add_source_args(p)
    p.add_argument("out", help="the ids file to write (one id per line: conv-26:0 for LoCoMo, question_id for LongMemEval)")
    p.add_argument("--n", type=int, required=True, help="how many QA pairs")
    p.add_argument("--seed", required=True, help="the seed (any integer or word); ranks are sha256('<seed>:<id>')")
    p.add_argument("--stratify", choices=("question_type",), default=None, help="proportional quotas per question type (largest remainder)")
    p.add_argument("--keep-abstention", action="store_true", help="keep the share of abstention questions")
    p.set_defaults(func=_cmd_subset)

    p = sub.add_parser("validate", help="report data-quality findings of the raw source (changes nothing)")
    p.add_argument("dataset", choices=DATASETS, help="which benchmark")
    p.add_argument("--config", default=None, help="builder config (LongMemEval: s, m, oracle, s_original, ...)")
    p.add_argument("--data-dir", default=None, help="a folder of source .json files, or one file (default: the pinned source)")
    p.add_argument("--json", metavar="FILE", default=None, help="also write every finding as JSON to FILE ('-': print only the JSON)")
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser("sources", help="list every pinned source file (URL, revision, size, sha256, licence, local copy)")
    p.add_argument("dataset", nargs="?", choices=DATASETS, default=None, help="one benchmark (default: both)")
    p.add_argument("--check", action="store_true",
                   help="ask the remote whether each pin still resolves (no download); exit 1 if any does not")
    p.set_defaults(func=_cmd_sources)

    p = sub.add_parser("verify", help="re-hash every file of the built caches and count their rows (changes nothing)")
    p.add_argument("dataset", nargs="*", metavar="{locomo,longmemeval}", help="which benchmarks' caches (default: both)")
    p.add_argument("--cache-dir", default=None, help="the datasets cache folder (default: $HF_DATASETS_CACHE)")
    p.set_defaults(func=_cmd_verify)

    from himga.scoring.command import add_parser as add_score_parser

    add_score_parser(sub, DATASETS)
    return parser


def _one_line(message: str) -> str:
    """``message`` with every non-printable character escaped as ``repr`` does (one line, no raw ESC)."""
    return message if message.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``himga`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (HimgaError, OSError) as e:  # bad input, offline, unwritable output: one line, no traceback
        if isinstance(e, BrokenPipeError):  # `himga ... | head`: the reader left; not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            return 0
        print(f"himga: error: {_one_line(redacted(str(e)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: one line, the shell's status for SIGINT; builds cache nothing
        print("himga: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
