"""``himga run``: a memory system run on a benchmark, resumable; ``himga run merge``: its shards joined.

::

    himga run DATASET --memory NAME|module:Class [--memory-arg K=V ...] --answer-model M|extractive --out DIR
              [--config C] [--data-dir D] [--base-url URL] [--answer-prompt NAME] [--top-k K] [--concurrency N]
              [--ids FILE | --limit N] [--shard I/N] [--judge NAME[,NAME]] [--allow-empty-retrieval]
    himga run merge DIR DIR ... --out DIR

The same command again continues a run; a run whose settings differ is refused, naming the setting.
"""

from __future__ import annotations

import argparse

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``himga run`` on its subparser ``p``."""
    from himga.catalog import NAMES
    from himga.cli._args import add_cache_dir, add_config, add_data_dir, add_endpoint_args, add_options
    from himga.memory import reference_memories

    p.add_argument(
        "dataset",
        choices=[*NAMES, "merge"],
        metavar="{" + ",".join(NAMES) + "}|merge",
        help="the benchmark to run on; 'merge' joins the folders of a run's shards",
    )
    p.add_argument("folders", nargs="*", metavar="DIR", help="merge: the shards' folders")
    add_config(p)
    add_data_dir(p)
    add_cache_dir(p)
    p.add_argument(
        "--out",
        metavar="DIR",
        required=True,
        help="the run folder (manifest.json, records.jsonl); the same command again continues it",
    )
    p.add_argument(
        "--memory",
        metavar="NAME|module:Class",
        default=None,
        help=f"a reference memory ({', '.join(reference_memories())}) or a class of your own",
    )
    p.add_argument(
        "--memory-arg",
        metavar="K=V",
        action="append",
        default=[],
        help="a keyword argument of the memory (repeatable; a value that reads as JSON is that)",
    )
    p.add_argument(
        "--answer-model",
        metavar="MODEL",
        default=None,
        help="the model of --base-url that answers, or 'extractive': the top retrieved item (no endpoint)",
    )
    p.add_argument(
        "--answer-prompt",
        metavar="NAME",
        default=None,
        help="an answer prompt by name (default: the benchmark's official one, else 'plain')",
    )
    p.add_argument("--top-k", type=int, default=10, help="k of every retrieve (default: 10)")
    p.add_argument("--ids", metavar="FILE", default=None, help="only the questions of this ids file (himga subset)")
    p.add_argument("--limit", type=int, default=None, help="only the first N questions, in dataset order")
    p.add_argument(
        "--shard",
        metavar="I/N",
        default=None,
        help="only shard I of N (0 <= I < N): whole samples, balanced by question count",
    )
    p.add_argument(
        "--judge",
        metavar="NAME[,NAME]",
        default=None,
        help="when the run completes, also write these judges' requests (send them with himga judge)",
    )
    p.add_argument(
        "--allow-empty-retrieval",
        action="store_true",
        help="go on when a memory retrieves nothing for every question of a sample",
    )
    add_endpoint_args(p, concurrency="answers")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="plan only: the questions selected, those --out already answers, the requests to the answer model; "
        "nothing is asked, ingested or written",
    )
    add_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``himga run`` (or ``himga run merge``); returns 0 when every question has an answer, else 1.

    Raises:
        ConfigurationError, EndpointError, RunStopped: as :func:`himga.run.run`.
    """
    from himga.cli._args import options as builder_options
    from himga.errors import ConfigurationError
    from himga.run import merge_runs, parse_memory_args
    from himga.run import run as run_memory

    if args.dataset == "merge":
        merge_runs(args.folders, args.out)
        return 0
    if args.folders:
        raise ConfigurationError(
            f"himga run {args.dataset}: unexpected arguments {' '.join(args.folders)} (folders are for himga run merge)"
        )
    if args.memory is None or args.answer_model is None:
        raise ConfigurationError(
            "himga run: give --memory (a reference memory or module:Class) and --answer-model "
            "(a model of --base-url, or extractive)"
        )
    if args.no_progress:  # datasets' own bar too (the build's "Generating test split"), for this process
        import datasets

        datasets.disable_progress_bars()
    try:
        manifest = run_memory(
            args.dataset, memory=args.memory, memory_args=parse_memory_args(args.memory_arg), out=args.out,
            config=args.config, data_dir=args.data_dir, cache_dir=args.cache_dir, answer_model=args.answer_model,
            base_url=args.base_url, answer_prompt=args.answer_prompt, top_k=args.top_k, concurrency=args.concurrency,
            ids=args.ids, limit=args.limit, shard=args.shard, judge=args.judge,
            allow_empty_retrieval=args.allow_empty_retrieval, max_retries=args.max_retries, timeout=args.timeout,
            api_key_env=args.api_key_env, progress=not args.no_progress, dry_run=args.dry_run,
            **builder_options(args),
        )  # fmt: skip
    except KeyboardInterrupt:
        print(
            f"himga run: stopped; the answers written are kept in {args.out}/records.jsonl: rerun the same "
            "command to continue"
        )
        raise
    if manifest.get("dry_run"):
        asked = (
            f"{manifest['requests']:,} requests to {manifest['answer_model']} ({manifest['endpoint']}), one per "
            "question; their prompts hold what the memory retrieves, so their tokens are not estimated before it runs"
            if manifest["answer_model"] != "extractive"
            else "no request (extractive: the top retrieved item answers)"
        )
        print(
            f"dry run: {args.dataset}: {manifest['questions']:,} questions selected, {manifest['answered']:,} "
            f"answered in {manifest['out']}; {asked}; nothing was asked, ingested or written"
        )
        return 0
    return 0 if manifest.get("completed") else 1
