"""An export folder's two moments around a new export: which configs of an earlier export stay on the new card
(:func:`kept_configs`), and the renames that put the staged export in place (:func:`commit`; why in that order:
:mod:`himga.publish._export`)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from datasets.info import DatasetInfosDict

from himga.catalog import Benchmark
from himga.publish._card import SPLIT, SplitSize
from himga.publish._export_configs import export_configs
from himga.publish._read_export import shard_metadata
from himga.publish._source_labels import SourceFile

__all__ = ["commit", "kept_configs"]

logger = logging.getLogger("himga.publish")


def kept_configs(
    entry: Benchmark, out: Path, replaced: list[str]
) -> dict[str, tuple[SplitSize | None, list[SourceFile], dict]]:
    """The configs of an earlier export in ``out`` that stay on the new card: size, sources and gold of each.

    A config stays if the existing card lists it and its shards record (in their metadata) that they
    are this dataset's and this config's, with their source files; others are left off the new card.
    Shards without a gold record (exports before gold variants) hold the default gold.
    """
    previous = DatasetInfosDict.from_directory(str(out)) if (out / "README.md").is_file() else {}
    kept = {}
    for config in [c.name for c in export_configs(entry)]:
        shards = sorted((out / "data" / config).glob(f"{SPLIT}-*.parquet"))
        if config in replaced or not shards:
            continue
        meta = shard_metadata(shards[0])
        if config not in previous or meta is None or (meta.get("dataset"), meta.get("config")) != (entry.name, config):
            logger.warning(
                "%s: %s is not on the new card (no card entry or no himga source record); re-export it",
                entry.name,
                shards[0].parent,
            )
            continue
        split = previous[config].splits.get(SPLIT) if previous[config].splits else None
        size = SplitSize(split.num_examples, split.num_bytes) if split is not None else None
        kept[config] = (
            size,
            [SourceFile.from_dict(s) for s in meta["sources"]],
            meta.get("gold") or {"variant": entry.default_gold},
        )
    return kept


def commit(out: Path, staging: Path, configs: list[str]) -> None:
    """Move the staged card and ``data/<config>`` folders into ``out``, in the order :mod:`himga.publish._export` gives:
    the replaced configs' folders out, the card in (if that fails, the old folders go back), the new folders in."""
    data, old = out / "data", staging / ".replaced"
    data.mkdir(parents=True, exist_ok=True)
    old.mkdir()
    moved = []
    try:
        for config in configs:
            if (data / config).exists():
                os.replace(data / config, old / config)
                moved.append(config)
        os.replace(staging / "README.md", out / "README.md")
    except BaseException:  # card not replaced: put the previous export back as it was
        for config in moved:
            os.replace(old / config, data / config)
        raise
    for config in configs:
        os.replace(staging / config, data / config)
