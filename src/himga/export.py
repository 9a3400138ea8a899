"""Export and push: a Hub-ready folder (Parquet + dataset card) that ``datasets`` reads without himga.

Layout of an export folder::

    README.md                                   the dataset card (:mod:`himga.card`)
    data/<config>/test-00000-of-0000N.parquet   the rows, with SAMPLE_FEATURES in the Parquet schema metadata

``datasets.load_dataset(OUT_DIR)`` (or the Hub repository it is pushed to) then gives the builder's
features and rows. Parquet row groups are kept to about :data:`ROW_GROUP_BYTES` of Arrow data (a few rows
for LongMemEval-M, whose rows are ~5 MB), so the Hub viewer and streaming readers hold one small group at
a time; shards hold about :data:`SHARD_BYTES`.
"""

from __future__ import annotations

import logging
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq
from datasets.info import DatasetInfosDict

from himga.card import SPLIT, SplitSize, data_files_pattern, render_card
from himga.data.builders import builder_class
from himga.data.loaders import build_dataset
from himga.errors import ConfigurationError, UploadError

__all__ = ["ROW_GROUP_BYTES", "SHARD_BYTES", "all_configs", "export", "push"]

logger = logging.getLogger(__name__)

#: Target Arrow bytes per Parquet row group (at least one row per group).
ROW_GROUP_BYTES = 16 * 2**20
#: Parquet compression codec of exported files.
PARQUET_COMPRESSION = "zstd"
#: Target Arrow bytes per Parquet file (as ``Dataset.push_to_hub``'s default ``max_shard_size``).
SHARD_BYTES = 500 * 2**20


def all_configs(name: str) -> list[str]:
    """The builder's config names of dataset ``name``, in declaration order.

    Raises:
        ConfigurationError: unknown dataset.
    """
    return [c.name for c in builder_class(name).BUILDER_CONFIGS]


def _configs(name: str, configs: Sequence[str] | None) -> list[str]:
    known = all_configs(name)
    if not configs:
        return known
    unknown = [c for c in configs if c not in known]
    if unknown:
        raise ConfigurationError(f"{name}: unknown config {unknown[0]!r}; expected one of {known}")
    return [c for c in known if c in configs]


def _write_config(ds, folder: Path, row_group_bytes: int, shard_bytes: int) -> SplitSize:
    """Write one config's rows as ``folder/test-0000i-of-0000N.parquet``, replacing stale shards."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(f"{SPLIT}-*.parquet"):
        stale.unlink()
    num_bytes = ds.info.splits[SPLIT].num_bytes if ds.info.splits and SPLIT in ds.info.splits else ds.data.nbytes
    rows = ds.num_rows
    row_bytes = num_bytes / rows if rows else 1
    rows_per_group = max(1, int(row_group_bytes // row_bytes))
    num_shards = max(1, min(rows, math.ceil(num_bytes / shard_bytes)))
    schema = ds.features.arrow_schema  # carries the features as metadata; raw columns are plain JSON text
    for index in range(num_shards):
        shard = ds.shard(num_shards, index, contiguous=True).with_format("arrow")
        path = folder / f"{SPLIT}-{index:05d}-of-{num_shards:05d}.parquet"
        # pyarrow directly: Dataset.to_parquet (datasets 5.2) forces snappy on every column; zstd is
        # ~30% smaller here and read by every Parquet reader the Hub uses.
        with pq.ParquetWriter(path, schema=schema, compression=PARQUET_COMPRESSION) as writer:
            for batch in shard.iter(batch_size=rows_per_group):
                writer.write_table(batch.cast(schema), row_group_size=rows_per_group)
    return SplitSize(num_examples=rows, num_bytes=num_bytes)


def export(
    name: str,
    out_dir: str | Path,
    configs: Sequence[str] | None = None,
    *,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    row_group_bytes: int = ROW_GROUP_BYTES,
    shard_bytes: int = SHARD_BYTES,
    card_only: bool = False,
) -> dict[str, SplitSize | None]:
    """Build the configs of dataset ``name`` and write them with their card to ``out_dir``.

    Configs already exported to ``out_dir`` by an earlier call (a ``data/<config>/`` folder with Parquet
    files and an entry in the existing card) stay on the new card, so configs can be exported one at a
    time. Re-exporting a config replaces its shards.

    Args:
        name: ``"locomo"`` or ``"longmemeval"``.
        out_dir: The export folder (created if needed).
        configs: Configs to export; default all of the builder's (LoCoMo: ``default``; LongMemEval:
            ``s``, ``m``, ``oracle``, ``s_original``, ``m_original``, ``oracle_original``).
        data_dir: A folder of source files (or one file), as for the builder; default: the pinned
            sources, found or downloaded by :func:`himga.utils.get_dataset`.
        cache_dir: The ``datasets`` cache folder.
        row_group_bytes: Target Arrow bytes per Parquet row group.
        shard_bytes: Target Arrow bytes per Parquet file.
        card_only: Build nothing; rewrite ``README.md`` for the configs already in ``out_dir``, or, when
            it holds none, for every config without split sizes (how the committed
            ``himga_longmemeval/README.md`` is made: the full LongMemEval files are not at hand).

    Returns:
        Config → split size (``None`` if unknown), for every config on the written card, in builder order.

    Raises:
        ConfigurationError: unknown dataset or config.
        SourceFormatError, DownloadError, ChecksumError: as for building the dataset.
    """
    out = Path(out_dir)
    wanted = [] if card_only else _configs(name, configs)
    written: dict[str, SplitSize] = {}
    for config in wanted:
        ds = build_dataset(name, config, path=data_dir, cache_dir=cache_dir)
        written[config] = _write_config(ds, out / "data" / config, row_group_bytes, shard_bytes)
        logger.info("%s/%s: %d rows → %s", name, config, ds.num_rows, out / "data" / config)
    previous = DatasetInfosDict.from_directory(str(out)) if (out / "README.md").is_file() else {}
    sizes: dict[str, SplitSize | None] = {}
    for config in all_configs(name):
        if config in written:
            sizes[config] = written[config]
        elif any((out / "data" / config).glob(f"{SPLIT}-*.parquet")):
            info = previous.get(config)
            split = info.splits.get(SPLIT) if info is not None and info.splits else None
            sizes[config] = SplitSize(split.num_examples, split.num_bytes) if split is not None else None
    if not sizes:
        sizes = dict.fromkeys(all_configs(name))
    out.mkdir(parents=True, exist_ok=True)
    (out / "README.md").write_text(render_card(name, sizes), encoding="utf-8")
    return sizes


def exported_configs(out_dir: str | Path) -> list[str]:
    """The configs with Parquet files in an export folder, sorted."""
    return sorted({p.parent.name for p in Path(out_dir).glob(f"data/*/{SPLIT}-*.parquet")})


def push(
    name: str,
    repo_id: str,
    *,
    export_dir: str | Path | None = None,
    configs: Sequence[str] | None = None,
    private: bool = False,
    revision: str | None = None,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
) -> str:
    """Upload an export (card and Parquet files, never ``.py``) to the Hub dataset repository ``repo_id``.

    The token is whatever ``huggingface_hub`` finds (``HF_TOKEN``, else the stored ``hf auth login``);
    himga never reads, prints or logs it.

    Args:
        name: ``"locomo"`` or ``"longmemeval"``.
        repo_id: ``"ORG/NAME"``; created (as a dataset repository) if it does not exist.
        export_dir: An existing export folder to upload; default: export into a temporary folder first.
        configs: Configs to upload (default: all of the export's, or all of the builder's when exporting).
            The Parquet files of exactly these configs are replaced on the Hub (stale shards deleted);
            other configs' files are left alone.
        private: Create the repository as private.
        revision: A branch to push to (created from ``main`` if missing); default ``main``.
        data_dir: Sources for :func:`export` (used only when ``export_dir`` is not given).
        cache_dir: The ``datasets`` cache folder for :func:`export`.

    Returns:
        The URL of the commit.

    Raises:
        ConfigurationError: unknown dataset or config, or nothing to upload.
        UploadError: no token, offline (``HF_HUB_OFFLINE``), an invalid ``repo_id``, or the Hub refused
            or could not be reached; checked before anything is exported where possible.
    """
    from huggingface_hub import HfApi, constants, get_token
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as e:
        raise UploadError(f"--repo-id {repo_id!r}: expected ORG/NAME ({e})") from None
    if constants.HF_HUB_OFFLINE:
        raise UploadError(f"cannot push to {repo_id}: HF_HUB_OFFLINE is set")
    if get_token() is None:
        raise UploadError(f"cannot push to {repo_id}: no Hugging Face token; set HF_TOKEN or run `hf auth login`")

    with tempfile.TemporaryDirectory(prefix="himga-export-") as tmp:
        if export_dir is None:
            export(name, tmp, configs, data_dir=data_dir, cache_dir=cache_dir)
            folder = Path(tmp)
        else:
            folder = Path(export_dir)
        present = exported_configs(folder)
        selected = [c for c in _configs(name, configs) if c in present] if configs else present
        if not selected or not (folder / "README.md").is_file():
            raise ConfigurationError(f"{name}: nothing to push from {folder} (expected README.md and data/<config>/{SPLIT}-*.parquet)")
        patterns = [data_files_pattern(c) for c in selected]
        api = HfApi()
        try:
            api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
            if revision is not None:
                api.create_branch(repo_id, repo_type="dataset", branch=revision, exist_ok=True)
            commit = api.upload_folder(
                repo_id=repo_id,
                repo_type="dataset",
                folder_path=str(folder),
                revision=revision,
                allow_patterns=["README.md", *patterns],
                delete_patterns=patterns,
                commit_message=f"himga: {name} ({', '.join(selected)})",
            )
        except Exception as e:  # HTTP errors, connection failures, permissions: the Hub's own message
            raise UploadError(f"cannot push to {repo_id}: {type(e).__name__}: {e}") from e
    logger.info("pushed %s (%s) to %s", name, ", ".join(selected), repo_id)
    return str(getattr(commit, "commit_url", commit))
