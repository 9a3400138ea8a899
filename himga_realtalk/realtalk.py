"""REALTALK: a 21-day real-world dataset for long-term conversation (Lee et al., 2025), as HiMGA Sample rows.

A ``datasets.GeneratorBasedBuilder``. One row per conversation (one file each), with the features of
:data:`himga.schema.features.SAMPLE_FEATURES`; one split, ``test``. The record → row mapping lives in
:mod:`himga_realtalk.records` (LoCoMo's functions, REALTALK's field names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import datasets

from himga.cache import GuardedBuilder
from himga.errors import SourceFormatError
from himga.sources import OneFileEach, RemoteFile, json_files, pinned_files, source_path
from himga_locomo.locomo import read_records
from himga_realtalk import pins
from himga_realtalk.records import record_to_row

_CITATION = """\
@article{lee2025realtalk,
  title   = {{REALTALK}: A 21-Day Real-World Dataset for Long-Term Conversation},
  author  = {Lee, Dong-Ho and Maharana, Adyasha and Pujara, Jay and Ren, Xiang and Barbieri, Francesco},
  journal = {arXiv preprint arXiv:2502.13270},
  year    = {2025},
  url     = {https://arxiv.org/abs/2502.13270}
}
"""

_DESCRIPTION = """\
REALTALK: 10 real conversations between people over 21 days, messaging-app chats with images, in LoCoMo's layout,
with 728 memory-probing questions in three categories (multi-hop, temporal, open-domain). Normalized to the HiMGA
schema: one row per conversation with its sessions, messages (each with its own date) and QA pairs.
"""

_HOMEPAGE = "https://github.com/danny911kr/REALTALK"
_LICENSE = "unknown"  # none stated upstream (no LICENSE file, none in the README)

# Version history (bump whenever emitted rows change):
#   1.0.0  first release.
#   1.1.0  QA pairs carry position (None) and options ([]): the fields of a question asked in the middle of the history
#          (PersonaMem's); the rows' values are unchanged.
_VERSION = datasets.Version("1.1.0")

_CHAT = re.compile(r"Chat_([0-9]+)_")


@dataclass
class RealtalkConfig(datasets.BuilderConfig):
    """The REALTALK builder's one config (no options: LoCoMo's record rules at their defaults)."""

    def remote_file(self) -> RemoteFile:
        """The pinned source, the ten conversations ``data/Chat_<n>_<A>_<B>.json`` at its commit, in chat order
        (:func:`himga_realtalk.pins.pins`: the catalogue entry's pin)."""
        return pins.pins()[self.name]


def chat_order(path: Path) -> tuple:
    """A file's place in reading order: ``Chat_<n>_...`` files by ``n`` (``Chat_2`` before ``Chat_10``), then others by
    name."""
    m = _CHAT.match(path.name)
    return (0, int(m[1]), path.name) if m else (1, 0, path.name)


def source_files(config: RealtalkConfig, data_dir: str | Path | None) -> list[Path]:
    """The files a build reads: ``data_dir`` itself if it is a file, the ``.json`` files of a folder in chat order
    (:func:`chat_order`; the upstream ``data/`` folder's subfolders ``raw/`` and ``locomo/`` are not read), or, with
    ``None``, the ten pinned files.

    Raises:
        ConfigurationError: ``data_dir`` does not exist.
        SourceFormatError: a folder without a ``.json`` file.
        DownloadError, ChecksumError: a pinned file could not be fetched or verified.
    """
    if data_dir is None:
        return pinned_files("realtalk", config.remote_file())
    path = source_path("realtalk", data_dir)
    return [path] if path.is_file() else sorted(json_files(path, "realtalk"), key=chat_order)


class Realtalk(GuardedBuilder):  # a GeneratorBasedBuilder whose cache is checked on open
    """REALTALK as HiMGA Sample rows (one row per conversation, split ``test``)."""

    BUILDER_CONFIG_CLASS = RealtalkConfig
    files_rule = staticmethod(source_files)
    BUILDER_CONFIGS = [RealtalkConfig(name="default", version=_VERSION, description="All 10 REALTALK conversations.")]
    DEFAULT_CONFIG_NAME = "default"
    DEFAULT_WRITER_BATCH_SIZE = 10

    def _generate_examples(self, files):
        origins = OneFileEach("sample", "a conversation must come from one file (a copy of a file in the same folder?)")
        count = 0
        for file in files:
            name = Path(file).name
            records = read_records(
                file, list(self.config.remote_file().files)
            )  # LoCoMo's reader: one read, sha256, fingerprint
            for i, (path, record) in enumerate(records):
                sample_id = Path(file).stem if len(records) == 1 else f"{Path(file).stem}_{i}"
                row = record_to_row(record, file=name, path=path, sample_id=sample_id)
                origins.check(row["sample_id"], file, path)
                count += 1
                yield row["sample_id"], row
        if count == 0:  # datasets would cache an empty split and fail later with "corresponds to no data"
            raise SourceFormatError(
                ", ".join(Path(f).name for f in files), "$", "expected at least one conversation, found none"
            )
