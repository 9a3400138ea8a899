"""A run, made or read: a memory system run on a benchmark (:func:`run`, ``himga run``) into a run folder that resumes
by construction, its shards merged (:func:`merge_runs`), answer prompts by name; and what every run is computed on:
the data and gold (:func:`run_identity`, :class:`GoldIdentity`), a subset's fingerprint, the record beside every
reported number (:func:`run_record`), and outputs written whole. Published runs are imported by their layout
(:func:`import_run`, :func:`layouts`, a :class:`FieldMap` for any other) and compared with any run
(:func:`compare_runs`, :func:`format_compare`, :func:`plot_compare`).

Subsets (:mod:`himga.subset`), qrels (:mod:`himga.qrels`) and scoring reports take these facts from here. The modules
behind this face are private.
"""

from himga.run._compare import SCORES as COMPARE_SCORES
from himga.run._compare import compare_runs, format_compare
from himga.run._compare_plot import plot_compare
from himga.run._identity import GoldIdentity, fingerprint, gold_identity, ids_of, run_identity, source_hashes
from himga.run._importers import (
    PUBLISHED,
    FieldMap,
    ImportedRun,
    Layout,
    PublishedRun,
    import_run,
    layout_named,
    layouts,
    published_run,
    recognise,
    reproduction,
)
from himga.run._memory_spec import parse_memory_args, resolve_memory
from himga.run._merge import merge_runs
from himga.run._outputs import check_outputs, output_file, source_inputs, write_text
from himga.run._record import dumps_report, run_record, source_record
from himga.run._run import run
from himga.run._runner import RunStopped
from himga.run.prompts import (
    PLAIN,
    AnswerInput,
    AnswerPrompt,
    answer_prompt_named,
    answer_prompts,
    default_answer_prompt,
    register_answer_prompt,
)

__all__ = [
    "COMPARE_SCORES",
    "PLAIN",
    "PUBLISHED",
    "AnswerInput",
    "AnswerPrompt",
    "FieldMap",
    "GoldIdentity",
    "ImportedRun",
    "Layout",
    "PublishedRun",
    "RunStopped",
    "answer_prompt_named",
    "answer_prompts",
    "check_outputs",
    "compare_runs",
    "default_answer_prompt",
    "dumps_report",
    "fingerprint",
    "format_compare",
    "gold_identity",
    "ids_of",
    "import_run",
    "layout_named",
    "layouts",
    "merge_runs",
    "output_file",
    "parse_memory_args",
    "plot_compare",
    "published_run",
    "recognise",
    "register_answer_prompt",
    "reproduction",
    "resolve_memory",
    "run",
    "run_identity",
    "run_record",
    "source_hashes",
    "source_inputs",
    "source_record",
    "write_text",
]
