"""LoCoMo-Plus: beyond-factual cognitive memory (Li et al., 2026), as HiMGA Sample rows.

A ``datasets.GeneratorBasedBuilder``, LoCoMo's builder extended: the 10 LoCoMo conversations with their 1,986 QA
pairs, as LoCoMo's own rows (:func:`himga_locomo.locomo.sample_rows`: the same options, the same gold and audited
variant), then one row per cognitive item of ``locomo_plus.json``, stitched into a conversation
(:mod:`himga_locomo_plus.records`). The features of :data:`himga.schema.features.SAMPLE_FEATURES`; one split, ``test``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets

from himga.cache import GuardedBuilder
from himga.errors import ConfigurationError, SourceFormatError
from himga.sources import OneFileEach, RemoteFile, json_files, pinned_files, source_path
from himga_locomo import locomo
from himga_locomo.gold import key_errata
from himga_locomo.locomo import LocomoConfig, check_errata_used, config_errata, read_records, sample_rows
from himga_locomo_plus import pins
from himga_locomo_plus.options import LocomoPlusOptions
from himga_locomo_plus.records import cognitive_row, placements

_CITATION = """\
@misc{li2026locomoplus,
  title         = {Locomo-Plus: Beyond-Factual Cognitive Memory Evaluation Framework for {LLM} Agents},
  author        = {Li, Yifei and Guo, Weidong and Zhang, Lingling and Xu, Rongman and Huang, Muye and Liu, Hui and
                   Xu, Lijiao and Xu, Yu and Liu, Jun},
  year          = {2026},
  eprint        = {2602.10715},
  archivePrefix = {arXiv},
  url           = {https://arxiv.org/abs/2602.10715}
}
"""

_DESCRIPTION = """\
LoCoMo-Plus: LoCoMo's 10 conversations and 1,986 QA pairs plus 401 cognitive items (relation types causal,
state, goal, value): a cue dialogue and, weeks or months later, a trigger that a memory-aware response should
connect to it, stitched into a LoCoMo conversation as two dated sessions. 2,387 questions in six categories,
normalized to the HiMGA schema: LoCoMo's rows, then one row per cognitive item.
"""

_HOMEPAGE = "https://github.com/xjtuleeyf/Locomo-Plus"
_LICENSE = "unknown"  # none stated upstream (no LICENSE file, none in the README); the LoCoMo part is CC BY-NC 4.0

# Version history (bump whenever emitted rows change):
#   1.0.0  first release: LoCoMo's rows (builder 2.0.0), then the cognitive items stitched as build_conv.py does.
#   1.1.0  QA pairs carry position (None) and options ([]): the fields of a question asked in the middle of the history
#          (PersonaMem's); the rows' values are unchanged.
_VERSION = datasets.Version("1.1.0")


def card_notes(variants: tuple[str, ...] = ("published",)) -> str:
    """Card paragraphs generated from the builder's own data: LoCoMo's gold variants (the same as LoCoMo's)."""
    return locomo.card_notes(variants)


@dataclass
class LocomoPlusConfig(LocomoPlusOptions, LocomoConfig):
    """The LoCoMo-Plus builder's config: its options (:class:`himga_locomo_plus.options.LocomoPlusOptions`: LoCoMo's,
    which shape the LoCoMo rows exactly as for ``locomo``, and where the cognitive items are placed)."""

    def validate(self) -> None:
        """Check the option values (LoCoMo's, and the placement's).

        Raises:
            ConfigurationError: an option outside its values; ``placement="random"`` without a seed, or a seed with
                the official placement.
        """
        super().validate()
        if isinstance(self.placement_seed, str) and self.placement_seed.lstrip("-").isdigit():  # from the command line
            self.placement_seed = int(self.placement_seed)
        if self.placement_seed is not None and (
            isinstance(self.placement_seed, bool) or not isinstance(self.placement_seed, int)
        ):
            raise ConfigurationError(f"placement_seed: expected an integer, got {self.placement_seed!r}")
        if self.placement == "random" and self.placement_seed is None:
            raise ConfigurationError(
                "placement: 'random' draws build_conv.py's random.choice from a seed: pass placement_seed"
            )
        if self.placement == "official" and self.placement_seed is not None:
            raise ConfigurationError("placement_seed applies with placement='random' only")

    def remote_file(self) -> RemoteFile:
        """The pinned source, ``data/locomo10.json`` (LoCoMo's file) and ``data/locomo_plus.json``
        (:func:`himga_locomo_plus.pins.pins`: the catalogue entry's pin)."""
        return pins.pins()[self.name]


def source_files(config: LocomoPlusConfig, data_dir: str | Path | None) -> list[Path]:
    """The files a build reads: ``data_dir`` itself if it is a file, every source file of a folder, sorted by name (the
    upstream ``data/`` folder holds both ``locomo10.json`` and ``locomo_plus.json``), or, with ``None``, the two pinned
    files. The build tells them apart by content (:func:`_is_items`).

    Raises:
        ConfigurationError: ``data_dir`` does not exist.
        DownloadError, ChecksumError: a pinned file could not be fetched or verified.
    """
    if data_dir is None:
        return pinned_files("locomo_plus", config.remote_file())
    path = source_path("locomo_plus", data_dir)
    return [path] if path.is_file() else json_files(path, "locomo_plus")


def _is_items(records: list[tuple[str, Any]]) -> bool:
    """Whether a file's records are cognitive items (objects with a ``trigger_query``), not LoCoMo samples."""
    return bool(records) and all(isinstance(r, dict) and "trigger_query" in r for _, r in records)


class LocomoPlus(GuardedBuilder):  # a GeneratorBasedBuilder whose cache is checked on open
    """LoCoMo-Plus as HiMGA Sample rows (LoCoMo's rows, then one row per cognitive item; split ``test``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **key_errata(kwargs))  # as LoCoMo's builder: the errata file's sha256 keys the config

    BUILDER_CONFIG_CLASS = LocomoPlusConfig
    files_rule = staticmethod(source_files)
    BUILDER_CONFIGS = [
        LocomoPlusConfig(
            name="default", version=_VERSION, description="LoCoMo's 10 conversations and the 401 cognitive items."
        )
    ]
    DEFAULT_CONFIG_NAME = "default"
    DEFAULT_WRITER_BATCH_SIZE = 50

    def _info(self) -> datasets.DatasetInfo:
        self.config.validate()
        return super()._info()

    def _generate_examples(self, files):
        config, pins = self.config, list(self.config.remote_file().files)
        conversations, items = [], []
        for file in files:
            records = read_records(file, pins)  # one read each: the parse, sha256 and content fingerprint
            (items if _is_items(records) else conversations).append((Path(file).name, records))
        names = ", ".join(Path(f).name for f in files)
        if not conversations or not items:
            missing = (
                "LoCoMo's conversations (locomo10.json)"
                if not conversations
                else "the cognitive items (locomo_plus.json)"
            )
            other = "locomo10.json" if not conversations else "locomo_plus.json"
            raise SourceFormatError(
                names,
                "$",
                f"expected {missing} too: pass the folder holding both (the upstream data/ "
                f"layout; put a copy of {other} beside it) as data_dir / --data-dir, or both "
                "files as data_files",
            )
        errata, placed, index = config_errata(config), [], 0
        origins = OneFileEach("sample", "a sample must come from one file (a copy of a file in the same folder?)")
        for name, records in conversations:  # LoCoMo's rows first, built by LoCoMo's code
            for path, record, row in sample_rows(records, file=name, config=config, errata=errata, start=index):
                origins.check(row["sample_id"], name, f"{path}.sample_id")
                index += 1
                placed.append((name, path, record, row))
                yield row["sample_id"], {**row, "dataset": "locomo_plus"}
        check_errata_used(errata, index)
        count = sum(len(records) for _, records in items)
        where = placements(len(placed), count, config.placement, config.placement_seed)
        i = 0
        for name, records in items:
            for path, item in records:
                record_file, record_path, record, row = placed[where[i]]
                yield (
                    f"cognitive-{i}",
                    cognitive_row(
                        item,
                        i,
                        record,
                        row,
                        file=name,
                        path=path,
                        record_file=record_file,
                        record_path=record_path,
                        placement=config.placement,
                        seed=config.placement_seed,
                        dataset="locomo_plus",
                    ),
                )
                i += 1
