"""LoCoMo: very long-term conversational memory (Maharana et al., ACL 2024), as HiMGA Sample rows.

A ``datasets.GeneratorBasedBuilder``. One row per conversation, with the features of
:data:`himga.schema.features.SAMPLE_FEATURES`; one split, ``test``. The record → row mapping lives in
:mod:`himga_locomo.records`; the dataset card (``README.md`` beside this module) documents it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets

from himga.cache import GuardedBuilder
from himga.errors import ConfigurationError, SourceChangedError, SourceFormatError, type_name
from himga.jsonio.jsonlines import is_json_lines, iter_records
from himga.jsonio.reader import load_json
from himga.options import check_option_values
from himga.sources import (
    OneFileEach,
    RemoteFile,
    content_sha256,
    json_files,
    pinned_source,
    record_content,
    source_path,
    warn_if_modified,
)
from himga_locomo import gold, pins
from himga_locomo.gold import Errata, apply_errata, errata_path, key_errata, read_errata, unused_entries
from himga_locomo.options import LocomoOptions
from himga_locomo.records import record_to_row

_CITATION = """\
@inproceedings{maharana2024locomo,
  title     = {Evaluating Very Long-Term Conversational Memory of {LLM} Agents},
  author    = {Maharana, Adyasha and Lee, Dong-Ho and Tulyakov, Sergey and Bansal, Mohit and
               Barbieri, Francesco and Fang, Yuwei},
  booktitle = {Proceedings of the 62nd Annual Meeting of the Association for Computational Linguistics},
  year      = {2024},
  url       = {https://arxiv.org/abs/2402.17753}
}
"""

_DESCRIPTION = """\
LoCoMo: 10 very long two-person conversations (up to 35 sessions, 5,882 turns) with 1,986 question-answer
pairs in five categories (multi-hop, temporal, open-domain, single-hop, adversarial), normalized to the
HiMGA schema: one row per conversation with its sessions, messages and QA pairs.
"""

_HOMEPAGE = "https://snap-research.github.io/locomo/"
_LICENSE = pins.LICENCE

# Version history (bump whenever emitted rows change):
#   1.0.0  first release: authors' category order, abstention gold for category 5, evidence normalized.
#   1.1.0  raw columns are Value("string") holding JSON text instead of Json() (arrow.json), so every
#          Parquet reader and datasets < 4.7 read them; same text, same rows otherwise.
#   2.0.0  category-3 gold cut at its first ";" as LoCoMo's scorer does (option category3_answer);
#          raw event_summary / observation / session_summary keyed by session id ("1", not "events_session_1").
#          Option gold ("published" default: these rows unchanged; "audited": himga_locomo.gold) added since,
#          a config option, so its rows have their own config id.
#   2.1.0  QA pairs carry position (None) and options ([]): the fields of a question asked in the middle of the history
#          (PersonaMem's); the rows' values are unchanged.
_VERSION = datasets.Version("2.1.0")


def card_notes(variants: tuple[str, ...] = ("published",)) -> str:
    """Card paragraphs generated from the builder's own data (:mod:`himga.publish._card`): the gold variants
    the card's configs carry."""
    return gold.card_note(variants)


@dataclass
class LocomoConfig(LocomoOptions, datasets.BuilderConfig):
    """The LoCoMo builder's config: its options (:class:`himga_locomo.options.LocomoOptions`) and what the builder sets.

    Attributes:
        errata_sha256: Set by the builder, not by users: the sha256 of the errata file, so that the
            config id (the cache folder) changes with the errata's content.
    """

    errata_sha256: str | None = None

    def __post_init__(self):
        self.validate()
        super().__post_init__()

    def validate(self) -> None:
        """Check the option values (``datasets`` sets keyword overrides after ``__post_init__``).

        Raises:
            ConfigurationError: an option outside its allowed values.
        """
        check_option_values(self)
        if self.errata is not None and self.gold != "audited":
            raise ConfigurationError(f"errata: an errata file applies with gold='audited' only, got gold={self.gold!r}")
        if self.errata_sha256 is not None and self.gold != "audited":
            raise ConfigurationError("errata_sha256 is set by the builder with gold='audited'; do not pass it")

    def remote_file(self) -> RemoteFile:
        """The pinned source, ``data/locomo10.json`` at its commit (:func:`himga_locomo.pins.pins`: the catalogue
        entry's pin)."""
        return pins.pins()[self.name]

    @property
    def options(self) -> dict[str, str]:
        """The three options as keyword arguments of :func:`himga_locomo.records.record_to_row`."""
        return {
            "category_order": self.category_order,
            "adversarial_answer": self.adversarial_answer,
            "category3_answer": self.category3_answer,
        }


def source_files(config: LocomoConfig, data_dir: str | Path | None) -> list[Path]:
    """The files a build reads: ``data_dir`` itself if it is a file, every source file of a folder, sorted by
    name (parts of one source), or, with ``None``, the pinned file only (:func:`himga.sources.pinned_source`).

    The rule of every route (:meth:`himga.catalog.Benchmark.source_files`).

    Raises:
        ConfigurationError: ``data_dir`` does not exist.
        DownloadError, ChecksumError: the pinned source could not be fetched or verified.
    """
    if data_dir is None:  # the default source: the pinned file only, never the folder's other files
        return [pinned_source("locomo", config.remote_file())]
    path = source_path("locomo", data_dir)
    if path.is_file():
        return [path]
    return json_files(path, "locomo")


class Locomo(GuardedBuilder):  # a GeneratorBasedBuilder whose cache is checked on open
    """LoCoMo as HiMGA Sample rows (one row per conversation, split ``test``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **key_errata(kwargs))  # gold="audited": the errata file's sha256 keys the config

    BUILDER_CONFIG_CLASS = LocomoConfig
    files_rule = staticmethod(source_files)
    BUILDER_CONFIGS = [LocomoConfig(name="default", version=_VERSION, description="All 10 LoCoMo conversations.")]
    DEFAULT_CONFIG_NAME = "default"
    DEFAULT_WRITER_BATCH_SIZE = 10

    def _info(self) -> datasets.DatasetInfo:
        self.config.validate()
        return super()._info()

    def _generate_examples(self, files):
        errata = config_errata(self.config)
        index = 0
        origins = OneFileEach("sample", "a sample must come from one file (a copy of a file in the same folder?)")
        for file in files:
            records = read_records(file, [self.config.remote_file()])
            for path, _record, row in sample_rows(
                records, file=Path(file).name, config=self.config, errata=errata, start=index
            ):
                origins.check(row["sample_id"], file, f"{path}.sample_id")
                index += 1
                yield row["sample_id"], row
        if index == 0:  # datasets would cache an empty split and fail later with "corresponds to no data"
            names = ", ".join(Path(f).name for f in files)
            raise SourceFormatError(names, "$", "expected at least one sample record, found none")
        check_errata_used(errata, index)


def config_errata(config: LocomoConfig) -> Errata | None:
    """The errata a build of ``config`` applies (``gold="audited"``), else ``None``.

    Raises:
        SourceChangedError: the errata file changed since the config id was computed from its sha256.
        SourceFormatError: a malformed errata file (:func:`himga_locomo.gold.read_errata`).
    """
    if config.gold != "audited":
        return None
    errata = read_errata(errata_path(config.errata))
    if config.errata_sha256 not in (None, errata.sha256):
        raise SourceChangedError(errata.file)
    return errata


def check_errata_used(errata: Errata | None, conversations: int) -> None:
    """Refuse an errata file naming a conversation the source does not have.

    Raises:
        SourceFormatError: ``errors.json: $[155].question_id: locomo_12_qa3: no such conversation (the source has 10)``.
    """
    if errata is not None and (extra := unused_entries(errata, conversations)):
        raise SourceFormatError(
            errata.file,
            f"{extra[0].path}.question_id",
            f"{extra[0].errata_id}: no such conversation (the source has {conversations})",
        )


def read_records(file: str | Path, pins: list[RemoteFile]) -> list[tuple[str, Any]]:
    """The sample records of one LoCoMo source file (JSON: an array of samples or one sample; JSON Lines: one sample
    per line) with their JSON paths, in one read that also gives the file's sha256 and content fingerprint (checked
    against ``pins``: :func:`himga.sources.warn_if_modified`, :func:`himga.sources.record_content`).

    Raises:
        SourceFormatError: not JSON, duplicate keys, too deep, or neither an array nor an object.
    """
    name = Path(file).name
    digest = hashlib.sha256()
    if is_json_lines(file):  # one sample per line (LoCoMo files are small: read whole, as JSON files are)
        records = list(iter_records(file, digest=digest))
        data = [record for _, record in records]
    else:
        data = load_json(file, digest=digest)
    content = content_sha256(data)  # the same parse: the data's fingerprint, whatever its bytes
    warn_if_modified(file, digest.hexdigest(), pins, content=content)
    record_content(file, content, pins, data)
    if is_json_lines(file):
        return records
    if isinstance(data, dict):
        return [("$", data)]
    if isinstance(data, list):
        return [(f"$[{i}]", r) for i, r in enumerate(data)]
    raise SourceFormatError(
        name, "$", f"expected an array of sample objects or one sample object, got {type_name(data)}"
    )


def sample_rows(
    records: list[tuple[str, Any]], *, file: str, config: LocomoConfig, errata: Errata | None, start: int = 0
) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """``(path, record, row)`` of each record: the row :func:`~himga_locomo.records.record_to_row` makes with the
    config's options, corrected by ``errata`` (:func:`~himga_locomo.gold.apply_errata`). ``start`` is the running
    index of the first record (its id when it has none; its conversation index in the errata).

    Raises:
        SourceFormatError: as :func:`~himga_locomo.records.record_to_row` and :func:`~himga_locomo.gold.apply_errata`.
    """
    for index, (path, record) in enumerate(records, start):
        row = record_to_row(record, file=file, path=path, fallback_id=str(index), options=config.options)
        if errata is not None:
            apply_errata(
                row, record, errata.for_conversation(index), errata, file=file, path=path, options=config.options
            )
        yield path, record, row
