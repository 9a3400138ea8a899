"""REALTALK: a 21-day real-world dataset for long-term conversation (Lee et al., 2025), as HiMGA Sample rows.

A ``datasets.GeneratorBasedBuilder``. One row per conversation (one file each), with the features of
:data:`himga.data.features.SAMPLE_FEATURES`; one split, ``test``. The record → row mapping lives in
:mod:`himga_realtalk.records` (LoCoMo's functions, REALTALK's field names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import datasets

from himga.cache import GuardedBuilder
from himga.data.features import SAMPLE_FEATURES
from himga.errors import SourceFormatError
from himga.sources import OneFileEach, RemoteFile, json_files, listing_sha256, pinned_files, source_path
from himga_locomo.locomo import read_records
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

# --- pinned sources ------------------------------------------------------------------------------------
# danny911kr/REALTALK `data/Chat_<n>_<A>_<B>.json` at b903e06 ("feat: data analysis", the main branch's head).
# Confirmed 2026-12-03 in a snapshot of github.com/danny911kr/REALTALK: each file's size and sha256 from
# `git show b903e06:data/<file>` (the files last changed in 8ed04b9, 2025-02-19), byte-identical to
# ../shared/data/realtalk (its SHA256SUMS); content fingerprints measured on them. No licence file, none in the README.
_REPO = "danny911kr/REALTALK"
_REVISION = "b903e06a9770bf4e5fe9018c3e132889666d3b4a"
_EVIDENCE = "revision, size and sha256 confirmed 2026-12-03 in a snapshot of github.com/danny911kr/REALTALK"
#: (file, size, sha256, content fingerprint), in chat order.
_FILES = (
    ("Chat_1_Emi_Elise.json", 236990, "4e947998a751a1ba2c3710fc873b90fbcbc234fda7a5e4e75db2b762e0f25a36", "631f0773b261cd9262006e10e47419d52b0b2eb783c1973d387e553901840aa3"),
    ("Chat_2_Kevin_Elise.json", 228327, "4ac6e319c206731aa9a025c93325eb1edb43686cf39473f058c87ae7deb2d62a", "e34a427e57d495073c279bef75e73101cfa36c895e0db1706bcf4eeffc3a401c"),
    ("Chat_3_Kevin_Paola.json", 231570, "10c9208016538cbe7a28aafa6cfd72587b072677964c36ec242159fdf58961f2", "b93f981ec3d622839630a84f91a0bd9d2f5de7433fc1ca4b9b9942006f8160d3"),
    ("Chat_4_Emi_Paola.json", 232501, "80aa012ed6a918f5b317bd942b4d4811a158d27a6e07b7a5c6182994107a9367", "d7b08788ba4cd38ff09d965549ff90fca88844155554b97bea822c387e1f96b6"),
    ("Chat_5_Nicolas_Nebraas.json", 466832, "32dd7c45786b1a26861dc1574a1bb698a855196fd2ae3fc0c091f3c9ab2d6d06", "4e24d2a0f079a20513df1c6364a4a8b6a57694cd5376978c1097f0f35914fc71"),
    ("Chat_6_Vanessa_Nicolas.json", 467008, "9d5ee072ab5a0667ef71d5644d7cd3a4c6777a1e6e2252bf306f310d982e40ac", "f74e80a0ada0e42a8cbf9a4cf0f320ef83b75cd34029a9d3526eff12d0674000"),
    ("Chat_7_Nebraas_Vanessa.json", 383849, "b5716bb093217980e747dec0d98996829b569febc09587a025efc6b79806e9ce", "678681e400f9cc9ba32e381fa2a0b3688ca3a586c42d35ff2094a9d9c5d8d25a"),
    ("Chat_8_Akib_Muhhamed.json", 364402, "814f64ad7e8a46f0398f550fe84184e2ba495a292290b9ff96ffc95448280800", "5b0d125110feb780697343e9c4436817f3d6cc7c7eeb8c70200611c57db6b0d4"),
    ("Chat_9_Fahim_Akib.json", 400397, "05b9b4331bf0e25a2a64dc89c404622c83a61ab5e7c935fb7d844449caf6dd39", "5aaa117b0c4e2870486364cadbdec7cfa7f6cc851461b3e5492ec1da3401abb8"),
    ("Chat_10_Fahim_Muhhamed.json", 283618, "26135a9e3482f40bea4c71de570a2d994a361848111067e60587be1dd82a0127", "2bb210fc0e112471b984d5f485bed98537917bff3beab57e7298e0af3162c706"),
)
#: The ten pinned files, the parts of :data:`RELEASE`.
PINS = tuple(
    RemoteFile(name, f"https://raw.githubusercontent.com/{_REPO}/{_REVISION}/data/{name}", sha256, revision=_REVISION, size=size,
               path=f"data/{name}", repo=_REPO, rows=1, licence=None, evidence=_EVIDENCE, content_sha256=content,
               layout_path=f"data/{name}")
    for name, size, sha256, content in _FILES
)
#: The pinned source: the folder ``data/`` of the ten conversations (sha256 of their listing: ``find data -maxdepth 1
#: -name '*.json' | LC_ALL=C sort | xargs sha256sum | sha256sum`` in a checkout at :data:`_REVISION`), found in the
#: repository's layout (``<folder>/data/Chat_1_Emi_Elise.json``: a checkout is one) or downloaded file by file
#: (:func:`himga.sources.pinned_files`). No licence is stated upstream (``licence`` is ``None``, as BEAM's).
RELEASE = RemoteFile("data", f"https://github.com/{_REPO}/tree/{_REVISION}/data", listing_sha256([{"path": p.path, "sha256": p.sha256} for p in PINS]),
                     revision=_REVISION, size=sum(p.size for p in PINS), path="data", repo=_REPO, rows=len(PINS),
                     licence=None, evidence=_EVIDENCE, parts=PINS)

# Version history (bump whenever emitted rows change):
#   1.0.0  first release.
_VERSION = datasets.Version("1.0.0")

_CHAT = re.compile(r"Chat_([0-9]+)_")


@dataclass
class RealtalkConfig(datasets.BuilderConfig):
    """The REALTALK builder's one config (no options: LoCoMo's record rules at their defaults)."""

    def remote_file(self) -> RemoteFile:
        """The pinned source, :data:`RELEASE`: the ten conversations ``data/Chat_<n>_<A>_<B>.json`` at :data:`_REVISION`,
        in chat order."""
        return RELEASE


def chat_order(path: Path) -> tuple:
    """A file's place in reading order: ``Chat_<n>_...`` files by ``n`` (``Chat_2`` before ``Chat_10``), then others by name."""
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

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(description=_DESCRIPTION, features=SAMPLE_FEATURES, homepage=_HOMEPAGE, license=_LICENSE,
                                    citation=_CITATION)

    def _generate_examples(self, files):
        origins = OneFileEach("sample", "a conversation must come from one file (a copy of a file in the same folder?)")
        count = 0
        for file in files:
            name = Path(file).name
            records = read_records(file, list(self.config.remote_file().files))  # LoCoMo's reader: one read, sha256, fingerprint
            for i, (path, record) in enumerate(records):
                sample_id = Path(file).stem if len(records) == 1 else f"{Path(file).stem}_{i}"
                row = record_to_row(record, file=name, path=path, sample_id=sample_id)
                origins.check(row["sample_id"], file, path)
                count += 1
                yield row["sample_id"], row
        if count == 0:  # datasets would cache an empty split and fail later with "corresponds to no data"
            raise SourceFormatError(", ".join(Path(f).name for f in files), "$", "expected at least one conversation, found none")
