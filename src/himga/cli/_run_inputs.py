"""What ``himga score`` reads before it scores, shared by its official, judged and verdict routes: the dataset's
questions (built once, an ids file's subset), the source lines printed under the table, and the retrieval table of
records that name what was retrieved."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = [
    "load_questions",
    "print_provenance",
    "print_retrieval",
    "redo_hint",
    "retrieval_of",
    "sample_contexts",
    "score_files",
    "shape_note",
    "table_name",
]


def score_files(args: argparse.Namespace) -> tuple[dict, dict]:
    """``(outputs, inputs)`` of ``himga score``, by option: what it writes and what it reads, for
    :func:`himga.run.check_outputs` and the run record."""
    outputs = {"--out": args.out, "--prompts": args.prompts}
    inputs = {
        "predictions": args.predictions,
        "labels": args.labels,
        "ids": args.ids,
        "errata": args.errata,
        "source": args.data_dir,
    }
    return outputs, inputs


def load_questions(entry, args: argparse.Namespace, options: dict, outputs: dict, inputs: dict, ids_file) -> tuple:
    """Build ``entry``'s dataset and take its questions: ``(config, files, index, questions scored)``; ``index`` is the
    :class:`himga.scoring.RecordIndex` of every question (``index.questions``: all of them, by item id).

    The outputs are checked against the source files too; ``ids_file`` (an ids file read) keeps its QA pairs only.

    Raises:
        ConfigurationError: an output that is a source file, an id of the ids file that names no QA pair.
    """
    from himga.cache import build_files
    from himga.data.lazy import qa_samples
    from himga.data.loaders import build_dataset
    from himga.run import check_outputs, ids_of
    from himga.scoring import record_index

    ds = build_dataset(entry, args.config, path=args.data_dir, cache_dir=args.cache_dir, **options)
    config = ds.info.config_name  # the config the build resolved, recorded as such
    files = build_files(entry, config, args.data_dir)
    check_outputs(outputs, {**inputs, **{f"source {Path(f).name}": f for f in files}})
    index = record_index(qa_samples(ds))  # one pass over the QA pairs; no haystack is read
    every = questions = index.questions
    if ids_file is not None:
        keep = ids_of(ids_file, every)
        questions = {qid: qa for qid, qa in every.items() if qid in keep}
    return config, files, index, questions


def print_provenance(entry, files: list, options: dict) -> None:
    """The source (and errata) lines ``himga build``, ``stats`` and ``score`` print: pinned, or a modified copy."""
    from himga.sources import provenance_lines

    for line in provenance_lines(entry, files):
        print(f"source: {line}")
    if options.get("gold", entry.default_gold) != entry.default_gold:  # a variant read from an errata file
        from himga.sources import provenance

        _folder, pin = entry.auxiliary_pin("errata")
        print(f"errata: {provenance(entry.gold_variants.errata_file(options.get('errata')), [pin])}")


def sample_contexts(entry, args: argparse.Namespace, options: dict, wanted, context) -> dict:
    """``{question id: context(sample)}`` for the questions in ``wanted``: what a judge reads from a QA pair's Sample
    besides the QA pair (LoCoMo-Plus: the cited turns' text), one pass over the samples of the build
    :func:`load_questions` made (a cache hit)."""
    from himga.data.lazy import LazySamples
    from himga.data.loaders import build_dataset
    from himga.schema.ids import item_id

    ds = build_dataset(entry, args.config, path=args.data_dir, cache_dir=args.cache_dir, **options)
    out = {}
    for sample in LazySamples(ds):
        if ids := [qid for qa in sample.qa_pairs if (qid := item_id(sample, qa)) in wanted]:
            out.update(dict.fromkeys(ids, context(sample)))
    return out


def retrieval_of(entry, args: argparse.Namespace, options: dict, pred_file, index, questions) -> dict | None:
    """The retrieval table of the records that name what was retrieved (``retrieved_ids``, ``retrieved_sessions``: a
    ``himga run`` record's, an imported retrieval run's) against the official relevance labels (the build's cache is
    read again); ``None`` when none does."""
    from himga.scoring import resolve_record

    named = {
        qid: record
        for _, record in pred_file.lines
        if isinstance(record, dict) and ("retrieved_ids" in record or "retrieved_sessions" in record)
        if (qid := resolve_record(record, index)) in questions
    }
    if not named:
        return None
    from himga.data.lazy import LazySamples
    from himga.data.loaders import build_dataset
    from himga.scoring import retrieval_report

    ds = build_dataset(entry, args.config, path=args.data_dir, cache_dir=args.cache_dir, **options)  # the cache
    return retrieval_report(LazySamples(ds), named)


def print_retrieval(retrieval: dict | None) -> None:
    """Print the retrieval table's lines (nothing for ``None``)."""
    if retrieval:
        from himga.scoring import format_retrieval

        print(format_retrieval({g: t for g, t in retrieval.items() if g != "left_out"}))


def redo_hint(args: argparse.Namespace) -> str:
    """What to do when a judge's replies answered other requests than the predictions render now (a message's end)."""
    what = args.predictions if args.predictions is not None else f"--probe {args.probe}"
    judged = f" --judge {args.judge}" if getattr(args, "judge", None) else ""
    return (
        f"write the requests of these predictions with `himga score {args.dataset} {what}{judged} ... --prompts "
        "REQ.jsonl` (the same options, --prompts instead of --labels), send them with `himga judge REQ.jsonl --out "
        "REPLIES.jsonl`, and score those replies (--partial does not skip this check)"
    )


def table_name(entry, config: str) -> str:
    """A table's heading, as ``himga stats`` names it: the dataset, and its config when it has several
    (``longmemeval (oracle)``)."""
    return entry.name if len(entry.configs) == 1 else f"{entry.name} ({config})"


def shape_note(entry, args: argparse.Namespace, options: dict, config: str) -> str | None:
    """What the data says of the config it was read as (:attr:`himga.entry.Benchmark.shape_note`: LongMemEval's
    oracle file read as S), from the build :func:`load_questions` made (a cache hit); ``None`` when nothing."""
    if entry.shape_note is None:
        return None
    from himga.data.lazy import LazySamples
    from himga.data.loaders import build_dataset

    ds = build_dataset(entry, args.config, path=args.data_dir, cache_dir=args.cache_dir, **options)
    return entry.shape_note(config, LazySamples(ds))
