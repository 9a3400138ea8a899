"""LongMemEval: long-term interactive memory of chat assistants (Wu et al., ICLR 2025), as HiMGA Sample rows.

A ``datasets.GeneratorBasedBuilder``. One row per question (its haystack sessions and one QA pair),
with the features of :data:`himga.schema.features.SAMPLE_FEATURES`; one split, ``test``. Six configs:
``s`` (default), ``m``, ``oracle`` (the 2025-09 cleaned release) and ``s_original``, ``m_original``,
``oracle_original`` (the first release). The question → row mapping lives in
:mod:`himga_longmemeval.records`.

Files are streamed one question at a time with ``ijson`` (C backend), never loaded whole, and rows
are flushed to Arrow every ``writer_batch_size`` questions (chosen per config;
:class:`himga.cache._arrow_batches.ArrowBatches`), so peak memory does not grow with the file: the ~2.7 GB
M file builds in well under 1 GB.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets

from himga.cache import ArrowBatches, BatchedConfig, GuardedBuilder, plain_row
from himga.errors import SourceFormatError
from himga.jsonio.jsonlines import iter_records
from himga.sources import (
    ContentDigest,
    OneFileEach,
    RemoteFile,
    pinned_source,
    record_content,
    source_path,
    warn_if_modified,
)
from himga_longmemeval import pins
from himga_longmemeval.folder import folder_files, resolve_source
from himga_longmemeval.records import question_to_row, unknown_types, warn_unknown_type

_CITATION = """\
@inproceedings{wu2025longmemeval,
  title     = {{LongMemEval}: Benchmarking Chat Assistants on Long-Term Interactive Memory},
  author    = {Wu, Di and Wang, Hongwei and Yu, Wenhao and Zhang, Yuwei and Chang, Kai-Wei and Yu, Dong},
  booktitle = {The Thirteenth International Conference on Learning Representations (ICLR)},
  year      = {2025},
  url       = {https://arxiv.org/abs/2410.10813}
}
"""

_DESCRIPTION = """\
LongMemEval: 500 questions testing five long-term memory abilities of chat assistants (information
extraction, multi-session reasoning, knowledge updates, temporal reasoning, abstention). Each question
comes with its own timestamped chat history (haystack): ~50 sessions in S, ~500 in M, only the evidence
sessions in oracle. Normalized to the HiMGA schema: one row per question, its haystack sessions in file
order, and one QA pair.
"""

_HOMEPAGE = "https://xiaowu0162.github.io/long-mem-eval/"
_LICENSE = pins.LICENCE

# Version history (bump whenever emitted rows change):
#   1.0.0  first release: sessions in file order, has_answer in Message.raw, QAPair.raw without
#          haystack_sessions, answers as str.
#   1.1.0  raw columns are Value("string") holding JSON text instead of Json() (arrow.json), so every
#          Parquet reader and datasets < 4.7 read them; same text, same rows otherwise.
#   1.2.0  QA pairs carry position (None) and options ([]): the fields of a question asked in the middle of the history
#          (PersonaMem's); the rows' values are unchanged.
_VERSION = datasets.Version("1.2.0")


@dataclass
class LongmemevalConfig(BatchedConfig):
    """One LongMemEval file and how to build it.

    Its file (repository, revision, name, size, sha256) is its pin, :func:`himga_longmemeval.pins.pins`.

    Attributes:
        superseded_by: For a first-release config, the cleaned config that replaces it: the authors' cleaning
            (2025-09, xiaowu0162/LongMemEval#13) removed haystack sessions that changed a question's answer.
        writer_batch_size: Questions per Arrow record batch. A batch's questions are held as Python
            objects until it is written, so this bounds peak memory; smaller batches also reuse freed
            memory sooner, which is faster here. Measured on S-scale files: 10 → ~230 MB peak RSS
            (~145 MB of it is importing datasets/pyarrow), 50 → ~410 MB. S rows are ~0.5 MB of JSON,
            M rows ~5 MB (so 2), oracle rows ~30 KB (so 100).
    """

    superseded_by: str | None = None

    @property
    def note(self) -> str | None:
        """What a reader of a build of this config must know (``himga stats``, ``score`` and ``export`` print it)."""
        if self.superseded_by is None:
            return None
        return (
            f"{self.name} is the first release; the authors' cleaned release (2025-09, xiaowu0162/LongMemEval#13) "
            f"removed haystack sessions that changed answers: config {self.superseded_by!r} is the one to score on"
        )

    @property
    def candidate_names(self) -> list[str]:
        """File names that say this config: ``filename`` with and without ``.json``, then as JSON Lines
        (``longmemeval_oracle.jsonl``, as harnesses write it)."""
        pin = self.remote_file()
        return [*pin.local_names, f"{pin.filename.removesuffix('.json')}.jsonl"]

    def remote_file(self) -> RemoteFile:
        """This config's source (downloaded with ``huggingface_hub``): :func:`himga_longmemeval.pins.pins`, the
        catalogue entry's pin."""
        return pins.pins()[self.name]


def _config(name: str, description: str, **fields) -> LongmemevalConfig:
    return LongmemevalConfig(name=name, version=_VERSION, description=description, **fields)


_CONFIGS = [  # their files: himga_longmemeval.pins
    _config(
        "s",
        "LongMemEval-S, cleaned release (2025-09): 500 questions, ~50 haystack sessions each (~277 MB).",
        writer_batch_size=10,
    ),
    _config(
        "m",
        "LongMemEval-M, cleaned release (2025-09): 500 questions, ~500 haystack sessions each (~2.7 GB).",
        writer_batch_size=2,
    ),
    _config(
        "oracle", "LongMemEval oracle: 500 questions with only their evidence sessions (~15 MB).", writer_batch_size=100
    ),
    _config(
        "s_original", "LongMemEval-S, first release (file longmemeval_s).", writer_batch_size=10, superseded_by="s"
    ),
    _config("m_original", "LongMemEval-M, first release (file longmemeval_m).", writer_batch_size=2, superseded_by="m"),
    _config("oracle_original", "LongMemEval oracle, first release (file longmemeval_oracle).", writer_batch_size=100),
]


def source_files(config: Any, data_dir: str | Path | None) -> list[Path]:
    """The files a build of ``config`` reads from ``data_dir``: the rule of every route
    (:meth:`himga.catalog.Benchmark.source_files`: the builder, export, validate, stats).

    Args:
        config: A ``LongmemevalConfig``.
        data_dir: One file (read as it is); a folder (:func:`folder_files`: the config's own file, else,
            holding no other config's file, its source files as parts of one source); or ``None``, the
            config's pinned file only (:func:`himga.sources.pinned_source`, downloaded if needed).

    Returns:
        The files in reading order; ``[]`` for a folder holding only other configs' files.

    Raises:
        ConfigurationError: ``data_dir`` does not exist or is no file or folder; an entry of the config's
            file name that is not a regular file.
        SourceFormatError: a folder holding no source file.
        DownloadError, ChecksumError: the pinned file could not be fetched or verified.
    """
    if data_dir is None:
        return [pinned_source("longmemeval", config.remote_file(), config=config.name)]
    path = source_path("longmemeval", data_dir)
    if path.is_file():
        return [path]
    return folder_files(config.name, path, Longmemeval.builder_configs)


class Longmemeval(ArrowBatches, GuardedBuilder):  # rows written in Arrow batches; a cache checked on open
    """LongMemEval as HiMGA Sample rows (one row per question, split ``test``)."""

    BUILDER_CONFIG_CLASS = LongmemevalConfig
    files_rule = staticmethod(source_files)
    config_rule = staticmethod(resolve_source)  # the config a file name says (himga_longmemeval/folder.py)
    BUILDER_CONFIGS = _CONFIGS
    DEFAULT_CONFIG_NAME = "s"
    DEFAULT_WRITER_BATCH_SIZE = 10  # replaced by the config's writer_batch_size (ArrowBatches)

    def load_warnings(self, dataset: datasets.Dataset) -> None:
        """Log again the unknown question types of the rows read (:func:`~himga_longmemeval.records.unknown_types`):
        only the QA rows counted as ``single_session_user`` are looked at, read from the memory-mapped columns."""
        import pyarrow.compute as pc

        qa = pc.list_flatten(dataset.data.table.column("qa_pairs"))
        fallback = pc.equal(pc.struct_field(qa, "question_type"), "single_session_user")
        raws = pc.filter(pc.struct_field(qa, "raw"), fallback).to_pylist()
        for qid, value in unknown_types(("single_session_user", raw) for raw in raws):
            warn_unknown_type(qid, value)

    def _generate_examples(self, files):
        # streamed, or written row by row: the first row does not wait for a check process
        for key, row in self._generate_rows(files, parallel=False):
            yield key, plain_row(row)

    def _generate_rows(self, files, parallel: bool = True):
        # the rows as ArrowBatches writes them: a question's sessions column-wise (question_to_row); the whole
        # file is read, so the reader's checks may run in a second process (himga.jsonio.iter_array_items)
        count = 0
        origins = OneFileEach("question", "a question must come from one file (read one file, or pass config=)")
        for file in files:
            name = Path(file).name
            digest = hashlib.sha256()  # shares the parse's read: one pass over the file
            pins = [c.remote_file() for c in _CONFIGS]
            content = ContentDigest()  # the data's fingerprint, whatever its bytes: from the same parse
            for where, question in iter_records(
                file, id_key="question_id", id_label="question", digest=digest, content=content, parallel=parallel
            ):
                row = question_to_row(question, file=name, path=where)
                origins.check(row["sample_id"], file, f"{where}.question_id")
                yield f"{name}:{where}", row
                count += 1
            warn_if_modified(file, digest.hexdigest(), pins, content=content.hexdigest())
            record_content(file, content.hexdigest())
        if count == 0:  # datasets would cache an empty split and fail later with "corresponds to no data"
            raise SourceFormatError(
                ", ".join(Path(f).name for f in files), "$", "expected at least one question, found none"
            )
