"""The ``himga`` commands: one function ``cmd_<name>(args) -> int`` each (exit status 0 on success)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from himga.catalog import benchmark
from himga.cli._args import DATASETS
from himga.cli._args import options as _options
from himga.errors import ConfigurationError, counted

__all__ = [
    "cmd_build",
    "cmd_export",
    "cmd_push",
    "cmd_qrels",
    "cmd_sources",
    "cmd_stats",
    "cmd_subset",
    "cmd_validate",
    "cmd_verify",
]


def cmd_build(args: argparse.Namespace) -> int:
    from himga.cache import path_builder, prepare
    from himga.cli._run_inputs import print_provenance

    options = _options(args)
    entry = benchmark(args.dataset)
    builder = path_builder(entry, args.config, args.data_dir, cache_dir=args.cache_dir, **options)  # the one builder
    ds = prepare(builder)
    files = sorted({f["filename"] for f in ds.cache_files})
    print(f"{args.dataset}: {ds.num_rows} rows in split 'test'; cache: {', '.join(files)}")
    print_provenance(entry, builder.source_files(), options)  # the pinned file, or how it differs
    return 0


def _score_rows(entry, ds, types) -> dict[str, str]:
    """Question type → the row ``himga score`` prints it in, where the names differ (LongMemEval's
    ``temporal_reasoning`` is the official ``temporal-reasoning``); one pass over the QA pairs, stopped once each type
    is named."""
    scorer = entry.scorer
    if scorer is None:
        return {}
    from himga.data.lazy import qa_samples

    rows: dict[str, str] = {}
    for sample in qa_samples(ds):
        for qa in sample.qa_pairs:
            if qa.question_type.value not in rows:
                key = scorer.row_key(qa)
                rows[qa.question_type.value] = key[0] if isinstance(key, tuple) else key
        if len(rows) == len(types):
            break
    return {t: r for t, r in rows.items() if r != t}


def cmd_stats(args: argparse.Namespace) -> int:
    from himga.data.lazy import LazySamples
    from himga.data.loaders import build_dataset
    from himga.stats.summary import dataset_stats, format_stats

    if args.plot:
        from himga.stats.plot import require_matplotlib

        require_matplotlib()  # fail before the build, not after
    ds = build_dataset(args.dataset, args.config, path=args.data_dir, cache_dir=args.cache_dir, **_options(args))
    samples = LazySamples(ds)  # one Sample at a time: LongMemEval-M does not fit in memory as objects
    stats = dataset_stats(samples, per_sample=bool(args.plot))  # one pass, also for the plot
    per_sample = stats.pop("per_sample", None)
    entry = benchmark(args.dataset)
    config = ds.info.config_name  # the config the build resolved (from a file name too), not only the one asked for
    title = args.dataset if len(entry.configs) == 1 else f"{args.dataset} ({config})"
    stats = {"dataset": args.dataset, "config": config, **stats}
    audit = None
    if (
        args.gold is not None and args.gold != entry.default_gold
    ):  # only a benchmark with gold variants takes --gold (_options)
        audit = entry.gold_variants.summary(samples)
        stats["gold"] = audit
    note = entry.note(config)
    shaped = entry.shape_note(config, samples) if entry.shape_note is not None else None
    from himga.cache import build_files
    from himga.sources import provenance_lines

    sources = provenance_lines(entry, build_files(entry, args.config, args.data_dir))
    errata = None
    if audit is not None:
        from himga.sources import provenance

        _folder, pin = entry.auxiliary_pin("errata")
        errata = provenance(entry.gold_variants.errata_file(args.errata), [pin])
    if args.json:
        extra = {**({"note": note} if note else {}), **({"shape_note": shaped} if shaped else {})}
        print(json.dumps({**stats, **extra, "sources": sources, **({"errata": errata} if errata else {})}, indent=2))
    else:
        print(format_stats(title, stats, rows=_score_rows(entry, ds, stats["question_types"])))
        if note:
            print(f"note: {note}")
        if shaped:
            print(f"note: {shaped}")
        if audit is not None:
            print(entry.gold_variants.format_summary(audit))
        for line in sources:
            print(f"source: {line}")
        if errata is not None:
            print(f"errata: {errata}")
    if args.plot:
        from himga.stats.plot import plot_stats

        path = plot_stats(None, args.plot, title=title, stats={**stats, "per_sample": per_sample})
        print(f"wrote {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from himga.publish import export

    sizes = export(
        args.dataset,
        args.out_dir,
        args.config,
        data_dir=args.data_dir,
        cache_dir=args.cache_dir,
        card_only=args.card_only,
        num_shards=args.num_shards,
        gold=args.gold,
        errata=args.errata,
        view=args.view,
    )
    for config, size in sizes.items():
        folder = Path(args.out_dir) / "data" / config
        where = (
            f"{size.num_examples} rows {'on the card' if args.card_only else f'in {folder}/'}"
            if size is not None
            else "on the card (no split size known)"
        )
        print(f"{args.dataset}/{config}: {where}")
    print(f"card: {Path(args.out_dir) / 'README.md'}")
    entry = benchmark(args.dataset)
    for config in sizes:
        if note := entry.note(config) if config in entry.configs else None:
            print(f"note: {note}")
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    from himga.publish import push

    if args.dry_run:
        from himga.publish import push_plan

        plan = push_plan(
            args.dataset,
            args.repo_id,
            export_dir=args.export_dir,
            configs=args.config,
            data_dir=args.data_dir,
            cache_dir=args.cache_dir,
        )
        print(
            f"dry run: would push {args.dataset} ({', '.join(plan['configs'])}) to the dataset repository "
            f"{args.repo_id} (created if missing{', private' if args.private else ''}), branch "
            f"{args.revision or 'main'}; the card and every shard checked:"
        )
        for path, size in plan["files"]:
            print(f"  {path}  {size:,} bytes")
        print(
            f"and delete the repository's other files matching {', '.join(plan['replaced'])} (stale shards of these "
            "configs); no token was read, nothing was sent"
        )
        return 0
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


def cmd_validate(args: argparse.Namespace) -> int:
    from himga.run import check_outputs, source_inputs
    from himga.validate import format_report, validate, write_json

    output = {"--json": args.json if args.json != "-" else None}
    check_outputs(output, {"source": args.data_dir})  # before the work, as every writing command
    report = validate(args.dataset, args.config, data_dir=args.data_dir)
    check_outputs(output, source_inputs(benchmark(args.dataset), args.config, args.data_dir))
    if args.json != "-":
        print(format_report(report))
        if note := benchmark(args.dataset).note(report.config):  # a superseded release says so, as score and stats do
            print(f"note: {note}")
    if args.json is not None:
        write_json(report, args.json)
    return 1 if report.failed else 0


def cmd_qrels(args: argparse.Namespace) -> int:
    from himga.qrels import export_qrels

    summary = export_qrels(
        args.dataset, args.out_dir, args.config, data_dir=args.data_dir, cache_dir=args.cache_dir, **_options(args)
    )
    print(
        f"{args.dataset}: {summary.queries} queries, {summary.evaluable} evaluable, {len(summary.excluded)} excluded "
        "(excluded.tsv)"
    )
    out = Path(args.out_dir)
    for name, lines in summary.lines.items():
        print(f"  {out / name}: {counted(lines, 'line')}")
    gold = json.loads((out / "identity.json").read_text(encoding="utf-8"))["gold"]
    errata = f" ({gold['errata']}, sha256 {gold['errata_sha256']})" if gold["errata"] else ""
    print(f"  {out / 'identity.json'}: gold {gold['variant']}{errata}")
    for qid, doc in summary.dangling:
        print(f"dangling: query {qid} cites {doc}, which is no turn of the conversation (kept as relevant)")
    return 0


def cmd_subset(args: argparse.Namespace) -> int:
    from himga.run import check_outputs, source_inputs
    from himga.subset import subset, write_ids

    inputs = {"errata": getattr(args, "errata", None), "source": args.data_dir}
    check_outputs({"out": args.out}, inputs)  # before the draw
    drawn = subset(
        args.dataset,
        args.n,
        args.seed,
        config=args.config,
        data_dir=args.data_dir,
        cache_dir=args.cache_dir,
        stratify=args.stratify,
        keep_abstention=args.keep_abstention,
        exclude_category=args.exclude_category,
        exclude_type=args.exclude_type,
        **_options(args),
    )
    check_outputs({"out": args.out}, {**inputs, **source_inputs(benchmark(args.dataset), args.config, args.data_dir)})
    write_ids(drawn.ids, args.out)
    how = []
    if args.stratify:
        how.append(f"stratified by {args.stratify}")
    if args.keep_abstention:
        how.append("abstention share kept")
    rule = f" ({', '.join(how)}; largest remainder)" if how else ""
    left_out = [f"category {c}" for c in args.exclude_category] + list(args.exclude_type)
    left_out = f" ({', '.join(left_out)} excluded: {drawn.excluded:,})" if left_out else ""
    print(
        f"{args.dataset}{f' ({args.config})' if args.config else ''}: {len(drawn.ids):,} of {drawn.total:,} QA "
        f"pairs{left_out}, "
        f"seed {args.seed}{rule}"
    )
    if how:
        for stratum, (chosen, of) in drawn.strata.items():
            print(f"  {stratum:<40} {chosen:>6,} of {of:,}")
    for file, sha in drawn.sources:
        print(f"source: {file} sha256 {sha}")
    print(f"wrote {args.out}")
    print(f"fingerprint: {drawn.fingerprint}")
    return 0


def cmd_sources(args: argparse.Namespace) -> int:
    from himga.cli._sources import check_pins, describe_pins

    names = [args.dataset] if args.dataset else None
    if not args.check:
        print(describe_pins(names))
        return 0
    lines, ok = check_pins(names)
    print("\n".join(lines))
    return 0 if ok else 1


def cmd_verify(args: argparse.Namespace) -> int:
    import shlex

    from datasets import config

    from himga.cache import find_caches, find_incomplete, verify
    from himga.errors import CacheError

    if unknown := sorted(set(args.dataset) - set(DATASETS)):  # not argparse choices: nargs="*" rejects none given
        raise ConfigurationError(f"unknown dataset {', '.join(map(repr, unknown))}; expected one of {list(DATASETS)}")
    root = args.cache_dir or config.HF_DATASETS_CACHE
    if args.cache_dir is not None and Path(root).exists() and not Path(root).is_dir():
        from himga.sources import path_kind

        raise ConfigurationError(f"--cache-dir {str(root)!r} is {path_kind(root)}, not a folder")
    if args.cache_dir is not None and not Path(root).is_dir():  # a mistyped folder must not read as "nothing wrong"
        raise ConfigurationError(f"--cache-dir {str(root)!r}: no such folder")
    if Path(root).exists() and not Path(root).is_dir():  # HF_DATASETS_CACHE set to a file
        from himga.sources import path_kind

        raise ConfigurationError(
            f"the datasets cache folder {str(root)!r} (HF_DATASETS_CACHE) is {path_kind(root)}, not a folder"
        )
    folders = find_caches(root, args.dataset or DATASETS)
    bad = []
    for folder in folders:
        problems = verify(folder)
        size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        print(
            f"{'DAMAGED' if problems else 'ok':8} {folder} ({size / 1e6:,.1f} "
            f"MB){': ' if problems else ''}{'; '.join(problems)}"
        )
        bad += [folder] if problems else []
    if not folders:
        print(f"no himga caches under {root}")
    for left in find_incomplete(root, args.dataset or DATASETS):  # not damage: nothing reads them
        size = sum(p.stat().st_size for p in left.rglob("*") if p.is_file())
        print(
            f"left     {left} ({size / 1e6:,.1f} MB): left by an interrupted (or a running) build; nothing reads it, "
            "and the "
            f"next build of the same inputs replaces it; to free the space: rm -rf {shlex.quote(str(left))}"
        )
    if bad:
        remove = " ".join(shlex.quote(str(f)) for f in bad)
        raise CacheError(
            root,
            f"{len(bad)} of {len(folders)} caches under {root} are damaged; remove them to rebuild on the next load: "
            f"rm -rf {remove}",
        )
    return 0
