"""BEAM: Beyond a Million Tokens (Tavakoli et al., 2025), as HiMGA Sample rows.

A ``datasets.GeneratorBasedBuilder``. One row per chat (its batches as sessions, its probing questions as QA
pairs), with the features of :data:`himga.schema.features.SAMPLE_FEATURES`; one split, ``test``. Four configs, one
per tier: ``100K`` (default) and ``500K``, pinned to the authors' repository, and ``1M`` and ``10M``, read from a
local copy in the repository's layout (:mod:`himga_beam.layout`). The chat → row mapping lives in
:mod:`himga_beam.records`.

A ``chat.json`` is streamed one batch (10M: one plan) at a time with ``ijson``, never loaded whole, and rows are
written to Arrow in batches of the config's ``writer_batch_size`` chats (1 for the 1M and 10M tiers).
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets

from himga.cache import ArrowBatches, BatchedConfig, GuardedBuilder
from himga.errors import ConfigurationError, SourceFormatError
from himga.identifiers import id_problem
from himga.jsonio import iter_array_items, load_json, raw_text
from himga.sources import OneFileEach, RemoteFile, dataset_folder, pinned_files, source_path, warn_if_modified
from himga_beam import pins
from himga_beam.layout import chats_of, folder_files, resolve_config, sample_id_of
from himga_beam.records import batches_to_sessions, questions_to_qa_pairs

_CITATION = """\
@misc{tavakoli2025beam,
  title         = {Beyond a Million Tokens: Benchmarking and Enhancing Long-Term Memory in {LLMs}},
  author        = {Tavakoli, Mohammad and Salemi, Alireza and Ye, Carrie and Abdalla, Mohamed and Zamani, Hamed and
                   Mitchell, J Ross},
  year          = {2025},
  eprint        = {2510.27246},
  archivePrefix = {arXiv},
  url           = {https://arxiv.org/abs/2510.27246}
}
"""

_DESCRIPTION = """\
BEAM: 100 synthetic user-assistant chats in four tiers (100K, 500K, 1M and 10M tokens) with 20 probing
questions each over ten memory abilities (abstention, contradiction resolution, event ordering, information
extraction, instruction following, knowledge update, multi-session reasoning, preference following,
summarization, temporal reasoning), each with a reference answer and a rubric the official judge checks.
Normalized to the HiMGA schema: one row per chat, its batches as sessions, its probing questions as QA pairs.
"""

_HOMEPAGE = "https://github.com/mohammadtavakoli78/BEAM"
_LICENSE = "unknown"  # the repository states none (no LICENSE file, none in the README at the pinned commit)

# Version history (bump whenever emitted rows change):
#   1.0.0  first release.
#   1.1.0  sample_id carries the tier ("100K-1"): the tiers reuse chat numbers with other questions.
#   1.2.0  QA pairs carry position (None) and options ([]): the fields of a question asked in the middle of the history
#          (PersonaMem's); the rows' values are unchanged.
_VERSION = datasets.Version("1.2.0")


@dataclass
class BeamConfig(BatchedConfig):
    """One BEAM tier and how to build it.

    Attributes:
        chats: The chats of the tier's full release (20, 35, 35, 10): the card's and the progress bar's total.
        writer_batch_size: Chats per Arrow record batch (a 10M chat is ~10x a 1M chat, ~3.6 MB, as JSON).
    """

    chats: int = 20
    writer_batch_size: int = 5

    @property
    def candidate_names(self) -> list[str]:
        """How a file of this config is named, for messages: by its folder (``chats/100K/<n>/chat.json``), not its
        name."""
        return [f"chats/{self.name}/<n>/chat.json"]

    def remote_file(self) -> RemoteFile:
        """The tier's pin (:func:`himga_beam.pins.tier_source`: the catalogue entry's pin)."""
        return pins.tier_source(self.name)


def source_files(config: Any, data_dir: str | Path | None) -> list[Path]:
    """The files a build of ``config`` reads: each chat's ``chat.json`` and ``probing_questions.json``.

    The rule of every route (:meth:`himga.entry.Benchmark.source_files`).

    Args:
        config: A :class:`BeamConfig`.
        data_dir: One file (read as it is); a folder (:func:`himga_beam.layout.folder_files`: the repository's
            root, ``chats/``, a tier folder or a chat folder); or ``None``, the tier's pinned files only
            (:func:`himga.sources.pinned_files`: ``$HIMGA_DATASETS_ROOT/beam/chats/<tier>/...`` or downloaded).

    Raises:
        ConfigurationError: ``data_dir`` does not exist; no pinned source (1M, 10M) without ``data_dir``.
        SourceFormatError: a chat folder without one of its two files.
        DownloadError, ChecksumError: a pinned file could not be fetched or verified.
    """
    if data_dir is None:
        pin = config.remote_file()
        if (
            not pin.parts
        ):  # no pinned files: a copy in the repository's layout under $HIMGA_DATASETS_ROOT/beam/, else none
            folder = dataset_folder("beam")
            if folder is not None and (folder / "chats" / config.name).is_dir():
                return folder_files(config.name, folder)
            reason = pins.UNCONFIRMED.replace(": ", " (", 1) + ")"
            raise ConfigurationError(
                f"beam (config {config.name!r}): no pinned source: the {config.name} tier is complete only on the "
                "Hugging Face "
                f"copy {pin.repo}, whose revision is {reason}; put a copy in the repository's layout "
                f"(chats/{config.name}/<n>/chat.json and probing_questions/probing_questions.json) under "
                "$HIMGA_DATASETS_ROOT/beam/, or pass data_dir= / --data-dir"
            )
        return pinned_files("beam", pin, config=config.name)
    path = source_path("beam", data_dir)
    return [path] if path.is_file() else folder_files(config.name, path)


def _config(name: str, writer_batch_size: int, description: str) -> BeamConfig:
    return BeamConfig(
        name=name,
        version=_VERSION,
        description=description,
        chats=pins.TIER_CHATS[name],
        writer_batch_size=writer_batch_size,
    )


_CONFIGS = [  # chats per tier: himga_beam.pins.TIER_CHATS
    _config("100K", 5, "BEAM 100K tier: 20 chats of ~100K tokens (the README's 128K), 400 probing questions."),
    _config("500K", 2, "BEAM 500K tier: 35 chats of ~500K tokens, 700 probing questions."),
    _config(
        "1M",
        1,
        "BEAM 1M tier: 35 chats of ~1M tokens, 700 probing questions (a local copy in the repository's layout).",
    ),
    _config(
        "10M",
        1,
        "BEAM 10M tier: 10 chats of ~10M tokens, 200 probing questions (a local copy in the repository's layout).",
    ),
]


class Beam(ArrowBatches, GuardedBuilder):  # rows written in Arrow batches; a cache checked on open
    """BEAM as HiMGA Sample rows (one row per chat, split ``test``)."""

    BUILDER_CONFIG_CLASS = BeamConfig
    files_rule = staticmethod(source_files)
    config_rule = staticmethod(resolve_config)  # the tier a folder's name says (himga_beam/layout.py)
    BUILDER_CONFIGS = _CONFIGS
    DEFAULT_CONFIG_NAME = "100K"
    DEFAULT_WRITER_BATCH_SIZE = 5  # replaced by the config's writer_batch_size (ArrowBatches)

    def _generate_examples(self, files):
        pins = list(self.config.remote_file().files)
        origins = OneFileEach("chat", "a chat must come from one folder (two copies of one chat?)")
        count = 0
        for chat_file, questions_file in chats_of([Path(f) for f in files]):
            if (problem := id_problem(chat_file.parent.name)) is not None:
                raise SourceFormatError(chat_file.parent.name, "$", f"chat folder name: {problem}")
            sample_id = sample_id_of(self.config.name, chat_file.parent.name)
            origins.check(sample_id, chat_file, "$")
            raw: dict = {}
            chat_name, questions_name = (
                f.relative_to(chat_file.parent.parent).as_posix() for f in (chat_file, questions_file)
            )
            with _named(chat_name):
                digest = hashlib.sha256()  # shares the parse's read
                items = iter_array_items(chat_file, digest=digest)
                sessions = list(batches_to_sessions(items, file=chat_name, raw=raw))
            warn_if_modified(chat_file, digest.hexdigest(), pins)
            session_of = {m["turn_id"]: s["session_id"] for s in sessions for m in s["messages"]}
            with _named(questions_name):
                digest = hashlib.sha256()
                questions = load_json(questions_file, digest=digest)
                qa_pairs = questions_to_qa_pairs(questions, session_of, file=questions_name)
            warn_if_modified(questions_file, digest.hexdigest(), pins)
            yield (
                sample_id,
                {
                    "sample_id": sample_id,
                    "dataset": "beam",
                    "sessions": sessions,
                    "qa_pairs": qa_pairs,
                    "speaker_a": None,
                    "speaker_b": None,
                    "raw": raw_text(raw),
                },
            )
            count += 1
        if count == 0:  # datasets would cache an empty split and fail later with "corresponds to no data"
            raise SourceFormatError(
                ", ".join(Path(f).name for f in files) or "beam", "$", "expected at least one chat, found none"
            )


@contextlib.contextmanager
def _named(name: str):
    """Errors of the JSON reader name a file by its base name (``chat.json``, the same in every chat): name the chat."""
    try:
        yield
    except SourceFormatError as e:
        if e.file != Path(name).name:
            raise
        raise SourceFormatError(name, e.path, e.detail) from None
